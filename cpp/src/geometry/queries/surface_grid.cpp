// Surface to volume-grid distance (see surface_grid.h). Each triangle is
// split in four until the grid value at a piece's centroid, less the grid's
// Lipschitz constant times the piece's radius, cannot beat the best value.
#include "surface_grid.h"
#include <algorithm>
#include <cmath>
#include <queue>
#include <vector>
#include <coal/shape/convex.h>
#include "klampt/geometry/convert.h"

namespace klampt {
namespace detail {

namespace {

/// Evaluations allowed per query before the best value found is returned
/// (reached only by surfaces that follow the level set closely).
constexpr long kMaxEvaluations = 400000;

struct Piece {
  Vector3 a, b, c;  // grid-local corners
  double bound;     // lower bound of the grid value over the piece
  int tri;
  bool operator<(const Piece& o) const { return bound > o.bound; }  // smallest bound first
};

/// The surface of `surface` as triangles in its local frame: a mesh's own, a
/// hull's from its Coal polytope (built once with the collision cache, where
/// converting the hull again would run Qhull on every query), else converted.
TriangleMesh surfaceTriangles(const Leaf& surface) {
  const auto* polytope =
      surface.data->type == GeometryType::ConvexHull
          ? dynamic_cast<const coal::Convex<coal::Triangle>*>(surface.cache->shape.get())
          : nullptr;
  if (!polytope || !polytope->points || !polytope->polygons)
    return convertGeometry(*surface.data, GeometryType::TriangleMesh, 0).mesh;
  TriangleMesh mesh;
  const auto& points = *polytope->points;
  const auto& triangles = *polytope->polygons;
  mesh.vertices.resize(polytope->num_points, 3);
  for (unsigned i = 0; i < polytope->num_points; ++i) mesh.vertices.row(i) = points[i].transpose();
  mesh.indices.resize(polytope->num_polygons, 3);
  for (unsigned t = 0; t < polytope->num_polygons; ++t)
    for (int k = 0; k < 3; ++k) mesh.indices(t, k) = (int)triangles[t][k];
  return mesh;
}

}  // namespace

SurfaceGridDistance surfaceGridDistance(const Leaf& surface, const Leaf& grid, double upper, double stopBelow) {
  const VolumeGrid& vg = grid.data->grid;
  const TriangleMesh converted = surface.isMesh() ? TriangleMesh() : surfaceTriangles(surface);
  const TriangleMesh& mesh = surface.isMesh() ? surface.data->mesh : converted;
  const RigidTransform toGrid = grid.T.inverse() * surface.T;
  const double L = grid.cache->gridLipschitz;
  const Vector3 cell = (vg.bmax - vg.bmin).cwiseQuotient(Vector3(vg.dims[0], vg.dims[1], vg.dims[2]));
  const double tol = 1e-6 * std::max(cell.minCoeff(), 1e-9);

  double best = upper;
  Vector3 bestPoint = Vector3::Zero();
  int bestTri = -1;
  std::priority_queue<Piece> open;
  long evaluations = 0;
  auto visit = [&](const Vector3& a, const Vector3& b, const Vector3& c, int tri) {
    const Vector3 m = (a + b + c) / 3.0;
    const double r = std::max({(a - m).norm(), (b - m).norm(), (c - m).norm()});
    const double v = gridValue(vg, m);
    ++evaluations;
    if (v < best || (bestTri < 0 && v <= best)) {
      best = v;
      bestPoint = m;
      bestTri = tri;
    }
    const double bound = v - L * r;
    if (bound < best - tol && r > tol) open.push(Piece{a, b, c, bound, tri});
  };
  for (Eigen::Index t = 0; t < mesh.indices.rows(); ++t) {
    const Vector3 a = toGrid.apply(mesh.vertices.row(mesh.indices(t, 0)).transpose());
    const Vector3 b = toGrid.apply(mesh.vertices.row(mesh.indices(t, 1)).transpose());
    const Vector3 c = toGrid.apply(mesh.vertices.row(mesh.indices(t, 2)).transpose());
    for (const Vector3* p : {&a, &b, &c}) {
      const double v = gridValue(vg, *p);
      if (v < best || (bestTri < 0 && v <= best)) {
        best = v;
        bestPoint = *p;
        bestTri = (int)t;
      }
    }
    visit(a, b, c, (int)t);
    if (bestTri >= 0 && best <= stopBelow) break;
  }
  while (!open.empty() && evaluations < kMaxEvaluations) {
    if (bestTri >= 0 && best <= stopBelow) break;
    const Piece p = open.top();
    open.pop();
    if (p.bound >= best - tol) break;
    const Vector3 ab = 0.5 * (p.a + p.b), bc = 0.5 * (p.b + p.c), ca = 0.5 * (p.c + p.a);
    visit(p.a, ab, ca, p.tri);
    visit(ab, p.b, bc, p.tri);
    visit(ca, bc, p.c, p.tri);
    visit(ab, bc, ca, p.tri);
  }
  SurfaceGridDistance out{upper, Vector3::Zero(), Vector3::Zero(), -1};
  if (bestTri < 0) return out;
  out.d = best;
  out.cpSurface = grid.T.apply(bestPoint);
  out.cpGrid = grid.T.apply(gridLevelSetPoint(vg, bestPoint, best));
  out.elem = surface.isMesh() ? surface.elem(bestTri) : surface.elem(0);
  return out;
}

}  // namespace detail
}  // namespace klampt
