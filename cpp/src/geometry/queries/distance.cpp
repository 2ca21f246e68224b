// Distance, proximity and collision queries between two geometries, distance
// to a point, and support points.
#include <coal/BVH/BVH_model.h>
#include <coal/collision.h>
#include <coal/distance.h>
#include <coal/shape/geometric_shapes.h>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>
#include "klampt/geometry/mesh_distance.h"
#include "klampt/geometry/volume_grid.h"
#include "klampt/geometry/queries/queries.h"
#include "box_contacts.h"
#include "cloud_queries.h"
#include "heightmap_solid.h"
#include "leaf.h"
#include "mesh_bvh.h"
#include "mesh_shape.h"
#include "grid_grid.h"
#include "surface_grid.h"

namespace klampt {

using detail::Leaf;

namespace {

struct PairDistance {
  double d;
  Vector3 cp1, cp2;
  int e1 = -1, e2 = -1;
  bool found = false;
};

[[noreturn]] void unsupported(const Leaf& a, const Leaf& b, const char* what) {
  throw std::invalid_argument(std::string(what) + " between " + a.name() + " and " + b.name() + " is not supported");
}

PairDistance swapped(PairDistance r) {
  std::swap(r.cp1, r.cp2);
  std::swap(r.e1, r.e2);
  return r;
}

/// Distance from the balls of cloud leaf a to b, below `upper`.
PairDistance cloudDistance(const Leaf& a, const Leaf& b, double upper, double stopBelow) {
  double best;
  const int i = b.isMesh()    ? detail::nearestBallToMesh(a, b, upper, stopBelow, best)
                : b.isCloud() ? detail::nearestBallToCloud(a, b, upper, stopBelow, best)
                              : detail::nearestBallToLeaf(a, b, upper, stopBelow, best);
  PairDistance out{upper, Vector3::Zero(), Vector3::Zero()};
  if (i < 0) return out;
  const PointTree& tree = a.cache->points;
  const auto bd = detail::ballLeafDistance(a.T.apply(tree.center(i)), tree.radius(i), b, INFINITY);
  return {bd.d, bd.cpBall, bd.cpLeaf, a.elem(i), bd.elem, true};
}

/// Raw distance between two leaves (signed as the leaf kinds allow), below `upper`.
PairDistance leafDistance(const Leaf& a, const Leaf& b, double upper, double stopBelow,
                          const DistanceQuerySettings& s) {
  // Points and spheres: the distance of the centre, minus the radius (as the
  // reference measures them; against meshes this is the surface distance).
  if (a.isBall() || b.isBall()) {
    const bool aBall = a.isBall();
    const Leaf& ball = aBall ? a : b;
    const Leaf& other = aBall ? b : a;
    Vector3 c;
    double r;
    detail::ballOf(ball, c, r);
    const auto bd = detail::ballLeafDistance(c, r, other, upper);
    PairDistance out{bd.d, bd.cpBall, bd.cpLeaf, ball.elem(0), bd.elem, bd.elem >= 0};
    return aBall ? out : swapped(out);
  }
  // A mesh, primitive or hull against a volume grid: the grid's least value over its surface.
  if (b.isGrid() && a.isCoal()) {
    const auto g = detail::surfaceGridDistance(a, b, upper, stopBelow);
    return {g.d, g.cpSurface, g.cpGrid, g.elem, b.elem(0), g.elem >= 0};
  }
  if (a.isGrid() && b.isCoal()) return swapped(leafDistance(b, a, upper, stopBelow, s));
  if (a.isGrid() && b.isGrid()) {
    const auto g = detail::gridGridDistance(a, b, stopBelow);
    return {g.d, g.cp1, g.cp2, a.elem(0), b.elem(0), g.d < upper};
  }
  if (a.isTriangleTree() && b.isTriangleTree()) {
    const auto m = detail::meshMeshDistance(a.meshBVH(), a.T, b.meshBVH(), b.T, upper, s.relErr, s.absErr);
    return {m.d, m.cp1, m.cp2, a.elem(m.t1), b.elem(m.t2), m.t1 >= 0};
  }
  if (a.isTriangleTree() && b.isCoal() && !b.isTriangleTree()) {
    // A search that stops at any distance >= 0 needs no penetration depth.
    const auto m = detail::meshShapeDistance(a.meshBVH(), a.coalTransform(),
                                             static_cast<const coal::ShapeBase&>(*b.cache->shape), b.coalTransform(),
                                             upper, s.relErr, s.absErr, !(stopBelow >= 0));
    return {m.d, m.cp1, m.cp2, a.elem(m.tri), b.elem(-1), m.tri >= 0};
  }
  if (b.isTriangleTree() && a.isCoal() && !a.isTriangleTree()) return swapped(leafDistance(b, a, upper, stopBelow, s));
  if (detail::isSolidBox(a) && detail::isSolidBox(b)) {
    // Boxes facing each other or intersecting: their separation along the
    // separating axis, where GJK takes twice as long and Coal's penetration
    // search ten times.
    double sep;
    Vector3 pa, pb;
    if (detail::boxPairSeparation(a, b, sep, pa, pb)) return {sep, pa, pb, a.elem(0), b.elem(0), sep < upper};
  }
  if (detail::isBoxOrHull(a) && detail::isBoxOrHull(b)) {
    Vector3 pa, pb;
    const double d = detail::convexShapesDistance(a, b, pa, pb);
    return {d, pa, pb, a.elem(0), b.elem(0), d < upper};
  }
  if (a.isCoal() && b.isCoal()) {
    coal::DistanceRequest req(true, true, s.relErr, s.absErr);
    if (!a.isMesh() || !b.isMesh()) {
      // Tight GJK/EPA for shapes; mesh pairs keep Coal's faster default.
      req.gjk_tolerance = 1e-10;
      req.epa_tolerance = 1e-10;
    }
    coal::DistanceResult res;
    detail::coalDistance(a.cache->shape.get(), a.coalTransform(), b.cache->shape.get(), b.coalTransform(), req, res);
    return {res.min_distance, res.nearest_points[0], res.nearest_points[1], a.elem(res.b1), b.elem(res.b2),
            res.min_distance < upper};
  }
  if (a.isCloud()) return cloudDistance(a, b, upper, stopBelow);
  if (b.isCloud()) return swapped(cloudDistance(b, a, upper, stopBelow));
  unsupported(a, b, "distance");
}

/// Clamps penetrations of pairs without signed distance.
double clampUnsigned(const Leaf& a, const Leaf& b, double d) { return (d < 0 && !detail::signedPair(a, b)) ? 0.0 : d; }

/// Balls of a cloud tested one by one against a mesh or a volume grid
/// before cloudWithin turns to a search that bounds whole nodes.
constexpr long kBallsAlone = 2048;

/// True if a ball of cloud leaf c is within `tol` of leaf o (a Coal shape or
/// a volume grid): the balls whose box is near o's, each tested alone with an
/// early exit, which answers yes soonest (node bounds prune little near
/// distance 0). Against a mesh or a grid, past kBallsAlone balls with none
/// near, a search that bounds whole nodes proves a no with far fewer tests
/// (the joint descent of a mesh's tree: a baxter link's 39,450 vertices
/// against the other, 4.3 ms one by one, 1.1 ms jointly).
bool cloudWithin(const Leaf& c, const Leaf& o, double tol) {
  const PointTree& tree = c.cache->points;
  Vector3 olo, ohi;
  o.worldBox(olo, ohi);
  const RigidTransform cloudToShape = o.T.inverse() * c.T;
  const bool budgeted = o.isMesh() || o.isGrid();
  bool hit = false, byNodes = false;
  long alone = 0;
  tree.forEach(
      [&](const Vector3& lo, const Vector3& hi) {
        if (hit || byNodes) return false;
        Vector3 wlo, whi;
        transformBox(c.T, lo, hi, wlo, whi);
        return boxBoxDistance(wlo, whi, olo, ohi) <= tol;
      },
      [&](int i) {
        if (hit || byNodes) return;
        if (budgeted && ++alone > kBallsAlone) {
          byNodes = true;
          return;
        }
        if (o.isMesh()) {
          hit = detail::pointNearMesh(o.meshBVH(), cloudToShape.apply(tree.center(i)), tol + tree.radius(i));
        } else if (o.isGrid()) {
          hit = detail::gridValue(o.data->grid, cloudToShape.apply(tree.center(i))) - tree.radius(i) <= tol;
        } else {
          const coal::Sphere ball(tree.radius(i));
          coal::CollisionRequest req(coal::NO_REQUEST, 1);
          req.security_margin = tol;
          coal::CollisionResult res;
          hit = detail::coalCollide(&ball, coal::Transform3s(Matrix3::Identity(), c.T.apply(tree.center(i))),
                                    o.cache->shape.get(), o.coalTransform(), req, res);
        }
      });
  if (!byNodes) return hit;
  double best;
  const double upper = std::nextafter(tol, INFINITY);
  const int ball = o.isMesh() ? detail::nearestBallToMesh(c, o, upper, tol, best)
                              : detail::nearestBallToLeaf(c, o, upper, tol, best);
  return ball >= 0 && best <= tol;
}

/// Whether the leaves are one point cloud whose points have no radius.
bool bareCloud(const std::vector<Leaf>& leaves) {
  return leaves.size() == 1 && leaves[0].isCloud() && leaves[0].cache->points.maxRadius() == 0;
}

/// How much testing a pair of leaves costs, roughly: a cheap pair that
/// answers yes spares testing the others (a group's box before its mesh).
/// Two meshes come before a mesh and a shape, whose test runs GJK on every
/// triangle near the shape. Pairs with a volume grid come last, in their
/// order: a surface's search of a grid is quickest for the most vertices (a
/// mesh), not the fewest.
int pairCost(const Leaf& a, const Leaf& b) {
  if (a.isGrid() || b.isGrid()) return 4;
  const int clouds = a.isCloud() + b.isCloud(), meshes = a.isTriangleTree() + b.isTriangleTree();
  if (meshes == 2) return 1;
  if (clouds + meshes == 0) return 0;
  if (clouds + meshes == 2) return 3;  // a cloud and a mesh, or two clouds
  return clouds ? 1 : 2;
}

/// A leaf's number of elements, roughly what searching it costs: a mesh's
/// triangles, a cloud's points, a hull's vertices, a grid's cells; 1 for
/// the rest.
long leafSize(const Leaf& x) {
  switch (x.data->type) {
    case GeometryType::TriangleMesh: return (long)x.data->mesh.indices.rows();
    case GeometryType::PointCloud: return (long)x.data->pointCloud.points.rows();
    case GeometryType::ConvexHull: return (long)x.data->hull.points.rows();
    case GeometryType::VolumeGrid: return (long)x.data->grid.values.size();
    default: return 1;
  }
}

/// Whether leaves `a` and `b` are within `tol` (before margins).
bool leafPairWithin(const Leaf& a, const Leaf& b, double tol) {
  // Triangle pairs by their own test: Coal's triangle distance misses
  // some pairs within tol.
  if (a.isTriangleTree() && b.isTriangleTree()) {
    int t1, t2;
    return detail::meshMeshWithin(a.meshBVH(), a.T, b.meshBVH(), b.T, tol, t1, t2);
  }
  // Two boxes: the separating-axis test answers both ways at once, except
  // for a gap within (0, tol], which needs their distance below.
  if (detail::isSolidBox(a) && detail::isSolidBox(b)) {
    const detail::BoxPairWithin answer = detail::boxPairWithin(a, b, tol);
    if (answer != detail::BoxPairWithin::Unknown) return answer == detail::BoxPairWithin::Yes;
  }
  // A mesh and another shape (balls too) go through the distance below: the
  // descent of the mesh's own tree stops at the first triangle touching the
  // shape, where Coal's collision test runs GJK on many overlapping triangles
  // first (a box overlapping a link: 7 us).
  if (a.isCoal() && b.isCoal() && !a.isBall() && !b.isBall() && !a.isTriangleTree() && !b.isTriangleTree()) {
    if (detail::convexShapesWithin(a, b, tol)) return true;
    // GJK misses a box inside another that touches one of its faces (in one
    // argument order only): a "no" is confirmed by the tight GJK/EPA distance
    // below.
  }
  if ((a.isCloud() && (b.isCoal() || b.isGrid())) || ((a.isCoal() || a.isGrid()) && b.isCloud()))
    return cloudWithin(a.isCloud() ? a : b, a.isCloud() ? b : a, tol);
  const PairDistance pd = leafDistance(a, b, std::nextafter(tol, INFINITY), tol, {});
  return pd.found && clampUnsigned(a, b, pd.d) <= tol;
}

/// True if some leaf pair is within `tol` (before margins).
bool leavesWithin(const std::vector<Leaf>& la, const std::vector<Leaf>& lb, double tol) {
  if (la.size() == 1 && lb.size() == 1) {  // most queries: no pairs to order
    Vector3 alo, ahi, blo, bhi;
    la[0].worldBox(alo, ahi);
    lb[0].worldBox(blo, bhi);
    return boxBoxDistance(alo, ahi, blo, bhi) <= tol && leafPairWithin(la[0], lb[0], tol);
  }
  // The pairs whose boxes are within tol, cheapest first.
  thread_local std::vector<std::pair<int, std::pair<const Leaf*, const Leaf*>>> pairs;
  pairs.clear();
  for (const Leaf& a : la) {
    Vector3 alo, ahi;
    a.worldBox(alo, ahi);
    for (const Leaf& b : lb) {
      Vector3 blo, bhi;
      b.worldBox(blo, bhi);
      if (boxBoxDistance(alo, ahi, blo, bhi) <= tol) pairs.push_back({pairCost(a, b), {&a, &b}});
    }
  }
  if (pairs.size() > 1)
    std::stable_sort(pairs.begin(), pairs.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  for (const auto& [cost, pair] : pairs)
    if (leafPairWithin(*pair.first, *pair.second, tol)) return true;
  return false;
}

/// Gradient of the distance w.r.t. moving the first object: away from the
/// other when separated, towards it when penetrating (rawD < 0).
void fillGradients(DistanceQueryResult& r, double rawD) {
  const Vector3 diff = r.cp1 - r.cp2;
  const double n = diff.norm();
  if (n <= 1e-12) return;
  r.hasGradients = true;
  r.grad1 = (rawD < 0 ? -1.0 : 1.0) * diff / n;
  r.grad2 = -r.grad1;
}

}  // namespace

bool withinDistance(const Geometry& a, const Geometry& b, double tol) {
  if (std::isnan(tol)) throw std::invalid_argument("tol is NaN");
  // Reused buffers: robot self-collision asks this for many pairs in a row.
  thread_local std::vector<Leaf> la, lb;
  // A shape on a heightmap's solid side collides whatever the distances:
  // that test is a lookup per point, so it goes first.
  if (detail::buriedInHeightmap(a, b) || detail::buriedInHeightmap(b, a)) return true;
  detail::leavesOf(a, la);
  detail::leavesOf(b, lb);
  // Bare points touch a heightmap's solid only on or under its boundary,
  // which the test above counts: at distance 0 nothing is left to search.
  const double total = tol + a.margin + b.margin;
  if (total == 0 && ((a.data->type == GeometryType::Heightmap && bareCloud(lb)) ||
                     (b.data->type == GeometryType::Heightmap && bareCloud(la))))
    return false;
  return leavesWithin(la, lb, total);
}

bool collides(const Geometry& a, const Geometry& b) { return withinDistance(a, b, 0.0); }

namespace {

/// The world box of a single shape whose collision structures exist (not a
/// group, heightmap or occupancy grid, whose solids a box does not bound).
bool builtWorldBox(const Geometry& g, Vector3& lo, Vector3& hi) {
  switch (g.data->type) {
    case GeometryType::Primitive:
    case GeometryType::TriangleMesh:
    case GeometryType::PointCloud:
    case GeometryType::ConvexHull:
    case GeometryType::VolumeGrid: break;
    default: return false;
  }
  const CollisionCache* cache = g.data->collisionCache.get();
  if (!cache) return false;
  transformBox(g.currentTransform, cache->bmin, cache->bmax, lo, hi);
  return true;
}

}  // namespace

bool primitivePair(const Geometry& a, const Geometry& b) {
  return a.data->type == GeometryType::Primitive && b.data->type == GeometryType::Primitive;
}

bool apartByBuiltBounds(const Geometry& a, const Geometry& b, double tol) {
  if (std::isnan(tol)) return false;
  Vector3 alo, ahi, blo, bhi;
  if (!builtWorldBox(a, alo, ahi) || !builtWorldBox(b, blo, bhi)) return false;
  return boxBoxDistance(alo, ahi, blo, bhi) > tol + a.margin + b.margin;
}

DistanceQueryResult distance(const Geometry& a, const Geometry& b, const DistanceQuerySettings& s) {
  // Reused buffers, as in withinDistance: most calls are one pair of shapes.
  thread_local std::vector<Leaf> la, lb;
  detail::leavesOf(a, la);
  detail::leavesOf(b, lb);
  const double margins = a.margin + b.margin;
  DistanceQueryResult r;
  double best = s.upperBound + margins;
  // Several pairs (groups): the cheapest first, whose distance bounds the
  // searches of the others (a grid against a group's box, then its mesh);
  // a tie goes to the pair first in the groups' order, as without sorting.
  struct Pair {
    int cost;
    long size;
    size_t order;  // in the groups' order
    const Leaf* x;
    const Leaf* y;
  };
  thread_local std::vector<Pair> pairs;
  pairs.clear();
  for (const Leaf& x : la)
    for (const Leaf& y : lb) pairs.push_back({pairCost(x, y), leafSize(x) + leafSize(y), pairs.size(), &x, &y});
  if (pairs.size() > 1)
    std::sort(pairs.begin(), pairs.end(), [](const Pair& p, const Pair& q) {
      return std::tie(p.cost, p.size, p.order) < std::tie(q.cost, q.size, q.order);
    });
  size_t chosen = 0;  // the order of the pair giving the answer
  for (const Pair& pair : pairs) {
    const Leaf& x = *pair.x;
    const Leaf& y = *pair.y;
    // Once a pair is found, the others are searched up to its distance
    // included, for the tie rule.
    const double upper = r.hasClosestPoints ? std::nextafter(best, INFINITY) : best;
    PairDistance pd = leafDistance(x, y, upper, -INFINITY, s);
    if (!pd.found) continue;
    pd.d = clampUnsigned(x, y, pd.d);
    if (pd.d < best || !r.hasClosestPoints || (pd.d == best && pair.order < chosen)) {
      chosen = pair.order;
      best = pd.d;
      r.hasClosestPoints = true;
      r.cp1 = pd.cp1;
      r.cp2 = pd.cp2;
      r.elem1 = pd.e1;
      r.elem2 = pd.e2;
    }
  }
  // A shape buried under a heightmap's surface: minus its distance to the surface.
  const bool buried = best > 0 && (detail::buriedInHeightmap(a, b) || detail::buriedInHeightmap(b, a));
  if (buried) best = -best;
  r.d = best - margins;
  if (r.hasClosestPoints) {
    fillGradients(r, best);
    // Closest points on the surfaces grown by the margins.
    r.cp1 -= a.margin * r.grad1;
    r.cp2 -= b.margin * r.grad2;
  }
  return r;
}

namespace {

/// The point query tree of a mesh, built on first use.
const TriangleDistanceTree& pointQueryTree(const GeometryData& data) {
  if (const TriangleDistanceTree* tree = data.pointQueryTree.get()) return *tree;
  validateTriangleMesh(data.mesh);
  return data.pointQueryTree.publish(std::make_shared<const TriangleDistanceTree>(data.mesh));
}

/// Distance from p to a mesh's surface through its point query tree, which
/// spares a mesh that only gets point queries building its collision cache.
DistanceQueryResult meshPointDistance(const Geometry& a, const Vector3& p, const DistanceQuerySettings& s) {
  DistanceQueryResult r;
  const double upper = s.upperBound + a.margin;
  Vector3 cp;
  double d;
  const int tri = pointQueryTree(*a.data).closest(a.currentTransform.inverse().apply(p), upper, cp, d);
  r.d = d - a.margin;
  if (tri < 0) return r;
  r.hasClosestPoints = true;
  r.cp1 = a.currentTransform.apply(cp);
  r.cp2 = p;
  r.elem1 = tri;
  r.elem2 = 0;
  fillGradients(r, d);
  r.cp1 -= a.margin * r.grad1;  // on the surface grown by the margin
  return r;
}

}  // namespace

DistanceQueryResult distancePoint(const Geometry& a, const Vector3& p, const DistanceQuerySettings& s) {
  if (!p.allFinite()) throw std::invalid_argument("the point must be finite");
  if (a.data->type == GeometryType::TriangleMesh && a.data->mesh.indices.rows() > 0) return meshPointDistance(a, p, s);
  const auto la = detail::leavesOf(a);
  DistanceQueryResult r;
  double best = s.upperBound + a.margin;
  for (const Leaf& x : la) {
    const auto pd = detail::leafPointDistance(x, p, best);
    if (pd.elem < 0) continue;
    const bool hasInside = x.isPrimitive("Sphere") || x.isGrid() || x.data->type == GeometryType::ConvexHull ||
                           (x.isCloud() && pd.d < 0);
    // Inside a solid without signed distance: distance 0, at the point itself.
    const bool clamped = pd.d < 0 && !hasInside;
    const double d = clamped ? 0.0 : pd.d;
    if (d < best || !r.hasClosestPoints) {
      best = d;
      r.hasClosestPoints = true;
      r.cp1 = clamped ? p : pd.cp;
      r.cp2 = p;
      r.elem1 = pd.elem;
      r.elem2 = 0;
    }
  }
  r.d = best - a.margin;
  if (r.hasClosestPoints) {
    fillGradients(r, best);
    r.cp1 -= a.margin * r.grad1;  // on the surface grown by the margin
  }
  return r;
}

Vector3 support(const Geometry& g, const Vector3& dir) {
  if (!dir.allFinite()) throw std::invalid_argument("the direction must be finite");
  double best = -INFINITY;
  Vector3 out = Vector3::Zero();
  auto consider = [&](const Vector3& p) {
    const double v = p.dot(dir);
    if (v > best) {
      best = v;
      out = p;
    }
  };
  for (const Leaf& x : detail::leavesOf(g)) {
    if (x.isCoal()) {
      const auto* shape = dynamic_cast<const coal::ShapeBase*>(x.cache->shape.get());
      const RigidTransform W = x.shapePose();
      if (shape) {
        // Support of the Coal shape in its own frame, mapped to world.
        const Vector3 local = W.R.transpose() * dir;
        Vector3 sp;
        if (const auto* sph = dynamic_cast<const coal::Sphere*>(shape)) {
          sp = local.norm() > 0 ? Vector3(sph->radius * local.normalized()) : Vector3::Zero();
        } else if (const auto* box = dynamic_cast<const coal::Box*>(shape)) {
          sp = local.cwiseSign().cwiseProduct(box->halfSide);
        } else if (const auto* cap = dynamic_cast<const coal::Capsule*>(shape)) {
          sp = Vector3(0, 0, local.z() >= 0 ? cap->halfLength : -cap->halfLength);
        } else if (const auto* cvx = dynamic_cast<const coal::ConvexBase*>(shape)) {
          for (unsigned i = 0; i < cvx->num_points; ++i) consider(W.apply((*cvx->points)[i]));
          continue;
        } else {
          throw std::invalid_argument("support is not supported for " + x.name());
        }
        consider(W.apply(sp));
        continue;
      }
    }
    if (x.data->type == GeometryType::TriangleMesh) {
      for (int i = 0; i < x.data->mesh.vertices.rows(); ++i) consider(x.T.apply(x.data->mesh.vertices.row(i).transpose()));
    } else if (x.isCloud()) {
      const PointTree& t = x.cache->points;
      for (int i = 0; i < t.size(); ++i) {
        const Vector3 c = x.T.apply(t.center(i));
        consider(dir.norm() > 0 ? Vector3(c + t.radius(i) * dir.normalized()) : c);
      }
    } else if (const auto* bvh = dynamic_cast<const coal::BVHModel<coal::OBBRSS>*>(x.cache->shape.get())) {
      // Triangle and Polygon primitives: their vertices.
      for (unsigned i = 0; i < bvh->num_vertices; ++i) consider(x.T.apply((*bvh->vertices)[i]));
    } else if (x.isGrid()) {
      // The centres of the cells inside the solid (value <= 0): within half a cell.
      const VolumeGrid& vg = x.data->grid;
      for (int i = 0; i < vg.dims[0]; ++i)
        for (int j = 0; j < vg.dims[1]; ++j)
          for (int k = 0; k < vg.dims[2]; ++k)
            if (vg.values[((size_t)i * vg.dims[1] + j) * vg.dims[2] + k] <= 0) consider(x.T.apply(cellCenter(vg, i, j, k)));
    } else {
      throw std::invalid_argument("support is not supported for " + x.name());
    }
  }
  // The margin pads every direction equally.
  if (dir.norm() > 0) out += g.margin * dir.normalized();
  return out;
}

}  // namespace klampt
