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
#include "expanding_polytope.h"

namespace klampt {
namespace detail {

/// A coal::GJKSolver for two large hulls (Coal's "LargeConvex": more than 32
/// vertices and their neighbours) that climbs the hulls' vertices as Coal's
/// support function does, vertex for vertex, without clearing a flag per
/// vertex before each climb (GJK and EPA climb both hulls 12 to 20 times a
/// query), and measures their penetration by this package's expanding
/// polytope (Coal's EPA when that gives up). GJK's answers, points and
/// statuses are Coal's to the bit; the depth agrees with Coal's EPA to
/// rounding, the deepest points wherever they are not unique (faces or edges
/// of the two hulls parallel) may be others of the same depth. Other pairs go
/// to Coal unchanged.
class ConvexSolver : public coal::GJKSolver {
 public:
  using coal::GJKSolver::GJKSolver;

  /// coal::GJKSolver::shapeDistance: the distance of s1 and s2 at their
  /// poses (below 0 by EPA's depth when they overlap and `penetration` is
  /// set), their witness points and the normal from s1 to s2, in the world.
  double distance(const coal::ShapeBase& s1, const coal::Transform3s& tf1, const coal::ShapeBase& s2,
                  const coal::Transform3s& tf2, bool penetration, Vector3& p1, Vector3& p2, Vector3& normal) const;

 private:
  mutable PolytopeWorkspace polytope_;
};

}  // namespace detail
}  // namespace klampt
