// Builds the acceleration structure of each geometry type on first query.
#include "klampt/geometry/queries/collision_cache.h"
#include <array>
#include <atomic>
#include <cstdint>
#include <Eigen/SVD>
#include <coal/BVH/BVH_model.h>
#include <coal/shape/geometric_shapes.h>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <utility>
#include "grid_bound.h"
#include "leaf.h"
#include "mesh_bvh.h"
#include "query_proxy.h"

namespace klampt {

namespace {

Vector3 at(const std::vector<double>& p, size_t i) { return Vector3(p[i], p[i + 1], p[i + 2]); }

void requireSize(const GeometricPrimitive& prim, size_t n) {
  if (prim.properties.size() < n)
    throw std::invalid_argument(prim.type + " primitive needs " + std::to_string(n) + " parameters");
}

/// Rotation whose z axis is the unit vector `z`.
Matrix3 frameWithZ(const Vector3& z) {
  const Vector3 helper = std::abs(z.x()) < 0.9 ? Vector3::UnitX() : Vector3::UnitY();
  const Vector3 x = helper.cross(z).normalized();
  Matrix3 R;
  R.col(0) = x;
  R.col(1) = z.cross(x);
  R.col(2) = z;
  return R;
}

void buildPrimitive(const GeometricPrimitive& prim, CollisionCache& c) {
  const auto& p = prim.properties;
  if (prim.type == "Point") {
    requireSize(prim, 3);
    c.shape = std::make_shared<coal::Sphere>(0.0);
    c.shapeOffset.t = at(p, 0);
  } else if (prim.type == "Sphere") {
    requireSize(prim, 4);
    if (!(p[3] >= 0)) throw std::invalid_argument("Sphere radius must be >= 0");
    c.shape = std::make_shared<coal::Sphere>(p[3]);
    c.shapeOffset.t = at(p, 0);
  } else if (prim.type == "Segment") {
    requireSize(prim, 6);
    const Vector3 a = at(p, 0), b = at(p, 3);
    const double len = (b - a).norm();
    c.shapeOffset.t = 0.5 * (a + b);
    if (len == 0) {
      c.shape = std::make_shared<coal::Sphere>(0.0);
    } else {
      c.shape = std::make_shared<coal::Capsule>(0.0, len);  // a zero-radius capsule is the segment
      c.shapeOffset.R = frameWithZ((b - a) / len);
    }
  } else if (prim.type == "Triangle") {
    // A one-triangle BVH: Coal has no distance between TriangleP and spheres or BVHs.
    requireSize(prim, 9);
    c.shape = detail::buildMeshBVH({at(p, 0), at(p, 3), at(p, 6)}, {coal::Triangle(0, 1, 2)});
  } else if (prim.type == "Polygon") {
    // [n, x1 y1 z1, ...]: a planar polygon, as a fan of triangles around its first vertex.
    const size_t n = p.empty() ? 0 : (size_t)p[0];
    if (n < 3 || p.size() < 1 + 3 * n) throw std::invalid_argument("Polygon needs at least 3 vertices");
    std::vector<coal::Vec3s> verts;
    for (size_t i = 0; i < n; ++i) verts.push_back(at(p, 1 + 3 * i));
    std::vector<coal::Triangle> tris;
    for (size_t i = 1; i + 1 < n; ++i) tris.emplace_back(0, i, i + 1);
    c.shape = detail::buildMeshBVH(std::move(verts), std::move(tris));
  } else if (prim.type == "AABB") {
    requireSize(prim, 6);
    const Vector3 lo = at(p, 0), hi = at(p, 3);
    c.shape = std::make_shared<coal::Box>((hi - lo).cwiseMax(0.0));
    c.shapeOffset.t = 0.5 * (lo + hi);
  } else if (prim.type == "Box") {
    requireSize(prim, 15);
    const Matrix3 R = rotationFromColumnMajor(p.data() + 3);
    const Vector3 dims = at(p, 12);
    c.shape = std::make_shared<coal::Box>(dims.cwiseMax(0.0));
    c.shapeOffset.R = R;
    c.shapeOffset.t = at(p, 0) + R * (0.5 * dims);
  } else {
    throw std::invalid_argument("proximity queries do not support " + prim.type + " primitives");
  }
}

void buildMesh(const TriangleMesh& mesh, CollisionCache& c) {
  if (mesh.indices.rows() == 0) return;
  std::vector<coal::Vec3s> verts(mesh.vertices.rows());
  for (int i = 0; i < mesh.vertices.rows(); ++i) verts[i] = mesh.vertices.row(i).transpose();
  std::vector<coal::Triangle> tris(mesh.indices.rows());
  const int nv = (int)verts.size();
  for (int i = 0; i < mesh.indices.rows(); ++i) {
    for (int k = 0; k < 3; ++k)
      if (mesh.indices(i, k) < 0 || mesh.indices(i, k) >= nv)
        throw std::invalid_argument("triangle " + std::to_string(i) + " has a vertex index out of range");
    tris[i] = coal::Triangle(mesh.indices(i, 0), mesh.indices(i, 1), mesh.indices(i, 2));
  }
  c.shape = detail::buildMeshBVH(std::move(verts), std::move(tris));
}

/// The hull's points, as given when they span 3D; otherwise (fewer than 4
/// points, all on a plane, a line or one point) each point is doubled
/// +-eps along every direction they do not span, eps = 1e-8 (1 + extent):
/// Qhull needs a full-dimensional input (Coal's Qhull crashes printing its
/// error on a flat one), and the flat hull is the limit of these, within eps.
std::vector<coal::Vec3s> fullDimensional(const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>& points) {
  if (!points.allFinite()) throw std::invalid_argument("convex hull points must be finite");
  // Past this, Qhull's determinants overflow and Coal's Qhull crashes printing its warning.
  if (points.size() && points.cwiseAbs().maxCoeff() > 1e75)
    throw std::invalid_argument("convex hull points must lie within 1e75 of the shape's origin");
  const Eigen::MatrixXd centred = points.rowwise() - points.colwise().mean();
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(centred, Eigen::ComputeFullV);
  const Eigen::VectorXd sigma = svd.singularValues();
  const double tolerance = 1e-9 * (1.0 + (sigma.size() ? sigma(0) : 0.0));
  int rank = 0;
  while (rank < sigma.size() && sigma(rank) > tolerance) ++rank;
  std::vector<coal::Vec3s> out;
  if (rank == 3) {
    for (Eigen::Index i = 0; i < points.rows(); ++i) out.push_back(points.row(i).transpose());
    return out;
  }
  const double extent = (points.colwise().maxCoeff() - points.colwise().minCoeff()).maxCoeff();
  const double eps = 1e-8 * (1.0 + extent);
  for (Eigen::Index i = 0; i < points.rows(); ++i)
    for (int k = rank; k < 3; ++k)  // V's columns past the rank: the directions the points do not span
      for (double sign : {-1.0, 1.0}) out.push_back(points.row(i).transpose() + sign * eps * svd.matrixV().col(k));
  return out;
}

void buildHull(const ConvexHull& hull, CollisionCache& c) {
  if (hull.points.rows() == 0) return;
  auto pts = std::make_shared<std::vector<coal::Vec3s>>(fullDimensional(hull.points));
  const bool thickened = pts->size() != (size_t)hull.points.rows();
  c.hullInterior = Vector3::Zero();
  for (const auto& q : *pts) c.hullInterior += q;
  c.hullInterior /= double(pts->size());
  try {
    // "Pp": a thickened flat hull is narrow on purpose; Qhull must not report it (Coal's Qhull prints through
    // an invalid stream)
    c.shape.reset(coal::ConvexBase::convexHull(pts, (unsigned)pts->size(), true, thickened ? "Qt Pp" : nullptr));
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("cannot build the convex hull (degenerate points?): ") + e.what());
  }
}

void buildPointCloud(const PointCloud& pc, CollisionCache& c) {
  std::vector<double> radii;
  for (size_t k = 0; k < pc.propertyNames.size(); ++k) {
    if (pc.propertyNames[k] != "radius") continue;
    radii.resize(pc.points.rows());
    for (int i = 0; i < pc.points.rows(); ++i) radii[i] = std::max(0.0, pc.properties(i, k));
  }
  c.points.build(pc.points.data(), (int)pc.points.rows(), radii);
  c.points.bounds(c.bmin, c.bmax);
}

std::shared_ptr<CollisionCache> build(const GeometryData& data) {
  auto c = std::make_shared<CollisionCache>();
  switch (data.type) {
    case GeometryType::Primitive: buildPrimitive(data.primitive, *c); break;
    case GeometryType::TriangleMesh: buildMesh(data.mesh, *c); break;
    case GeometryType::ConvexHull: buildHull(data.hull, *c); break;
    case GeometryType::PointCloud: buildPointCloud(data.pointCloud, *c); return c;
    case GeometryType::VolumeGrid:
      c->bmin = data.grid.bmin;
      c->bmax = data.grid.bmax;
      c->gridLipschitz = detail::gridLipschitz(data.grid);
      c->gridMinima = detail::gridBlockMinima(data.grid);
      return c;
    case GeometryType::Group: {
      c->bmin = Vector3::Constant(std::numeric_limits<double>::infinity());
      c->bmax = -c->bmin;
      for (const auto& e : data.group) {
        const CollisionCache& ec = collisionCache(*e);
        c->bmin = c->bmin.cwiseMin(ec.bmin);
        c->bmax = c->bmax.cwiseMax(ec.bmax);
      }
      if (data.group.empty()) c->bmin = c->bmax = Vector3::Zero();
      return c;
    }
    case GeometryType::Heightmap:
    case GeometryType::OccupancyGrid: {
      const CollisionCache& pc = collisionCache(*detail::queryProxy(data));
      c->bmin = pc.bmin;
      c->bmax = pc.bmax;
      return c;
    }
    case GeometryType::Empty: return c;
  }
  if (c->shape) {
    c->shape->computeLocalAABB();
    transformBox(c->shapeOffset, c->shape->aabb_local.min_, c->shape->aabb_local.max_, c->bmin, c->bmax);
  }
  return c;
}

/// The lock under which a shape's structures are built: one of a fixed set,
/// picked by the shape's address, so that different shapes build in parallel
/// (a world's loading builds on every core) and one shape is built once
/// however many threads ask. Recursive, in case a part (built before its
/// whole takes the lock) maps to the same one.
std::recursive_mutex& buildMutex(const GeometryData& data) {
  static std::array<std::recursive_mutex, 64> locks;
  return locks[(reinterpret_cast<std::uintptr_t>(&data) / alignof(GeometryData)) % locks.size()];
}

/// Builds the structures of a shape's parts (a group's members, the stand-in
/// of a heightmap or occupancy grid) before the shape takes its lock, so that
/// no thread waits for a lock while holding another.
void buildParts(const GeometryData& data) {
  if (data.type == GeometryType::Group)
    for (const auto& e : data.group) collisionCache(*e);
  if (const GeometryData* proxy = detail::queryProxy(data)) collisionCache(*proxy);
}

}  // namespace

namespace {
std::atomic<long> cachesBuilt{0};
}

long collisionCachesBuilt() { return cachesBuilt.load(std::memory_order_relaxed); }
void countCollisionStructureBuilt() { cachesBuilt.fetch_add(1, std::memory_order_relaxed); }

const CollisionCache& collisionCache(const GeometryData& data) {
  if (const CollisionCache* cached = data.collisionCache.get()) return *cached;
  buildParts(data);
  std::lock_guard<std::recursive_mutex> lock(buildMutex(data));
  if (const CollisionCache* cached = data.collisionCache.get()) return *cached;
  cachesBuilt.fetch_add(1, std::memory_order_relaxed);
  return data.collisionCache.publish(build(data));
}

}  // namespace klampt
