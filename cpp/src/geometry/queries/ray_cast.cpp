// Ray casts against every leaf kind: primitives in closed form, meshes and
// hulls through their triangles (meshes pruned by the Coal BVH), point
// clouds through the ball tree, volume grids by marching the field.
#include <coal/BVH/BVH_model.h>
#include <coal/shape/convex.h>
#include <coal/shape/geometric_shapes.h>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>
#include "klampt/geometry/queries/queries.h"
#include "heightmap_ray.h"
#include "leaf.h"
#include "mesh_bvh.h"
#include "query_proxy.h"
#include "ray_triangle.h"

namespace klampt {

using detail::Leaf;
using detail::rayTriangle;

namespace {

/// Ray through a solid box centred at the origin with half sizes h.
bool rayCentredBox(const Vector3& s, const Vector3& d, const Vector3& h, double& t) {
  return rayBox(s, d, -h, h, INFINITY, t);
}

bool raySphere(const Vector3& s, const Vector3& d, double r, double& t) {
  const double b = s.dot(d), c = s.squaredNorm() - r * r, disc = b * b - c;
  if (disc < 0) return false;
  t = -b - std::sqrt(disc);
  if (t < 0) {
    if (c > 0) return false;
    t = 0;  // starts inside
  }
  return true;
}


/// Nearest hit on the tree's triangles, descending its oriented boxes
/// nearest child first, so that a hit soon prunes the boxes behind it. The
/// triangles of leaves are tested directly, without their (flat) boxes.
int rayMesh(const coal::BVHModel<coal::OBBRSS>& bvh, const Vector3& s, const Vector3& d, double& tBest) {
  int hit = -1;
  const auto& v = *bvh.vertices;
  auto hitsTriangle = [&](int tri) {
    const coal::Triangle& f = (*bvh.tri_indices)[tri];
    double t;
    if (rayTriangle(s, d, v[f[0]], v[f[1]], v[f[2]], t) && t < tBest) {
      tBest = t;
      hit = tri;
    }
  };
  // Where the ray enters inner node i's box, if before tBest.
  auto entersBox = [&](int i, double& tEnter) {
    const coal::OBB& obb = bvh.getBV(i).bv.obb;
    const Vector3 ls = obb.axes.transpose() * (s - obb.To), ld = obb.axes.transpose() * d;
    // Grown by the rounding of the change of frame so that rays grazing a
    // face are not culled.
    const Vector3 extent = obb.extent.array() + 1e-9 * (1.0 + ls.cwiseAbs().maxCoeff());
    return rayBox(ls, ld, -extent, extent, tBest, tEnter);
  };
  struct Entry {
    int node;
    double tEnter;
  };
  thread_local std::vector<Entry> stack;  // reused: no allocation per ray
  stack.clear();
  // Visits node i: a leaf's triangle at once, an inner node's box later.
  auto visit = [&](int i, Entry& e) {
    const auto& node = bvh.getBV(i);
    if (node.isLeaf()) {
      hitsTriangle(node.primitiveId());
      return false;
    }
    e.node = i;
    return entersBox(i, e.tEnter);
  };
  Entry root{0, 0};
  if (bvh.getNumBVs() > 0 && visit(0, root)) stack.push_back(root);
  while (!stack.empty()) {
    const Entry e = stack.back();
    stack.pop_back();
    if (e.tEnter > tBest) continue;  // a hit found since is nearer
    const auto& node = bvh.getBV(e.node);
    Entry near{-1, 0}, far{-1, 0};
    const bool hitsNear = visit(node.leftChild(), near), hitsFar = visit(node.rightChild(), far);
    if (hitsNear && hitsFar && far.tEnter < near.tEnter) std::swap(near, far);
    if (hitsNear && hitsFar) {
      stack.push_back(far);
      stack.push_back(near);
    } else if (hitsNear || hitsFar) {
      stack.push_back(hitsNear ? near : far);
    }
  }
  return hit;
}

/// First crossing of the zero level set of a volume grid along the ray.
bool rayGrid(const VolumeGrid& grid, const Vector3& s, const Vector3& d, double& t) {
  double tEnter;
  if (!rayBox(s, d, grid.bmin, grid.bmax, INFINITY, tEnter)) return false;
  const Vector3 size = grid.bmax - grid.bmin;
  const double step = 0.5 * size.cwiseQuotient(Vector3(grid.dims[0], grid.dims[1], grid.dims[2])).minCoeff();
  double tExit = INFINITY;  // where the ray leaves the box
  for (int k = 0; k < 3; ++k)
    if (d[k] != 0) tExit = std::min(tExit, ((d[k] > 0 ? grid.bmax[k] : grid.bmin[k]) - s[k]) / d[k]);
  double t0 = tEnter, v0 = detail::gridValue(grid, s + t0 * d);
  if (v0 <= 0) {
    t = t0;
    return true;
  }
  for (double t1 = t0 + step; t0 < tExit; t0 = t1, t1 += step) {
    t1 = std::min(t1, tExit);
    const double v1 = detail::gridValue(grid, s + t1 * d);
    if (v1 <= 0) {
      t = t0 + (t1 - t0) * v0 / (v0 - v1);  // linear within the step
      return true;
    }
    v0 = v1;
    if (t1 >= tExit) break;
  }
  return false;
}

/// Hit of one leaf in world coordinates: element index or -1, and t.
int rayLeaf(const Leaf& x, const Vector3& s, const Vector3& d, double margin, double& t) {
  const RigidTransform inv = x.T.inverse();
  const Vector3 ls = inv.apply(s), ld = inv.R * d;
  t = INFINITY;
  if (x.isCloud()) return x.elem(x.cache->points.rayCast(ls, ld, margin, t));
  if (x.isGrid()) return rayGrid(x.data->grid, ls, ld, t) ? x.elem(0) : -1;
  if (x.isMesh()) {
    const int tri = rayMesh(static_cast<const coal::BVHModel<coal::OBBRSS>&>(*x.cache->shape), ls, ld, t);
    return tri >= 0 ? x.elem(tri) : -1;
  }
  const RigidTransform& off = x.cache->shapeOffset;
  const Vector3 ss = off.R.transpose() * (ls - off.t), sd = off.R.transpose() * ld;
  const coal::CollisionGeometry* shape = x.cache->shape.get();
  bool hit = false;
  if (const auto* sph = dynamic_cast<const coal::Sphere*>(shape)) {
    // Points (radius 0) have no area: only a positive margin makes them hittable.
    hit = sph->radius + margin > 0 && raySphere(ss, sd, sph->radius + margin, t);
  } else if (const auto* box = dynamic_cast<const coal::Box*>(shape)) {
    hit = rayCentredBox(ss, sd, box->halfSide, t);
  } else if (const auto* cvx = dynamic_cast<const coal::Convex<coal::Triangle>*>(shape)) {
    hit = rayMesh(detail::hullSurfaceTree(*x.cache, *cvx), ss, sd, t) >= 0;
  } else if (const auto* bvh = dynamic_cast<const coal::BVHModel<coal::OBBRSS>*>(shape)) {
    hit = rayMesh(*bvh, ss, sd, t) >= 0;  // Triangle and Polygon primitives
  }
  // Segments (zero-radius capsules) have no area and are never hit.
  return hit ? x.elem(0) : -1;
}

}  // namespace

int rayCast(const Geometry& g, const Vector3& s, const Vector3& d, Vector3& hitPoint) {
  if (!s.allFinite() || !d.allFinite()) throw std::invalid_argument("the ray must be finite");
  const double n = d.norm();
  if (n == 0) throw std::invalid_argument("the ray direction must be nonzero");
  const Vector3 u = d / n;
  if (g.data->type == GeometryType::Heightmap && g.margin == 0) {
    // Elevation maps without missing samples: walk the cells under the ray.
    const Heightmap& hm = g.data->heightmap;
    const GeometryData* proxy = detail::queryProxy(*g.data);
    const long cells = (long)std::max<Eigen::Index>(hm.heights.rows() - 1, 0) * std::max<Eigen::Index>(hm.heights.cols() - 1, 0);
    if (proxy && !proxy->group.empty() && proxy->group[0]->mesh.indices.rows() == 2 * cells) {
      const RigidTransform inv = g.currentTransform.inverse();
      double t;
      int tri;
      const auto r = detail::heightmapRay(hm, inv.apply(s), inv.R * u, t, tri);
      if (r == detail::HeightmapRay::Miss) return -1;
      if (r == detail::HeightmapRay::Hit) {
        hitPoint = s + t * u;
        return tri;
      }
    }
  }
  double tBest = INFINITY;
  int best = -1;
  thread_local std::vector<Leaf> leaves;
  detail::leavesOf(g, leaves);
  for (const Leaf& x : leaves) {
    double t;
    const int e = rayLeaf(x, s, u, g.margin, t);
    if (e >= 0 && t < tBest) {
      tBest = t;
      best = e;
    }
  }
  if (best >= 0) hitPoint = s + tBest * u;
  return best;
}

}  // namespace klampt
