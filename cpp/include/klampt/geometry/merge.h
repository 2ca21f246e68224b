// Merging one geometry into another of the same kind (Geometry3D.merge).
#pragma once
#include <stdexcept>
#include "klampt/geometry/geometry.h"

namespace klampt {

/// A merge this implementation does not offer (into a heightmap or an
/// occupancy grid).
struct MergeNotImplemented : std::logic_error {
  using std::logic_error::logic_error;
};

/// Merges `other` (at its current transform) into g's shape, in g's local
/// frame; g keeps its type, pose and margin, margins are not merged.
/// - mesh + mesh: other's triangles appended;
/// - cloud + cloud: other's points appended; the properties both clouds name
///   are kept (in g's order), the others dropped; g's settings kept;
/// - hull + hull: the hull of both point sets;
/// - volume grid + any shape with a point distance: each cell value becomes
///   the smaller of it and the signed distance from the cell centre to other
///   (negative inside other, see containsPoint), over g's domain.
/// Throws MergeNotImplemented for heightmap / occupancy grid targets and
/// std::invalid_argument for other combinations or an empty side.
void mergeGeometry(Geometry& g, const Geometry& other);

}  // namespace klampt
