#include "klampt/geometry/queries/shape_hull.h"

#include <vector>
#include <coal/shape/convex.h>
#include "klampt/geometry/convex_hull.h"
#include "klampt/geometry/queries/collision_cache.h"

namespace klampt {

namespace {

/// A convex polytope holding a shape (mesh or hull), in its local frame,
/// for the hull-box distance test; null for other shapes or when the
/// points are flat. Built from one Qhull run's triangles: Coal's own hull
/// construction runs Qhull again and derives facet data GJK does not use,
/// ten times the cost (6 ms for a tx90 link).
std::shared_ptr<const coal::ConvexBase> computeHull(const GeometryData& d) {
  if (d.type != GeometryType::TriangleMesh && d.type != GeometryType::ConvexHull) return nullptr;
  try {
    const TriangleMesh hull = convexHullMesh(hullPoints(d));
    auto pts = std::make_shared<std::vector<coal::Vec3s>>(hull.vertices.rows());
    for (Eigen::Index j = 0; j < hull.vertices.rows(); ++j) (*pts)[j] = hull.vertices.row(j).transpose();
    auto tris = std::make_shared<std::vector<coal::Triangle>>(hull.indices.rows());
    for (Eigen::Index t = 0; t < hull.indices.rows(); ++t)
      (*tris)[t] = coal::Triangle(hull.indices(t, 0), hull.indices(t, 1), hull.indices(t, 2));
    return std::make_shared<const coal::Convex<coal::Triangle>>(pts, (unsigned)pts->size(), tris,
                                                                (unsigned)tris->size());
  } catch (const std::exception&) {
    return nullptr;
  }
}

}  // namespace

std::shared_ptr<const coal::ConvexBase> shapeHull(const std::shared_ptr<const GeometryData>& d) {
  // Kept in the shape's collision structures, so it goes with the shape.
  const CollisionCache& cache = collisionCache(*d);
  if (const BroadPhaseHull* kept = cache.hull.get()) return kept->hull;
  auto built = std::make_shared<const BroadPhaseHull>(BroadPhaseHull{computeHull(*d)});
  countCollisionStructureBuilt();
  return cache.hull.publish(std::move(built)).hull;
}

}  // namespace klampt
