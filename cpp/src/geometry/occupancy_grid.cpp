// Occupancy grids: validation, occupied boxes, surface mesh, cell centres and
// the conversions with signed distance grids.
#include "klampt/geometry/occupancy_grid.h"
#include <cmath>
#include <stdexcept>
#include "klampt/geometry/mesh_distance.h"
#include "klampt/geometry/primitive.h"
#include "klampt/geometry/volume_grid.h"

namespace klampt {

void occupancyCell(const OccupancyGrid& grid, int i, int j, int k, Vector3& lo, Vector3& hi) {
  const Vector3 size = (grid.bmax - grid.bmin).cwiseQuotient(Vector3(grid.dims[0], grid.dims[1], grid.dims[2]));
  lo = grid.bmin + Vector3(i, j, k).cwiseProduct(size);
  hi = lo + size;
}

void validateOccupancyGrid(const OccupancyGrid& grid) {
  if (grid.dims[0] < 0 || grid.dims[1] < 0 || grid.dims[2] < 0 ||
      (std::size_t)grid.dims[0] * grid.dims[1] * grid.dims[2] != grid.values.size())
    throw std::invalid_argument("occupancy grid values do not match its dims");
  if (!grid.bmin.allFinite() || !grid.bmax.allFinite()) throw std::invalid_argument("occupancy grid bounds must be finite");
  if ((grid.bmin.array() > grid.bmax.array()).any())
    throw std::invalid_argument("occupancy grid bounds must have bmin <= bmax");
  if (std::isnan(grid.occupancyThreshold)) throw std::invalid_argument("occupancy threshold is NaN");
}

GeometryData occupancyBoxes(const OccupancyGrid& grid) {
  GeometryData group;
  group.type = GeometryType::Group;
  for (int i = 0; i < grid.dims[0]; ++i)
    for (int j = 0; j < grid.dims[1]; ++j)
      for (int k = 0; k < grid.dims[2];) {
        if (!occupied(grid, i, j, k)) {
          ++k;
          continue;
        }
        int end = k + 1;
        while (end < grid.dims[2] && occupied(grid, i, j, end)) ++end;
        Vector3 lo, hi, lo2, hi2;
        occupancyCell(grid, i, j, k, lo, hi);
        occupancyCell(grid, i, j, end - 1, lo2, hi2);
        auto box = std::make_shared<GeometryData>();
        box->type = GeometryType::Primitive;
        box->primitive = makeAABBPrimitive(lo, hi2);
        group.group.push_back(std::move(box));
        k = end;
      }
  return group;
}

TriangleMesh occupancyGridMesh(const OccupancyGrid& grid) {
  std::vector<Vector3> verts;
  std::vector<Eigen::Vector3i> tris;
  const auto& n = grid.dims;
  auto filled = [&](int i, int j, int k) {
    return i >= 0 && j >= 0 && k >= 0 && i < n[0] && j < n[1] && k < n[2] && occupied(grid, i, j, k);
  };
  for (int i = 0; i < n[0]; ++i)
    for (int j = 0; j < n[1]; ++j)
      for (int k = 0; k < n[2]; ++k) {
        if (!occupied(grid, i, j, k)) continue;
        Vector3 lo, hi;
        occupancyCell(grid, i, j, k, lo, hi);
        for (int axis = 0; axis < 3; ++axis)
          for (int side = 0; side < 2; ++side) {
            Eigen::Vector3i nb(i, j, k);
            nb[axis] += side ? 1 : -1;
            if (filled(nb[0], nb[1], nb[2])) continue;
            // Face corners in the plane of `axis`, counter-clockwise seen from outside.
            const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
            Vector3 c[4];
            for (int q = 0; q < 4; ++q) {
              c[q][axis] = side ? hi[axis] : lo[axis];
              c[q][a1] = (q == 1 || q == 2) ? hi[a1] : lo[a1];
              c[q][a2] = (q >= 2) ? hi[a2] : lo[a2];
            }
            const int base = (int)verts.size();
            for (const auto& p : c) verts.push_back(p);
            if (side) {
              tris.emplace_back(base, base + 1, base + 2);
              tris.emplace_back(base, base + 2, base + 3);
            } else {
              tris.emplace_back(base, base + 2, base + 1);
              tris.emplace_back(base, base + 3, base + 2);
            }
          }
      }
  TriangleMesh mesh;
  mesh.vertices.resize((Eigen::Index)verts.size(), 3);
  for (size_t v = 0; v < verts.size(); ++v) mesh.vertices.row((Eigen::Index)v) = verts[v].transpose();
  mesh.indices.resize((Eigen::Index)tris.size(), 3);
  for (size_t t = 0; t < tris.size(); ++t) mesh.indices.row((Eigen::Index)t) = tris[t].transpose();
  return mesh;
}

PointCloud occupancyGridPointCloud(const OccupancyGrid& grid) {
  std::vector<Vector3> pts;
  for (int i = 0; i < grid.dims[0]; ++i)
    for (int j = 0; j < grid.dims[1]; ++j)
      for (int k = 0; k < grid.dims[2]; ++k) {
        if (!occupied(grid, i, j, k)) continue;
        Vector3 lo, hi;
        occupancyCell(grid, i, j, k, lo, hi);
        pts.push_back(0.5 * (lo + hi));
      }
  PointCloud pc;
  pc.points.resize((Eigen::Index)pts.size(), 3);
  for (size_t p = 0; p < pts.size(); ++p) pc.points.row((Eigen::Index)p) = pts[p].transpose();
  pc.properties.resize((Eigen::Index)pts.size(), 0);
  return pc;
}

VolumeGrid occupancyToVolumeGrid(const OccupancyGrid& grid) {
  VolumeGrid out;
  out.bmin = grid.bmin;
  out.bmax = grid.bmax;
  out.dims = grid.dims;
  out.values.assign(grid.values.size(), 0.0);
  const TriangleDistanceTree boundary(occupancyGridMesh(grid));
  const double far = (grid.bmax - grid.bmin).norm();
  for (int i = 0; i < grid.dims[0]; ++i)
    for (int j = 0; j < grid.dims[1]; ++j)
      for (int k = 0; k < grid.dims[2]; ++k) {
        Vector3 lo, hi;
        occupancyCell(grid, i, j, k, lo, hi);
        const double d = std::min(boundary.distance(0.5 * (lo + hi)), far);
        out.values[cellIndex(grid, i, j, k)] = occupied(grid, i, j, k) ? -d : d;
      }
  return out;
}

OccupancyGrid volumeGridToOccupancy(const VolumeGrid& grid) {
  OccupancyGrid out;
  out.bmin = grid.bmin;
  out.bmax = grid.bmax;
  out.dims = grid.dims;
  out.values.resize(grid.values.size());
  for (size_t c = 0; c < grid.values.size(); ++c) out.values[c] = grid.values[c] <= 0 ? 1.0 : 0.0;
  return out;
}

}  // namespace klampt
