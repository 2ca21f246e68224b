#include "klampt/geometry/primitive_meshes.h"

#include <algorithm>
#include <cmath>

namespace klampt {

namespace {

constexpr double kPi = 3.14159265358979323846;

void setTriangle(TriangleMesh& m, int t, int a, int b, int c) { m.indices.row(t) << a, b, c; }

}  // namespace

TriangleMesh makeBoxMesh(const Vector3& dims) {
  TriangleMesh m;
  m.vertices.resize(8, 3);
  // Vertex k has x from bit 0, y from bit 1, z from bit 2 (0: min, 1: max).
  for (int k = 0; k < 8; ++k)
    for (int axis = 0; axis < 3; ++axis)
      m.vertices(k, axis) = ((k >> axis) & 1 ? 0.5 : -0.5) * dims[axis];
  m.indices.resize(12, 3);
  // Two triangles per face: -x, +x, -y, +y, -z, +z.
  const int faces[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                           {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  for (int f = 0; f < 6; ++f) {
    setTriangle(m, 2 * f, faces[f][0], faces[f][1], faces[f][2]);
    setTriangle(m, 2 * f + 1, faces[f][0], faces[f][2], faces[f][3]);
  }
  return m;
}

TriangleMesh makeCylinderMesh(double radius, double length, int slices) {
  slices = std::max(slices, 3);
  TriangleMesh m;
  // Vertices: bottom ring [0, s), top ring [s, 2s), bottom centre 2s, top centre 2s+1.
  m.vertices.resize(2 * slices + 2, 3);
  const double h = 0.5 * length;
  for (int i = 0; i < slices; ++i) {
    const double a = 2 * kPi * i / slices;
    const double x = radius * std::cos(a), y = radius * std::sin(a);
    m.vertices.row(i) << x, y, -h;
    m.vertices.row(slices + i) << x, y, h;
  }
  const int bottom = 2 * slices, top = 2 * slices + 1;
  m.vertices.row(bottom) << 0, 0, -h;
  m.vertices.row(top) << 0, 0, h;
  m.indices.resize(4 * slices, 3);
  for (int i = 0; i < slices; ++i) {
    const int j = (i + 1) % slices;
    setTriangle(m, 4 * i, i, j, slices + j);
    setTriangle(m, 4 * i + 1, i, slices + j, slices + i);
    setTriangle(m, 4 * i + 2, bottom, j, i);
    setTriangle(m, 4 * i + 3, top, slices + i, slices + j);
  }
  return m;
}

TriangleMesh makeSphereMesh(double radius, int stacks, int slices) {
  stacks = std::max(stacks, 2);
  slices = std::max(slices, 3);
  TriangleMesh m;
  // Vertices: south pole 0, rings 1..stacks-1 of `slices` each (south to
  // north), north pole last.
  const int rings = stacks - 1;
  const int north = rings * slices + 1;
  m.vertices.resize(north + 1, 3);
  m.vertices.row(0) << 0, 0, -radius;
  for (int r = 0; r < rings; ++r) {
    const double polar = kPi * (r + 1) / stacks;  // angle from the south pole
    const double z = -radius * std::cos(polar), rr = radius * std::sin(polar);
    for (int i = 0; i < slices; ++i) {
      const double a = 2 * kPi * i / slices;
      m.vertices.row(1 + r * slices + i) << rr * std::cos(a), rr * std::sin(a), z;
    }
  }
  m.vertices.row(north) << 0, 0, radius;
  auto ring = [slices](int r, int i) { return 1 + r * slices + (i % slices); };
  m.indices.resize(2 * slices * rings, 3);
  int t = 0;
  for (int i = 0; i < slices; ++i) {
    setTriangle(m, t++, 0, ring(0, i + 1), ring(0, i));
    setTriangle(m, t++, north, ring(rings - 1, i), ring(rings - 1, i + 1));
  }
  for (int r = 0; r + 1 < rings; ++r)
    for (int i = 0; i < slices; ++i) {
      setTriangle(m, t++, ring(r, i), ring(r, i + 1), ring(r + 1, i + 1));
      setTriangle(m, t++, ring(r, i), ring(r + 1, i + 1), ring(r + 1, i));
    }
  return m;
}

}  // namespace klampt
