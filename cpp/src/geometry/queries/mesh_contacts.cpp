// Mesh–mesh contact points: the triangle pairs within the padding (found by
// descending both trees, or a list remembered by the caller), each turned
// into closest points and a normal.
#include "mesh_contacts.h"
#include <coal/internal/intersect.h>
#include <algorithm>
#include <cmath>
#include "klampt/math/parallel_for.h"
#include "triangle_distance.h"

namespace klampt {
namespace detail {

namespace {

struct Triangle {
  Vector3 v[3];
  Vector3 normal() const { return (v[1] - v[0]).cross(v[2] - v[0]); }
};

Triangle triangleOf(const MeshBVH& m, int t) {
  const coal::Triangle& ids = (*m.tri_indices)[t];
  const auto& verts = *m.vertices;
  return Triangle{{verts[ids[0]], verts[ids[1]], verts[ids[2]]}};
}

/// The triangles of mesh b in a's frame (b placed at R, T there): read from
/// its vertices placed once when `vertices` is given, else placed one by one.
struct PlacedTriangles {
  const MeshBVH& b;
  const Matrix3& R;
  const Vector3& T;
  const std::vector<Vector3>* vertices = nullptr;

  Triangle operator()(int t) const {
    const coal::Triangle& ids = (*b.tri_indices)[t];
    if (vertices) return Triangle{{(*vertices)[ids[0]], (*vertices)[ids[1]], (*vertices)[ids[2]]}};
    const auto& v = *b.vertices;
    return Triangle{{R * v[ids[0]] + T, R * v[ids[1]] + T, R * v[ids[2]] + T}};
  }
};

/// Adds the points where the edges of s pass through triangle t to sum.
int edgeCrossings(const Triangle& s, const Triangle& t, Vector3& sum) {
  const Vector3 e1 = t.v[1] - t.v[0], e2 = t.v[2] - t.v[0];
  int count = 0;
  for (int k = 0; k < 3; ++k) {
    const Vector3& p = s.v[k];
    const Vector3 d = s.v[(k + 1) % 3] - p;
    // Moller-Trumbore: p + u d = t0 + x e1 + y e2.
    const Vector3 h = d.cross(e2);
    const double det = e1.dot(h);
    if (std::abs(det) < 1e-300) continue;  // the edge is parallel to t
    const Vector3 w = p - t.v[0];
    const double x = w.dot(h) / det;
    if (x < 0 || x > 1) continue;
    const Vector3 q = w.cross(e1);
    const double y = d.dot(q) / det;
    if (y < 0 || x + y > 1) continue;
    const double u = e2.dot(q) / det;
    if (u < 0 || u > 1) continue;
    sum += p + u * d;
    ++count;
  }
  return count;
}

Vector3 unit(const Vector3& v, const Vector3& fallback) {
  const double n = v.norm();
  return n > 1e-300 ? Vector3(v / n) : fallback;
}

/// Point and normal (from a to b) of two intersecting triangles, both in a's
/// frame: the mean of the points where edges of one cross the other. When
/// only a's edges cross b, a pokes through b's face and leaves along b's
/// normal; when only b's edges cross a, along a's; otherwise between both.
void intersectionContact(const Triangle& ta, const Triangle& tb, const Vector3& P, const Vector3& Q, Vector3& point,
                         Vector3& n) {
  Vector3 sum = Vector3::Zero();
  const int fromA = edgeCrossings(ta, tb, sum);
  const int fromB = edgeCrossings(tb, ta, sum);
  point = fromA + fromB > 0 ? Vector3(sum / (fromA + fromB)) : Vector3(0.5 * (P + Q));
  const Vector3 na = unit(ta.normal(), Vector3::Zero()), nb = unit(tb.normal(), Vector3::Zero());
  if (fromA > 0 && fromB == 0) n = -nb;
  else if (fromB > 0 && fromA == 0) n = na;
  else n = unit(na - nb, na);
}

/// The relative pose of b in a's frame.
void relativePose(const RigidTransform& Ta, const RigidTransform& Tb, Matrix3& R, Vector3& T) {
  R.noalias() = Ta.R.transpose() * Tb.R;
  T.noalias() = Ta.R.transpose() * (Tb.t - Ta.t);
}

double reach(const MeshBVH& m) {
  double r2 = 0;
  for (const auto& v : *m.vertices) r2 = std::max(r2, v.squaredNorm());
  return std::sqrt(r2);
}

/// Whether the boxes of the two triangles' vertices are farther than tol
/// apart along an axis: then so are the triangles. A few comparisons settle
/// most far pairs that the trees let through (their leaves go untested).
bool boxesApart(const Triangle& s, const Triangle& t, double tol) {
  const Vector3 loS = s.v[0].cwiseMin(s.v[1]).cwiseMin(s.v[2]), hiS = s.v[0].cwiseMax(s.v[1]).cwiseMax(s.v[2]);
  const Vector3 loT = t.v[0].cwiseMin(t.v[1]).cwiseMin(t.v[2]), hiT = t.v[0].cwiseMax(t.v[1]).cwiseMax(t.v[2]);
  return ((loT - hiS).cwiseMax(loS - hiT).array() > tol).any();
}

/// Whether the triangles are farther than tol apart along the line through
/// their centroids: the gap between their extents along it bounds their
/// distance from below. It settles half the pairs that pass the boxes' test
/// and are farther than tol, for a tenth of their distance's cost.
bool apartAlongCentroids(const Triangle& s, const Triangle& t, double tol) {
  const Vector3 u = (t.v[0] + t.v[1] + t.v[2]) - (s.v[0] + s.v[1] + s.v[2]);
  const double hiS = std::max({u.dot(s.v[0]), u.dot(s.v[1]), u.dot(s.v[2])});
  const double loT = std::min({u.dot(t.v[0]), u.dot(t.v[1]), u.dot(t.v[2])});
  const double gap = loT - hiS;
  return gap > 0 && gap * gap > tol * tol * u.squaredNorm();
}

/// The contact of triangles ta and tb (both in a's frame) if they are within
/// tol: closest points, normal from a to b and distance, in a's frame. By
/// the exact triangle distance (Coal's overestimates some pairs and missed
/// their contacts), which also settles pairs a plane separates by more than
/// tol before measuring them. Where an edge or face lies parallel to the
/// other triangle, the nearest points are many: there the contact takes
/// those of Coal's search when its distance agrees, which runs through the
/// edge pairs first and so finds a point on the boundary of the touching
/// part, where the simulator needs the corners of a face resting on a face
/// (a block stacked on a block stays put).
bool triangleContact(const Triangle& ta, const Triangle& tb, double tol, Vector3& P, Vector3& Q, Vector3& n,
                     double& d) {
  if (boxesApart(ta, tb, tol) || apartAlongCentroids(ta, tb, tol)) return false;
  bool parallel;
  const double d2 =
      triangleDistance2(ta.v[0], ta.v[1], ta.v[2], tb.v[0], tb.v[1], tb.v[2], &P, &Q, tol * tol, &parallel);
  if (!(d2 <= tol * tol)) return false;  // NaN too: coordinates past overflow
  if (parallel) {
    Vector3 cp, cq;
    const double c2 =
        coal::TriangleDistance::sqrTriDistance(ta.v[0], ta.v[1], ta.v[2], tb.v[0], tb.v[1], tb.v[2], cp, cq);
    if (std::abs(std::sqrt(c2) - std::sqrt(d2)) <= 1e-12 * tol) P = cp, Q = cq;
  }
  if (d2 > 1e-18) {
    d = std::sqrt(d2);
    n = (Q - P) / d;
    return true;
  }
  Vector3 point;
  intersectionContact(ta, tb, P, Q, point, n);
  P = Q = point;
  d = 0;
  return true;
}

/// Appends the contacts of pairs [begin, end) within pad.
void pairContacts(const MeshBVH& a, const RigidTransform& Ta, const PlacedTriangles& b, double pad,
                  const std::pair<int, int>* begin, const std::pair<int, int>* end, std::vector<ContactPoint>& out) {
  for (const auto* p = begin; p != end; ++p) {
    const auto [i, j] = *p;
    Vector3 P, Q, n;
    double d;
    if (triangleContact(triangleOf(a, i), b(j), pad, P, Q, n, d))
      out.push_back(ContactPoint{Ta.apply(P), Ta.apply(Q), Ta.R * n, d, i, j});
  }
}

/// Pairs per block of the split over the cores: a block's triangle tests
/// (about 0.1 us each) outweigh starting a thread several times over.
constexpr size_t kPairsPerBlock = 4096;

/// The contacts of the pair lists, joined in order: in spans of
/// kPairsPerBlock on every core (two overlapping robot links have 100,000
/// pairs within a centimetre).
void listContacts(const MeshBVH& a, const RigidTransform& Ta, const MeshBVH& b, const Matrix3& R,
                  const Vector3& T, double pad, const std::vector<std::pair<int, int>>* lists, size_t count,
                  std::vector<ContactPoint>& out) {
  struct Span {
    const std::pair<int, int>*begin, *end;
  };
  // Kept by the calling thread (the simulator asks at every step); named by
  // reference, as a worker's `kept` would be its own.
  thread_local std::vector<Span> kept;
  auto& spans = kept;
  spans.clear();
  for (size_t l = 0; l < count; ++l) {
    const auto& pairs = lists[l];
    for (size_t begin = 0; begin < pairs.size(); begin += kPairsPerBlock)
      spans.push_back({pairs.data() + begin, pairs.data() + std::min(pairs.size(), begin + kPairsPerBlock)});
  }
  // Each of b's vertices in several pairs (two overlapping tx90l links:
  // 141,450 pairs, 8,458 vertices): each placed once.
  size_t total = 0;
  for (size_t l = 0; l < count; ++l) total += lists[l].size();
  thread_local std::vector<Vector3> keptVertices;
  auto& vertices = keptVertices;
  PlacedTriangles placedB{b, R, T};
  if (total >= b.num_vertices) {
    vertices.resize(b.num_vertices);
    for (unsigned v = 0; v < b.num_vertices; ++v) vertices[v] = R * (*b.vertices)[v] + T;
    placedB.vertices = &vertices;
  }
  parallelAppend((int)spans.size(), out, [&](int k, std::vector<ContactPoint>& found) {
    pairContacts(a, Ta, placedB, pad, spans[k].begin, spans[k].end, found);
  });
}

}  // namespace

double motionSince(const ContactCache& c, const MeshBVH& a, const RigidTransform& Ta, const MeshBVH& b,
                   const RigidTransform& Tb) {
  if (c.a.get() != &a || c.b.get() != &b) return INFINITY;
  Matrix3 R;
  Vector3 T;
  relativePose(Ta, Tb, R, T);
  // Each mesh moved, in the other's frame, by at most the rotation's change
  // times its reach plus the change of its origin.
  const double turn = (R - c.R).norm();  // Frobenius: bounds the change of any unit vector
  const double moveB = turn * c.reachB + (T - c.T).norm();
  const double moveA = turn * c.reachA + (R.transpose() * T - c.R.transpose() * c.T).norm();
  return std::min(moveA, moveB);
}

void remember(ContactCache& c, const std::shared_ptr<const MeshBVH>& a, const RigidTransform& Ta,
              const std::shared_ptr<const MeshBVH>& b, const RigidTransform& Tb) {
  if (c.a.get() != a.get() || c.b.get() != b.get()) {
    c.a = a;
    c.b = b;
    c.reachA = reach(*a);
    c.reachB = reach(*b);
  }
  relativePose(Ta, Tb, c.R, c.T);
  c.pairs.clear();
}

void meshPairContacts(const MeshBVH& a, const RigidTransform& Ta, const MeshBVH& b, const RigidTransform& Tb,
                      double pad, const std::vector<std::pair<int, int>>& pairs, std::vector<ContactPoint>& out) {
  Matrix3 R;
  Vector3 T;
  relativePose(Ta, Tb, R, T);
  listContacts(a, Ta, b, R, T, pad, &pairs, 1, out);
}

void meshMeshContacts(const MeshBVH& a, const RigidTransform& Ta, const MeshBVH& b, const RigidTransform& Tb,
                      double pad, std::vector<ContactPoint>& out) {
  // The pairs are found on every core once two blocks' worth are certain.
  thread_local std::vector<std::vector<std::pair<int, int>>> kept;
  auto& blocks = kept;
  meshMeshPairBlocksWithin(a, Ta, b, Tb, pad, 2 * kPairsPerBlock, blocks);
  Matrix3 R;
  Vector3 T;
  relativePose(Ta, Tb, R, T);
  listContacts(a, Ta, b, R, T, pad, blocks.data(), blocks.size(), out);
}

}  // namespace detail
}  // namespace klampt
