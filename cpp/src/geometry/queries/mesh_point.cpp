// The closest triangle of a mesh's tree to a point: a depth-first descent,
// nearer child first, that skips nodes whose box or swept rectangle lies
// beyond the best distance so far.
#include <cmath>
#include "bv_point.h"
#include "klampt/geometry/primitive.h"
#include "mesh_bvh.h"

namespace klampt {
namespace detail {

namespace {

struct PointSearch {
  const MeshBVH& mesh;
  const Vector3& p;
  double best;
  int tri = -1;
  Vector3 cp;

  void visit(int node) {
    const auto& n = mesh.getBV(node);
    if (n.isLeaf()) {
      const coal::Triangle& t = (*mesh.tri_indices)[n.primitiveId()];
      const auto& v = *mesh.vertices;
      const Vector3 q = closestPointOnTriangle(p, v[t[0]], v[t[1]], v[t[2]]);
      const double d = (p - q).norm();
      if (d < best || (tri < 0 && d <= best)) {
        best = d;
        tri = n.primitiveId();
        cp = q;
      }
      return;
    }
    int c[2] = {n.leftChild(), n.rightChild()};
    double b[2] = {pointNodeDistance(p, mesh.getBV(c[0]).bv), pointNodeDistance(p, mesh.getBV(c[1]).bv)};
    if (b[1] < b[0]) {
      std::swap(c[0], c[1]);
      std::swap(b[0], b[1]);
    }
    for (int k = 0; k < 2; ++k)
      if (b[k] < best || (tri < 0 && b[k] <= best)) visit(c[k]);
  }
};

}  // namespace

int meshClosestPoint(const MeshBVH& mesh, const Vector3& p, double upper, Vector3& cp, double& d) {
  d = upper;
  if (mesh.getNumBVs() == 0) return -1;
  prepareForDistance(mesh);
  PointSearch s{mesh, p, upper, -1, Vector3::Zero()};
  if (pointNodeDistance(p, mesh.getBV(0).bv) <= upper) s.visit(0);
  if (s.tri < 0) return -1;
  d = s.best;
  cp = s.cp;
  return s.tri;
}

}  // namespace detail
}  // namespace klampt
