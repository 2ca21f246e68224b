#include "klampt/sim/preshrink.h"

#include <Eigen/Eigenvalues>
#include <algorithm>

namespace klampt {

namespace {

/// Offsets every vertex so that each incident face moves inward by d: the
/// least-squares o with o . n_f = -d over the faces (area weighted); flat
/// and smooth regions get -d * n, a box corner -d * (1, 1, 1). The offset is
/// capped at 3d so that needle-like tips do not fold through the mesh.
TriangleMesh shrinkMesh(const TriangleMesh& mesh, double d) {
  const Eigen::Index nv = mesh.vertices.rows();
  std::vector<Matrix3> normalMatrix(nv, Matrix3::Zero());
  std::vector<Vector3> normalSum(nv, Vector3::Zero());
  for (Eigen::Index t = 0; t < mesh.indices.rows(); ++t) {
    const Vector3 a = mesh.vertices.row(mesh.indices(t, 0)), b = mesh.vertices.row(mesh.indices(t, 1)),
                  c = mesh.vertices.row(mesh.indices(t, 2));
    const Vector3 areaNormal = (b - a).cross(c - a);
    const double area = areaNormal.norm();
    if (area <= 0) continue;
    const Vector3 n = areaNormal / area;
    for (int k = 0; k < 3; ++k) {
      const int v = mesh.indices(t, k);
      normalMatrix[v] += area * n * n.transpose();
      normalSum[v] += area * n;
    }
  }
  TriangleMesh out = mesh;
  for (Eigen::Index v = 0; v < nv; ++v) {
    const Eigen::SelfAdjointEigenSolver<Matrix3> es(normalMatrix[v]);
    const double top = es.eigenvalues().maxCoeff();
    if (top <= 0) continue;
    // Solve (sum a n n^T) o = -d sum a n on the well-determined directions.
    const Vector3 rhs = es.eigenvectors().transpose() * (-d * normalSum[v]);
    Vector3 y = Vector3::Zero();
    for (int k = 0; k < 3; ++k)
      if (es.eigenvalues()[k] > 1e-6 * top) y[k] = rhs[k] / es.eigenvalues()[k];
    Vector3 offset = es.eigenvectors() * y;
    if (offset.norm() > 3 * d) offset *= 3 * d / offset.norm();
    out.vertices.row(v) += offset.transpose();
  }
  return out;
}

void shrinkPrimitive(GeometricPrimitive& p, double d) {
  auto& v = p.properties;
  if (p.type == "Sphere") {
    v[3] = std::max(0.0, v[3] - d);
  } else if (p.type == "AABB") {
    for (int k = 0; k < 3; ++k) {
      const double s = std::min(d, 0.5 * (v[3 + k] - v[k]));
      v[k] += s;
      v[3 + k] -= s;
    }
  } else if (p.type == "Box") {
    // origin (the corner), rotation (column-major), dimensions
    for (int k = 0; k < 3; ++k) {
      const double s = std::min(d, 0.5 * v[12 + k]);
      for (int i = 0; i < 3; ++i) v[i] += s * v[3 + 3 * k + i];
      v[12 + k] -= 2 * s;
    }
  }
}

}  // namespace

std::shared_ptr<const GeometryData> preshrunkShape(const std::shared_ptr<const GeometryData>& shape, double amount) {
  if (!shape || amount <= 0) return shape;
  auto out = std::make_shared<GeometryData>();
  out->type = shape->type;
  switch (shape->type) {
    case GeometryType::TriangleMesh:
      out->mesh = shrinkMesh(shape->mesh, amount);
      break;
    case GeometryType::Primitive:
      out->primitive = shape->primitive;
      shrinkPrimitive(out->primitive, amount);
      break;
    case GeometryType::Group:
      for (const auto& e : shape->group) out->group.push_back(preshrunkShape(e, amount));
      break;
    default:
      return shape;
  }
  return out;
}

}  // namespace klampt
