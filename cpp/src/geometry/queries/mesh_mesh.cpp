// Mesh–mesh collision and distance by descending both oriented-box trees
// together, in the second mesh's frame relative to the first. Each thread
// remembers the last touching / closest triangle pair of every mesh pair and
// tries it first: coherent queries (a robot moving a little, the same pair
// asked again) then exit at once or start from a tight upper bound.
#include <coal/BV/OBB.h>
#include <coal/BV/RSS.h>
#include <coal/internal/intersect.h>
#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <vector>
#include "klampt/geometry/primitive.h"
#include "klampt/math/parallel_for.h"
#include "mesh_bvh.h"
#include "triangle_distance.h"
#include "triangle_overlap.h"

namespace klampt {
namespace detail {

namespace {

struct PairKey {
  const MeshBVH *a, *b;
  bool operator==(const PairKey& o) const { return a == o.a && b == o.b; }
};
struct PairKeyHash {
  size_t operator()(const PairKey& k) const {
    return std::hash<const void*>()(k.a) * 31 + std::hash<const void*>()(k.b);
  }
};

/// Last triangle pair found for each mesh pair on this thread. A stale entry
/// (freed meshes whose addresses are reused) is only a hint, checked against
/// the triangle counts.
struct Hint {
  std::pair<int, int> pair{-1, -1};
  /// Relative pose of b in a's frame when a distance query found the pair:
  /// asked again there, the pair is the answer and only needs proving.
  bool fromDistance = false;
  Matrix3 R;
  Vector3 T;
};
Hint& hintFor(const MeshBVH& a, const MeshBVH& b) {
  thread_local std::unordered_map<PairKey, Hint, PairKeyHash> hints;
  if (hints.size() > 65536) hints.clear();
  return hints.try_emplace(PairKey{&a, &b}).first->second;
}

bool validHint(const std::pair<int, int>& h, const MeshBVH& a, const MeshBVH& b) {
  return h.first >= 0 && h.second >= 0 && (unsigned)h.first < a.num_tris && (unsigned)h.second < b.num_tris;
}

/// Volumes of b's nodes placed in a's frame, per thread: each is placed once
/// per query (the stamp says which query) and then tested against many of
/// a's nodes. Entry holds the placed volume and an `unsigned stamp`.
template <class Entry>
struct PlacedNodes {
  std::vector<Entry> entries;
  unsigned stamp = 0;

  /// Readies it for a new query over a tree of numNodes nodes.
  void startQuery(unsigned numNodes) {
    if (entries.size() < numNodes) entries.resize(numNodes);
    if (++stamp == 0) {  // wrapped: forget every stamp
      for (Entry& e : entries) e.stamp = 0;
      stamp = 1;
    }
  }

  /// This thread's cache, readied for a new query.
  static PlacedNodes& forThisThread(unsigned numNodes) {
    thread_local PlacedNodes p;
    p.startQuery(numNodes);
    return p;
  }

  /// Node j's entry, filled by place(entry) the first time this query asks.
  template <class Place>
  const Entry& get(int j, Place&& place) {
    Entry& e = entries[j];
    if (e.stamp != stamp) {
      place(e);
      e.stamp = stamp;
    }
    return e;
  }
};

struct PlacedBox {
  Matrix3 axes;
  Vector3 center;
  unsigned stamp = 0;
};

struct PlacedRss {
  coal::RSS rss;
  Vector3 center, half0, half1;  // of the rectangle, its half sides
  unsigned stamp = 0;
};

/// Separating-axis test between box 1 (axes A, centre c1, half sizes a) and
/// box 2 (B, c2, b), both in one frame: true if they are disjoint. The rows of
/// the relative rotation are formed only as the face tests of box 1 need them,
/// so most separated pairs cost a third of the full test. Like Coal's test,
/// 1e-6 added to the rotation's magnitudes keeps nearly parallel edges safe.
bool boxesDisjoint(const Matrix3& A, const Vector3& c1, const Vector3& a, const Matrix3& B, const Vector3& c2,
                   const Vector3& b) {
  const Vector3 d = c2 - c1;
  Matrix3 R, Rabs;
  Vector3 t;
  for (int k = 0; k < 3; ++k) {
    R.row(k).noalias() = A.col(k).transpose() * B;
    Rabs.row(k) = R.row(k).cwiseAbs().array() + 1e-6;
    t[k] = A.col(k).dot(d);
    if (std::abs(t[k]) > a[k] + Rabs.row(k).dot(b)) return true;
  }
  for (int k = 0; k < 3; ++k)
    if (std::abs(t.dot(R.col(k))) > b[k] + Rabs.col(k).dot(a)) return true;
  for (int i = 0; i < 3; ++i) {
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    for (int j = 0; j < 3; ++j) {
      const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      const double s = t[i2] * R(i1, j) - t[i1] * R(i2, j);
      if (std::abs(s) > a[i1] * Rabs(i2, j) + a[i2] * Rabs(i1, j) + b[j1] * Rabs(i, j2) + b[j2] * Rabs(i, j1))
        return true;
    }
  }
  return false;
}

/// The relative placement of b in a's frame and the triangle data of both.
struct Traversal {
  const MeshBVH& a;
  const MeshBVH& b;
  Matrix3 R;
  Vector3 T;
  Traversal(const MeshBVH& a_, const RigidTransform& Ta, const MeshBVH& b_, const RigidTransform& Tb)
      : a(a_), b(b_), R(Ta.R.transpose() * Tb.R), T(Ta.R.transpose() * (Tb.t - Ta.t)) {}

  /// Triangle i of a and triangle j of b, both in a's frame.
  void trianglePair(int i, int j, Vector3 (&p)[3], Vector3 (&q)[3]) const {
    const coal::Triangle& s = (*a.tri_indices)[i];
    const coal::Triangle& t = (*b.tri_indices)[j];
    for (int k = 0; k < 3; ++k) {
      p[k] = (*a.vertices)[s[k]];
      q[k].noalias() = R * (*b.vertices)[t[k]] + T;
    }
  }
  /// Squared distance between triangle i of a and j of b; P, Q in a's frame.
  /// Above stopAbove2, possibly only a bound on it (triangleDistance2).
  double triDistance2(int i, int j, Vector3& P, Vector3& Q, double stopAbove2) const {
    Vector3 p[3], q[3];
    trianglePair(i, j, p, q);
    // Not Coal's triangle distance: it overestimates some separated pairs.
    return triangleDistance2(p[0], p[1], p[2], q[0], q[1], q[2], &P, &Q, stopAbove2);
  }

  /// Whether node n1 of a is split before n2 of b (the larger non-leaf).
  bool splitFirst(const coal::BVNode<coal::OBBRSS>& n1, const coal::BVNode<coal::OBBRSS>& n2) const {
    return n2.isLeaf() || (!n1.isLeaf() && n1.bv.size() > n2.bv.size());
  }
};

struct WithinSearch : Traversal {
  double tol, tol2;
  int t1 = -1, t2 = -1;
  PlacedNodes<PlacedBox>* placed = nullptr;
  using Traversal::Traversal;

  const PlacedBox& placedBox(int j) const {
    return placed->get(j, [&](PlacedBox& box) {
      const coal::OBB& o = b.getBV(j).bv.obb;
      box.axes.noalias() = R * o.axes;
      box.center.noalias() = R * o.To + T;
    });
  }
  /// Whether triangle i of a is within tol of triangle j of b. Touching
  /// (tol 0) is a separating-axis test, several times cheaper than the
  /// distance, which only triangles of no area still need.
  bool trianglesWithin(int i, int j) const {
    if (tol == 0) {
      const coal::Triangle& s = (*a.tri_indices)[i];
      const coal::Triangle& t = (*b.tri_indices)[j];
      const auto& va = *a.vertices;
      const auto& vb = *b.vertices;
      const TriangleOverlap o = trianglesOverlap(va[s[0]], va[s[1]], va[s[2]], R * vb[t[0]] + T, R * vb[t[1]] + T,
                                                 R * vb[t[2]] + T);
      if (o != TriangleOverlap::Degenerate) return o == TriangleOverlap::Intersect;
    }
    Vector3 P, Q;
    return triDistance2(i, j, P, Q, tol2) <= tol2;
  }
  /// Whether node box o1 of a, grown by tol along its axes (which covers
  /// every point within tol of it), overlaps node j of b.
  bool boxesNear(const coal::OBB& o1, int j) const {
    const PlacedBox& box = placedBox(j);
    return !boxesDisjoint(o1.axes, o1.To, o1.extent.array() + tol, box.axes, box.center, b.getBV(j).bv.obb.extent);
  }

  bool recurse(int i, int j) {
    const auto& n1 = a.getBV(i);
    const auto& n2 = b.getBV(j);
    if (!boxesNear(n1.bv.obb, j)) return false;
    if (n1.isLeaf() && n2.isLeaf()) {
      if (!trianglesWithin(n1.primitiveId(), n2.primitiveId())) return false;
      t1 = n1.primitiveId();
      t2 = n2.primitiveId();
      return true;
    }
    if (splitFirst(n1, n2)) return recurse(n1.leftChild(), j) || recurse(n1.rightChild(), j);
    return recurse(i, n2.leftChild()) || recurse(i, n2.rightChild());
  }
};

/// In a long list of triangle pairs, the node pairs with at most this many
/// pairs under them are taken whole: there the volumes' tests cost more than
/// the triangle tests they save (two overlapping tx90l links: 28% more
/// pairs, the descent 40% shorter on one core and half on two). Short
/// lists, the simulator's, keep every test.
constexpr double kLongListTakeWholeBelow = 16;
/// The number of pairs found after which a list counts as long.
constexpr size_t kLongListAfter = 1024;

struct DistanceSearch : Traversal {
  double best, relErr, absErr;
  int t1 = -1, t2 = -1;
  Vector3 P, Q;
  /// The unit direction from P to Q once they are apart, else 0. Surfaces
  /// that face each other across the gap (where the pairs that bound the
  /// search lie) are separated along it nearly as much as they are apart.
  Vector3 dir = Vector3::Zero();
  PlacedNodes<PlacedRss>* placed = nullptr;
  using Traversal::Traversal;

  const PlacedRss& placedRss(int j) const {
    return placed->get(j, [&](PlacedRss& e) {
      const coal::RSS& r = b.getBV(j).bv.rss;
      e.rss = r;
      e.rss.axes.noalias() = R * r.axes;
      e.rss.Tr.noalias() = R * r.Tr + T;
      e.half0 = (0.5 * r.length[0]) * e.rss.axes.col(0);
      e.half1 = (0.5 * r.length[1]) * e.rss.axes.col(1);
      e.center = e.rss.Tr + e.half0 + e.half1;
    });
  }
  static Vector3 rectCenter(const coal::RSS& r) {
    return r.Tr + (0.5 * r.length[0]) * r.axes.col(0) + (0.5 * r.length[1]) * r.axes.col(1);
  }
  /// Distance between the RSS of node i of a and node j of b.
  double lowerBound(int i, int j) const { return a.getBV(i).bv.rss.distance(placedRss(j).rss); }
  /// A cheaper lower bound on it: the largest gap between the two swept
  /// rectangles along dir and the axes of either (the face axes of two thin
  /// boxes), less the radii. Along an axis of one rectangle, its own half
  /// extent is its half side. Returns as soon as `enough` accepts the bound
  /// so far (then possibly below the largest).
  template <class Enough>
  double gapBound(int i, int j, Enough&& enough) const {
    const coal::RSS& r1 = a.getBV(i).bv.rss;
    const PlacedRss& e = placedRss(j);
    const double radii = r1.radius + e.rss.radius;
    const Vector3 h[2] = {(0.5 * r1.length[0]) * r1.axes.col(0), (0.5 * r1.length[1]) * r1.axes.col(1)};
    const Vector3 d = e.center - (r1.Tr + h[0] + h[1]);
    const auto gapAlong = [&d](const auto& u, double ownHalf, const Vector3& other0, const Vector3& other1) {
      return std::abs(u.dot(d)) - ownHalf - std::abs(u.dot(other0)) - std::abs(u.dot(other1));
    };
    double gap = gapAlong(dir, std::abs(dir.dot(h[0])) + std::abs(dir.dot(h[1])), e.half0, e.half1) - radii;
    if (enough(gap)) return gap;
    gap = std::max({gap, gapAlong(r1.axes.col(2), 0, e.half0, e.half1) - radii,
                    gapAlong(e.rss.axes.col(2), 0, h[0], h[1]) - radii});
    if (enough(gap)) return gap;
    for (int k = 0; k < 2; ++k)
      gap = std::max({gap, gapAlong(r1.axes.col(k), 0.5 * r1.length[k], e.half0, e.half1) - radii,
                      gapAlong(e.rss.axes.col(k), 0.5 * e.rss.length[k], h[0], h[1]) - radii});
    return gap;
  }
  /// The gap bound, complete where it cannot prune.
  double pruningGapBound(int i, int j) const {
    return gapBound(i, j, [this](double g) { return prune(g); });
  }
  /// An upper bound on it: the distance between a point of either rectangle
  /// (a's point nearest b's centre, then b's point nearest that), less the
  /// radii.
  double upperBound(int i, int j) const {
    return rectPointsDistance(i, j) - a.getBV(i).bv.rss.radius - placedRss(j).rss.radius;
  }
  /// The distance between those two points of the rectangles.
  double rectPointsDistance(int i, int j) const {
    const coal::RSS& r1 = a.getBV(i).bv.rss;
    const PlacedRss& e = placedRss(j);
    const auto nearestOnRect = [](const Vector3& p, const Vector3& center, const Matrix3& axes, const double* length) {
      const Vector3 d = p - center;
      Vector3 q = center;
      for (int k = 0; k < 2; ++k) {
        const double half = 0.5 * length[k];
        q += std::clamp(axes.col(k).dot(d), -half, half) * axes.col(k);
      }
      return q;
    };
    const Vector3 p = nearestOnRect(e.center, rectCenter(r1), r1.axes, r1.length);
    const Vector3 q = nearestOnRect(p, e.center, e.rss.axes, e.rss.length);
    return (p - q).norm();
  }
  /// Whether the pair is pruned by its exact bound, computed only when two
  /// points of the volumes are not already nearer than the pruning threshold
  /// (leaf pairs go straight to their triangle test).
  bool prunedByExactBound(int i, int j) const {
    return !leafPair(i, j) && prune(upperBound(i, j)) && prune(lowerBound(i, j));
  }
  /// The size compared to pick the node to split: the area of the swept
  /// rectangle's outline. On the robot meshes it leads to fewer node pairs
  /// than the reference's choice (the rectangle's diagonal plus 2 radii).
  static double splitSize(const coal::RSS& r) {
    return (r.length[0] + 2 * r.radius) * (r.length[1] + 2 * r.radius);
  }

  bool prune(double bound) const { return bound >= best - absErr && bound * (1 + relErr) >= best; }
  void leaf(int i, int j) {
    Vector3 p[3], q[3];
    trianglePair(i, j, p, q);
    // Their gap along dir first: six products settle most pairs that the
    // volumes above could not.
    const auto along = [this](const Vector3(&v)[3]) {
      const double x[3] = {dir.dot(v[0]), dir.dot(v[1]), dir.dot(v[2])};
      return std::minmax({x[0], x[1], x[2]});
    };
    const auto [pLo, pHi] = along(p);
    const auto [qLo, qHi] = along(q);
    if (std::max(qLo - pHi, pLo - qHi) >= best) return;
    Vector3 cp, cq;
    const double d = std::sqrt(triangleDistance2(p[0], p[1], p[2], q[0], q[1], q[2], &cp, &cq, best * best));
    if (d < best) {
      best = d;
      t1 = i;
      t2 = j;
      P = cp;
      Q = cq;
      if (d > 0) dir = (Q - P) / d;
    }
  }
  bool leafPair(int i, int j) const { return a.getBV(i).isLeaf() && b.getBV(j).isLeaf(); }
  /// The two pairs that split the larger node of (i, j).
  void children(int i, int j, int c[2][2]) const {
    const auto& n1 = a.getBV(i);
    const auto& n2 = b.getBV(j);
    if (n2.isLeaf() || (!n1.isLeaf() && splitSize(n1.bv.rss) > splitSize(n2.bv.rss))) {
      c[0][0] = n1.leftChild(), c[0][1] = j, c[1][0] = n1.rightChild(), c[1][1] = j;
    } else {
      c[0][0] = i, c[0][1] = n2.leftChild(), c[1][0] = i, c[1][1] = n2.rightChild();
    }
  }

  /// Depth first, the pair of children with the smaller gap bound first. The
  /// exact bound of a pair is computed when it is reached, if it can still
  /// prune: most pairs pruned at all are pruned by the gap bound, and best
  /// has often dropped by the time the second pair is reached.
  void recurse(int i, int j) {
    if (leafPair(i, j)) return leaf(a.getBV(i).primitiveId(), b.getBV(j).primitiveId());
    int c[2][2];
    children(i, j, c);
    double d[2];
    for (int k = 0; k < 2; ++k) d[k] = pruningGapBound(c[k][0], c[k][1]);
    const int first = d[1] < d[0] ? 1 : 0;
    for (int k : {first, 1 - first}) {
      if (best <= 0 || prune(d[k]) || prunedByExactBound(c[k][0], c[k][1])) continue;
      recurse(c[k][0], c[k][1]);
    }
  }

  /// collectWithin takes the node pairs with at most this many triangle
  /// pairs under them whole, untested (1: leaf pairs only).
  double takeWholeBelow = 1;

  /// Appends every triangle pair under (i, j), in the order the descent
  /// reaches them (the contacts' order, which the simulator's selection of
  /// contacts depends on, does not change with the size taken whole).
  void appendAllPairs(int i, int j, std::vector<std::pair<int, int>>& pairs) const {
    if (leafPair(i, j)) {
      pairs.emplace_back(a.getBV(i).primitiveId(), b.getBV(j).primitiveId());
      return;
    }
    int c[2][2];
    children(i, j, c);
    for (int k = 0; k < 2; ++k) appendAllPairs(c[k][0], c[k][1], pairs);
  }
  /// Whether collectWithin takes every pair under (i, j) without descending.
  bool takeWhole(int i, int j) const { return pairCount({i, j}) <= takeWholeBelow; }

  /// Appends every triangle pair under (i, j) whose parents' swept
  /// rectangles are within tol, and those under node pairs small enough to
  /// take whole. An inner pair is tested by the cheap gap bound before the
  /// exact distance, which two points of the rectangles within tol make
  /// needless (most pairs where surfaces overlap: a third of the time of two
  /// overlapping tx90l links' contacts); the radii are left out of that
  /// shortcut, as a node with a far vertex has a radius whose rounding swamps
  /// the rest. The pairs taken untested are settled by the caller's triangle
  /// test for less than their volumes' test would cost.
  void collectWithin(int i, int j, double tol, std::vector<std::pair<int, int>>& pairs) const {
    if (takeWhole(i, j)) return appendAllPairs(i, j, pairs);
    int c[2][2];
    children(i, j, c);
    for (int k = 0; k < 2; ++k)
      if (descends(c[k][0], c[k][1], tol)) collectWithin(c[k][0], c[k][1], tol, pairs);
  }
  /// Whether collectWithin descends into (x, y), a child pair of one it visits.
  bool descends(int x, int y, double tol) const {
    return leafPair(x, y) || (gapBound(x, y, [tol](double g) { return g > tol; }) <= tol &&
                              (rectPointsDistance(x, y) <= tol || lowerBound(x, y) <= tol));
  }

  /// collectWithin(0, 0) until `budget` pairs are found, leaving in
  /// `pending` the node pairs it would descend next, in its order. Once the
  /// list is long it takes small node pairs whole.
  void collectWithinUpTo(double tol, size_t budget, std::vector<std::pair<int, int>>& pairs,
                         std::vector<std::pair<int, int>>& pending) const {
    thread_local std::vector<std::pair<int, int>> stack;  // the next on top (kept: the simulator asks often)
    stack.assign(1, {0, 0});
    while (!stack.empty() && pairs.size() < budget) {
      const auto [i, j] = stack.back();
      stack.pop_back();
      const double whole = pairs.size() >= kLongListAfter ? kLongListTakeWholeBelow : takeWholeBelow;
      if (pairCount({i, j}) <= whole) {
        appendAllPairs(i, j, pairs);
        continue;
      }
      int c[2][2];
      children(i, j, c);
      for (int k = 1; k >= 0; --k)
        if (descends(c[k][0], c[k][1], tol)) stack.emplace_back(c[k][0], c[k][1]);
    }
    pending.assign(stack.rbegin(), stack.rend());
  }

  /// The number of triangle pairs under a node pair: the split below parts
  /// the largest first.
  double pairCount(const std::pair<int, int>& n) const {
    return (double)a.getBV(n.first).num_primitives * b.getBV(n.second).num_primitives;
  }

  /// Best first (smallest gap bound first, the exact bound checked as a pair
  /// is taken) until a triangle pair is reached or for at most
  /// `bestFirstSteps` splits, then depth first from the remaining pairs,
  /// smallest bound first. A stale warm start (the pose changed)
  /// leaves `best` loose, and a depth-first descent then wanders among pairs
  /// whose bounds are all below it; the first triangle pair reached best
  /// first is nearly the closest, so the depth-first rest prunes almost as
  /// with an exact warm start. The cap bounds the cost of the heap when the
  /// warm start is exact and few triangle pairs come below it.
  void search(double rootBound) {
    constexpr int bestFirstSteps = 512;
    struct Pending {
      double bound;
      int i, j;
      bool operator<(const Pending& o) const {  // heap order: smallest bound on top
        return bound > o.bound || (bound == o.bound && (i > o.i || (i == o.i && j > o.j)));
      }
    };
    thread_local std::vector<Pending> heap;
    heap.assign(1, Pending{rootBound, 0, 0});
    for (int step = 0; step < bestFirstSteps && !heap.empty(); ++step) {
      std::pop_heap(heap.begin(), heap.end());
      const Pending p = heap.back();
      heap.pop_back();
      if (best <= 0 || prune(p.bound)) return;  // so are all the others
      if (prunedByExactBound(p.i, p.j)) continue;
      if (leafPair(p.i, p.j)) {
        leaf(a.getBV(p.i).primitiveId(), b.getBV(p.j).primitiveId());
        break;
      }
      int c[2][2];
      children(p.i, p.j, c);
      for (int k = 0; k < 2; ++k) {
        const double d = pruningGapBound(c[k][0], c[k][1]);
        if (prune(d)) continue;
        heap.push_back(Pending{d, c[k][0], c[k][1]});
        std::push_heap(heap.begin(), heap.end());
      }
    }
    std::sort_heap(heap.begin(), heap.end());  // largest bound first
    for (auto it = heap.rbegin(); it != heap.rend(); ++it) {
      if (best <= 0 || prune(it->bound)) return;
      if (!prunedByExactBound(it->i, it->j)) recurse(it->i, it->j);
    }
  }
};

bool pointNear(const MeshBVH& m, int node, const Vector3& p, double tol, double tol2) {
  const auto& n = m.getBV(node);
  const coal::OBB& box = n.bv.obb;
  const Vector3 q = box.axes.transpose() * (p - box.To);
  if ((q.cwiseAbs() - box.extent).maxCoeff() > tol) return false;
  if (!n.isLeaf()) return pointNear(m, n.leftChild(), p, tol, tol2) || pointNear(m, n.rightChild(), p, tol, tol2);
  const coal::Triangle& t = (*m.tri_indices)[n.primitiveId()];
  const auto& v = *m.vertices;
  return (p - closestPointOnTriangle(p, v[t[0]], v[t[1]], v[t[2]])).squaredNorm() <= tol2;
}

}  // namespace

bool pointNearMesh(const MeshBVH& mesh, const Vector3& p, double tol) {
  return mesh.getNumBVs() > 0 && pointNear(mesh, 0, p, tol, tol * tol);
}

bool meshMeshWithin(const MeshBVH& a, const RigidTransform& Ta, const MeshBVH& b, const RigidTransform& Tb,
                    double tol, int& t1, int& t2) {
  if (a.getNumBVs() == 0 || b.getNumBVs() == 0) return false;
  WithinSearch s(a, Ta, b, Tb);
  s.tol = tol;
  s.tol2 = tol * tol;
  s.placed = &PlacedNodes<PlacedBox>::forThisThread(b.getNumBVs());
  // Disjoint root boxes settle most far pairs before the hint's triangle
  // test (several times the cost of a box test) is paid.
  if (!s.boxesNear(a.getBV(0).bv.obb, 0)) return false;
  Hint& hint = hintFor(a, b);
  if (validHint(hint.pair, a, b)) {
    if (s.trianglesWithin(hint.pair.first, hint.pair.second)) {
      t1 = hint.pair.first;
      t2 = hint.pair.second;
      return true;
    }
  }
  if (!s.recurse(0, 0)) return false;
  hint.pair = {s.t1, s.t2};
  hint.fromDistance = false;
  t1 = s.t1;
  t2 = s.t2;
  return true;
}

void meshMeshPairsWithin(const MeshBVH& a, const RigidTransform& Ta, const MeshBVH& b, const RigidTransform& Tb,
                         double tol, std::vector<std::pair<int, int>>& pairs) {
  if (a.getNumBVs() == 0 || b.getNumBVs() == 0) return;
  // The swept rectangles of a surface patch hug it far closer than its box
  // grown by tol: on the mug pile they visit a third of the node pairs.
  prepareForDistance(a);
  prepareForDistance(b);
  DistanceSearch s(a, Ta, b, Tb);
  s.placed = &PlacedNodes<PlacedRss>::forThisThread(b.getNumBVs());
  if (s.lowerBound(0, 0) <= tol) s.collectWithin(0, 0, tol, pairs);
}

void meshMeshPairBlocksWithin(const MeshBVH& a, const RigidTransform& Ta, const MeshBVH& b, const RigidTransform& Tb,
                              double tol, size_t budget, std::vector<std::vector<std::pair<int, int>>>& blocks) {
  blocks.resize(1);
  blocks[0].clear();
  if (a.getNumBVs() == 0 || b.getNumBVs() == 0) return;
  prepareForDistance(a);
  prepareForDistance(b);
  DistanceSearch s(a, Ta, b, Tb);
  s.placed = &PlacedNodes<PlacedRss>::forThisThread(b.getNumBVs());
  if (s.lowerBound(0, 0) > tol) return;
  std::vector<std::pair<int, int>> pending;
  s.collectWithinUpTo(tol, budget, blocks[0], pending);
  s.takeWholeBelow = kLongListTakeWholeBelow;
  const int cores = pending.empty() ? 1 : availableCores();
  if (cores < 2) {
    for (const auto& [i, j] : pending) s.collectWithin(i, j, tol, blocks[0]);
    return;
  }
  // Enough pieces for the cores to share them evenly: the one with the most
  // triangle pairs under it is replaced by its children, in place (the
  // order stays the descent's), until there are eight per core.
  while (pending.size() < 8 * (size_t)cores) {
    auto largest = std::max_element(pending.begin(), pending.end(), [&s](const auto& x, const auto& y) {
      return s.pairCount(x) < s.pairCount(y);
    });
    if (s.takeWhole(largest->first, largest->second)) break;
    int c[2][2];
    s.children(largest->first, largest->second, c);
    const size_t at = largest - pending.begin();
    pending.erase(largest);
    for (int k = 1; k >= 0; --k)
      if (s.descends(c[k][0], c[k][1], tol)) pending.emplace(pending.begin() + at, c[k][0], c[k][1]);
    if (pending.empty()) return;
  }
  // Each worker places b's nodes in a cache of its own, kept by the calling
  // thread (named by reference: in a worker `kept` would be the worker's).
  thread_local std::vector<PlacedNodes<PlacedRss>> kept;
  auto& placed = kept;
  placed.resize(cores);
  for (auto& p : placed) p.startQuery(b.getNumBVs());
  blocks.resize(1 + pending.size());
  parallelFor((int)pending.size(), cores, [&](int worker, int k) {
    DistanceSearch w(a, Ta, b, Tb);
    w.placed = &placed[worker];
    w.takeWholeBelow = s.takeWholeBelow;
    blocks[1 + k].clear();
    w.collectWithin(pending[k].first, pending[k].second, tol, blocks[1 + k]);
  });
}

MeshMeshDistance meshMeshDistance(const MeshBVH& a, const RigidTransform& Ta, const MeshBVH& b,
                                  const RigidTransform& Tb, double upper, double relErr, double absErr) {
  prepareForDistance(a);
  prepareForDistance(b);
  DistanceSearch s(a, Ta, b, Tb);
  s.best = upper;
  s.relErr = relErr;
  s.absErr = absErr;
  // A copy: the collision test below updates the hints too.
  const Hint start = hintFor(a, b);
  if (validHint(start.pair, a, b)) s.leaf(start.pair.first, start.pair.second);
  const bool samePose = start.fromDistance && start.R == s.R && start.T == s.T;
  if (a.getNumBVs() > 0 && b.getNumBVs() > 0) {
    s.placed = &PlacedNodes<PlacedRss>::forThisThread(b.getNumBVs());
    const double rootBound = s.best <= 0 ? 0 : s.lowerBound(0, 0);
    int c1, c2;
    // Overlapping roots: a collision test (boxes, early exit) settles
    // touching meshes far sooner than the distance descent reaches 0.
    if (s.best > 0 && rootBound <= 0 && meshMeshWithin(a, Ta, b, Tb, 0, c1, c2)) s.leaf(c1, c2);
    if (samePose) {
      if (!(s.best <= 0 || s.prune(rootBound))) s.recurse(0, 0);
    } else {
      s.search(rootBound);
    }
  }
  MeshMeshDistance out{s.best, Vector3::Zero(), Vector3::Zero(), s.t1, s.t2};
  if (s.t1 < 0) return out;
  Hint& hint = hintFor(a, b);
  hint.pair = {s.t1, s.t2};
  hint.fromDistance = true;
  hint.R = s.R;
  hint.T = s.T;
  out.cp1 = Ta.apply(s.P);
  out.cp2 = Ta.apply(s.Q);
  return out;
}

}  // namespace detail
}  // namespace klampt
