// Flattening geometries into leaves, and point distances to each leaf kind.
#include "leaf.h"
#include <coal/collision.h>
#include <coal/distance.h>
#include <coal/shape/convex.h>
#include <coal/shape/geometric_shapes.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include "box_contacts.h"
#include "bv_point.h"
#include "convex_solver.h"
#include "mesh_bvh.h"
#include "overlap_witness.h"
#include "query_proxy.h"

namespace klampt {
namespace detail {

coal::Transform3s Leaf::coalTransform() const {
  const RigidTransform W = shapePose();
  return coal::Transform3s(W.R, W.t);
}

int Leaf::elem(int sub) const {
  if (groupElem >= 0) return groupElem;
  return (isMesh() || isCloud()) ? sub + elemOffset : 0;
}

void Leaf::worldBox(Vector3& lo, Vector3& hi) const { transformBox(T, cache->bmin, cache->bmax, lo, hi); }

bool Leaf::hasInterior() const {
  if (isGrid() || isCloud()) return true;
  if (data->type == GeometryType::ConvexHull) return true;
  return isPrimitive("Sphere") || isPrimitive("AABB") || isPrimitive("Box");
}

bool signedPair(const Leaf& a, const Leaf& b) {
  return a.isPrimitive("Sphere") || b.isPrimitive("Sphere") || a.isGrid() || b.isGrid() ||
         (a.data->type == GeometryType::ConvexHull && b.data->type == GeometryType::ConvexHull);
}

std::string Leaf::name() const {
  if (data->type == GeometryType::Primitive) return data->primitive.type;
  return geometryTypeName(data->type);
}

namespace {

bool swapForCoal(const coal::CollisionGeometry* a, const coal::CollisionGeometry* b) {
  const bool aBVH = a->getObjectType() == coal::OT_BVH, bBVH = b->getObjectType() == coal::OT_BVH;
  if (aBVH != bBVH) return bBVH;
  return a->getNodeType() == coal::GEOM_TRIANGLE && b->getNodeType() != coal::GEOM_TRIANGLE;
}

}  // namespace

void coalDistance(const coal::CollisionGeometry* a, const coal::Transform3s& Ta, const coal::CollisionGeometry* b,
                  const coal::Transform3s& Tb, const coal::DistanceRequest& req, coal::DistanceResult& res) {
  prepareForDistance(*a);
  prepareForDistance(*b);
  if (!swapForCoal(a, b)) {
    coal::distance(a, Ta, b, Tb, req, res);
    return;
  }
  coal::distance(b, Tb, a, Ta, req, res);
  std::swap(res.nearest_points[0], res.nearest_points[1]);
  std::swap(res.b1, res.b2);
  std::swap(res.o1, res.o2);
  res.normal = -res.normal;
}

bool coalCollide(const coal::CollisionGeometry* a, const coal::Transform3s& Ta, const coal::CollisionGeometry* b,
                 const coal::Transform3s& Tb, const coal::CollisionRequest& req, coal::CollisionResult& res) {
  if (!swapForCoal(a, b)) return coal::collide(a, Ta, b, Tb, req, res) > 0;
  coal::CollisionResult swapped;
  const bool hit = coal::collide(b, Tb, a, Ta, req, swapped) > 0;
  for (auto c : swapped.getContacts()) {
    std::swap(c.o1, c.o2);
    std::swap(c.b1, c.b2);
    std::swap(c.nearest_points[0], c.nearest_points[1]);
    c.normal = -c.normal;
    res.addContact(c);
  }
  return hit;
}

bool convexShapesWithin(const Leaf& a, const Leaf& b, double tol) {
  if (overlapByWitness(a, b)) return true;
  thread_local ConvexSolver solver;
  solver.distance_upper_bound = tol;
  Vector3 pa, pb, normal;
  const double d = solver.distance(static_cast<const coal::ShapeBase&>(*a.cache->shape), a.coalTransform(),
                                   static_cast<const coal::ShapeBase&>(*b.cache->shape), b.coalTransform(), false,
                                   pa, pb, normal);
  switch (solver.gjk.status) {
    case coal::details::GJK::Collision:
    case coal::details::GJK::CollisionWithPenetrationInformation:
      rememberOverlap(a, b, solver.gjk);
      return true;
    case coal::details::GJK::NoCollision: return d <= tol;
    default: return false;
  }
}

bool isBoxOrHull(const Leaf& leaf) {
  if (!leaf.cache->shape) return false;
  const coal::NODE_TYPE t = leaf.cache->shape->getNodeType();
  return t == coal::GEOM_BOX || t == coal::GEOM_CONVEX;
}

ConvexSolver& tightSolver() {
  thread_local ConvexSolver solver = [] {
    coal::DistanceRequest req(true, true);
    req.gjk_tolerance = 1e-10;
    req.epa_tolerance = 1e-10;
    return ConvexSolver(req);
  }();
  solver.distance_upper_bound = std::numeric_limits<double>::max();
  return solver;
}

double convexShapesDistance(const Leaf& a, const Leaf& b, Vector3& pa, Vector3& pb) {
  Vector3 normal;
  return tightSolver().distance(static_cast<const coal::ShapeBase&>(*a.cache->shape), a.coalTransform(),
                                static_cast<const coal::ShapeBase&>(*b.cache->shape), b.coalTransform(), true, pa, pb,
                                normal);
}

namespace {

void collect(const GeometryData& data, const RigidTransform& T, int groupElem, std::vector<Leaf>& out) {
  if (data.type == GeometryType::Empty) return;
  if (data.type == GeometryType::Group) {
    for (size_t i = 0; i < data.group.size(); ++i)
      collect(*data.group[i], T, groupElem >= 0 ? groupElem : (int)i, out);
    return;
  }
  if (const GeometryData* proxy = queryProxy(data)) {
    if (data.type != GeometryType::Heightmap) {
      collect(*proxy, T, groupElem, out);
      return;
    }
    // A heightmap's surface then walls: one numbering of their triangles.
    int offset = 0;
    for (const auto& part : proxy->group) {
      out.push_back(Leaf{part.get(), &collisionCache(*part), T, groupElem, offset});
      offset += (int)part->mesh.indices.rows();
    }
    return;
  }
  out.push_back(Leaf{&data, &collisionCache(data), T, groupElem});
}

}  // namespace

void leavesOf(const Geometry& g, std::vector<Leaf>& out) {
  if (g.empty()) throw std::invalid_argument("the geometry is empty");
  out.clear();
  collect(*g.data, g.currentTransform, -1, out);
}

std::vector<Leaf> leavesOf(const Geometry& g) {
  std::vector<Leaf> leaves;
  leavesOf(g, leaves);
  return leaves;
}

double gridValue(const VolumeGrid& grid, const Vector3& p) {
  const auto& n = grid.dims;
  if (n[0] <= 0 || n[1] <= 0 || n[2] <= 0) throw std::invalid_argument("the volume grid is empty");
  // Continuous cell coordinates, clamped to the grid: outside, the value of
  // the nearest boundary cell plus the distance to the box keeps it an upper
  // bound of the signed distance.
  const Vector3 h = (grid.bmax - grid.bmin).cwiseQuotient(Vector3(n[0], n[1], n[2]));
  const Vector3 q = p.cwiseMax(grid.bmin).cwiseMin(grid.bmax);
  int i0[3];
  double f[3];
  for (int k = 0; k < 3; ++k) {
    double u = h[k] > 0 ? (q[k] - grid.bmin[k]) / h[k] - 0.5 : 0.0;
    u = std::clamp(u, 0.0, double(n[k] - 1));
    i0[k] = std::min((int)std::floor(u), n[k] - 1);
    f[k] = u - i0[k];
  }
  auto value = [&](int i, int j, int k) {
    i = std::min(i, n[0] - 1);
    j = std::min(j, n[1] - 1);
    k = std::min(k, n[2] - 1);
    return grid.values[((size_t)i * n[1] + j) * n[2] + k];
  };
  double v = 0;
  for (int c = 0; c < 8; ++c) {
    const int di = c & 1, dj = (c >> 1) & 1, dk = (c >> 2) & 1;
    const double w = (di ? f[0] : 1 - f[0]) * (dj ? f[1] : 1 - f[1]) * (dk ? f[2] : 1 - f[2]);
    if (w != 0) v += w * value(i0[0] + di, i0[1] + dj, i0[2] + dk);
  }
  return v + (p - q).norm();
}

Vector3 gridGradient(const VolumeGrid& grid, const Vector3& p) {
  const Vector3 h = 0.5 * (grid.bmax - grid.bmin).cwiseQuotient(Vector3(grid.dims[0], grid.dims[1], grid.dims[2]));
  Vector3 g;
  for (int k = 0; k < 3; ++k) {
    Vector3 e = Vector3::Zero();
    e[k] = h[k] > 0 ? h[k] : 1e-6;
    g[k] = (gridValue(grid, p + e) - gridValue(grid, p - e)) / (2 * e[k]);
  }
  return g;
}

Vector3 gridLevelSetPoint(const VolumeGrid& grid, const Vector3& p, double v) {
  const Vector3 g = gridGradient(grid, p);
  return g.norm() > 0 ? Vector3(p - v * g.normalized()) : p;
}

double gridLipschitz(const VolumeGrid& g) {
  const auto& n = g.dims;
  const Vector3 h = (g.bmax - g.bmin).cwiseQuotient(Vector3(n[0], n[1], n[2]));
  double steep[3] = {0, 0, 0};
  auto at = [&](int i, int j, int k) { return g.values[((size_t)i * n[1] + j) * n[2] + k]; };
  for (int i = 0; i < n[0]; ++i)
    for (int j = 0; j < n[1]; ++j)
      for (int k = 0; k < n[2]; ++k) {
        const double v = at(i, j, k);
        if (i + 1 < n[0]) steep[0] = std::max(steep[0], std::abs(at(i + 1, j, k) - v));
        if (j + 1 < n[1]) steep[1] = std::max(steep[1], std::abs(at(i, j + 1, k) - v));
        if (k + 1 < n[2]) steep[2] = std::max(steep[2], std::abs(at(i, j, k + 1) - v));
      }
  double sum = 0;
  for (int k = 0; k < 3; ++k)
    if (h[k] > 0) sum += (steep[k] / h[k]) * (steep[k] / h[k]);
  return std::sqrt(sum) + 1.0;
}

PointDistance leafPointDistance(const Leaf& leaf, const Vector3& p, double upper) {
  if (leaf.isMesh()) {
    Vector3 cp;
    double d;
    const int tri = meshClosestPoint(leaf.meshBVH(), leaf.T.inverse().apply(p), upper, cp, d);
    if (tri < 0 || d >= upper) return {upper, p, -1};
    return {d, leaf.T.apply(cp), leaf.elem(tri)};
  }
  if (isSolidBox(leaf)) {  // closed form, a tenth of GJK/EPA's time
    Vector3 cp;
    const double d = pointSolidBoxDistance(leaf, p, cp);
    if (d >= upper) return {upper, p, -1};
    return {d, cp, leaf.elem(0)};
  }
  if (leaf.isBall()) {  // closed form: the centre's distance less the radius
    Vector3 c;
    double r;
    ballOf(leaf, c, r);
    const Vector3 v = p - c;
    const double n = v.norm(), d = n - r;
    if (d >= upper) return {upper, p, -1};
    return {d, c + r * (n > 0 ? Vector3(v / n) : Vector3::UnitX()), leaf.elem(0)};
  }
  if (const auto* hull = leaf.data->type == GeometryType::ConvexHull
                            ? dynamic_cast<const coal::Convex<coal::Triangle>*>(leaf.cache->shape.get())
                            : nullptr) {
    // The nearest point of the hull's surface triangles (through their tree),
    // inside when the hull's interior point lies ahead of p as seen from it:
    // exact, where GJK/EPA on a zero-radius sphere took several times longer.
    if (hull->points && hull->polygons) {
      const RigidTransform W = leaf.shapePose();
      const Vector3 local = W.inverse().apply(p);
      const MeshBVH& tree = hullSurfaceTree(*leaf.cache, *hull);
      // Outside the tree's root box, the point is outside the hull: its
      // distance is positive and the search may stop at `upper`; inside the
      // box it may be inside the hull, where any depth is below `upper`.
      const bool outside = tree.getNumBVs() > 0 && pointObbDistance(local, tree.getBV(0).bv.obb) > 0;
      Vector3 cp;
      double d;
      if (outside && !(upper > 0)) return {upper, p, -1};
      if (meshClosestPoint(tree, local, outside ? upper : INFINITY, cp, d) < 0) return {upper, p, -1};
      if (d <= 1e-12 * (1.0 + local.norm())) {
        d = 0;  // on the surface but for the rounding of the change of frame
      } else if ((local - cp).dot(leaf.cache->hullInterior - cp) > 0) {
        d = -d;
      }
      if (d >= upper) return {upper, p, -1};
      return {d, W.apply(cp), leaf.elem(0)};
    }
  }
  if (leaf.isCoal()) {
    static const coal::Sphere point(0.0);
    coal::DistanceRequest req(true, true);
    req.gjk_tolerance = 1e-10;
    req.epa_tolerance = 1e-10;
    coal::DistanceResult res;
    coalDistance(leaf.cache->shape.get(), leaf.coalTransform(), &point, coal::Transform3s(Matrix3::Identity(), p), req,
                 res);
    if (res.min_distance >= upper) return {upper, p, -1};
    return {res.min_distance, res.nearest_points[0], leaf.elem(res.b1)};
  }
  const Vector3 local = leaf.T.inverse().apply(p);
  if (leaf.isCloud()) {
    const PointTree& tree = leaf.cache->points;
    double best;
    const int i = tree.nearest(
        [&](const Vector3& lo, const Vector3& hi) {
          const double gap = std::sqrt(pointBoxDistance2(local, lo, hi));
          return gap > 0 ? gap : -tree.maxRadius();  // inside a box: possibly inside a ball
        },
        [&](int k) { return (local - tree.center(k)).norm() - tree.radius(k); }, upper, -INFINITY, best);
    if (i < 0) return {upper, p, -1};
    return cloudBallPointDistance(leaf, local, i, best);
  }
  if (leaf.isGrid()) {
    const double v = gridValue(leaf.data->grid, local);
    if (v >= upper) return {upper, p, -1};
    return {v, leaf.T.apply(gridLevelSetPoint(leaf.data->grid, local, v)), leaf.elem(0)};
  }
  throw std::invalid_argument("point distance is not supported for " + leaf.name());
}

void ballOf(const Leaf& leaf, Vector3& c, double& r) {
  c = leaf.T.apply(leaf.cache->shapeOffset.t);
  r = leaf.isPrimitive("Sphere") ? leaf.data->primitive.properties[3] : 0.0;
}

PointDistance cloudBallPointDistance(const Leaf& cloud, const Vector3& local, int ball, double d) {
  const PointTree& tree = cloud.cache->points;
  const Vector3 c = tree.center(ball);
  const double dc = (local - c).norm();
  const Vector3 onBall = dc > 0 ? Vector3(c + tree.radius(ball) * (local - c) / dc) : c;
  return {d, cloud.T.apply(onBall), cloud.elem(ball)};
}

BallDistance ballLeafDistance(const Vector3& c, double r, const Leaf& leaf, double upper) {
  const PointDistance pd = leafPointDistance(leaf, c, upper + r);
  if (pd.elem < 0) return {upper, c, c, -1};
  return ballDistanceFrom(c, r, pd);
}

BallDistance ballDistanceFrom(const Vector3& c, double r, const PointDistance& pd) {
  const double n = (pd.cp - c).norm();
  const Vector3 dir = n > 0 ? Vector3((pd.cp - c) / n) : Vector3::Zero();
  // Inside a solid the surface lies behind the closest point.
  return {pd.d - r, c + (pd.d >= 0 ? r : -r) * dir, pd.cp, pd.elem};
}

}  // namespace detail
}  // namespace klampt
