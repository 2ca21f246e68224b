// The exact distance between two triangles (triangle_distance.h).
#include "triangle_distance.h"
#include <algorithm>
#include <cmath>
#include <coal/internal/intersect.h>
#include "klampt/geometry/primitive.h"
#include "triangle_overlap.h"

namespace klampt {
namespace detail {

namespace {

/// Squared distance between the segments [a0, a1] and [b0, b1] (Ericson,
/// Real-Time Collision Detection, 5.1.9), degenerate segments included.
double segmentDistance2(const Vector3& a0, const Vector3& a1, const Vector3& b0, const Vector3& b1, Vector3& pa,
                        Vector3& pb) {
  const Vector3 d1 = a1 - a0, d2 = b1 - b0, r = a0 - b0;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  double s = 0, t = 0;
  if (a <= 0 && e <= 0) {
    pa = a0;
    pb = b0;
    return r.squaredNorm();
  }
  if (a <= 0) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (e <= 0) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2), denom = a * e - b * b;
      s = denom > 0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1) {
        t = 1;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  pa = a0 + s * d1;
  pb = b0 + t * d2;
  return (pa - pb).squaredNorm();
}

}  // namespace

double triangleDistance2(const Vector3& p0, const Vector3& p1, const Vector3& p2, const Vector3& q0,
                         const Vector3& q1, const Vector3& q2, Vector3* P, Vector3* Q) {
  const TriangleOverlap o = trianglesOverlap(p0, p1, p2, q0, q1, q2);
  if (o != TriangleOverlap::Disjoint) {
    // Coal's distance for the points of intersecting triangles and for
    // triangles without area (a segment or point can cross the other's face
    // between its ends, which the vertex and edge distances below miss).
    coal::Vec3s cp, cq;
    const double d2 = coal::TriangleDistance::sqrTriDistance(p0, p1, p2, q0, q1, q2, cp, cq);
    if (P) *P = cp;
    if (Q) *Q = cq;
    return o == TriangleOverlap::Intersect ? 0.0 : d2;
  }
  const Vector3 p[3] = {p0, p1, p2}, q[3] = {q0, q1, q2};
  double best = INFINITY;
  Vector3 bp = p0, bq = q0;
  const auto offer = [&](double d2, const Vector3& a, const Vector3& b) {
    if (d2 < best) {
      best = d2;
      bp = a;
      bq = b;
    }
  };
  for (int k = 0; k < 3; ++k) {
    const Vector3 onQ = closestPointOnTriangle(p[k], q0, q1, q2), onP = closestPointOnTriangle(q[k], p0, p1, p2);
    offer((p[k] - onQ).squaredNorm(), p[k], onQ);
    offer((q[k] - onP).squaredNorm(), onP, q[k]);
    for (int l = 0; l < 3; ++l) {
      Vector3 a, b;
      const double d2 = segmentDistance2(p[k], p[(k + 1) % 3], q[l], q[(l + 1) % 3], a, b);
      offer(d2, a, b);
    }
  }
  if (P) *P = bp;
  if (Q) *Q = bq;
  return best;
}

}  // namespace detail
}  // namespace klampt
