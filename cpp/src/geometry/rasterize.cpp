// Heightmaps and occupancy grids sampled from other shapes.
#include "klampt/geometry/rasterize.h"
#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>
#include "klampt/geometry/convert.h"
#include "klampt/geometry/heightmap.h"
#include "klampt/geometry/mesh_distance.h"
#include "klampt/geometry/occupancy_grid.h"
#include "klampt/geometry/primitive.h"
#include "klampt/geometry/queries/queries.h"
#include "klampt/geometry/volume_grid.h"

namespace klampt {

namespace {

constexpr long long kMaxRasterCells = 1LL << 24;

void boundsOf(const GeometryData& data, Vector3& lo, Vector3& hi) {
  tightBoundingBox(data, RigidTransform(), lo, hi);
  if (!lo.allFinite() || !hi.allFinite()) throw std::invalid_argument("cannot rasterize an empty or unbounded shape");
}

}  // namespace

Heightmap rasterizeHeightmap(const GeometryData& data, double resolution) {
  Vector3 lo, hi;
  boundsOf(data, lo, hi);
  const Vector3 size = hi - lo;
  const double extent = std::max(size.x(), size.y());
  if (!(resolution > 0)) resolution = extent > 0 ? extent / 255 : 1.0;
  const double cw = std::round(size.x() / resolution), ch = std::round(size.y() / resolution);
  if ((cw + 1) * (ch + 1) > (double)kMaxRasterCells) throw std::invalid_argument("heightmap resolution too fine");
  const int w = std::max(2, (int)cw + 1), h = std::max(2, (int)ch + 1);
  Heightmap hm;
  resizeHeightmap(hm, w, h);
  setHeightmapSize(hm, size.x() > 0 ? size.x() : resolution * (w - 1), size.y() > 0 ? size.y() : resolution * (h - 1));
  hm.viewport.pose.t = Vector3(0.5 * (lo.x() + hi.x()), 0.5 * (lo.y() + hi.y()), 0.0);
  hm.heights.setConstant(NAN);
  if (data.type == GeometryType::PointCloud) {
    const auto& pts = data.pointCloud.points;
    for (Eigen::Index p = 0; p < pts.rows(); ++p) {
      const Vector3 q = heightmapProject(hm, pts.row(p).transpose());
      const int i = (int)std::lround(q.x()), j = (int)std::lround(q.y());
      if (i < 0 || j < 0 || i >= w || j >= h) continue;
      float& z = hm.heights(i, j);
      if (std::isnan(z) || q.z() > z) z = (float)q.z();
    }
    return hm;
  }
  const Geometry g(std::make_shared<const GeometryData>(data), RigidTransform(), 0.0);
  const double top = hi.z() + 1.0 + size.norm();
  // Ray origins above each sample, placed while every height is a number.
  hm.heights.setZero();
  std::vector<Vector3> origins;
  origins.reserve((size_t)w * h);
  for (int i = 0; i < w; ++i)
    for (int j = 0; j < h; ++j) origins.push_back(heightmapVertex(hm, i, j) + Vector3(0, 0, top));
  hm.heights.setConstant(NAN);
  for (int i = 0; i < w; ++i)
    for (int j = 0; j < h; ++j) {
      Vector3 hit;
      if (rayCast(g, origins[(size_t)i * h + j], Vector3(0, 0, -1), hit) >= 0) hm.heights(i, j) = (float)hit.z();
    }
  return hm;
}

OccupancyGrid rasterizeOccupancy(const GeometryData& data, double resolution) {
  Vector3 lo, hi;
  boundsOf(data, lo, hi);
  const Vector3 size = hi - lo;
  if (!(resolution > 0)) resolution = size.maxCoeff() > 0 ? size.maxCoeff() / 32 : 1.0;
  OccupancyGrid grid;
  double cells = 1;
  for (int k = 0; k < 3; ++k) {
    grid.dims[k] = std::max(1, (int)std::ceil(size[k] / resolution - 1e-9));
    cells *= grid.dims[k];
  }
  if (cells > (double)kMaxRasterCells) throw std::invalid_argument("occupancy grid resolution too fine");
  const Vector3 span = Vector3(grid.dims[0], grid.dims[1], grid.dims[2]) * resolution;
  grid.bmin = 0.5 * (lo + hi) - 0.5 * span;
  grid.bmax = grid.bmin + span;
  grid.values.assign((size_t)cells, 0.0);
  auto mark = [&](int i, int j, int k) { grid.values[cellIndex(grid, i, j, k)] = 1.0; };
  if (data.type == GeometryType::PointCloud) {
    const auto& pts = data.pointCloud.points;
    for (Eigen::Index p = 0; p < pts.rows(); ++p) {
      int idx[3];
      for (int k = 0; k < 3; ++k)
        idx[k] = std::clamp((int)std::floor((pts(p, k) - grid.bmin[k]) / resolution), 0, grid.dims[k] - 1);
      mark(idx[0], idx[1], idx[2]);
    }
    return grid;
  }
  const Geometry g(std::make_shared<const GeometryData>(data), RigidTransform(), 0.0);
  std::vector<char> inside;
  if (data.type == GeometryType::TriangleMesh) {
    VolumeGrid layout;
    layout.bmin = grid.bmin;
    layout.bmax = grid.bmax;
    layout.dims = grid.dims;
    inside = insideCells(data.mesh, layout);
  }
  for (int i = 0; i < grid.dims[0]; ++i)
    for (int j = 0; j < grid.dims[1]; ++j)
      for (int k = 0; k < grid.dims[2]; ++k) {
        if (!inside.empty() && inside[cellIndex(grid, i, j, k)]) {
          mark(i, j, k);
          continue;
        }
        Vector3 clo, chi;
        occupancyCell(grid, i, j, k, clo, chi);
        GeometryData box;
        box.type = GeometryType::Primitive;
        box.primitive = makeAABBPrimitive(clo, chi);
        if (collides(Geometry(std::make_shared<const GeometryData>(std::move(box)), RigidTransform(), 0.0), g))
          mark(i, j, k);
      }
  return grid;
}

}  // namespace klampt
