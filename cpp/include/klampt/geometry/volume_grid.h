// Volume grids: cell-centred signed distance fields built from meshes and
// primitives (> 0 outside), and their level sets as triangle meshes.
#pragma once
#include "klampt/geometry/geometry.h"

namespace klampt {

/// Cell (i, j, k)'s centre: bmin + (index + 1/2) * cell size.
Vector3 cellCenter(const VolumeGrid& grid, int i, int j, int k);
inline std::size_t cellIndex(const VolumeGrid& grid, int i, int j, int k) {
  return ((std::size_t)i * grid.dims[1] + j) * grid.dims[2] + k;
}

/// Sets the dimensions, all values 0; throws std::invalid_argument for a
/// negative dimension or more than 2^28 cells.
void resizeVolumeGrid(VolumeGrid& grid, long sx, long sy, long sz);

/// Sets the bounds; throws std::invalid_argument unless bmin <= bmax on every
/// axis (`what` names the argument in the message).
void setVolumeGridBounds(VolumeGrid& grid, const Vector3& bmin, const Vector3& bmax, const char* what);

/// Grid of cubic cells of side `resolution` centred on [lo, hi], with
/// ceil(size / resolution) + 3 cells per axis (Klamp't's layout); throws
/// std::invalid_argument if it would exceed 2^25 cells.
VolumeGrid gridAround(const Vector3& lo, const Vector3& hi, double resolution);

/// Signed distance to a mesh at the cell centres, negative inside (inside by
/// ray parity, meaningful for watertight meshes). resolution <= 0: the mean
/// longest triangle edge.
VolumeGrid meshToVolumeGrid(const TriangleMesh& mesh, double resolution);

/// Signed distance to a primitive (exact; unsigned for those without volume).
/// resolution <= 0: a tenth of the largest box side.
VolumeGrid primitiveToVolumeGrid(const GeometricPrimitive& prim, double resolution);

/// The surface value == level through the cell centres, by marching
/// tetrahedra (each lattice cube split into six tetrahedra along its
/// diagonal); triangles face the side with values above the level.
TriangleMesh volumeGridIsosurface(const VolumeGrid& grid, double level);

}  // namespace klampt
