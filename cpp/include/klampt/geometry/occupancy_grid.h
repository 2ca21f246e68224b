// Occupancy grids: cell values over an axis-aligned box; a cell whose value
// exceeds the occupancy threshold is a solid box.
#pragma once
#include "klampt/geometry/geometry.h"

namespace klampt {

inline std::size_t cellIndex(const OccupancyGrid& grid, int i, int j, int k) {
  return ((std::size_t)i * grid.dims[1] + j) * grid.dims[2] + k;
}
inline bool occupied(const OccupancyGrid& grid, int i, int j, int k) {
  return grid.values[cellIndex(grid, i, j, k)] > grid.occupancyThreshold;
}
/// Cell (i, j, k)'s box.
void occupancyCell(const OccupancyGrid& grid, int i, int j, int k, Vector3& lo, Vector3& hi);

/// Throws std::invalid_argument if the values do not fill the dims, the
/// bounds are not finite with bmin <= bmax, or the threshold is NaN.
void validateOccupancyGrid(const OccupancyGrid& grid);

/// The occupied cells as AABB primitives, runs of occupied cells along z
/// merged into one box, in a Group (empty Group when nothing is occupied).
GeometryData occupancyBoxes(const OccupancyGrid& grid);
/// The boundary faces of the occupied cells (two triangles each, facing out).
TriangleMesh occupancyGridMesh(const OccupancyGrid& grid);
/// One point per occupied cell, at its centre.
PointCloud occupancyGridPointCloud(const OccupancyGrid& grid);
/// Signed distance to the boundary of the occupied cells at the cell
/// centres: negative in occupied cells, positive in free ones.
VolumeGrid occupancyToVolumeGrid(const OccupancyGrid& grid);
/// Cells of a volume grid's layout, occupied (1) where its value is <= 0.
OccupancyGrid volumeGridToOccupancy(const VolumeGrid& grid);

}  // namespace klampt
