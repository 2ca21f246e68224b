// Internal to the queries: a geometry flattened into placed leaves (groups
// expand into their elements) and the distance from a leaf to a point.
#pragma once
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>
#include <coal/BVH/BVH_model.h>
#include <coal/collision_data.h>
#include <coal/collision_object.h>
#include "klampt/geometry/queries/collision_cache.h"

namespace klampt {
namespace detail {

class ConvexSolver;

struct Leaf {
  const GeometryData* data;
  const CollisionCache* cache;
  RigidTransform T;  // local -> world
  int groupElem;     // index in the top-level group, -1 if not in a group
  int elemOffset = 0;  // added to sub-element indices (a heightmap's walls follow its surface)

  bool isCoal() const { return cache->shape != nullptr; }
  bool isCloud() const { return data->type == GeometryType::PointCloud; }
  bool isGrid() const { return data->type == GeometryType::VolumeGrid; }
  /// A mesh with at least one triangle (its shape is a MeshBVH).
  bool isMesh() const { return data->type == GeometryType::TriangleMesh && cache->shape; }
  /// A triangle tree: a mesh, or a Triangle or Polygon primitive (a MeshBVH too).
  bool isTriangleTree() const { return cache->shape && cache->shape->getObjectType() == coal::OT_BVH; }
  const coal::BVHModel<coal::OBBRSS>& meshBVH() const {
    return static_cast<const coal::BVHModel<coal::OBBRSS>&>(*cache->shape);
  }
  /// Whether it is a primitive of the type named by the literal `type`
  /// (compared at the literal's known length: the queries ask this often).
  template <size_t N>
  bool isPrimitive(const char (&type)[N]) const {
    const std::string& t = data->primitive.type;
    return data->type == GeometryType::Primitive && t.size() == N - 1 && std::memcmp(t.data(), type, N - 1) == 0;
  }
  /// A Point or Sphere primitive: handled as a centre and a radius.
  bool isBall() const { return isPrimitive("Point") || isPrimitive("Sphere"); }
  /// Whether points can lie inside (signed point distances below 0 occur).
  bool hasInterior() const;
  /// World pose of the Coal shape (its placement in the geometry, moved by T).
  RigidTransform shapePose() const { return T * cache->shapeOffset; }
  /// The same as Coal's transform.
  coal::Transform3s coalTransform() const;
  /// Element index reported for sub-element `sub` (triangle or point).
  int elem(int sub) const;
  /// World bounding box (loose for rotated shapes).
  void worldBox(Vector3& lo, Vector3& hi) const;
  std::string name() const;
};

/// Whether penetration gives negative distances for this pair (a sphere or a
/// volume grid on either side, or two convex hulls); others clamp at 0.
bool signedPair(const Leaf& a, const Leaf& b);

/// coal::distance / coal::collide with the arguments in an order Coal
/// supports (it lacks some shape–BVH and triangle–shape orders); the results
/// are reported for (a, b) whatever order was used.
void coalDistance(const coal::CollisionGeometry* a, const coal::Transform3s& Ta, const coal::CollisionGeometry* b,
                  const coal::Transform3s& Tb, const coal::DistanceRequest& req, coal::DistanceResult& res);
bool coalCollide(const coal::CollisionGeometry* a, const coal::Transform3s& Ta, const coal::CollisionGeometry* b,
                 const coal::Transform3s& Tb, const coal::CollisionRequest& req, coal::CollisionResult& res);

/// Whether two convex Coal shapes (not meshes) are within `tol`, by GJK alone:
/// true when it finds them overlapping or within tol (its distances are upper
/// bounds), false when it cannot tell, which the caller settles with the
/// tight distance. Spares the penetration search Coal's collision test runs
/// on every overlapping pair.
bool convexShapesWithin(const Leaf& a, const Leaf& b, double tol);

/// Whether the leaf is a box or a convex hull as a Coal shape.
bool isBoxOrHull(const Leaf& leaf);
/// This thread's GJK/EPA solver, to 1e-10, with no distance upper bound:
/// coal::distance makes a solver, with its EPA storage, on every call.
ConvexSolver& tightSolver();

/// The signed distance of two boxes or hulls and their world witness points
/// (on the surfaces; the deepest points when they overlap), by this thread's
/// GJK/EPA solver to 1e-10: coal::distance makes a solver, with its EPA
/// storage, on every call.
double convexShapesDistance(const Leaf& a, const Leaf& b, Vector3& pa, Vector3& pb);

/// Leaves of g at its current transform (empty elements skipped).
std::vector<Leaf> leavesOf(const Geometry& g);
/// The same into `out` (cleared first), for callers that reuse a buffer.
void leavesOf(const Geometry& g, std::vector<Leaf>& out);

struct PointDistance {
  double d;      // signed only where the leaf has an inside (coal solids, grids, ball clouds)
  Vector3 cp;    // closest point on the leaf
  int elem;
};
/// Distance from the world point p to the leaf, bounded above by upper
/// (returns d = upper, elem = -1 when nothing is closer).
PointDistance leafPointDistance(const Leaf& leaf, const Vector3& p, double upper);

/// Distance from a ball (centre c, radius r) to a leaf: the point distance
/// of c minus r. cpBall is on the ball's surface (or its centre if r = 0).
struct BallDistance {
  double d;
  Vector3 cpBall, cpLeaf;
  int elem;
};
BallDistance ballLeafDistance(const Vector3& c, double r, const Leaf& leaf, double upper);
/// The ball's distance from the point distance `pd` of its centre (elem >= 0).
BallDistance ballDistanceFrom(const Vector3& c, double r, const PointDistance& pd);
/// The point distance of a cloud leaf's ball `ball` to the point `local` (in
/// the cloud's frame), whose distance (centre distance less radius) is `d`.
PointDistance cloudBallPointDistance(const Leaf& cloud, const Vector3& local, int ball, double d);
/// Centre and radius of a ball leaf (isBall()).
void ballOf(const Leaf& leaf, Vector3& c, double& r);

/// Trilinear interpolation of a volume grid's values (cell centres) at a local point.
double gridValue(const VolumeGrid& grid, const Vector3& p);
/// Gradient of gridValue by central differences of half a cell.
Vector3 gridGradient(const VolumeGrid& grid, const Vector3& p);
/// The point of the zero level set reached from the local point p, whose
/// value is v, along the field's gradient (p where the gradient vanishes).
Vector3 gridLevelSetPoint(const VolumeGrid& grid, const Vector3& p, double v);
/// A bound on |grad| of gridValue: the trilinear part's steepest cell edges,
/// plus 1 for the distance to the box that is added outside it.
double gridLipschitz(const VolumeGrid& grid);

}  // namespace detail
}  // namespace klampt
