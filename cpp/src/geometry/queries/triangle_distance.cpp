// The exact distance between two triangles (triangle_distance.h): by their
// planes, edges and certificates for triangles with area, by every vertex and
// edge pair for the others, by Coal's past coordinates whose squares
// overflow.
#include "triangle_distance.h"
#include <algorithm>
#include <cmath>
#include <coal/internal/intersect.h>
#include "klampt/geometry/primitive.h"
#include "triangle_overlap.h"

namespace klampt {
namespace detail {

namespace {

/// Squared distance between the segments from a0 along d1 and from b0 along
/// d2 (|d1|^2 = len1, |d2|^2 = len2, either possibly 0), and the parameters
/// of their closest points: the clamped solution of the pair's 2x2 system,
/// then each parameter the best for the other, clamped (which leaves the
/// constrained minimum unchanged and finds one for parallel segments).
double segmentPair2(const Vector3& a0, const Vector3& d1, double len1, const Vector3& b0, const Vector3& d2,
                    double len2, double& s, double& t) {
  const Vector3 r = a0 - b0;
  const double bb = d1.dot(d2), c = d1.dot(r), f = d2.dot(r);
  const double denom = len1 * len2 - bb * bb;
  const double s0 = denom > 0 ? std::clamp((bb * f - c * len2) / denom, 0.0, 1.0) : 0.0;
  t = len2 > 0 ? std::clamp((bb * s0 + f) / len2, 0.0, 1.0) : 0.0;
  s = len1 > 0 ? std::clamp((bb * t - c) / len1, 0.0, 1.0) : 0.0;
  return (r + s * d1 - t * d2).squaredNorm();
}

/// Coal's squared triangle distance and closest points (P, Q if given).
double coalDistance2(const Vector3& p0, const Vector3& p1, const Vector3& p2, const Vector3& q0, const Vector3& q1,
                     const Vector3& q2, Vector3* P, Vector3* Q) {
  coal::Vec3s cp, cq;
  const double d2 = coal::TriangleDistance::sqrTriDistance(p0, p1, p2, q0, q1, q2, cp, cq);
  if (P) *P = cp;
  if (Q) *Q = cq;
  return d2;
}

/// The distance of any two triangles (intersecting ones and ones without
/// area included): 0 when they intersect, else the least of the six
/// vertex-triangle and nine edge-edge distances.
double generalDistance2(const Vector3& p0, const Vector3& p1, const Vector3& p2, const Vector3& q0,
                        const Vector3& q1, const Vector3& q2, Vector3* P, Vector3* Q) {
  const TriangleOverlap o = trianglesOverlap(p0, p1, p2, q0, q1, q2);
  if (o != TriangleOverlap::Disjoint) {
    // Coal's points for intersecting triangles and for triangles without
    // area (a segment or point can cross the other's face between its ends,
    // which the vertex and edge distances below miss).
    const double d2 = coalDistance2(p0, p1, p2, q0, q1, q2, P, Q);
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
    const Vector3 dp = p[(k + 1) % 3] - p[k];
    for (int l = 0; l < 3; ++l) {
      const Vector3 dq = q[(l + 1) % 3] - q[l];
      double s, t;
      const double d2 = segmentPair2(p[k], dp, dp.squaredNorm(), q[l], dq, dq.squaredNorm(), s, t);
      offer(d2, p[k] + s * dp, q[l] + t * dq);
    }
  }
  if (P) *P = bp;
  if (Q) *Q = bq;
  return best;
}

/// A triangle's edges relative to one origin: edge k runs from v[k] along
/// d[k] to the next vertex, with |d[k]|^2.
struct Edges {
  Vector3 v[3], d[3];
  double len2[3];
  Edges(const Vector3& v0, const Vector3& v1, const Vector3& v2) : v{v0, v1, v2} {
    for (int k = 0; k < 3; ++k) {
      d[k] = v[(k + 1) % 3] - v[k];
      len2[k] = d[k].squaredNorm();
    }
  }
  /// Whether the triangle is far enough from flat for its plane to classify
  /// points: twice its area (|n|, n its normal) above 1e-6 of its longest
  /// edge squared. Its edges then have length.
  bool hasPlane(const Vector3& n) const {
    const double longest2 = std::max({len2[0], len2[1], len2[2]});
    return n.squaredNorm() > 1e-12 * longest2 * longest2;
  }
};

/// Squared distance between edge k of a and edge l of b, and the parameters
/// of their closest points.
double edgePair2(const Edges& a, int k, const Edges& b, int l, double& s, double& t) {
  return segmentPair2(a.v[k], a.d[k], a.len2[k], b.v[l], b.d[l], b.len2[l], s, t);
}

/// A triangle's plane seen from the other one's vertices: its normal n (not
/// unit), |n|^2, and the signed distances times |n| of the other's vertices.
struct Side {
  Vector3 n;
  double n2;
  double s[3];
  Side(const Edges& own, const Vector3& normal, const Edges& other) : n(normal), n2(normal.squaredNorm()) {
    for (int k = 0; k < 3; ++k) s[k] = n.dot(other.v[k] - own.v[0]);
  }
  /// Whether the other triangle lies strictly on one side of the plane.
  bool strict() const { return (s[0] > 0 && s[1] > 0 && s[2] > 0) || (s[0] < 0 && s[1] < 0 && s[2] < 0); }
  /// The squared distance of the plane to the nearest of those vertices.
  double gap2() const { return std::min({s[0] * s[0], s[1] * s[1], s[2] * s[2]}) / n2; }
  /// The projection on the plane of x, the other's vertex k.
  Vector3 foot(const Vector3& x, int k) const { return x - (s[k] / n2) * n; }
  /// Whether x, a point of the plane or off it, projects into the triangle:
  /// on the inner side of each edge's normal in the plane.
  bool projectsInside(const Edges& own, const Vector3& x) const {
    for (int k = 0; k < 3; ++k)
      if ((x - own.v[k]).dot(n.cross(own.d[k])) < 0) return false;
    return true;
  }
};

/// The other's vertex nearest the plane.
int lowest(const Side& side) {
  const double h[3] = {std::abs(side.s[0]), std::abs(side.s[1]), std::abs(side.s[2])};
  return h[0] <= h[1] ? (h[0] <= h[2] ? 0 : 2) : (h[1] <= h[2] ? 1 : 2);
}

/// Whether a second vertex of `other` is at the height of vertex `low` over
/// the plane (to 1e-10 of other's size): an edge or face of it parallel to
/// the plane there.
bool tied(const Side& side, const Edges& other, int low) {
  const double slack2 = 1e-20 * std::max({other.len2[0], other.len2[1], other.len2[2]}) * side.n2;
  int count = 0;
  for (double s : side.s) count += (s - side.s[low]) * (s - side.s[low]) <= slack2;
  return count > 1;
}

/// A point where an edge of `other` passes through the triangle `own`
/// (`side` its plane seen from other), into x: an edge whose ends lie
/// strictly on both sides of the plane, crossing it inside the triangle.
bool edgeThrough(const Edges& own, const Side& side, const Edges& other, Vector3& x) {
  for (int k = 0; k < 3; ++k) {
    const double s0 = side.s[k], s1 = side.s[(k + 1) % 3];
    if (!((s0 < 0 && s1 > 0) || (s0 > 0 && s1 < 0))) continue;
    x = other.v[k] + (s0 / (s0 - s1)) * other.d[k];
    if (side.projectsInside(own, x)) return true;
  }
  return false;
}

}  // namespace

double triangleDistance2(const Vector3& p0, const Vector3& p1, const Vector3& p2, const Vector3& q0,
                         const Vector3& q1, const Vector3& q2, Vector3* P, Vector3* Q, double stopAbove2,
                         bool* parallelNearest) {
  if (parallelNearest) *parallelNearest = false;
  // Relative to p0, for precision.
  const Edges a(Vector3::Zero(), p1 - p0, p2 - p0), b(q0 - p0, q1 - p0, q2 - p0);
  // Past 1e75 (a terrain vertex sent to 1e109) the squared areas below
  // overflow and the side tests with them: Coal's distance answers those.
  if (!(std::max({a.v[1].cwiseAbs().maxCoeff(), a.v[2].cwiseAbs().maxCoeff(), b.v[0].cwiseAbs().maxCoeff(),
                  b.v[1].cwiseAbs().maxCoeff(), b.v[2].cwiseAbs().maxCoeff()}) < 1e75)) {
    return coalDistance2(p0, p1, p2, q0, q1, q2, P, Q);
  }
  // Two triangles with planes that intersect have an edge of one passing
  // through the other, or a vertex of one in the other, or (in one plane)
  // crossing edges. Disjoint ones are at the least of the nine edge-edge
  // distances and the distances of the vertices that project inside the
  // other triangle (a vertex whose nearest point is on the other's boundary
  // is covered by the edges); a candidate whose gap is also a slab between
  // the triangles (a certificate) is that least one and ends the search.
  const Vector3 nP = a.d[0].cross(a.v[2]), nQ = b.d[0].cross(b.v[2] - b.v[0]);
  if (!a.hasPlane(nP) || !b.hasPlane(nQ)) return generalDistance2(p0, p1, p2, q0, q1, q2, P, Q);
  const Side onP(a, nP, b), onQ(b, nQ, a);
  const bool strictP = onP.strict(), strictQ = onQ.strict();
  // Each plane bounds the distance from below.
  const double lower2 = std::max(strictP ? onP.gap2() : 0.0, strictQ ? onQ.gap2() : 0.0);
  if (lower2 > stopAbove2) return lower2;
  // The vertex of each nearest the other's plane (set below).
  int lowA = 0, lowB = 0;
  // Whether the nearest points are many: an edge or face of one parallel to
  // the other's plane, apart from it along that plane's normal.
  const auto many = [&](const Vector3& gap) {
    const auto along = [&gap](const Side& side) {
      return gap.cross(side.n).squaredNorm() <= 1e-20 * gap.squaredNorm() * side.n2;
    };
    return (along(onP) && tied(onP, b, lowB)) || (along(onQ) && tied(onQ, a, lowA));
  };
  const auto answer = [&](double d2, const Vector3& bp, const Vector3& bq) {
    if (P) *P = bp + p0;
    if (Q) *Q = bq + p0;
    if (parallelNearest && d2 > 0) *parallelNearest = many(bq - bp);
    return d2;
  };
  Vector3 x;
  if (!strictP && !strictQ && (edgeThrough(a, onP, b, x) || edgeThrough(b, onQ, a, x))) return answer(0.0, x, x);
  // The nearest features lie at those vertices and the edges they end in
  // most pairs.
  lowA = lowest(onQ), lowB = lowest(onP);
  // That vertex projecting inside the other triangle, when its whole
  // triangle lies on one side, is the answer.
  if (strictP && onP.projectsInside(a, b.v[lowB])) return answer(onP.gap2(), onP.foot(b.v[lowB], lowB), b.v[lowB]);
  if (strictQ && onQ.projectsInside(b, a.v[lowA])) return answer(onQ.gap2(), a.v[lowA], onQ.foot(a.v[lowA], lowA));
  // An edge pair's closest points p, q are the answer when the planes
  // through them across q - p hold the other vertex of each triangle on its
  // own side (the edges' own ends are, by the points' choice). Those of the
  // vertices' edges first.
  const int edgesA[3] = {lowA, (lowA + 2) % 3, (lowA + 1) % 3}, edgesB[3] = {lowB, (lowB + 2) % 3, (lowB + 1) % 3};
  static constexpr int kOrder[9][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 2}, {1, 2}, {2, 0}, {2, 1}, {2, 2}};
  double best = INFINITY;
  Vector3 bp = a.v[0], bq = b.v[0];
  for (const auto& [ia, ib] : kOrder) {
    const int k = edgesA[ia], l = edgesB[ib];
    double s, t;
    const double d2 = edgePair2(a, k, b, l, s, t);
    const Vector3 ep = a.v[k] + s * a.d[k], eq = b.v[l] + t * b.d[l], gap = eq - ep;
    if ((a.v[(k + 2) % 3] - ep).dot(gap) <= 0 && (b.v[(l + 2) % 3] - eq).dot(gap) >= 0) return answer(d2, ep, eq);
    if (d2 < best) best = d2, bp = ep, bq = eq;
  }
  // No certificate: the least of every candidate.
  for (int k = 0; k < 3; ++k) {
    if (onP.projectsInside(a, b.v[k])) {
      const double d2 = onP.s[k] * onP.s[k] / onP.n2;
      if (d2 < best) best = d2, bp = onP.foot(b.v[k], k), bq = b.v[k];
    }
    if (onQ.projectsInside(b, a.v[k])) {
      const double d2 = onQ.s[k] * onQ.s[k] / onQ.n2;
      if (d2 < best) best = d2, bp = a.v[k], bq = onQ.foot(a.v[k], k);
    }
  }
  return answer(best, bp, bq);
}

}  // namespace detail
}  // namespace klampt
