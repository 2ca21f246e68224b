// Whether a point lies in a geometry's solid (Geometry3D.contains_point).
#include <cmath>
#include <stdexcept>
#include "klampt/geometry/heightmap.h"
#include "klampt/geometry/occupancy_grid.h"
#include "klampt/geometry/queries/queries.h"
#include "leaf.h"

namespace klampt {

namespace {

constexpr double kPi = 3.14159265358979323846;

/// Generalized winding number of the mesh around p (local coordinates): the
/// solid angles of its triangles over 4 pi; about +-1 inside a closed mesh,
/// 0 outside, whatever the triangles' winding. NaN when p is a vertex.
double windingNumber(const TriangleMesh& m, const Vector3& p) {
  double total = 0;
  for (Eigen::Index t = 0; t < m.indices.rows(); ++t) {
    const Vector3 a = m.vertices.row(m.indices(t, 0)).transpose() - p;
    const Vector3 b = m.vertices.row(m.indices(t, 1)).transpose() - p;
    const Vector3 c = m.vertices.row(m.indices(t, 2)).transpose() - p;
    const double la = a.norm(), lb = b.norm(), lc = c.norm();
    if (la == 0 || lb == 0 || lc == 0) return NAN;
    // Van Oosterom and Strackee's formula for the solid angle of a triangle.
    total += 2 * std::atan2(a.dot(b.cross(c)), la * lb * lc + a.dot(b) * lc + a.dot(c) * lb + b.dot(c) * la);
  }
  return total / (4 * kPi);
}

bool occupancyContains(const OccupancyGrid& g, const Vector3& p) {
  int idx[3];
  for (int k = 0; k < 3; ++k) {
    if (!(p[k] >= g.bmin[k] && p[k] <= g.bmax[k]) || g.dims[k] <= 0) return false;
    const double h = (g.bmax[k] - g.bmin[k]) / g.dims[k];
    idx[k] = h > 0 ? std::min((int)std::floor((p[k] - g.bmin[k]) / h), g.dims[k] - 1) : 0;
  }
  return occupied(g, idx[0], idx[1], idx[2]);
}

bool dataContains(const GeometryData& d, const Vector3& p) {
  switch (d.type) {
    case GeometryType::Empty: return false;
    case GeometryType::Group:
      for (const auto& e : d.group)
        if (dataContains(*e, p)) return true;
      return false;
    case GeometryType::TriangleMesh: {
      const double w = windingNumber(d.mesh, p);
      return std::isnan(w) || std::abs(w) >= 0.5;  // a vertex is on the surface
    }
    case GeometryType::PointCloud: {
      const PointCloud& pc = d.pointCloud;
      int radius = -1;
      for (size_t k = 0; k < pc.propertyNames.size(); ++k)
        if (pc.propertyNames[k] == "radius") radius = (int)k;
      for (Eigen::Index i = 0; i < pc.points.rows(); ++i) {
        const double r = radius >= 0 ? std::max(0.0, pc.properties(i, radius)) : 0.0;
        if ((pc.points.row(i).transpose() - p).norm() <= r) return true;
      }
      return false;
    }
    case GeometryType::VolumeGrid: return detail::gridValue(d.grid, p) <= 0;
    case GeometryType::Heightmap: return heightmapContains(d.heightmap, p);
    case GeometryType::OccupancyGrid: return occupancyContains(d.occupancy, p);
    case GeometryType::Primitive:
    case GeometryType::ConvexHull: {
      // Not owning: d outlives the query.
      const Geometry g(std::shared_ptr<const GeometryData>(std::shared_ptr<const GeometryData>(), &d),
                       RigidTransform(), 0.0);
      return distancePoint(g, p, {}).d <= 0;
    }
  }
  return false;
}

}  // namespace

bool containsPoint(const Geometry& g, const Vector3& p) {
  if (g.empty()) throw std::invalid_argument("the geometry is empty");
  if (!p.allFinite()) throw std::invalid_argument("the point must be finite");
  return dataContains(*g.data, g.currentTransform.inverse().apply(p));
}

}  // namespace klampt
