// Median-split box tree over triangles, searched branch-and-bound.
#include "klampt/geometry/mesh_distance.h"
#include <algorithm>
#include <cmath>
#include <limits>
#include "klampt/geometry/primitive.h"

namespace klampt {

namespace {

double boxDistance2(const Vector3& x, const Vector3& lo, const Vector3& hi) {
  return (lo - x).cwiseMax(x - hi).cwiseMax(0.0).squaredNorm();
}

}  // namespace

TriangleDistanceTree::TriangleDistanceTree(const TriangleMesh& mesh) {
  tris_.resize(mesh.indices.rows());
  for (Eigen::Index t = 0; t < mesh.indices.rows(); ++t)
    for (int k = 0; k < 3; ++k) tris_[t][k] = mesh.vertices.row(mesh.indices(t, k)).transpose();
  order_.resize(tris_.size());
  for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = (int)i;
  if (!tris_.empty()) build(0, (int)tris_.size());
}

int TriangleDistanceTree::build(int begin, int end) {
  Node node;
  node.lo = Vector3::Constant(std::numeric_limits<double>::infinity());
  node.hi = -node.lo;
  for (int i = begin; i < end; ++i)
    for (const Vector3& v : tris_[order_[i]]) {
      node.lo = node.lo.cwiseMin(v);
      node.hi = node.hi.cwiseMax(v);
    }
  node.begin = begin;
  node.end = end;
  int index = (int)nodes_.size();
  nodes_.push_back(node);
  if (end - begin <= 4) return index;
  int axis;
  (node.hi - node.lo).maxCoeff(&axis);
  int mid = (begin + end) / 2;
  auto centroid = [&](int t) { return tris_[t][0][axis] + tris_[t][1][axis] + tris_[t][2][axis]; };
  std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end,
                   [&](int a, int b) { return centroid(a) < centroid(b); });
  int left = build(begin, mid);
  int right = build(mid, end);
  nodes_[index].left = left;
  nodes_[index].right = right;
  return index;
}

void TriangleDistanceTree::search(int n, const Vector3& x, double& best2, int& bestTri, Vector3& bestPoint) const {
  const Node& node = nodes_[n];
  if (node.left < 0) {
    for (int i = node.begin; i < node.end; ++i) {
      const auto& t = tris_[order_[i]];
      const Vector3 p = closestPointOnTriangle(x, t[0], t[1], t[2]);
      const double d2 = (x - p).squaredNorm();
      if (d2 < best2) {
        best2 = d2;
        bestTri = order_[i];
        bestPoint = p;
      }
    }
    return;
  }
  int first = node.left, second = node.right;
  double d1 = boxDistance2(x, nodes_[first].lo, nodes_[first].hi);
  double d2 = boxDistance2(x, nodes_[second].lo, nodes_[second].hi);
  if (d2 < d1) {
    std::swap(first, second);
    std::swap(d1, d2);
  }
  if (d1 < best2) search(first, x, best2, bestTri, bestPoint);
  if (d2 < best2) search(second, x, best2, bestTri, bestPoint);
}

double TriangleDistanceTree::distance(const Vector3& x) const {
  Vector3 p;
  double d;
  closest(x, std::numeric_limits<double>::infinity(), p, d);
  return d;
}

int TriangleDistanceTree::closest(const Vector3& x, double upper, Vector3& point, double& dist) const {
  int tri = -1;
  dist = upper;
  if (!(upper > 0)) return -1;
  double best2 = upper * upper;
  if (!nodes_.empty()) search(0, x, best2, tri, point);
  if (tri >= 0) dist = std::sqrt(best2);
  return tri;
}

std::vector<char> insideCells(const TriangleMesh& mesh, const VolumeGrid& g) {
  const int nx = g.dims[0], ny = g.dims[1], nz = g.dims[2];
  const Vector3 cell = (g.bmax - g.bmin).cwiseQuotient(Vector3(nx, ny, nz));
  const double y0 = g.bmin.y() + 0.5 * cell.y() + 1.234567e-4 * cell.y();
  const double z0 = g.bmin.z() + 0.5 * cell.z() + 2.345678e-4 * cell.z();
  // Crossing abscissae of each (j, k) ray, from the triangles whose yz
  // projection covers it.
  std::vector<std::vector<double>> hits((std::size_t)ny * nz);
  for (Eigen::Index t = 0; t < mesh.indices.rows(); ++t) {
    Vector3 a = mesh.vertices.row(mesh.indices(t, 0)), b = mesh.vertices.row(mesh.indices(t, 1)),
            c = mesh.vertices.row(mesh.indices(t, 2));
    double det = (b.y() - a.y()) * (c.z() - a.z()) - (c.y() - a.y()) * (b.z() - a.z());
    if (det == 0) continue;
    auto range = [](double lo, double hi, double start, double step, int n, int& first, int& last) {
      first = std::max(0, (int)std::ceil((lo - start) / step));
      last = std::min(n - 1, (int)std::floor((hi - start) / step));
    };
    int j0, j1, k0, k1;
    range(std::min({a.y(), b.y(), c.y()}), std::max({a.y(), b.y(), c.y()}), y0, cell.y(), ny, j0, j1);
    range(std::min({a.z(), b.z(), c.z()}), std::max({a.z(), b.z(), c.z()}), z0, cell.z(), nz, k0, k1);
    for (int j = j0; j <= j1; ++j)
      for (int k = k0; k <= k1; ++k) {
        double y = y0 + j * cell.y(), z = z0 + k * cell.z();
        // Barycentric coordinates of (y, z) in the projected triangle.
        double u = ((y - a.y()) * (c.z() - a.z()) - (c.y() - a.y()) * (z - a.z())) / det;
        double v = ((b.y() - a.y()) * (z - a.z()) - (y - a.y()) * (b.z() - a.z())) / det;
        if (u < 0 || v < 0 || u + v > 1) continue;
        hits[(std::size_t)j * nz + k].push_back(a.x() + u * (b.x() - a.x()) + v * (c.x() - a.x()));
      }
  }
  std::vector<char> inside((std::size_t)nx * ny * nz, 0);
  for (int j = 0; j < ny; ++j)
    for (int k = 0; k < nz; ++k) {
      auto& row = hits[(std::size_t)j * nz + k];
      std::sort(row.begin(), row.end());
      std::size_t passed = 0;
      for (int i = 0; i < nx; ++i) {
        double x = g.bmin.x() + (i + 0.5) * cell.x();
        while (passed < row.size() && row[passed] < x) ++passed;
        inside[((std::size_t)i * ny + j) * nz + k] = (row.size() - passed) % 2 == 1;
      }
    }
  return inside;
}

}  // namespace klampt
