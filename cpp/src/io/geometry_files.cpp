// Dispatch of geometry files on their extension: the native text formats,
// heightmap descriptions (.json) and Assimp for every other mesh format.
#include "klampt/io/geometry_files.h"
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string_view>
#include "klampt/geometry/shared_shapes.h"
#include "file_paths.h"
#include "geom_format.h"
#include "heightmap_file.h"
#include "mesh_assimp.h"
#include "mesh_text_formats.h"
#include "pcd_format.h"

namespace klampt {

namespace {

bool isNativeExtension(const std::string& ext) {
  return ext == "off" || ext == "tri" || ext == "obj" || ext == "geom" || ext == "pcd" || ext == "vol" || ext == "occ";
}

// Klamp't files that are not geometry, even where an Assimp importer claims
// the extension (e.g. Ogre's .xml meshes).
bool isOtherKlamptExtension(const std::string& ext) {
  return ext == "xml" || ext == "rob" || ext == "urdf" || ext == "env" || ext == "json";
}

void readNative(const std::string& ext, TokenStream& in, GeometryData& data) {
  if (ext == "off") {
    data.type = GeometryType::TriangleMesh;
    readOff(in, data.mesh);
    weldVertices(data.mesh);
  } else if (ext == "tri") {
    data.type = GeometryType::TriangleMesh;
    readTri(in, data.mesh, true);
  } else if (ext == "obj") {
    data.type = GeometryType::TriangleMesh;
    readObj(in, data.mesh);
  } else if (ext == "pcd") {
    data.type = GeometryType::PointCloud;
    readPcd(in, data.pointCloud);
  } else if (ext == "vol") {
    data.type = GeometryType::VolumeGrid;
    readVolumeGrid(in, data.grid);
  } else if (ext == "occ") {
    data.type = GeometryType::OccupancyGrid;
    readOccupancyGrid(in, data.occupancy);
  } else {
    readGeom(in, data);
    if (!in.atEnd()) in.failAt(in.peek().line, "unexpected \"" + in.peek().text + "\" after the geometry");
  }
}

// Which writer applies to a geometry type and extension, checked before the
// file is opened so that a refused save leaves an existing file alone.
bool canSave(GeometryType type, const std::string& ext) {
  switch (type) {
    case GeometryType::TriangleMesh:
      return ext == "off" || ext == "tri" || ext == "obj" || ext == "stl" || ext == "geom";
    case GeometryType::PointCloud:
      return ext == "pcd" || ext == "geom";
    case GeometryType::VolumeGrid:
      return ext == "vol" || ext == "geom";
    case GeometryType::Primitive:
    case GeometryType::ConvexHull:
    case GeometryType::Group:
      return ext == "geom";
    case GeometryType::OccupancyGrid:
      return ext == "occ" || ext == "geom";
    case GeometryType::Heightmap:
      return ext == "json";
    case GeometryType::Empty:
      return false;
  }
  return false;
}

}  // namespace

bool isGeometryFile(const std::string& path) {
  std::string ext = fileExtension(path);
  if (ext == "json") return isHeightmapFile(path);
  if (ext.empty() || isOtherKlamptExtension(ext)) return false;
  return isNativeExtension(ext) || assimpReadsExtension(ext);
}

void loadGeometryFile(const std::string& path, GeometryData& data) {
  std::string ext = fileExtension(path);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw LoadError(fileMessage(path, 0, "file not found"));
  GeometryData result;
  if (ext == "json" && isHeightmapFile(path)) {
    result.type = GeometryType::Heightmap;
    result.heightmap = readHeightmapFile(path);
  } else if (isNativeExtension(ext)) {
    TokenStream in = TokenStream::open(path);
    readNative(ext, in, result);
  } else if (!isOtherKlamptExtension(ext) && assimpReadsExtension(ext)) {
    result.type = GeometryType::TriangleMesh;
    loadAssimpMesh(path, result.mesh);
  } else {
    throw LoadError(fileMessage(path, 0, "unknown geometry file type \"." + ext + "\""));
  }
  data = std::move(result);
}

namespace {

/// The file's absolute path, size and a hash of its bytes: a file rewritten
/// in place (even within the file system's time resolution) gets a new key.
std::string contentsKey(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in && !in.eof()) throw LoadError(fileMessage(path, 0, "cannot read the file"));
  const std::string contents = bytes.str();
  return std::filesystem::absolute(path).lexically_normal().string() + '\n' + std::to_string(contents.size()) + ':' +
         std::to_string(std::hash<std::string_view>()(contents));
}

}  // namespace

std::shared_ptr<const GeometryData> loadSharedGeometryFile(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw LoadError(fileMessage(path, 0, "file not found"));
  auto load = [&path] {
    auto data = std::make_shared<GeometryData>();
    loadGeometryFile(path, *data);
    return std::shared_ptr<const GeometryData>(std::move(data));
  };
  // A heightmap's shape also depends on the images its description names.
  if (fileExtension(path) == "json") return load();
  return sharedShape(contentsKey(path), load);
}

void saveGeometryFile(const GeometryData& data, const std::string& path) {
  std::string ext = fileExtension(path);
  if (!canSave(data.type, ext)) {
    std::string type = data.type == GeometryType::Empty ? "an empty" : std::string("a ") + geometryTypeName(data.type);
    throw LoadError(fileMessage(path, 0, "cannot save " + type + " geometry as \"." + ext + "\""));
  }
  if (data.type == GeometryType::Heightmap) {
    writeHeightmapFile(data.heightmap, path);
    return;
  }
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  if (!out) throw LoadError(fileMessage(path, 0, "cannot open file for writing"));
  if (data.type == GeometryType::TriangleMesh && ext != "geom") {
    if (ext == "off") writeOff(out, data.mesh);
    else if (ext == "tri") writeTri(out, data.mesh);
    else if (ext == "obj") writeObj(out, data.mesh);
    else writeStl(out, data.mesh);
  } else if (ext == "pcd") {
    writePcd(out, data.pointCloud);
  } else if (ext == "vol") {
    writeVolumeGrid(out, data.grid);
  } else if (ext == "occ") {
    writeOccupancyGrid(out, data.occupancy);
  } else {
    writeGeom(out, data);
  }
  out.close();
  if (!out) throw LoadError(fileMessage(path, 0, "error while writing the file"));
}

}  // namespace klampt
