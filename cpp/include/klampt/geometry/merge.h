// Merging one geometry into another of the same kind (Geometry3D.merge).
#pragma once
#include "klampt/geometry/geometry.h"

namespace klampt {

/// Merges `other` (at its current transform) into g's shape, in g's local
/// frame; g keeps its type, pose and margin, margins are not merged.
/// - mesh + mesh: other's triangles appended;
/// - cloud + cloud: other's points appended; the properties both clouds name
///   are kept (in g's order), the others dropped; g's settings kept;
/// - hull + hull: the hull of both point sets;
/// - volume grid + any shape with a point distance: each cell value becomes
///   the smaller of it and the signed distance from the cell centre to other
///   (negative inside other, see containsPoint), over g's domain;
/// - occupancy grid + any shape: the cells other overlaps, or whose centre
///   is inside it, become occupied;
/// - heightmap + any shape that rays hit: an elevation map rises to other's
///   top surface (the first hit of a ray down through each sample), a depth
///   map takes other's depth where other is nearer to the camera; samples
///   keep their place.
/// Throws std::invalid_argument for other combinations or an empty side.
void mergeGeometry(Geometry& g, const Geometry& other);

}  // namespace klampt
