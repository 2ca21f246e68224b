// GeometricPrimitive helpers: setters for each type, validation, the text
// form of GeometricPrimitive.saveString/loadString ("<Type> p1 p2 ..."), and
// point / signed distances used by conversions.
#pragma once
#include <string>
#include <vector>
#include "klampt/geometry/geometry.h"

namespace klampt {

GeometricPrimitive makePointPrimitive(const Vector3& p);
GeometricPrimitive makeSpherePrimitive(const Vector3& c, double r);
GeometricPrimitive makeSegmentPrimitive(const Vector3& a, const Vector3& b);
GeometricPrimitive makeTrianglePrimitive(const Vector3& a, const Vector3& b, const Vector3& c);
/// `verts` is a flat list x1 y1 z1 x2 ... of at least 3 points; stored as
/// [n, x1, y1, z1, ...]. std::invalid_argument otherwise.
GeometricPrimitive makePolygonPrimitive(const std::vector<double>& verts);
GeometricPrimitive makeAABBPrimitive(const Vector3& bmin, const Vector3& bmax);
/// The box ori + R [0, dims].
GeometricPrimitive makeBoxPrimitive(const Vector3& ori, const Matrix3& R, const Vector3& dims);

/// Throws std::invalid_argument naming the problem (type, parameter count,
/// non-finite values, negative radius or dimensions, inverted AABB).
void validatePrimitive(const GeometricPrimitive& p);
bool isValidPrimitive(const GeometricPrimitive& p);

/// "<Type> p1 p2 ..." with full precision.
std::string primitiveToString(const GeometricPrimitive& p);
/// Parses the saveString form; throws std::invalid_argument on bad text.
GeometricPrimitive primitiveFromString(const std::string& text);

/// Distance from x to the primitive; negative inside the solid types
/// (Sphere, AABB, Box), unsigned for the others.
double primitiveSignedDistance(const GeometricPrimitive& p, const Vector3& x);

/// Surface mesh of a primitive. `resolution` > 0 is the largest edge length
/// wanted on curved surfaces (spheres); 0 picks a default. Points and segments
/// have no surface and throw std::invalid_argument.
TriangleMesh primitiveToMesh(const GeometricPrimitive& p, double resolution);

/// Closest point to x on the triangle (a, b, c).
Vector3 closestPointOnTriangle(const Vector3& x, const Vector3& a, const Vector3& b, const Vector3& c);

}  // namespace klampt
