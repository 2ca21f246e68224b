#include "klampt/geometry/mesh_normals.h"

#include <stdexcept>
#include <string>

namespace klampt {

namespace {

/// (b - a) x (c - a) per triangle: the normal scaled by twice the area.
NormalArray scaledNormals(const TriangleMesh& mesh) {
  const auto n = mesh.vertices.rows();
  NormalArray out(mesh.indices.rows(), 3);
  for (Eigen::Index t = 0; t < mesh.indices.rows(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const int v = mesh.indices(t, k);
      if (v < 0 || v >= n)
        throw std::out_of_range("triangle " + std::to_string(t) + " refers to vertex " + std::to_string(v) +
                                " of a mesh with " + std::to_string(n) + " vertices");
    }
    const Vector3 a = mesh.vertices.row(mesh.indices(t, 0)).transpose();
    const Vector3 b = mesh.vertices.row(mesh.indices(t, 1)).transpose();
    const Vector3 c = mesh.vertices.row(mesh.indices(t, 2)).transpose();
    out.row(t) = (b - a).cross(c - a).transpose();
  }
  return out;
}

void normalizeRows(NormalArray& rows) {
  for (Eigen::Index i = 0; i < rows.rows(); ++i) {
    const double len = rows.row(i).norm();
    if (len > 0) rows.row(i) /= len;
  }
}

}  // namespace

NormalArray triangleNormals(const TriangleMesh& mesh) {
  NormalArray normals = scaledNormals(mesh);
  normalizeRows(normals);
  return normals;
}

NormalArray vertexNormals(const TriangleMesh& mesh, bool areaWeighted) {
  NormalArray faces = scaledNormals(mesh);
  if (!areaWeighted) normalizeRows(faces);
  NormalArray out = NormalArray::Zero(mesh.vertices.rows(), 3);
  for (Eigen::Index t = 0; t < mesh.indices.rows(); ++t)
    for (int k = 0; k < 3; ++k) out.row(mesh.indices(t, k)) += faces.row(t);
  normalizeRows(out);
  return out;
}

}  // namespace klampt
