// Internal to the queries: what they see of a heightmap (a group of its
// surface mesh and, for an elevation map, the walls of the solid below it)
// and of an occupancy grid (a group of its occupied boxes).
#pragma once
#include "klampt/geometry/geometry.h"

namespace klampt {
namespace detail {

/// The stand-in shape of a Heightmap or OccupancyGrid, built on first use
/// and kept with the shape; null for the other types.
const GeometryData* queryProxy(const GeometryData& data);

}  // namespace detail
}  // namespace klampt
