// Geometry3D.slice and Geometry3D.roi for point clouds and triangle meshes.
#pragma once
#include <string>
#include "klampt/geometry/geometry.h"

namespace klampt {

/// The part of the shape (placed at `current`) on the x-y plane of `plane`,
/// expressed in the plane's frame: a point cloud's points within tol > 0 of
/// the plane, or a mesh's cross-section as a Group of Segment primitives.
GeometryData sliceGeometry(const GeometryData& data, const RigidTransform& current, const RigidTransform& plane,
                           double tol);

/// The points (or whole triangles) of the shape placed at `current` that are
/// in / touch the world box [bmin, bmax], in the shape's local frame. query is
/// "intersect", "touching" or "within", optionally prefixed by "~" to invert.
GeometryData regionOfInterest(const GeometryData& data, const RigidTransform& current, const std::string& query,
                              const Vector3& bmin, const Vector3& bmax);

}  // namespace klampt
