// Mass properties derived from a shape (Klamp't's "automass"): center of mass
// and inertia of a mass spread over a geometry, in the geometry's frame.
#pragma once
#include "klampt/geometry/geometry.h"
#include "klampt/model/mass.h"

namespace klampt {

/// Center of mass of the shape. A triangle mesh is a blend of its surface
/// shell (weight surfaceFraction) and the solid it encloses (weight
/// 1 - surfaceFraction, by the divergence theorem; an open mesh falls back to
/// the shell). Primitives use their bounding box, point clouds and convex
/// hulls their points, volume grids their cells with value <= 0, and groups
/// the mean of their members' centers (as Klamp't 0.9.2).
Vector3 geometryCenterOfMass(const GeometryData& geom, double surfaceFraction = 1.0);

/// Inertia matrix about `center` of `mass` spread over the shape (same model;
/// groups sum their members' covariances, as Klamp't 0.9.2).
Matrix3 geometryInertia(const GeometryData& geom, const Vector3& center, double mass, double surfaceFraction = 1.0);

/// Sets `out` to `mass` spread over the shape: its COM and the inertia about it.
inline void setMassFromGeometry(const GeometryData& geom, double mass, double surfaceFraction, Mass& out) {
  out.mass = mass;
  out.com = geometryCenterOfMass(geom, surfaceFraction);
  out.inertia = geometryInertia(geom, out.com, mass, surfaceFraction);
}

}  // namespace klampt
