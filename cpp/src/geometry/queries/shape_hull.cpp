#include "klampt/geometry/queries/shape_hull.h"

#include <vector>
#include <coal/shape/convex.h>
#include "klampt/geometry/convex_hull.h"
#include "klampt/geometry/queries/collision_cache.h"

namespace klampt {

namespace {

/// A convex polytope holding a shape (mesh or hull), in its local frame,
/// for the hull-box distance test; null for other shapes or when the
/// points are flat.
std::shared_ptr<const coal::ConvexBase> computeHull(const GeometryData& d) {
  if (d.type != GeometryType::TriangleMesh && d.type != GeometryType::ConvexHull) return nullptr;
  try {
    const PointMatrix points = convexHullVertices(hullPoints(d));
    auto pts = std::make_shared<std::vector<coal::Vec3s>>(points.rows());
    for (Eigen::Index j = 0; j < points.rows(); ++j) (*pts)[j] = points.row(j).transpose();
    return std::shared_ptr<const coal::ConvexBase>(
        coal::ConvexBase::convexHull(pts, (unsigned)points.rows(), true, nullptr));
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
