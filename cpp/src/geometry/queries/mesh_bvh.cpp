// Fitting the oriented boxes of a mesh tree. Coal's default OBBRSS fitter runs
// an iterative eigen solver and an exact rectangle-swept-sphere fit per node;
// here the axes of a leaf follow its triangle's longest edge and normal, those
// of an inner node's box are the closed-form eigenvectors of its surface
// covariance, those of its RSS the eigenvectors of its vertex covariance
// (both summed from moments computed once per triangle), and the RSS is a
// rectangle in the box's mid-plane with half the box's thickness as radius,
// shrunk where the rounding allows: several times cheaper to build, nearly as
// tight.
#include "mesh_bvh.h"
#include <Eigen/Eigenvalues>
#include <coal/internal/BV_fitter.h>
#include <algorithm>
#include <cmath>
#include <limits>

namespace klampt {
namespace detail {

namespace {

class FastOBBRSSFitter : public coal::BVFitter<coal::OBBRSS> {
 public:
  /// Weight and weighted first and second moments of each triangle, summed
  /// per node instead of revisiting the vertices at every level.
  struct Moments {
    double weight;
    Vector3 first;
    Matrix3 second;
  };
  void computeMoments(const std::vector<coal::Vec3s>& verts, const std::vector<coal::Triangle>& tris) {
    surface_.resize(tris.size());
    vertex_.resize(tris.size());
    std::vector<double> areas(tris.size());
    double sum = 0;
    for (size_t i = 0; i < tris.size(); ++i) {
      const Vector3 &a = verts[tris[i][0]], &b = verts[tris[i][1]], &c = verts[tris[i][2]];
      areas[i] = 0.5 * (b - a).cross(c - a).norm();
      sum += areas[i];
    }
    // Weights are the area plus the mean area: tight boxes on large faces
    // without letting finely tessellated details vanish from the axes.
    const double floor = std::max(sum / tris.size(), 1e-300);
    for (size_t i = 0; i < tris.size(); ++i) {
      const Vector3 &a = verts[tris[i][0]], &b = verts[tris[i][1]], &c = verts[tris[i][2]];
      const double area = areas[i] + floor;
      const Vector3 centroid = (a + b + c) / 3.0;
      Moments& m = surface_[i];
      m.weight = area;
      m.first = area * centroid;
      m.second = (area / 12.0) * (9.0 * centroid * centroid.transpose() + a * a.transpose() + b * b.transpose() +
                                  c * c.transpose());
      // Unweighted vertices, as the reference's fit uses: thinner RSS on the
      // robot meshes than area weights, so fewer node pairs in distance
      // queries (area-weighted boxes stay better for collisions and rays).
      Moments& v = vertex_[i];
      v.weight = 3;
      v.first = a + b + c;
      v.second = a * a.transpose() + b * b.transpose() + c * c.transpose();
    }
  }

  /// Frees the per-build data once the tree is built (trees are never refitted).
  void releaseBuildData() {
    std::vector<Moments>().swap(surface_);
    std::vector<Moments>().swap(vertex_);
    std::vector<Vector3>().swap(local_);
  }

  coal::OBBRSS fit(unsigned int* prims, unsigned int n) override {
    Matrix3 axes;
    if (n == 1 && triangleAxes(tri_indices[prims[0]], axes)) return fitAlong(axes, prims, n);
    coal::OBBRSS bv = fitAlong(principalAxes(surface_, prims, n), prims, n);
    bv.rss = fitAlong(principalAxes(vertex_, prims, n), prims, n).rss;
    return bv;
  }

 private:
  /// Axes of a leaf: its longest edge, then the in-plane normal to it, then
  /// the triangle's normal. Every edge-aligned rectangle of a triangle has
  /// the least area (twice the triangle's), and no eigen solve is needed.
  bool triangleAxes(const coal::Triangle& t, Matrix3& axes) const {
    const Vector3 &a = vertices[t[0]], &b = vertices[t[1]], &c = vertices[t[2]];
    const Vector3 edges[3] = {b - a, c - b, a - c};
    int longest = 0;
    for (int k = 1; k < 3; ++k)
      if (edges[k].squaredNorm() > edges[longest].squaredNorm()) longest = k;
    const Vector3 normal = edges[0].cross(edges[1]);
    const double len = edges[longest].norm(), area2 = normal.norm();
    if (!(area2 > 1e-12 * len * len)) return false;  // degenerate: no plane
    axes.col(0) = edges[longest] / len;
    axes.col(2) = normal / area2;
    axes.col(1) = axes.col(2).cross(axes.col(0));
    return true;
  }

  /// Principal axes of the triangles' moments, largest spread first.
  static Matrix3 principalAxes(const std::vector<Moments>& moments, const unsigned int* prims, unsigned int n) {
    double total = 0;
    Vector3 first = Vector3::Zero();
    Matrix3 second = Matrix3::Zero();
    for (unsigned i = 0; i < n; ++i) {
      const Moments& m = moments[prims[i]];
      total += m.weight;
      first += m.first;
      second += m.second;
    }
    const Vector3 mean = first / total;
    const Matrix3 cov = second / total - mean * mean.transpose();
    Eigen::SelfAdjointEigenSolver<Matrix3> eig;
    eig.computeDirect(cov);
    Matrix3 axes;
    if (eig.info() == Eigen::Success && eig.eigenvectors().allFinite()) {
      axes.col(0) = eig.eigenvectors().col(2).normalized();
      axes.col(1) = eig.eigenvectors().col(1);
      axes.col(1) = (axes.col(1) - axes.col(1).dot(axes.col(0)) * axes.col(0)).normalized();
      if (!axes.col(1).allFinite()) axes.col(1) = axes.col(0).unitOrthogonal();
    } else {
      axes.col(0) = Vector3::UnitX();
      axes.col(1) = Vector3::UnitY();
    }
    axes.col(2) = axes.col(0).cross(axes.col(1));
    return axes;
  }

  coal::OBBRSS fitAlong(const Matrix3& axes, const unsigned int* prims, unsigned int n) {
    // Coordinates along the axes and their extents.
    Vector3 lo = Vector3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
    local_.resize(3 * n);
    for (unsigned i = 0; i < n; ++i) {
      const coal::Triangle& t = tri_indices[prims[i]];
      for (int k = 0; k < 3; ++k) {
        const Vector3 q = axes.transpose() * vertices[t[k]];
        local_[3 * i + k] = q;
        lo = lo.cwiseMin(q);
        hi = hi.cwiseMax(q);
      }
    }
    coal::OBBRSS bv;
    const Vector3 mid = 0.5 * (lo + hi);
    bv.obb.axes = axes;
    bv.obb.To = axes * mid;
    bv.obb.extent = 0.5 * (hi - lo);
    bv.rss.axes = axes;
    const double r = 0.5 * (hi[2] - lo[2]);
    bv.rss.radius = r;
    // The rectangle (sides along axes 0 and 1, at mid-thickness) shrunk by
    // what the sphere radius leaves each point, then grown where a point in a
    // corner region would be farther than r. The shrink starts from the
    // bounds that the extreme points (slack <= r) give at most; a point
    // farther than r from every side then cannot move them, so the loop
    // needs no test (and no branch).
    double x0 = lo[0] + r, x1 = hi[0] - r, y0 = lo[1] + r, y1 = hi[1] - r;
    for (const Vector3& q : local_) {
      const double dz = q[2] - mid[2];
      const double slack = std::sqrt(std::max(0.0, r * r - dz * dz));
      x0 = std::min(x0, q[0] + slack);
      x1 = std::max(x1, q[0] - slack);
      y0 = std::min(y0, q[1] + slack);
      y1 = std::max(y1, q[1] - slack);
    }
    if (x0 > x1) x0 = x1 = 0.5 * (x0 + x1);
    if (y0 > y1) y0 = y1 = 0.5 * (y0 + y1);
    for (const Vector3& q : local_) {
      const double dx = std::max({x0 - q[0], q[0] - x1, 0.0}), dy = std::max({y0 - q[1], q[1] - y1, 0.0});
      if (dx == 0 || dy == 0) continue;  // the shrink left it within r
      const double dz = q[2] - mid[2];
      if (dx * dx + dy * dy + dz * dz <= r * r) continue;
      // Covering the point's x leaves dy <= its slack, so it is within r.
      x0 = std::min(x0, q[0]);
      x1 = std::max(x1, q[0]);
    }
    bv.rss.Tr = axes * Vector3(x0, y0, mid[2]);
    bv.rss.length[0] = x1 - x0;
    bv.rss.length[1] = y1 - y0;
    return bv;
  }

  std::vector<Vector3> local_;  // scratch: the node's vertices in its axes
  std::vector<Moments> surface_, vertex_;
};

}  // namespace

std::shared_ptr<MeshBVH> buildMeshBVH(const std::vector<coal::Vec3s>& verts, const std::vector<coal::Triangle>& tris) {
  auto bvh = std::make_shared<MeshBVH>();
  auto fitter = std::make_shared<FastOBBRSSFitter>();
  fitter->computeMoments(verts, tris);
  bvh->bv_fitter = fitter;
  bvh->beginModel((unsigned)tris.size(), (unsigned)verts.size());
  bvh->addSubModel(verts, tris);
  bvh->endModel();
  fitter->releaseBuildData();
  bvh->computeLocalAABB();
  return bvh;
}

}  // namespace detail
}  // namespace klampt
