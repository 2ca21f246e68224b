// Median-split box tree over the balls of a point cloud.
#include "klampt/geometry/queries/point_tree.h"
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

namespace klampt {

namespace {
constexpr int kLeafSize = 8;
constexpr int kMaxOrientedBoxBalls = 64;
}

double pointBoxDistance2(const Vector3& p, const Vector3& lo, const Vector3& hi) {
  const Vector3 q = p.cwiseMax(lo).cwiseMin(hi);
  return (p - q).squaredNorm();
}

double boxBoxDistance(const Vector3& lo1, const Vector3& hi1, const Vector3& lo2, const Vector3& hi2) {
  const Vector3 gap = (lo1 - hi2).cwiseMax(lo2 - hi1).cwiseMax(0.0);
  return gap.norm();
}

void transformBox(const RigidTransform& T, const Vector3& lo, const Vector3& hi, Vector3& wlo, Vector3& whi) {
  const Vector3 c = T.apply(0.5 * (lo + hi));
  const Vector3 e = T.R.cwiseAbs() * (0.5 * (hi - lo));
  wlo = c - e;
  whi = c + e;
}

void PointTree::build(const double* points, int n, const std::vector<double>& radii) {
  centers_.resize(n);
  for (int i = 0; i < n; ++i) centers_[i] = Vector3(points[3 * i], points[3 * i + 1], points[3 * i + 2]);
  radii_ = radii;
  maxRadius_ = radii.empty() ? 0.0 : *std::max_element(radii.begin(), radii.end());
  order_.resize(n);
  for (int i = 0; i < n; ++i) order_[i] = i;
  nodes_.clear();
  if (n > 0) {
    nodes_.reserve(2 * (n / kLeafSize + 1));
    buildNode(0, n, Matrix3::Identity());
  }
}

int PointTree::buildNode(int begin, int end, const Matrix3& parentAxes) {
  Node node;
  node.begin = begin;
  node.end = end;
  node.lo = Vector3::Constant(std::numeric_limits<double>::infinity());
  node.hi = -node.lo;
  for (int k = begin; k < end; ++k) {
    const int i = order_[k];
    const double r = radius(i);
    node.lo = node.lo.cwiseMin(centers_[i] - Vector3::Constant(r));
    node.hi = node.hi.cwiseMax(centers_[i] + Vector3::Constant(r));
  }
  node.center = 0.5 * (node.lo + node.hi);
  node.radius = 0.5 * (node.hi - node.lo).norm();  // the box holds the balls
  fitOrientedBox(node, parentAxes);
  const int id = (int)nodes_.size();
  nodes_.push_back(node);
  if (end - begin > kLeafSize) {
    int axis;
    (node.hi - node.lo).maxCoeff(&axis);
    const int mid = (begin + end) / 2;
    std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end,
                     [&](int a, int b) { return centers_[a][axis] < centers_[b][axis]; });
    const int l = buildNode(begin, mid, node.boxAxes);
    const int r = buildNode(mid, end, node.boxAxes);
    nodes_[id].left = l;
    nodes_[id].right = r;
  }
  return id;
}

namespace {

/// The node's oriented box as a swept rectangle (see Node::rectOrigin).
void fitSweptRectangle(PointTree::Node& node) {
  int k0 = 0, k1 = 1, k2 = 2;  // longest, middle, shortest
  if (node.boxHalf[k0] < node.boxHalf[k1]) std::swap(k0, k1);
  if (node.boxHalf[k1] < node.boxHalf[k2]) std::swap(k1, k2);
  if (node.boxHalf[k0] < node.boxHalf[k1]) std::swap(k0, k1);
  node.rectAxes.col(0) = node.boxAxes.col(k0);
  node.rectAxes.col(1) = node.boxAxes.col(k1);
  node.rectAxes.col(2) = node.rectAxes.col(0).cross(node.rectAxes.col(1));
  node.rectOrigin =
      node.boxCenter - node.boxHalf[k0] * node.rectAxes.col(0) - node.boxHalf[k1] * node.rectAxes.col(1);
  node.rectLength[0] = 2 * node.boxHalf[k0];
  node.rectLength[1] = 2 * node.boxHalf[k1];
  node.rectRadius = node.boxHalf[k2];
}

}  // namespace

void PointTree::fitOrientedBox(Node& node, const Matrix3& parentAxes) const {
  // Large nodes keep their axis-aligned box: fitting costs a pass over their
  // points per level, and their bounds matter little to the queries.
  if (node.end - node.begin > kMaxOrientedBoxBalls) {
    node.boxAxes = Matrix3::Identity();
    node.boxCenter = node.center;
    node.boxHalf = 0.5 * (node.hi - node.lo);
    fitSweptRectangle(node);
    return;
  }
  // A leaf's few points take its parent's axes: the solve would cost more
  // than the box saves.
  Matrix3 axes = parentAxes;
  if (node.end - node.begin > kLeafSize) axes = principalAxes(node);
  node.boxAxes = axes;
  Vector3 blo = Vector3::Constant(std::numeric_limits<double>::infinity()), bhi = -blo;
  for (int k = node.begin; k < node.end; ++k) {
    const int i = order_[k];
    const Vector3 q = axes.transpose() * centers_[i];
    blo = blo.cwiseMin(q - Vector3::Constant(radius(i)));
    bhi = bhi.cwiseMax(q + Vector3::Constant(radius(i)));
  }
  node.boxCenter = axes * (0.5 * (blo + bhi));
  node.boxHalf = 0.5 * (bhi - blo);
  fitSweptRectangle(node);
}

Matrix3 PointTree::principalAxes(const Node& node) const {
  Vector3 mean = Vector3::Zero();
  for (int k = node.begin; k < node.end; ++k) mean += centers_[order_[k]];
  mean /= double(node.end - node.begin);
  Matrix3 cov = Matrix3::Zero();
  for (int k = node.begin; k < node.end; ++k) {
    const Vector3 d = centers_[order_[k]] - mean;
    cov.noalias() += d * d.transpose();
  }
  // The closed-form solve (a tenth of the iterative one's cost), made exactly
  // orthonormal: the box holds its points along any orthonormal axes.
  Eigen::SelfAdjointEigenSolver<Matrix3> eig;
  eig.computeDirect(cov);
  Matrix3 axes = Matrix3::Identity();
  const Vector3 u = eig.eigenvectors().col(2).normalized(), v0 = eig.eigenvectors().col(1);
  const Vector3 v = (v0 - v0.dot(u) * u).normalized();
  if (u.allFinite() && v.allFinite()) axes << u, v, u.cross(v);
  return axes;
}

void PointTree::bounds(Vector3& bmin, Vector3& bmax) const {
  if (nodes_.empty()) {
    bmin = bmax = Vector3::Zero();
    return;
  }
  bmin = nodes_[0].lo;
  bmax = nodes_[0].hi;
}

int PointTree::nearest(const std::function<double(const Vector3&, const Vector3&)>& boxLowerBound,
                       const std::function<double(int)>& ballDistance, double upperBound, double stopBelow,
                       double& best) const {
  best = upperBound;
  int bestIndex = -1;
  if (nodes_.empty()) return -1;
  // Best-first search on the boxes' lower bounds.
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  open.push({boxLowerBound(nodes_[0].lo, nodes_[0].hi), 0});
  while (!open.empty()) {
    const auto [bound, id] = open.top();
    open.pop();
    if (bound > best || (bestIndex >= 0 && bound >= best)) break;
    const Node& node = nodes_[id];
    if (node.left < 0) {
      for (int k = node.begin; k < node.end; ++k) {
        const double v = ballDistance(order_[k]);
        if (v < best || (bestIndex < 0 && v <= best)) {
          best = v;
          bestIndex = order_[k];
          if (best <= stopBelow) return bestIndex;
        }
      }
      continue;
    }
    for (int child : {node.left, node.right}) {
      const double b = boxLowerBound(nodes_[child].lo, nodes_[child].hi);
      if (b <= best) open.push({b, child});
    }
  }
  return bestIndex;
}

void PointTree::forEach(const std::function<bool(const Vector3&, const Vector3&)>& boxTest,
                        const std::function<void(int)>& visit) const {
  if (nodes_.empty()) return;
  std::vector<int> stack{0};
  while (!stack.empty()) {
    const Node& node = nodes_[stack.back()];
    stack.pop_back();
    if (!boxTest(node.lo, node.hi)) continue;
    if (node.left < 0) {
      for (int k = node.begin; k < node.end; ++k) visit(order_[k]);
    } else {
      stack.push_back(node.left);
      stack.push_back(node.right);
    }
  }
}

int PointTree::rayCast(const Vector3& s, const Vector3& d, double pad, double& tHit) const {
  tHit = std::numeric_limits<double>::infinity();
  int hit = -1;
  const Vector3 padv = Vector3::Constant(pad);
  forEach(
      [&](const Vector3& lo, const Vector3& hi) {
        double t;
        return rayBox(s, d, lo - padv, hi + padv, tHit, t);
      },
      [&](int i) {
        const double r = radius(i) + pad;
        if (r <= 0) return;
        // |s + t d - c|^2 = r^2 with |d| = 1.
        const Vector3 m = s - centers_[i];
        const double b = m.dot(d), c = m.squaredNorm() - r * r;
        const double disc = b * b - c;
        if (disc < 0) return;
        double t = -b - std::sqrt(disc);
        if (t < 0) t = (c <= 0) ? 0.0 : -1.0;  // start inside the ball: hit at s
        if (t >= 0 && t < tHit) {
          tHit = t;
          hit = i;
        }
      });
  return hit;
}

}  // namespace klampt
