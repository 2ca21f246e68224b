// Internal to the queries: GJK and EPA between two convex Coal shapes, with
// the support points of large hulls found without Coal's per-call clearing.
#pragma once
// GCC 12 reports Coal's shapeDistance as leaving its result unset on paths
// that GJK's statuses rule out, depending on what it inlines around it.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <coal/narrowphase/narrowphase.h>
#pragma GCC diagnostic pop
#include "klampt/math/types.h"

namespace klampt {
namespace detail {

/// A coal::GJKSolver whose distance between two large hulls (Coal's
/// "LargeConvex": more than 32 vertices and their neighbours) climbs the
/// hulls' vertices as Coal's support function does, vertex for vertex, so
/// that every answer, witness point and status is Coal's to the bit, without
/// clearing a flag per vertex before each climb (GJK and EPA climb both hulls
/// 12 to 20 times a query) and with the climb's state in registers. Other
/// pairs go to Coal unchanged.
class ConvexSolver : public coal::GJKSolver {
 public:
  using coal::GJKSolver::GJKSolver;

  /// coal::GJKSolver::shapeDistance: the distance of s1 and s2 at their
  /// poses (below 0 by EPA's depth when they overlap and `penetration` is
  /// set), their witness points and the normal from s1 to s2, in the world.
  double distance(const coal::ShapeBase& s1, const coal::Transform3s& tf1, const coal::ShapeBase& s2,
                  const coal::Transform3s& tf2, bool penetration, Vector3& p1, Vector3& p2, Vector3& normal) const;
};

}  // namespace detail
}  // namespace klampt
