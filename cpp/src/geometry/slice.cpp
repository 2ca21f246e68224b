// Plane slices and box regions of point clouds and meshes.
#include "klampt/geometry/slice.h"
#include <cmath>
#include <stdexcept>
#include <vector>
#include "klampt/geometry/primitive.h"

namespace klampt {

namespace {

PointCloud selectPoints(const PointCloud& pc, const std::vector<Eigen::Index>& keep) {
  PointCloud out;
  out.propertyNames = pc.propertyNames;
  out.settings = pc.settings;
  out.settings.erase("width");  // a subset is no longer an image
  out.settings.erase("height");
  out.points.resize((Eigen::Index)keep.size(), 3);
  out.properties.resize((Eigen::Index)keep.size(), pc.properties.cols());
  for (std::size_t i = 0; i < keep.size(); ++i) {
    out.points.row(i) = pc.points.row(keep[i]);
    if (pc.properties.cols() > 0) out.properties.row(i) = pc.properties.row(keep[i]);
  }
  return out;
}

// Separating-axis test of a triangle against the box centred at the origin
// with half extents h.
bool triangleTouchesBox(const Vector3 v[3], const Vector3& h) {
  auto separated = [&](const Vector3& axis) {
    if (axis.squaredNorm() < 1e-24) return false;
    double lo = v[0].dot(axis), hi = lo;
    for (int k = 1; k < 3; ++k) {
      double p = v[k].dot(axis);
      lo = std::min(lo, p);
      hi = std::max(hi, p);
    }
    double r = h.dot(axis.cwiseAbs());
    return lo > r || hi < -r;
  };
  Vector3 edges[3] = {v[1] - v[0], v[2] - v[1], v[0] - v[2]};
  for (int a = 0; a < 3; ++a)
    if (separated(Vector3::Unit(a))) return false;
  if (separated(edges[0].cross(edges[1]))) return false;
  for (const Vector3& e : edges)
    for (int a = 0; a < 3; ++a)
      if (separated(e.cross(Vector3::Unit(a)))) return false;
  return true;
}

}  // namespace

GeometryData sliceGeometry(const GeometryData& data, const RigidTransform& current, const RigidTransform& plane,
                           double tol) {
  RigidTransform toPlane = plane.inverse() * current;
  GeometryData out;
  if (data.type == GeometryType::PointCloud) {
    if (!(tol > 0)) throw std::invalid_argument("slicing a point cloud needs tol > 0");
    std::vector<Eigen::Index> keep;
    const PointCloud& pc = data.pointCloud;
    for (Eigen::Index i = 0; i < pc.points.rows(); ++i)
      if (std::abs(toPlane.apply(pc.points.row(i).transpose()).z()) <= tol) keep.push_back(i);
    out.type = GeometryType::PointCloud;
    out.pointCloud = selectPoints(pc, keep);
    for (Eigen::Index i = 0; i < out.pointCloud.points.rows(); ++i)
      out.pointCloud.points.row(i) = toPlane.apply(out.pointCloud.points.row(i).transpose()).transpose();
    return out;
  }
  if (data.type == GeometryType::TriangleMesh) {
    out.type = GeometryType::Group;
    const TriangleMesh& m = data.mesh;
    for (Eigen::Index t = 0; t < m.indices.rows(); ++t) {
      Vector3 v[3];
      for (int k = 0; k < 3; ++k) v[k] = toPlane.apply(m.vertices.row(m.indices(t, k)).transpose());
      std::vector<Vector3> cut;
      for (int k = 0; k < 3; ++k) {
        const Vector3 &a = v[k], &b = v[(k + 1) % 3];
        if ((a.z() > 0) != (b.z() > 0)) cut.push_back(a + (b - a) * (a.z() / (a.z() - b.z())));
      }
      if (cut.size() != 2) continue;
      auto seg = std::make_shared<GeometryData>();
      seg->type = GeometryType::Primitive;
      seg->primitive = makeSegmentPrimitive(cut[0], cut[1]);
      out.group.push_back(std::move(seg));
    }
    return out;
  }
  throw std::invalid_argument(std::string("slice is only available for PointCloud and TriangleMesh, not ") +
                              geometryTypeName(data.type));
}

GeometryData regionOfInterest(const GeometryData& data, const RigidTransform& current, const std::string& query,
                              const Vector3& bmin, const Vector3& bmax) {
  bool invert = !query.empty() && query[0] == '~';
  std::string mode = invert ? query.substr(1) : query;
  if (mode != "intersect" && mode != "touching" && mode != "within")
    throw std::invalid_argument("roi query must be \"intersect\", \"touching\" or \"within\" (optionally with \"~\")");
  if ((bmin.array() > bmax.array()).any()) throw std::invalid_argument("roi box needs bmin <= bmax");
  auto inBox = [&](const Vector3& p) { return (p.array() >= bmin.array()).all() && (p.array() <= bmax.array()).all(); };
  GeometryData out;
  if (data.type == GeometryType::PointCloud) {
    const PointCloud& pc = data.pointCloud;
    std::vector<Eigen::Index> keep;
    for (Eigen::Index i = 0; i < pc.points.rows(); ++i)
      if (inBox(current.apply(pc.points.row(i).transpose())) != invert) keep.push_back(i);
    out.type = GeometryType::PointCloud;
    out.pointCloud = selectPoints(pc, keep);
    return out;
  }
  if (data.type == GeometryType::TriangleMesh) {
    const TriangleMesh& m = data.mesh;
    Vector3 center = 0.5 * (bmin + bmax), half = 0.5 * (bmax - bmin);
    std::vector<int> remap(m.vertices.rows(), -1);
    std::vector<Eigen::Index> tris;
    int count = 0;
    for (Eigen::Index t = 0; t < m.indices.rows(); ++t) {
      Vector3 v[3];
      bool all = true;
      for (int k = 0; k < 3; ++k) {
        v[k] = current.apply(m.vertices.row(m.indices(t, k)).transpose());
        all = all && inBox(v[k]);
        v[k] -= center;
      }
      bool selected = mode == "within" ? all : triangleTouchesBox(v, half);
      if (selected == invert) continue;
      tris.push_back(t);
      for (int k = 0; k < 3; ++k)
        if (remap[m.indices(t, k)] < 0) remap[m.indices(t, k)] = count++;
    }
    out.type = GeometryType::TriangleMesh;
    out.mesh.vertices.resize(count, 3);
    for (Eigen::Index i = 0; i < m.vertices.rows(); ++i)
      if (remap[i] >= 0) out.mesh.vertices.row(remap[i]) = m.vertices.row(i);
    out.mesh.indices.resize((Eigen::Index)tris.size(), 3);
    for (std::size_t i = 0; i < tris.size(); ++i)
      for (int k = 0; k < 3; ++k) out.mesh.indices(i, k) = remap[m.indices(tris[i], k)];
    return out;
  }
  throw std::invalid_argument(std::string("roi is only available for PointCloud and TriangleMesh, not ") +
                              geometryTypeName(data.type));
}

}  // namespace klampt
