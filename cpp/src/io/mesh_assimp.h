// Internal: mesh files read through Assimp (STL, DAE, PLY, glTF, 3DS, ...).
#pragma once
#include <string>
#include "klampt/geometry/geometry.h"

namespace klampt {

/// True if Assimp has an importer for the extension (given without the dot).
bool assimpReadsExtension(const std::string& extension);

/// Loads every mesh of the scene, each placed by its node transforms, merged
/// into one triangle mesh. Throws LoadError naming the file.
void loadAssimpMesh(const std::string& path, TriangleMesh& mesh);

}  // namespace klampt
