// The ball of a point cloud nearest to a leaf without a tree of its own (a
// primitive, a convex hull, a volume grid): a best-first descent of the
// cloud's tree, the node with the smallest bound first. A node is skipped when its box is
// farther than the best distance from the leaf's box, or (where the boxes
// overlap) when the distance of its centre less L times its radius is, L
// bounding how fast the leaf's point distance changes: 1 for Coal's shapes,
// the grid's bound on its gradient for a volume grid, whose least cell values
// under the node's box bound it too.
#include <algorithm>
#include <cmath>
#include <vector>
#include "cloud_queries.h"
#include "grid_bound.h"

namespace klampt {
namespace detail {

namespace {

struct CloudLeafSearch : NearestBall {
  const Leaf& cloud;
  const Leaf& other;
  const PointTree& tree;
  Vector3 lo, hi;          // the other's world box
  double overlapBound;     // the least ball distance where boxes overlap
  double lipschitz;        // bound on the point distance's gradient, 0 if unknown
  RigidTransform cloudToOther;

  CloudLeafSearch(double upper, double stopBelow, const Leaf& c, const Leaf& o)
      : NearestBall{upper, stopBelow}, cloud(c), other(o), tree(c.cache->points) {
    other.worldBox(lo, hi);
    // Where boxes overlap, a ball can reach below 0: by any amount inside a
    // solid, by at most its radius against a surface.
    overlapBound = other.hasInterior() ? -INFINITY : -tree.maxRadius();
    lipschitz = other.isCoal() ? 1.0 : other.isGrid() ? other.cache->gridLipschitz : 0.0;
    cloudToOther = other.T.inverse() * cloud.T;
  }

  double bound(int i) const {
    const PointTree::Node& n = tree.nodes()[i];
    Vector3 wlo, whi;
    transformBox(cloud.T, n.lo, n.hi, wlo, whi);
    const double gap = boxBoxDistance(wlo, whi, lo, hi);
    const double boxBound = gap > 0 ? gap : overlapBound;
    // Apart, the boxes bound a Coal shape well and cost far less than a shape
    // query; a grid's value outside its box grows from its boundary's, which
    // the box gap misses.
    if (lipschitz == 0 || (boxBound > 0 && !other.isGrid()) || !open(boxBound)) return boxBound;
    double b = boxBound;
    if (other.isGrid()) {
      // The least cell values under the node's box, in the grid's frame.
      Vector3 glo, ghi;
      transformBox(cloudToOther, n.lo, n.hi, glo, ghi);
      b = std::max(b, gridBoxLowerBound(other.data->grid, other.cache->gridMinima, glo, ghi) - tree.maxRadius());
      if (!open(b)) return b;
    }
    double d;
    pointValue(n.center, best + lipschitz * n.radius, d);
    return std::max(b, d - lipschitz * n.radius);
  }

  /// The other leaf's point distance at the point p of the cloud's frame in
  /// v if it is below `upper` (else v = upper and false): the value alone, as
  /// the search needs no closest point (whose gradient costs a grid six more
  /// interpolations).
  bool pointValue(const Vector3& p, double upper, double& v) const {
    if (other.isGrid()) {
      v = gridValue(other.data->grid, cloudToOther.apply(p));
    } else {
      v = leafPointDistance(other, cloud.T.apply(p), upper).d;
    }
    if (v < upper) return true;
    v = upper;
    return false;
  }

  void search() {
    struct Pending {
      double bound;
      int node;
      bool operator<(const Pending& o) const { return bound > o.bound; }  // smallest on top
    };
    thread_local std::vector<Pending> heap;
    heap.clear();
    const double root = bound(0);
    if (open(root)) heap.push_back({root, 0});
    while (!heap.empty() && !done()) {
      std::pop_heap(heap.begin(), heap.end());
      const Pending p = heap.back();
      heap.pop_back();
      if (!open(p.bound)) break;  // so are all the others
      const PointTree::Node& n = tree.nodes()[p.node];
      if (n.isLeaf()) {
        for (int k = n.begin; k < n.end && !done(); ++k) {
          const int b = tree.pointAt(k);
          const double r = tree.radius(b);
          double d;
          if (pointValue(tree.center(b), best + r, d)) offer(d - r, b);
        }
        continue;
      }
      for (int c : {n.left, n.right}) {
        const double bd = bound(c);
        if (!open(bd)) continue;
        heap.push_back({bd, c});
        std::push_heap(heap.begin(), heap.end());
      }
    }
  }
};

}  // namespace

int nearestBallToLeaf(const Leaf& cloud, const Leaf& other, double upper, double stopBelow, double& best) {
  best = upper;
  if (cloud.cache->points.nodes().empty()) return -1;
  CloudLeafSearch s(upper, stopBelow, cloud, other);
  s.search();
  best = s.best;
  return s.ball;
}

}  // namespace detail
}  // namespace klampt
