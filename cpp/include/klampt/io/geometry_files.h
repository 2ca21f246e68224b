// Geometry files: meshes (OFF, OBJ, STL, DAE, PLY, ... through Assimp), .tri,
// .geom (primitives and groups), .pcd point clouds.
#pragma once
#include <memory>
#include <string>
#include "klampt/geometry/geometry.h"
#include "klampt/io/load_error.h"

namespace klampt {

/// True if the extension names a geometry file this module reads.
bool isGeometryFile(const std::string& path);
/// Loads a geometry file into `data`. Throws LoadError naming the file.
void loadGeometryFile(const std::string& path, GeometryData& data);
/// The shape in a geometry file, shared with every model holding the same
/// file with the same contents (geometry/shared_shapes.h); loaded when none
/// does. Throws LoadError naming the file.
std::shared_ptr<const GeometryData> loadSharedGeometryFile(const std::string& path);
/// Saves `data` in the format the extension names. Throws LoadError.
void saveGeometryFile(const GeometryData& data, const std::string& path);

}  // namespace klampt
