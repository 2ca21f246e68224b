// Fitting the oriented boxes of a mesh tree. Coal's default OBBRSS fitter runs
// an iterative eigen solver and an exact rectangle-swept-sphere fit per node;
// here the axes come from the closed-form eigenvectors of the vertex
// covariance and the RSS is a rectangle in the box's mid-plane with half the
// box's thickness as radius, shrunk where the rounding allows: several times
// cheaper to build, nearly as tight.
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
  coal::OBBRSS fit(unsigned int* prims, unsigned int n) override { return fitAlong(principalAxes(prims, n), prims, n); }

 private:
  Matrix3 principalAxes(const unsigned int* prims, unsigned int n) const {
    // Principal axes of the triangles' vertices, largest spread first.
    Vector3 mean = Vector3::Zero();
    Matrix3 second = Matrix3::Zero();
    for (unsigned i = 0; i < n; ++i) {
      const coal::Triangle& t = tri_indices[prims[i]];
      for (int k = 0; k < 3; ++k) {
        const Vector3& p = vertices[t[k]];
        mean += p;
        second.noalias() += p * p.transpose();
      }
    }
    const double count = 3.0 * n;
    mean /= count;
    const Matrix3 cov = second / count - mean * mean.transpose();
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
    // corner region would be farther than r.
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (const Vector3& q : local_) {
      // Only points within r of a side can bound the shrunk rectangle.
      if (q[0] - lo[0] > r && hi[0] - q[0] > r && q[1] - lo[1] > r && hi[1] - q[1] > r) continue;
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
};

}  // namespace

std::shared_ptr<MeshBVH> buildMeshBVH(const std::vector<coal::Vec3s>& verts, const std::vector<coal::Triangle>& tris) {
  auto bvh = std::make_shared<MeshBVH>();
  bvh->bv_fitter = std::make_shared<FastOBBRSSFitter>();
  bvh->beginModel((unsigned)tris.size(), (unsigned)verts.size());
  bvh->addSubModel(verts, tris);
  bvh->endModel();
  bvh->computeLocalAABB();
  return bvh;
}

}  // namespace detail
}  // namespace klampt
