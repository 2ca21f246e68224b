// Separating-axis test of two triangles (triangle_overlap.h).
#include "triangle_overlap.h"

#include <algorithm>

namespace klampt {
namespace detail {

namespace {

/// Whether the projections of a and b on the axis are disjoint intervals.
bool separatedAlong(const Vector3& axis, const Vector3 (&a)[3], const Vector3 (&b)[3]) {
  const double a0 = axis.dot(a[0]), a1 = axis.dot(a[1]), a2 = axis.dot(a[2]);
  const double b0 = axis.dot(b[0]), b1 = axis.dot(b[1]), b2 = axis.dot(b[2]);
  return std::max({a0, a1, a2}) < std::min({b0, b1, b2}) || std::max({b0, b1, b2}) < std::min({a0, a1, a2});
}

}  // namespace

TriangleOverlap trianglesOverlap(const Vector3& p0, const Vector3& p1, const Vector3& p2, const Vector3& q0,
                                 const Vector3& q1, const Vector3& q2) {
  // Relative to p0, so that the projections keep the precision of the
  // triangles' size rather than of their distance from the origin.
  const Vector3 a[3] = {Vector3::Zero(), p1 - p0, p2 - p0};
  const Vector3 b[3] = {q0 - p0, q1 - p0, q2 - p0};
  const Vector3 ea[3] = {a[1], a[2] - a[1], -a[2]};
  const Vector3 eb[3] = {b[1] - b[0], b[2] - b[1], b[0] - b[2]};
  const Vector3 na = ea[0].cross(ea[1]), nb = eb[0].cross(eb[1]);
  if (na.squaredNorm() == 0.0 || nb.squaredNorm() == 0.0) return TriangleOverlap::Degenerate;
  // The normals separate most pairs whose boxes touch.
  if (separatedAlong(na, a, b) || separatedAlong(nb, a, b)) return TriangleOverlap::Disjoint;
  for (const Vector3& u : ea)
    for (const Vector3& v : eb)
      if (separatedAlong(u.cross(v), a, b)) return TriangleOverlap::Disjoint;
  // Only coplanar (or nearly coplanar) pairs can remain separable: by an
  // edge's normal within either plane.
  for (const Vector3& u : ea)
    if (separatedAlong(na.cross(u), a, b)) return TriangleOverlap::Disjoint;
  for (const Vector3& v : eb)
    if (separatedAlong(nb.cross(v), a, b)) return TriangleOverlap::Disjoint;
  return TriangleOverlap::Intersect;
}

}  // namespace detail
}  // namespace klampt
