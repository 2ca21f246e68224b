// Two point clouds' trees descended together, in the second cloud's frame,
// the larger node split, node pairs bounded by their spheres and oriented
// boxes: the ball of one cloud nearest to the other's balls (depth first,
// nearer pair first), and the leaf pairs that may hold balls within a bound.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>
#include "cloud_queries.h"

namespace klampt {
namespace detail {

namespace {

/// The gap between two nodes' oriented boxes (each around its balls) along
/// the axes of either, x placed in y's frame by toB: near distance 0, where
/// the spheres around two overlapping patches prune nothing, thin boxes
/// still separate them.
double nodeBoxGap(const PointTree::Node& x, const PointTree::Node& y, const RigidTransform& toB) {
  const Matrix3 axes = toB.R * x.boxAxes;
  const Vector3 d = toB.apply(x.boxCenter) - y.boxCenter;
  double gap = -INFINITY;
  for (int k = 0; k < 3; ++k) {
    const Vector3 u = axes.col(k), v = y.boxAxes.col(k);
    gap = std::max(gap, std::abs(u.dot(d)) - x.boxHalf[k] - (y.boxAxes.transpose() * u).cwiseAbs().dot(y.boxHalf));
    gap = std::max(gap, std::abs(v.dot(d)) - y.boxHalf[k] - (axes.transpose() * v).cwiseAbs().dot(x.boxHalf));
  }
  return gap;
}

/// The node pairs of two trees that may hold balls within `tol` of each other.
struct LeafPairsWithin {
  const PointTree& a;
  const PointTree& b;
  RigidTransform toB;  // a's frame -> b's frame
  double tol;
  std::vector<std::pair<int, int>>& pairs;

  bool near(int i, int j) const {
    const PointTree::Node &x = a.nodes()[i], &y = b.nodes()[j];
    const double spheres = (toB.apply(x.center) - y.center).norm() - x.radius - y.radius;
    return spheres <= tol && nodeBoxGap(x, y, toB) <= tol;
  }

  void visit(int i, int j) {
    const PointTree::Node &x = a.nodes()[i], &y = b.nodes()[j];
    if (x.isLeaf() && y.isLeaf()) return pairs.push_back({i, j});
    if (!x.isLeaf() && (y.isLeaf() || x.radius > y.radius)) {
      for (int c : {x.left, x.right})
        if (near(c, j)) visit(c, j);
    } else {
      for (int c : {y.left, y.right})
        if (near(i, c)) visit(i, c);
    }
  }
};

struct CloudCloudSearch : NearestBall {
  const PointTree& a;
  const PointTree& b;
  RigidTransform toB;  // a's frame -> b's frame

  CloudCloudSearch(double upper, double stopBelow, const PointTree& ta, const PointTree& tb, const RigidTransform& T)
      : NearestBall{upper, stopBelow}, a(ta), b(tb), toB(T) {}

  double bound(int i, int j) const {
    const PointTree::Node &x = a.nodes()[i], &y = b.nodes()[j];
    const double spheres = (toB.apply(x.center) - y.center).norm() - x.radius - y.radius;
    if (!open(spheres)) return spheres;
    return std::max(spheres, nodeBoxGap(x, y, toB));
  }

  void leaves(const PointTree::Node& x, const PointTree::Node& y) {
    for (int k = x.begin; k < x.end && !done(); ++k) {
      const int i = a.pointAt(k);
      const Vector3 p = toB.apply(a.center(i));
      double d = INFINITY;
      for (int l = y.begin; l < y.end; ++l) {
        const int j = b.pointAt(l);
        d = std::min(d, (p - b.center(j)).norm() - b.radius(j));
      }
      offer(d - a.radius(i), i);
    }
  }

  void visit(int i, int j) {
    const PointTree::Node &x = a.nodes()[i], &y = b.nodes()[j];
    if (x.isLeaf() && y.isLeaf()) return leaves(x, y);
    const bool splitA = !x.isLeaf() && (y.isLeaf() || x.radius > y.radius);
    int ci[2] = {i, i}, cj[2] = {j, j};
    if (splitA) {
      ci[0] = x.left;
      ci[1] = x.right;
    } else {
      cj[0] = y.left;
      cj[1] = y.right;
    }
    double bd[2] = {bound(ci[0], cj[0]), bound(ci[1], cj[1])};
    const int first = bd[1] < bd[0] ? 1 : 0;
    for (int k : {first, 1 - first})
      if (!done() && open(bd[k])) visit(ci[k], cj[k]);
  }
};

}  // namespace

int nearestBallToCloud(const Leaf& a, const Leaf& b, double upper, double stopBelow, double& best) {
  const PointTree &ta = a.cache->points, &tb = b.cache->points;
  best = upper;
  if (ta.nodes().empty() || tb.nodes().empty()) return -1;
  CloudCloudSearch s(upper, stopBelow, ta, tb, b.T.inverse() * a.T);
  if (s.open(s.bound(0, 0))) s.visit(0, 0);
  best = s.best;
  return s.ball;
}

void cloudLeafPairsWithin(const Leaf& a, const Leaf& b, double tol, std::vector<std::pair<int, int>>& pairs) {
  const PointTree &ta = a.cache->points, &tb = b.cache->points;
  if (ta.nodes().empty() || tb.nodes().empty()) return;
  LeafPairsWithin search{ta, tb, b.T.inverse() * a.T, tol, pairs};
  if (search.near(0, 0)) search.visit(0, 0);
}

}  // namespace detail
}  // namespace klampt
