// Surface to volume-grid distance (see surface_grid.h), by branch and bound:
// the tree nodes of a mesh or hull are bounded by their boxes (through
// gridBoxLowerBound and the grid's Lipschitz constant), and each triangle
// reached is split in four until a lower bound of the grid value over a
// piece (the value at its centroid less the Lipschitz constant times its
// radius, the box bound, and gridTriangleLowerBound) cannot beat the best
// value found.
#include "surface_grid.h"
#include <algorithm>
#include <cmath>
#include <vector>
#include <coal/shape/convex.h>
#include "klampt/geometry/convert.h"
#include "grid_bound.h"
#include "mesh_bvh.h"

namespace klampt {
namespace detail {

namespace {

/// Evaluations allowed per query before the best value found is returned
/// (reached only by surfaces that follow the level set closely).
constexpr long kMaxEvaluations = 400000;

/// Triangles a yes-or-no search looks at before descending a tree.
constexpr int kFirstLook = 8;

/// The least value is found to within this fraction of a cell.
constexpr double kTolerance = 1e-5;

/// What the search has left to look at: a piece of a triangle, or a node of
/// a mesh's tree whose triangles are not visited yet.
struct Item {
  Vector3 a, b, c;  // a piece's grid-local corners
  double bound;     // lower bound of the grid value over the item
  double key;       // popped lowest first: the bound, or the centre's value in a greedy search
  int tri;          // the piece's triangle
  int node;         // the tree node, or -1 for a piece
  /// For the heap: the item with the lowest key is the greatest.
  bool operator<(const Item& o) const { return key > o.key; }
};

/// The tree of a surface's triangles: a mesh's own, a hull's (built once
/// and kept with its collision structures); null for other shapes.
const MeshBVH* surfaceTree(const Leaf& surface) {
  if (surface.isMesh()) return &surface.meshBVH();
  if (surface.data->type != GeometryType::ConvexHull) return nullptr;
  const auto* hull = dynamic_cast<const coal::Convex<coal::Triangle>*>(surface.cache->shape.get());
  return hull && hull->points && hull->polygons ? &hullSurfaceTree(*surface.cache, *hull) : nullptr;
}

}  // namespace

SurfaceGridDistance surfaceGridDistance(const Leaf& surface, const Leaf& grid, double upper, double stopBelow) {
  const VolumeGrid& vg = grid.data->grid;
  // The surface's triangles: through its tree, or a primitive's few converted.
  const MeshBVH* tree = surfaceTree(surface);
  const TriangleMesh converted =
      tree ? TriangleMesh() : convertGeometry(*surface.data, GeometryType::TriangleMesh, 0).mesh;
  // A tree's vertices are in the Coal shape's frame, a conversion's in the geometry's.
  const RigidTransform toGrid = grid.T.inverse() * (tree ? surface.shapePose() : surface.T);
  const double L = grid.cache->gridLipschitz;
  const GridBlockMinima& minima = grid.cache->gridMinima;
  const Vector3 cell = (vg.bmax - vg.bmin).cwiseQuotient(Vector3(vg.dims[0], vg.dims[1], vg.dims[2]));
  const double tol = kTolerance * std::max(cell.minCoeff(), 1e-9);

  double best = upper;
  Vector3 bestPoint = Vector3::Zero();
  int bestTri = -1;
  // A yes-or-no search (stopBelow finite) pops the item with the lowest value
  // at its centre, which reaches a low value soonest; a distance search pops
  // the lowest bound, which visits the fewest items and needs the finest
  // bounds at once to order them.
  const bool greedy = stopBelow > -INFINITY;
  thread_local std::vector<Item> open;
  open.clear();
  long evaluations = 0;
  auto consider = [&](const Vector3& p, double v, int tri) {
    if (v < best || (bestTri < 0 && v <= best)) {
      best = v;
      bestPoint = p;
      bestTri = tri;
    }
  };
  auto prunes = [&](double bound) { return bound >= best - tol; };
  auto push = [&](const Vector3& a, const Vector3& b, const Vector3& c, double bound, double v, int tri, int node) {
    open.push_back(Item{a, b, c, bound, greedy ? v : bound, tri, node});
    std::push_heap(open.begin(), open.end());
  };
  // A piece's finer bounds, over its Lipschitz bound `bound`, the cheaper first.
  auto finerBound = [&](const Vector3& a, const Vector3& b, const Vector3& c, double bound, int tri) {
    bound = std::max(bound, gridBoxLowerBound(vg, minima, a.cwiseMin(b).cwiseMin(c), a.cwiseMax(b).cwiseMax(c)));
    if (prunes(bound)) return bound;
    // The expansion's lowest point is worth a look: a search that only looks
    // at centroids closes in slowly on a low value along a cell plane.
    Vector3 probe;
    const double expansion = gridTriangleLowerBound(vg, a, b, c, probe);
    if (expansion == -INFINITY) return bound;
    consider(probe, gridValue(vg, probe), tri);
    return std::max(bound, expansion);
  };
  // A piece: a greedy search computes its finer bounds only if it pops it.
  auto visit = [&](const Vector3& a, const Vector3& b, const Vector3& c, int tri) {
    const Vector3 m = (a + b + c) / 3.0;
    const double r = std::max({(a - m).norm(), (b - m).norm(), (c - m).norm()});
    const double v = gridValue(vg, m);
    ++evaluations;
    consider(m, v, tri);
    if (r <= tol || prunes(v - L * r)) return;
    const double bound = greedy ? v - L * r : finerBound(a, b, c, v - L * r, tri);
    if (!prunes(bound)) push(a, b, c, bound, v, tri, -1);
  };
  auto corner = [&](int t, int k) -> Vector3 {
    if (tree) return toGrid.apply((*tree->vertices)[(*tree->tri_indices)[t][k]]);
    return toGrid.apply(converted.vertices.row(converted.indices(t, k)).transpose());
  };
  auto visitTriangle = [&](int t) {
    const Vector3 a = corner(t, 0), b = corner(t, 1), c = corner(t, 2);
    for (const Vector3* p : {&a, &b, &c}) consider(*p, gridValue(vg, *p), t);
    visit(a, b, c, t);
  };
  // A node of the surface's tree: its box in the grid's frame bounds the value.
  auto visitNode = [&](int node) {
    const coal::OBB& box = tree->getBV(node).bv.obb;
    const Vector3 centre = toGrid.apply(box.To);
    const Vector3 half = (toGrid.R * box.axes).cwiseAbs() * box.extent;
    const double v = gridValue(vg, centre);
    const double bound = std::max(v - L * box.extent.norm(), gridBoxLowerBound(vg, minima, centre - half, centre + half));
    ++evaluations;
    if (!prunes(bound)) push(centre, centre, centre, bound, v, -1, node);
  };
  auto done = [&]() { return bestTri >= 0 && best <= stopBelow; };
  if (tree) {
    // A yes-or-no search first looks at a few triangles as they come: a
    // surface deep in the solid answers there, sparing the tree's descent.
    for (int t = 0; greedy && t < std::min<int>(kFirstLook, tree->num_tris) && !done(); ++t) visitTriangle(t);
    if (tree->getNumBVs() > 0 && !done()) visitNode(0);
  } else {
    for (Eigen::Index t = 0; t < converted.indices.rows() && !done(); ++t) visitTriangle((int)t);
  }
  while (!open.empty() && evaluations < kMaxEvaluations && !done()) {
    std::pop_heap(open.begin(), open.end());
    const Item p = open.back();
    open.pop_back();
    if (prunes(p.bound)) {
      if (greedy) continue;
      break;  // the lowest bound left
    }
    if (p.node >= 0) {
      const auto& node = tree->getBV(p.node);
      if (node.isLeaf()) {
        visitTriangle(node.primitiveId());
      } else {
        visitNode(node.leftChild());
        visitNode(node.rightChild());
      }
      continue;
    }
    if (greedy && prunes(finerBound(p.a, p.b, p.c, p.bound, p.tri))) continue;
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
