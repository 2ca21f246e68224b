// Internal to the queries: the distance from a surface (a mesh's triangles,
// or the boundary of a primitive or hull) to a volume grid's level set,
// min over the surface of the grid's value, by branch and bound.
#pragma once
#include "leaf.h"

namespace klampt {
namespace detail {

struct SurfaceGridDistance {
  double d;
  Vector3 cpSurface, cpGrid;  // world
  int elem = -1;              // element of the surface leaf
};

/// The least grid value over the surface of `surface` if below `upper`
/// (elem = -1 otherwise), found to within 1e-5 of a grid cell; the search
/// stops early once a value <= stopBelow is found. The grid's value is a
/// signed distance estimate (gridValue), negative inside.
SurfaceGridDistance surfaceGridDistance(const Leaf& surface, const Leaf& grid, double upper, double stopBelow);

}  // namespace detail
}  // namespace klampt
