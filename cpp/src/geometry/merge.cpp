// Merging one geometry into another of the same kind.
#include "klampt/geometry/merge.h"
#include <cmath>
#include <string>
#include "klampt/geometry/convex_hull.h"
#include "klampt/geometry/heightmap.h"
#include "klampt/geometry/occupancy_grid.h"
#include "klampt/geometry/primitive.h"
#include "klampt/geometry/queries/point_tree.h"
#include "klampt/geometry/queries/queries.h"

namespace klampt {

namespace {

[[noreturn]] void unsupported(const GeometryData& into, const GeometryData& from) {
  throw std::invalid_argument(std::string("cannot merge a ") + geometryTypeName(from.type) + " into a " +
                              geometryTypeName(into.type));
}

void mergeMeshes(TriangleMesh& m, TriangleMesh add, const RigidTransform& rel) {
  transformPoints(add.vertices, rel);
  appendTriangleMesh(m, add);
}

void mergeClouds(PointCloud& pc, PointCloud add, const RigidTransform& rel) {
  transformPointCloud(add, rel);
  std::vector<std::string> names;
  std::vector<int> mine, theirs;
  for (size_t k = 0; k < pc.propertyNames.size(); ++k)
    for (size_t l = 0; l < add.propertyNames.size(); ++l)
      if (pc.propertyNames[k] == add.propertyNames[l]) {
        names.push_back(pc.propertyNames[k]);
        mine.push_back((int)k);
        theirs.push_back((int)l);
        break;
      }
  const Eigen::Index n = pc.points.rows(), m = add.points.rows();
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> props(n + m, (Eigen::Index)names.size());
  for (size_t c = 0; c < names.size(); ++c) {
    props.col(c).head(n) = pc.properties.col(mine[c]);
    props.col(c).tail(m) = add.properties.col(theirs[c]);
  }
  pc.points.conservativeResize(n + m, 3);
  pc.points.bottomRows(m) = add.points;
  pc.propertyNames = std::move(names);
  pc.properties = std::move(props);
}

void mergeHulls(ConvexHull& h, ConvexHull add, const RigidTransform& rel) {
  transformPoints(add.points, rel);
  PointMatrix all(h.points.rows() + add.points.rows(), 3);
  all << h.points, add.points;
  try {
    h.points = convexHullVertices(all);
  } catch (const std::runtime_error&) {
    h.points = std::move(all);  // flat or tiny sets: every point is kept
  }
}

/// Signed distance from the world point p to other's shape (negative inside).
double signedDistance(const Geometry& other, const Vector3& p) {
  const double d = distancePoint(other, p, {}).d;
  return (d > 0 && containsPoint(other, p)) ? -d : d;
}

void mergeIntoGrid(VolumeGrid& grid, const RigidTransform& T, const Geometry& other) {
  const Geometry bare(other.data, other.currentTransform, 0.0);
  const auto& n = grid.dims;
  const Vector3 h = (grid.bmax - grid.bmin).cwiseQuotient(Vector3(n[0], n[1], n[2]));
  for (int i = 0; i < n[0]; ++i)
    for (int j = 0; j < n[1]; ++j)
      for (int k = 0; k < n[2]; ++k) {
        const Vector3 c = grid.bmin + h.cwiseProduct(Vector3(i + 0.5, j + 0.5, k + 0.5));
        double& v = grid.values[((size_t)i * n[1] + j) * n[2] + k];
        v = std::min(v, signedDistance(bare, T.apply(c)));
      }
}

/// Marks the cells of `grid` (placed at T) that other overlaps or whose
/// centre lies inside it, as rasterizeOccupancy marks cells.
void mergeIntoOccupancy(OccupancyGrid& grid, const RigidTransform& T, const Geometry& other) {
  const Geometry bare(other.data, other.currentTransform, 0.0);
  Vector3 wlo, whi, lo, hi;
  looseBoundingBox(bare, wlo, whi);
  transformBox(T.inverse(), wlo, whi, lo, hi);  // other's box in the grid's frame
  const double mark = grid.occupancyThreshold < 1 ? 1.0 : std::nextafter(grid.occupancyThreshold, INFINITY);
  for (int i = 0; i < grid.dims[0]; ++i)
    for (int j = 0; j < grid.dims[1]; ++j)
      for (int k = 0; k < grid.dims[2]; ++k) {
        if (occupied(grid, i, j, k)) continue;
        Vector3 clo, chi;
        occupancyCell(grid, i, j, k, clo, chi);
        if (boxBoxDistance(clo, chi, lo, hi) > 0) continue;
        GeometryData box;
        box.type = GeometryType::Primitive;
        box.primitive = makeAABBPrimitive(clo, chi);
        const Geometry cell(std::make_shared<const GeometryData>(std::move(box)), T, 0.0);
        if (containsPoint(bare, T.apply(0.5 * (clo + chi))) || collides(cell, bare))
          grid.values[cellIndex(grid, i, j, k)] = mark;
      }
}

/// Raises an elevation map to other's top surface (the first hit of a ray
/// down through each sample), or brings a depth map's samples nearer to the
/// camera where other is seen in front of them.
void mergeIntoHeightmap(Heightmap& hm, const RigidTransform& T, const Geometry& other) {
  const Geometry bare(other.data, other.currentTransform, 0.0);
  const HeightmapViewport& vp = hm.viewport;
  const bool depth = vp.perspective;
  // Sample positions at height 0 (elevation) or depth 1 (a point on each ray).
  Heightmap unit = hm;
  unit.heights.setConstant(depth ? 1.0f : 0.0f);
  double top = 0;
  if (!depth) {
    Vector3 wlo, whi, lo, hi;
    looseBoundingBox(bare, wlo, whi);
    transformBox(vp.pose.inverse() * T.inverse(), wlo, whi, lo, hi);
    top = hi.z() + 1.0;
  }
  const Vector3 down = vp.pose.R * Vector3(0, 0, -1);
  const RigidTransform toView = vp.pose.inverse() * T.inverse();
  for (int i = 0; i < (int)hm.heights.rows(); ++i)
    for (int j = 0; j < (int)hm.heights.cols(); ++j) {
      const Vector3 at = heightmapVertex(unit, i, j);
      const Vector3 origin = depth ? vp.pose.t : Vector3(at - top * down);
      const Vector3 dir = depth ? Vector3(at - vp.pose.t) : down;
      Vector3 hit;
      if (rayCast(bare, T.apply(origin), T.R * dir, hit) < 0) continue;
      const double v = toView.apply(hit).z();
      float& h = hm.heights(i, j);
      if (!validHeight(hm, h) || (depth ? v < h : v > h)) h = (float)v;
    }
}

}  // namespace

void mergeGeometry(Geometry& g, const Geometry& other) {
  if (g.empty()) throw std::invalid_argument("cannot merge into an empty geometry");
  if (other.empty()) throw std::invalid_argument("cannot merge an empty geometry");
  const GeometryType into = g.data->type, from = other.data->type;
  const RigidTransform rel = g.currentTransform.inverse() * other.currentTransform;
  const bool same = into == from;
  if (into == GeometryType::OccupancyGrid) {
    OccupancyGrid grid = g.data->occupancy;
    mergeIntoOccupancy(grid, g.currentTransform, other);
    g.mutableData().occupancy = std::move(grid);
  } else if (into == GeometryType::Heightmap) {
    Heightmap hm = g.data->heightmap;
    mergeIntoHeightmap(hm, g.currentTransform, other);
    g.mutableData().heightmap = std::move(hm);
  } else if (into == GeometryType::VolumeGrid) {
    VolumeGrid grid = g.data->grid;  // the shared shape stays intact if the distance throws
    mergeIntoGrid(grid, g.currentTransform, other);
    g.mutableData().grid = std::move(grid);
  } else if (same && into == GeometryType::TriangleMesh) {
    TriangleMesh m = g.data->mesh;
    mergeMeshes(m, other.data->mesh, rel);
    g.mutableData().mesh = std::move(m);
  } else if (same && into == GeometryType::PointCloud) {
    PointCloud pc = g.data->pointCloud;
    mergeClouds(pc, other.data->pointCloud, rel);
    g.mutableData().pointCloud = std::move(pc);
  } else if (same && into == GeometryType::ConvexHull) {
    ConvexHull h = g.data->hull;
    mergeHulls(h, other.data->hull, rel);
    g.mutableData().hull = std::move(h);
  } else {
    unsupported(*g.data, *other.data);
  }
}

}  // namespace klampt
