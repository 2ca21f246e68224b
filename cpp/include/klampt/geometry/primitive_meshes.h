// Triangle meshes of simple solids (box, cylinder, sphere) centred at the
// origin, for formats such as URDF whose primitives Klamp't stores as meshes.
// Triangles are wound counter-clockwise seen from outside.
#pragma once
#include "klampt/geometry/geometry.h"

namespace klampt {

/// Box with the given side lengths: 8 vertices, 12 triangles.
TriangleMesh makeBoxMesh(const Vector3& dims);

/// Cylinder along z from -length/2 to length/2, its round side approximated by
/// `slices` facets: 2*slices + 2 vertices, 4*slices triangles.
TriangleMesh makeCylinderMesh(double radius, double length, int slices = 32);

/// UV sphere with `stacks` bands of latitude and `slices` of longitude:
/// (stacks - 1) * slices + 2 vertices, 2 * slices * (stacks - 1) triangles.
TriangleMesh makeSphereMesh(double radius, int stacks = 16, int slices = 32);

}  // namespace klampt
