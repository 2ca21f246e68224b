// A convex polytope holding a mesh or hull shape, for quick hull-versus-box
// distance bounds (the robot C-space's broad phase). Computing one takes a
// few ms for a link mesh, so each shape's is computed once and kept with its
// collision structures (freed with the shape); world loading computes those
// of robot links, as it builds collision trees.
#pragma once
#include <memory>
#include "klampt/geometry/geometry.h"

namespace coal {
class ConvexBase;
}

namespace klampt {

/// The shape's hull, in its local frame; null for shapes other than meshes
/// and hulls, or when the points are flat. Thread-safe.
std::shared_ptr<const coal::ConvexBase> shapeHull(const std::shared_ptr<const GeometryData>& shape);

}  // namespace klampt
