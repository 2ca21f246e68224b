// Geometry files: meshes (OFF, OBJ, STL, DAE, PLY, ... through Assimp), .tri,
// .geom (primitives and groups), .pcd point clouds.
#pragma once
#include <string>
#include "klampt/geometry/geometry.h"
#include "klampt/io/load_error.h"

namespace klampt {

/// True if the extension names a geometry file this module reads.
bool isGeometryFile(const std::string& path);
/// Loads a geometry file into `data`. Throws LoadError naming the file.
void loadGeometryFile(const std::string& path, GeometryData& data);
/// Saves `data` in the format the extension names. Throws LoadError.
void saveGeometryFile(const GeometryData& data, const std::string& path);

}  // namespace klampt
