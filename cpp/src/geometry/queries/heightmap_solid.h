// Internal to the queries: a heightmap is solid below (elevation map) or
// behind (depth map) its surface, so a shape that does not meet the surface
// still touches it when it lies on that side.
#pragma once
#include "klampt/geometry/geometry.h"

namespace klampt {
namespace detail {

/// Whether hm is a Heightmap and `other` lies (in part) on its solid side,
/// judged by other's deepest point in the solid direction (every point of a
/// point cloud), within the heightmap's footprint.
bool buriedInHeightmap(const Geometry& hm, const Geometry& other);

}  // namespace detail
}  // namespace klampt
