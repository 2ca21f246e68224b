// Merging one geometry into another of the same kind.
#include "klampt/geometry/merge.h"
#include <string>
#include "klampt/geometry/convex_hull.h"
#include "klampt/geometry/queries/queries.h"

namespace klampt {

namespace {

[[noreturn]] void unsupported(const GeometryData& into, const GeometryData& from) {
  throw std::invalid_argument(std::string("cannot merge a ") + geometryTypeName(from.type) + " into a " +
                              geometryTypeName(into.type));
}

void mergeMeshes(TriangleMesh& m, TriangleMesh add, const RigidTransform& rel) {
  transformPoints(add.vertices, rel);
  const Eigen::Index nv = m.vertices.rows(), nt = m.indices.rows();
  m.vertices.conservativeResize(nv + add.vertices.rows(), 3);
  m.vertices.bottomRows(add.vertices.rows()) = add.vertices;
  m.indices.conservativeResize(nt + add.indices.rows(), 3);
  m.indices.bottomRows(add.indices.rows()) = (add.indices.array() + (int)nv).matrix();
}

void mergeClouds(PointCloud& pc, PointCloud add, const RigidTransform& rel) {
  transformPointCloud(add, rel);
  std::vector<std::string> names;
  std::vector<int> mine, theirs;
  for (size_t k = 0; k < pc.propertyNames.size(); ++k)
    for (size_t l = 0; l < add.propertyNames.size(); ++l)
      if (pc.propertyNames[k] == add.propertyNames[l]) {
        names.push_back(pc.propertyNames[k]);
        mine.push_back((int)k);
        theirs.push_back((int)l);
        break;
      }
  const Eigen::Index n = pc.points.rows(), m = add.points.rows();
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> props(n + m, (Eigen::Index)names.size());
  for (size_t c = 0; c < names.size(); ++c) {
    props.col(c).head(n) = pc.properties.col(mine[c]);
    props.col(c).tail(m) = add.properties.col(theirs[c]);
  }
  pc.points.conservativeResize(n + m, 3);
  pc.points.bottomRows(m) = add.points;
  pc.propertyNames = std::move(names);
  pc.properties = std::move(props);
}

void mergeHulls(ConvexHull& h, ConvexHull add, const RigidTransform& rel) {
  transformPoints(add.points, rel);
  PointMatrix all(h.points.rows() + add.points.rows(), 3);
  all << h.points, add.points;
  try {
    h.points = convexHullVertices(all);
  } catch (const std::runtime_error&) {
    h.points = std::move(all);  // flat or tiny sets: every point is kept
  }
}

/// Signed distance from the world point p to other's shape (negative inside).
double signedDistance(const Geometry& other, const Vector3& p) {
  const double d = distancePoint(other, p, {}).d;
  return (d > 0 && containsPoint(other, p)) ? -d : d;
}

void mergeIntoGrid(VolumeGrid& grid, const RigidTransform& T, const Geometry& other) {
  const Geometry bare(other.data, other.currentTransform, 0.0);
  const auto& n = grid.dims;
  const Vector3 h = (grid.bmax - grid.bmin).cwiseQuotient(Vector3(n[0], n[1], n[2]));
  for (int i = 0; i < n[0]; ++i)
    for (int j = 0; j < n[1]; ++j)
      for (int k = 0; k < n[2]; ++k) {
        const Vector3 c = grid.bmin + h.cwiseProduct(Vector3(i + 0.5, j + 0.5, k + 0.5));
        double& v = grid.values[((size_t)i * n[1] + j) * n[2] + k];
        v = std::min(v, signedDistance(bare, T.apply(c)));
      }
}

}  // namespace

void mergeGeometry(Geometry& g, const Geometry& other) {
  if (g.empty()) throw std::invalid_argument("cannot merge into an empty geometry");
  if (other.empty()) throw std::invalid_argument("cannot merge an empty geometry");
  const GeometryType into = g.data->type, from = other.data->type;
  if (into == GeometryType::Heightmap || into == GeometryType::OccupancyGrid)
    throw MergeNotImplemented(std::string("merging into a ") + geometryTypeName(into) + " is not implemented");
  const RigidTransform rel = g.currentTransform.inverse() * other.currentTransform;
  const bool same = into == from;
  if (into == GeometryType::VolumeGrid) {
    VolumeGrid grid = g.data->grid;  // the shared shape stays intact if the distance throws
    mergeIntoGrid(grid, g.currentTransform, other);
    g.mutableData().grid = std::move(grid);
  } else if (same && into == GeometryType::TriangleMesh) {
    TriangleMesh m = g.data->mesh;
    mergeMeshes(m, other.data->mesh, rel);
    g.mutableData().mesh = std::move(m);
  } else if (same && into == GeometryType::PointCloud) {
    PointCloud pc = g.data->pointCloud;
    mergeClouds(pc, other.data->pointCloud, rel);
    g.mutableData().pointCloud = std::move(pc);
  } else if (same && into == GeometryType::ConvexHull) {
    ConvexHull h = g.data->hull;
    mergeHulls(h, other.data->hull, rel);
    g.mutableData().hull = std::move(h);
  } else {
    unsupported(*g.data, *other.data);
  }
}

}  // namespace klampt
