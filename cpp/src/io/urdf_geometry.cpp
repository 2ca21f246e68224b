// Link geometry of a URDF robot. Every <collision> element of a link (or
// <visual> with use_vis_geom) is kept, with its origin and mesh scale baked
// into the shape; several elements make a group geometry. (Klamp't 0.9.2
// keeps only the first element.) Box, cylinder and sphere become meshes.
#include <filesystem>

#include "klampt/geometry/primitive_meshes.h"
#include "klampt/geometry/shared_shapes.h"
#include "klampt/io/geometry_files.h"
#include "urdf_model.h"

namespace klampt {
namespace urdf {

namespace {

bool isIdentity(const RigidTransform& T) { return T.R == Matrix3::Identity() && T.t == Vector3::Zero(); }

class GeometryLoader {
 public:
  GeometryLoader(const Model& m, LoadContext& ctx) : m_(m), ctx_(ctx) {}

  /// Fills `geom` from the link's shapes; leaves it empty if none loads.
  void load(const Link& l, Geometry& geom) {
    const std::vector<Shape>& shapes = m_.klampt.useVisGeom ? l.visuals : l.collisions;
    std::vector<std::shared_ptr<const GeometryData>> parts;
    std::string sourceFile;
    for (const Shape& s : shapes)
      if (auto data = shapeData(s, l.name, sourceFile)) parts.push_back(data);
    if (parts.empty()) return;
    if (parts.size() == 1) {
      geom.data = parts[0];
      geom.sourceFile = sourceFile;  // set only if the data is the file's, unchanged
      return;
    }
    auto group = std::make_shared<GeometryData>();
    group->type = GeometryType::Group;
    group->group = parts;
    geom.data = group;
  }

 private:
  std::shared_ptr<const GeometryData> shapeData(const Shape& s, const std::string& linkName,
                                                std::string& sourceFile) {
    if (s.kind != Shape::Mesh) {
      auto data = std::make_shared<GeometryData>();
      data->type = GeometryType::TriangleMesh;
      if (s.kind == Shape::Box)
        data->mesh = makeBoxMesh(s.size);
      else if (s.kind == Shape::Cylinder)
        data->mesh = makeCylinderMesh(s.radius, s.length);
      else
        data->mesh = makeSphereMesh(s.radius);
      if (!isIdentity(s.origin)) transformGeometryData(*data, s.origin);
      return data;
    }
    const std::string file = m_.resolve(s.filename);
    std::shared_ptr<const GeometryData> raw = meshFile(file, s, linkName);
    if (!raw) return nullptr;
    const bool flip = m_.klampt.flipYZ, scaled = s.scale != Vector3::Ones(), moved = !isIdentity(s.origin);
    if (!flip && !scaled && !moved) {
      sourceFile = file;
      return raw;
    }
    std::vector<double> numbers{flip ? 1.0 : 0.0, s.scale.x(), s.scale.y(), s.scale.z()};
    numbers.insert(numbers.end(), s.origin.R.data(), s.origin.R.data() + 9);
    numbers.insert(numbers.end(), s.origin.t.data(), s.origin.t.data() + 3);
    return sharedChange(raw, shapeChangeKey("flip, scale, origin", numbers), [&](GeometryData& data) {
      if (flip) {
        // Klamp't's flip_yz: (x, y, z) -> (x, -z, y), before scale and origin.
        RigidTransform Ryz;
        Ryz.R << 1, 0, 0, 0, 0, -1, 0, 1, 0;
        transformGeometryData(data, Ryz);
      }
      if (scaled) scaleGeometryData(data, s.scale);
      if (moved) transformGeometryData(data, s.origin);
    });
  }

  /// The file's shape, loaded once per file; null (with a warning) if unreadable.
  std::shared_ptr<const GeometryData> meshFile(const std::string& file, const Shape& s, const std::string& linkName) {
    auto cached = cache_.find(file);
    if (cached != cache_.end()) return cached->second;
    std::shared_ptr<const GeometryData> data;
    const std::string what = "link \"" + linkName + "\": mesh file \"" + file + "\"";
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) {
      ctx_.warn(fileMessage(m_.path, s.line, what + " not found; this geometry is skipped"));
    } else {
      try {
        data = loadSharedGeometryFile(file);
      } catch (const LoadError& e) {
        ctx_.warn(fileMessage(m_.path, s.line,
                              what + " could not be loaded (" + e.what() + "); this geometry is skipped"));
      }
    }
    if (data) cache_[file] = data;  // failures are warned about for every link using the file
    return data;
  }

  const Model& m_;
  LoadContext& ctx_;
  std::map<std::string, std::shared_ptr<const GeometryData>> cache_;
};

}  // namespace

void loadLinkGeometry(const Model& model, const RobotBuild& build, LoadContext& ctx) {
  GeometryLoader loader(model, ctx);
  Robot& robot = *build.robot;
  for (size_t i = 0; i < model.links.size(); ++i) {
    const int index = build.robotLink[i];
    if (index < 0) continue;
    klampt::Link& link = robot.links[index];
    // Klamp't takes the colour from the visual material even for collision geometry.
    if (model.links[i].color) link.appearance->color = *model.links[i].color;
    if (ctx.loadGeometry) loader.load(model.links[i], *link.geometry);
  }
}

}  // namespace urdf
}  // namespace klampt
