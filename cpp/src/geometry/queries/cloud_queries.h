// Internal to the queries: the ball of a point cloud nearest to another
// leaf, found by descending the cloud's tree (and the other's, where it has
// one) with lower bounds that skip whole groups of balls. A ball's distance
// is ballLeafDistance's: the distance of its centre minus its radius.
#pragma once
#include <utility>
#include <vector>
#include "leaf.h"

namespace klampt {
namespace detail {

/// The search every variant runs: the best ball so far, accepted as
/// PointTree::nearest accepts it (below `best`, or at most `upper` while none
/// is found), and the early stop once a distance <= stopBelow is found.
struct NearestBall {
  double best;
  double stopBelow;
  int ball = -1;

  /// Whether a lower bound leaves room for a better ball.
  bool open(double bound) const { return bound < best || (ball < 0 && bound <= best); }
  /// Whether a value <= stopBelow was found.
  bool done() const { return ball >= 0 && best <= stopBelow; }
  void offer(double d, int i) {
    if (open(d)) {
      best = d;
      ball = i;
    }
  }
};

/// The ball of `cloud` nearest to the mesh leaf `mesh`, by a joint descent of
/// the cloud's tree and the mesh's. Returns its index (-1 if none is below
/// `upper`) and its distance in `best`.
int nearestBallToMesh(const Leaf& cloud, const Leaf& mesh, double upper, double stopBelow, double& best);

/// The ball of cloud `a` nearest to cloud `b` (ball to ball), by a joint
/// descent of both trees.
int nearestBallToCloud(const Leaf& a, const Leaf& b, double upper, double stopBelow, double& best);

/// The pairs (node of a's tree, node of b's tree) of leaf nodes whose balls
/// may be within `tol` of each other (every pair of balls within tol lies in
/// one of them), by a joint descent of both trees.
void cloudLeafPairsWithin(const Leaf& a, const Leaf& b, double tol, std::vector<std::pair<int, int>>& pairs);

/// The ball of `cloud` nearest to any other leaf. Where the leaf's point
/// distance changes no faster than the point moves (Coal's shapes: the
/// distance to a convex solid or to a surface), a node's bound is the
/// distance of its centre minus its radius; otherwise boxes alone bound.
int nearestBallToLeaf(const Leaf& cloud, const Leaf& other, double upper, double stopBelow, double& best);

}  // namespace detail
}  // namespace klampt
