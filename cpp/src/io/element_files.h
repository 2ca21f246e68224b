// Internal: element-file helpers (object_files.cpp) used by the world XML
// reader too.
#pragma once
#include <string>
#include "klampt/geometry/appearance.h"
#include "klampt/geometry/geometry.h"
#include "klampt/io/load_error.h"
#include "file_paths.h"

namespace klampt {

/// Default colors the reference gives loaded elements: objects read from a
/// rigid-object (.obj key/value) file, and elements whose geometry comes
/// straight from a geometry file (terrains, inline or mesh-only objects).
constexpr Color kObjectFileColor{0.6f, 0.6f, 0.6f, 1.0f};
constexpr Color kGeometryFileColor{0.8f, 0.6f, 0.2f, 1.0f};

/// A .obj file in Klamp't's rigid-object key/value format (rather than a
/// Wavefront mesh): its first item is one of the rigid-object keys.
bool isRigidObjectKeyValueFile(const std::string& path);

/// Loads a geometry file into an element's geometry (only records the file
/// when ctx.loadGeometry is false).
void loadElementGeometry(const std::string& path, Geometry& geometry, const LoadContext& ctx);

}  // namespace klampt
