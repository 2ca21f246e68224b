// World XML files and the element files they reference: rigid-object .obj
// key/value files and terrain .env files (or plain geometry files).
#pragma once
#include <memory>
#include <string>
#include "klampt/io/load_error.h"
#include "klampt/model/world.h"

namespace klampt {

/// Reads a world XML file into `world` (appending). Throws LoadError.
void loadWorldXml(World& world, const std::string& path, LoadContext& ctx);
/// A world XML file (a name ending in .xml, in any case) or, as Klamp't
/// allows, any single element file (loadElement), read into `world`
/// (appending). Throws LoadError.
void loadWorldFile(World& world, const std::string& path, LoadContext& ctx);
/// Writes the world to `path`, saving robots, objects and terrains into
/// `elementDir` (default: the path without .xml). Throws LoadError.
void saveWorldXml(const World& world, const std::string& path, const std::string& elementDir);

/// A rigid object from a .obj key/value file or any geometry file.
std::shared_ptr<RigidObject> loadRigidObjectFile(const std::string& path, LoadContext& ctx);
void saveRigidObjectFile(const RigidObject& obj, const std::string& path, const std::string& geometryFile);
/// A terrain from a .env file or any geometry file.
std::shared_ptr<Terrain> loadTerrainFile(const std::string& path, LoadContext& ctx);
void saveTerrainFile(const Terrain& terrain, const std::string& path, const std::string& geometryFile);

/// Loads any element by extension into the world and returns its ID
/// (robots for .rob/.urdf, rigid objects for .obj key/value files, terrains
/// for .env and meshes). Throws LoadError.
int loadElement(World& world, const std::string& path, LoadContext& ctx);

}  // namespace klampt
