// Internal to the queries: lower bounds of a volume grid's value (gridValue)
// over a box, from the least cell values under it, and over a triangle, exact
// for a field that is linear over it.
#pragma once
#include "klampt/geometry/geometry.h"
#include "klampt/geometry/queries/collision_cache.h"

namespace klampt {
namespace detail {

/// The grid's block minima, level by level until one block is left.
GridBlockMinima gridBlockMinima(const VolumeGrid& grid);

/// The grid's least cell value (the last level of its block minima).
double gridLeastValue(const VolumeGrid& grid, const GridBlockMinima& minima);

/// A lower bound of gridValue over the box [lo, hi] (in the grid's frame):
/// the least value of the cells interpolated inside the grid (from the block
/// minima covering them) plus the box's distance to the grid's box.
double gridBoxLowerBound(const VolumeGrid& grid, const GridBlockMinima& minima, const Vector3& lo, const Vector3& hi);

/// A lower bound of gridValue over the triangle (a, b, c), given in the
/// grid's frame, or -INFINITY when the triangle spans more than two cells
/// along an axis (then only a Lipschitz bound helps). Where the triangle
/// meets a cell, the value is the cell's trilinear polynomial (of the clamped
/// coordinates outside the grid) plus the distance to the grid's box; over
/// the part of the triangle in each cell, the polynomial is bounded by its
/// expansion about that part (the linear term at its worst corner, the cross
/// terms by their largest size), and the distance, which is convex, by its
/// tangent plane at the centroid. The bound's gap to the
/// least value shrinks with the square of the triangle's size, where a
/// Lipschitz bound's shrinks only linearly. `probe` receives the triangle's
/// point where the expansion giving the bound is least: where the value is
/// likely lowest, on a cell plane when the value bends there.
double gridTriangleLowerBound(const VolumeGrid& grid, const Vector3& a, const Vector3& b, const Vector3& c,
                              Vector3& probe);

}  // namespace detail
}  // namespace klampt
