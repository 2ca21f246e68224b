// The per-shape acceleration structures of the proximity queries: a Coal
// collision object (primitive shape, BVH of a mesh, convex hull) or a ball
// tree over a point cloud, built once per GeometryData and shared by copies.
#pragma once
#include <array>
#include <memory>
#include <vector>
#include <coal/collision_object.h>
#include "klampt/geometry/geometry.h"
#include "klampt/geometry/queries/point_tree.h"

namespace coal {
class ConvexBase;
class OBBRSS;
template <typename BV>
class BVHModel;
}

namespace klampt {

/// A shape's broad-phase hull (shape_hull.h): null for shapes without one.
struct BroadPhaseHull {
  std::shared_ptr<const coal::ConvexBase> hull;
};

/// A volume grid's least values over blocks of 2^l cells along each axis,
/// l = 1, 2, ... (levels[l - 1], x-major as the grid's values, dims[l - 1]
/// blocks): lower bounds of the grid's value over boxes, in a few lookups
/// (detail::gridBoxLowerBound).
struct GridBlockMinima {
  std::vector<std::array<int, 3>> dims;
  std::vector<std::vector<double>> levels;
};

struct CollisionCache {
  /// Coal shape of a primitive, mesh or hull; null for clouds, grids, groups.
  std::shared_ptr<coal::CollisionGeometry> shape;
  /// Placement of `shape` in the geometry's local frame (boxes and segments
  /// are centred Coal shapes).
  RigidTransform shapeOffset;
  /// Balls of a point cloud (radius from the "radius" property, else 0).
  PointTree points;
  /// Local axis-aligned box of the shape (exact for all but Coal BVHs).
  Vector3 bmin = Vector3::Zero(), bmax = Vector3::Zero();
  /// A point strictly inside a convex hull (the mean of its vertices), which
  /// tells on which side of the surface a point lies.
  Vector3 hullInterior = Vector3::Zero();
  /// A volume grid's bound on the gradient of its value (detail::gridLipschitz).
  double gridLipschitz = 0;
  /// A volume grid's block minima (detail::gridBlockMinima).
  GridBlockMinima gridMinima;
  /// Built on first use by shapeHull, and freed with the shape.
  mutable LazyCache<const BroadPhaseHull> hull;
  /// A convex hull's surface triangles in a tree, built on first use by
  /// detail::hullSurfaceTree, and freed with the shape.
  mutable LazyCache<const coal::BVHModel<coal::OBBRSS>> hullSurface;
};

/// The cache of `data`, built on first use. Thread-safe; the returned
/// reference stays valid while `data` is alive and unedited.
const CollisionCache& collisionCache(const GeometryData& data);

/// How many collision structures (caches, broad-phase hulls) this process has
/// built: tells when they are built (world load, space set-up) rather than how.
long collisionCachesBuilt();
/// Counts one more structure built outside collisionCache (shape_hull.h).
void countCollisionStructureBuilt();

}  // namespace klampt
