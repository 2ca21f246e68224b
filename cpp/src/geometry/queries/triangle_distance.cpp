// The exact distance between two triangles (triangle_distance.h): directly
// for two triangles that one's plane separates, by the general route for the
// rest.
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

/// The distance of any two triangles (intersecting ones and ones without
/// area included): 0 when they intersect, else the least of the six
/// vertex-triangle and nine edge-edge distances.
double generalDistance2(const Vector3& p0, const Vector3& p1, const Vector3& p2, const Vector3& q0,
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

/// A triangle seen from the other one's vertices: its normal n (not unit),
/// |n|^2, and the signed distances times |n| of the other's vertices to its
/// plane.
struct Side {
  Vector3 n;
  double n2;
  double s[3];
  /// Whether the other triangle lies strictly on one side of the plane.
  bool strict() const { return (s[0] > 0 && s[1] > 0 && s[2] > 0) || (s[0] < 0 && s[1] < 0 && s[2] < 0); }
  /// The squared distance of the plane to the nearest of those vertices.
  double gap2() const { return std::min({s[0] * s[0], s[1] * s[1], s[2] * s[2]}) / n2; }
};

/// Whether a triangle is far enough from flat for its plane to classify
/// points: twice its area above 1e-6 of its longest edge squared.
bool hasPlane(const Vector3& e0, const Vector3& e1, const Vector3& n) {
  const double len2 = std::max({e0.squaredNorm(), e1.squaredNorm(), (e1 - e0).squaredNorm()});
  return n.squaredNorm() > 1e-12 * len2 * len2;
}

/// Offers to `offer` the vertices of `other` whose projection on the plane of
/// (v[0], v[1], v[2]) falls inside it, with that projection: their distance
/// to the triangle is their distance to its plane.
template <class Offer>
void offerFaceProjections(const Vector3 (&v)[3], const Side& side, const Vector3 (&other)[3], Offer&& offer,
                          bool otherFirst) {
  // In-plane normals of the edges, pointing inwards.
  const Vector3 m[3] = {side.n.cross(v[1] - v[0]), side.n.cross(v[2] - v[1]), side.n.cross(v[0] - v[2])};
  for (int k = 0; k < 3; ++k) {
    const Vector3& x = other[k];
    if ((x - v[0]).dot(m[0]) < 0 || (x - v[1]).dot(m[1]) < 0 || (x - v[2]).dot(m[2]) < 0) continue;
    const Vector3 onPlane = x - (side.s[k] / side.n2) * side.n;
    const double d2 = side.s[k] * side.s[k] / side.n2;
    if (otherFirst)
      offer(d2, x, onPlane);
    else
      offer(d2, onPlane, x);
  }
}

}  // namespace

double triangleDistance2(const Vector3& p0, const Vector3& p1, const Vector3& p2, const Vector3& q0,
                         const Vector3& q1, const Vector3& q2, Vector3* P, Vector3* Q, double stopAbove2) {
  // Two triangles with planes, one strictly on one side of the other's
  // plane, are disjoint: their distance is the least of the nine edge-edge
  // distances and the distances of the vertices that project inside the
  // other triangle (a vertex whose nearest point is on the other's boundary
  // is covered by the edges). Relative to p0, for precision.
  const Vector3 p[3] = {Vector3::Zero(), p1 - p0, p2 - p0}, q[3] = {q0 - p0, q1 - p0, q2 - p0};
  const Vector3 eq0 = q[1] - q[0], eq1 = q[2] - q[0];
  Side onP{p[1].cross(p[2]), 0, {}}, onQ{eq0.cross(eq1), 0, {}};
  if (!hasPlane(p[1], p[2], onP.n) || !hasPlane(eq0, eq1, onQ.n)) return generalDistance2(p0, p1, p2, q0, q1, q2, P, Q);
  onP.n2 = onP.n.squaredNorm();
  onQ.n2 = onQ.n.squaredNorm();
  for (int k = 0; k < 3; ++k) {
    onP.s[k] = onP.n.dot(q[k]);
    onQ.s[k] = onQ.n.dot(p[k] - q[0]);
  }
  const bool strictP = onP.strict(), strictQ = onQ.strict();
  if (!strictP && !strictQ) return generalDistance2(p0, p1, p2, q0, q1, q2, P, Q);
  // Each plane bounds the distance from below.
  const double lower2 = std::max(strictP ? onP.gap2() : 0.0, strictQ ? onQ.gap2() : 0.0);
  if (lower2 > stopAbove2) return lower2;
  double best = INFINITY;
  Vector3 bp = p[0], bq = q[0];
  const auto offer = [&](double d2, const Vector3& a, const Vector3& b) {
    if (d2 < best) {
      best = d2;
      bp = a;
      bq = b;
    }
  };
  offerFaceProjections(p, onP, q, offer, false);
  // Q's plane: signed distances of P's vertices relative to q[0].
  offerFaceProjections(q, onQ, p, offer, true);
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l) {
      Vector3 a, b;
      const double d2 = segmentDistance2(p[k], p[(k + 1) % 3], q[l], q[(l + 1) % 3], a, b);
      offer(d2, a, b);
    }
  if (P) *P = bp + p0;
  if (Q) *Q = bq + p0;
  return best;
}

}  // namespace detail
}  // namespace klampt
