// Prepared shapes and their broad phase (klampt/geometry/queries/prepared_shape.h).
#include "klampt/geometry/queries/prepared_shape.h"

#include <cmath>
#include "klampt/geometry/queries/point_tree.h"
#include "klampt/geometry/queries/queries.h"
#include "mesh_bvh.h"

namespace klampt {

PreparedShape::PreparedShape(const Geometry& g) {
  if (g.empty()) return;
  cache = &collisionCache(*g.data);
  mesh = g.data->type == GeometryType::TriangleMesh && cache->shape;
  bmin = cache->bmin;
  bmax = cache->bmax;
  center = 0.5 * (bmin + bmax);
  radius = 0.5 * (bmax - bmin).norm();
}

PlacedBounds placeBounds(const PreparedShape& s, const RigidTransform& T, double margin) {
  PlacedBounds b;
  transformBox(T, s.bmin, s.bmax, b.lo, b.hi);
  b.lo.array() -= margin;
  b.hi.array() += margin;
  b.center = T.apply(s.center);
  b.radius = s.radius + margin;
  return b;
}

bool boundsMayTouch(const PlacedBounds& a, const PlacedBounds& b) {
  const double reach = (a.radius + b.radius) * (1 + 1e-12) + 1e-12;
  if ((a.center - b.center).squaredNorm() > reach * reach) return false;
  return !((a.lo.array() > b.hi.array()).any() || (b.lo.array() > a.hi.array()).any());
}

bool preparedCollides(const PreparedShape& sa, const Geometry& a, const PlacedBounds& ba, const PreparedShape& sb,
                      const Geometry& b, const PlacedBounds& bb) {
  if (!boundsMayTouch(ba, bb)) return false;
  const double tol = a.margin + b.margin;
  if (sa.mesh && sb.mesh && !std::isnan(tol)) {
    int t1, t2;
    return detail::meshMeshWithin(static_cast<const detail::MeshBVH&>(*sa.cache->shape), a.currentTransform,
                                  static_cast<const detail::MeshBVH&>(*sb.cache->shape), b.currentTransform, tol, t1,
                                  t2);
  }
  return collides(a, b);
}

}  // namespace klampt
