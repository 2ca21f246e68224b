// Link geometries of a .rob file: loading, geomscale/geomtransform, margins.
#include <exception>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <vector>

#include "klampt/geometry/shared_shapes.h"
#include "klampt/io/geometry_files.h"
#include "klampt/math/parallel_for.h"
#include "rob_spec.h"

namespace klampt {

namespace {

namespace fs = std::filesystem;

void applyAffineToRows(Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>& rows, const Matrix3& A,
                       const Vector3& b) {
  for (Eigen::Index i = 0; i < rows.rows(); ++i) rows.row(i) = (A * rows.row(i).transpose() + b).transpose();
}

/// Cache key of a file loaded under a transform: links that share both share data.
std::string cacheKey(const std::string& path, const Matrix3& A, const Vector3& b) {
  std::string key = path;
  key.append(reinterpret_cast<const char*>(A.data()), sizeof(double) * 9);
  key.append(reinterpret_cast<const char*>(b.data()), sizeof(double) * 3);
  return key;
}

}  // namespace

void applyAffine(GeometryData& data, const Matrix3& A, const Vector3& b) {
  switch (data.type) {
    case GeometryType::Empty: return;
    case GeometryType::TriangleMesh: applyAffineToRows(data.mesh.vertices, A, b); return;
    case GeometryType::PointCloud: applyAffineToRows(data.pointCloud.points, A, b); return;
    case GeometryType::ConvexHull: applyAffineToRows(data.hull.points, A, b); return;
    case GeometryType::Group:
      for (auto& member : data.group) {
        auto copy = std::make_shared<GeometryData>(*member);
        applyAffine(*copy, A, b);
        member = copy;
      }
      return;
    case GeometryType::Primitive:
    case GeometryType::Heightmap:
    case GeometryType::OccupancyGrid:
    case GeometryType::VolumeGrid: {
      // Only A = R * diag(s) with R a rotation can be represented exactly.
      Vector3 s = A.colwise().norm().transpose();
      if (s.minCoeff() <= 0) throw std::invalid_argument("a degenerate transform cannot be applied to this geometry type");
      Matrix3 R = A * s.cwiseInverse().asDiagonal();
      if (!(R.transpose() * R).isIdentity(1e-9) || R.determinant() < 0)
        throw std::invalid_argument("only a scale followed by a rigid transform can be applied to this geometry type");
      scaleGeometryData(data, s);
      transformGeometryData(data, RigidTransform{R, b});
      return;
    }
  }
}

void loadRobGeometries(Robot& robot, const RobSpec& spec, const std::string& dir, LoadContext& ctx) {
  const int n = robot.numLinks();
  // Each link's geomscale, then its geomtransforms in file order, as one map.
  std::vector<Matrix3> A(n, Matrix3::Identity());
  std::vector<Vector3> b(n, Vector3::Zero());
  for (int i = 0; i < n && !spec.geomScale.empty(); ++i)
    A[i] *= spec.geomScale.values[spec.geomScale.size() == 1 ? 0 : i];
  for (const RobGeomTransform& g : spec.geomTransforms) {
    if (g.link < 0 || g.link >= n)
      throw LoadError(fileMessage(spec.path, g.line, "geomtransform link " + std::to_string(g.link) + " out of range"));
    A[g.link] = g.linear * A[g.link];
    b[g.link] = g.linear * b[g.link] + g.offset;
  }

  // The distinct (file, transform) pairs the links name, each loaded once.
  struct Load {
    std::string file;
    Matrix3 A;
    Vector3 b;
    std::shared_ptr<const GeometryData> data;
    std::exception_ptr error;
  };
  std::vector<Load> loads;
  std::map<std::string, int> loadOfKey;
  std::vector<int> loadOfLink(spec.geometry.size(), -1);
  for (int i = 0; i < (int)spec.geometry.size(); ++i) {
    const std::string& file = spec.geometry.values[i];
    if (file.empty()) continue;
    if (file.find("://") != std::string::npos)
      throw LoadError(fileMessage(spec.path, spec.geometry.line, "link " + std::to_string(i) + " geometry " + file +
                                                                     ": URLs are not supported"));
    Geometry& g = *robot.links[i].geometry;
    g.sourceFile = fs::absolute(fs::path(dir) / file).lexically_normal().string();
    g.sourceLinear = A[i];
    g.sourceOffset = b[i];
    if (!spec.geomMargin.empty()) g.margin = spec.geomMargin.values[spec.geomMargin.size() == 1 ? 0 : i];
    if (!ctx.loadGeometry) continue;
    const auto [it, added] = loadOfKey.emplace(cacheKey(g.sourceFile, A[i], b[i]), (int)loads.size());
    if (added) loads.push_back({g.sourceFile, A[i], b[i], nullptr, nullptr});
    loadOfLink[i] = it->second;
  }
  // Parsing the meshes is most of a robot's loading: every core takes files.
  parallelFor((int)loads.size(), availableCores(), [&loads](int, int k) {
    Load& l = loads[k];
    try {
      l.data = loadSharedGeometryFile(l.file);
      if (!l.A.isIdentity(0) || !l.b.isZero(0)) {
        std::vector<double> numbers(l.A.data(), l.A.data() + 9);
        numbers.insert(numbers.end(), l.b.data(), l.b.data() + 3);
        l.data = sharedChange(l.data, shapeChangeKey("affine", numbers),
                              [&l](GeometryData& d) { applyAffine(d, l.A, l.b); });
      }
    } catch (...) {
      l.error = std::current_exception();
    }
  });
  // In link order, so that a failure names the first link holding the file.
  for (int i = 0; i < (int)loadOfLink.size(); ++i) {
    if (loadOfLink[i] < 0) continue;
    const Load& l = loads[loadOfLink[i]];
    if (l.error) {
      try {
        std::rethrow_exception(l.error);
      } catch (const std::exception& e) {
        throw LoadError(fileMessage(spec.path, spec.geometry.line, "link " + std::to_string(i) + " geometry: " + e.what()));
      }
    }
    robot.links[i].geometry->data = l.data;
  }
}

}  // namespace klampt
