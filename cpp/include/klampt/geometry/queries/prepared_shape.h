// A geometry's collision structure and local bounds looked up once, for the
// many queries of one shape at changing poses (a robot link over many
// configurations): the per-query lookups of collides() are skipped and a
// cheap broad phase (a bounding sphere, then a box) runs before the narrow
// phase. The answers are collides()'s.
#pragma once
#include "klampt/geometry/geometry.h"
#include "klampt/geometry/queries/collision_cache.h"

namespace klampt {

struct PreparedShape {
  /// Null for an empty geometry.
  const CollisionCache* cache = nullptr;
  /// A triangle mesh with at least one triangle (cache->shape is its tree).
  bool mesh = false;
  /// The local box of the shape, and the sphere around that box.
  Vector3 bmin = Vector3::Zero(), bmax = Vector3::Zero(), center = Vector3::Zero();
  double radius = 0.0;

  PreparedShape() = default;
  /// The structures of g's shape (built now if need be). They stay valid
  /// while that shape is alive and unedited, for g and every geometry that
  /// shares it (the copies of a robot).
  explicit PreparedShape(const Geometry& g);
  bool empty() const { return cache == nullptr; }
};

/// A prepared shape's bounds placed in the world and grown by a margin.
struct PlacedBounds {
  Vector3 lo, hi, center;
  double radius;
};
PlacedBounds placeBounds(const PreparedShape& s, const RigidTransform& T, double margin);

/// False only if the shapes inside the bounds are surely farther apart than
/// 0 (spheres, then boxes; a little slack keeps rounding on the safe side).
bool boundsMayTouch(const PlacedBounds& a, const PlacedBounds& b);

/// collides(a, b) where sa and sb were prepared from a's and b's shapes and
/// the bounds were placed at their current transforms and margins: the same
/// answer, without collides()'s lookups, straight to the tree traversal for
/// two meshes.
bool preparedCollides(const PreparedShape& sa, const Geometry& a, const PlacedBounds& ba, const PreparedShape& sb,
                      const Geometry& b, const PlacedBounds& bb);

}  // namespace klampt
