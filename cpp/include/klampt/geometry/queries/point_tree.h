// Bounding-volume tree over a point cloud whose points are balls (a radius
// each): branch-and-bound nearest queries, range queries and ray casts.
#pragma once
#include <algorithm>
#include <functional>
#include <vector>
#include "klampt/math/types.h"

namespace klampt {

class PointTree {
 public:
  /// Builds over `points` (n x 3, row-major) with per-point radii (may be empty: all 0).
  void build(const double* points, int n, const std::vector<double>& radii);

  int size() const { return (int)centers_.size(); }
  const Vector3& center(int i) const { return centers_[i]; }
  double radius(int i) const { return radii_.empty() ? 0.0 : radii_[i]; }
  double maxRadius() const { return maxRadius_; }
  /// Box of every ball, in the cloud's local frame.
  void bounds(Vector3& bmin, Vector3& bmax) const;

  /// Minimises `ballDistance(i)` over the balls. `boxLowerBound(lo, hi)` must
  /// not exceed the distance of any ball inside the box [lo, hi]. Stops early
  /// once a value <= `stopBelow` is found. Returns the best index (-1 if none
  /// is below `upperBound`) and its value in `best`.
  int nearest(const std::function<double(const Vector3&, const Vector3&)>& boxLowerBound,
              const std::function<double(int)>& ballDistance, double upperBound, double stopBelow,
              double& best) const;
  /// Calls `visit(i)` for every ball whose box passes `boxTest(lo, hi)`.
  void forEach(const std::function<bool(const Vector3&, const Vector3&)>& boxTest,
               const std::function<void(int)>& visit) const;
  /// First ball hit by the ray s + t d (t >= 0, d unit, local frame), with
  /// every radius enlarged by `pad`. Returns the index or -1, and t.
  int rayCast(const Vector3& s, const Vector3& d, double pad, double& tHit) const;

  /// A node of the tree: the box around its balls, the box's centre and
  /// half diagonal (a sphere around the balls), and an oriented box.
  struct Node {
    Vector3 lo, hi;
    Vector3 center;
    double radius;
    /// An oriented box around the balls, along the principal axes of their
    /// centres (thin across a patch of surface): centre, axes, half sizes.
    Vector3 boxCenter;
    Matrix3 boxAxes;
    Vector3 boxHalf;
    /// The oriented box as a swept rectangle: a rectangle on its two longest
    /// axes (columns 0 and 1 of rectAxes, from the corner rectOrigin, sides
    /// rectLength) grown by its shortest half size, rectRadius.
    Vector3 rectOrigin;
    Matrix3 rectAxes;
    double rectLength[2];
    double rectRadius;
    int begin, end;  // range in the order of pointAt
    int left = -1, right = -1;
    bool isLeaf() const { return left < 0; }
  };
  /// The nodes, the root first (none for an empty cloud).
  const std::vector<Node>& nodes() const { return nodes_; }
  /// The ball at position k of the tree's order (a node holds [begin, end)).
  int pointAt(int k) const { return order_[k]; }

 private:
  int buildNode(int begin, int end, const Matrix3& parentAxes);
  void fitOrientedBox(Node& node, const Matrix3& parentAxes) const;
  Matrix3 principalAxes(const Node& node) const;
  std::vector<Vector3> centers_;
  std::vector<double> radii_;
  double maxRadius_ = 0.0;
  std::vector<int> order_;
  std::vector<Node> nodes_;
};

/// Squared distance from p to the box [lo, hi] (0 inside).
double pointBoxDistance2(const Vector3& p, const Vector3& lo, const Vector3& hi);
/// Distance between two axis-aligned boxes (0 if they overlap).
double boxBoxDistance(const Vector3& lo1, const Vector3& hi1, const Vector3& lo2, const Vector3& hi2);
/// Entry parameter of the ray s + t d into the box, or false if it misses
/// (or the box lies beyond tMax). Inline: tree descents call it per node.
inline bool rayBox(const Vector3& s, const Vector3& d, const Vector3& lo, const Vector3& hi, double tMax,
                   double& tEnter) {
  double t0 = 0.0, t1 = tMax;
  for (int k = 0; k < 3; ++k) {
    if (d[k] == 0.0) {
      if (s[k] < lo[k] || s[k] > hi[k]) return false;
      continue;
    }
    const double inv = 1.0 / d[k];
    double a = (lo[k] - s[k]) * inv, b = (hi[k] - s[k]) * inv;
    if (a > b) std::swap(a, b);
    t0 = std::max(t0, a);
    t1 = std::min(t1, b);
    if (t0 > t1) return false;
  }
  tEnter = t0;
  return true;
}
/// World box of the local box [lo, hi] placed at T.
void transformBox(const RigidTransform& T, const Vector3& lo, const Vector3& hi, Vector3& wlo, Vector3& whi);

}  // namespace klampt
