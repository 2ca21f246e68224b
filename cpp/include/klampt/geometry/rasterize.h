// Sampling a shape on a grid: heightmaps by vertical ray casts (the top
// surface), occupancy grids by cell overlap.
#pragma once
#include "klampt/geometry/geometry.h"

namespace klampt {

/// Elevation map over the shape's x-y bounds, one sample every `resolution`
/// (<= 0: the larger x-y extent / 255): the highest surface point above
/// each sample (a point cloud's highest point nearest each sample), NaN
/// where there is none. Centred on the bounds, the grid frame at z = 0.
Heightmap rasterizeHeightmap(const GeometryData& data, double resolution);

/// Occupancy grid over the shape's bounds with cubic cells of side
/// `resolution` (<= 0: the largest extent / 32): a cell is occupied (value 1)
/// when the shape overlaps it or, for a closed mesh, its centre is inside.
OccupancyGrid rasterizeOccupancy(const GeometryData& data, double resolution);

}  // namespace klampt
