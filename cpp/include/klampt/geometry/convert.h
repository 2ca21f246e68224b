// Conversions between geometry types (Geometry3D.convert) and the element
// view of a geometry (Geometry3D.numElements / getElement / setElement).
#pragma once
#include <string>
#include "klampt/geometry/geometry.h"

namespace klampt {

/// Parses a type name as Geometry3D.type() returns it (also "Primitive",
/// "ImplicitSurface"); throws std::invalid_argument for unknown names.
GeometryType geometryTypeFromName(const std::string& name);

/// Converts a shape to another type (see Geometry3D.convert for `param`).
/// Throws std::invalid_argument for unavailable conversions and
/// std::runtime_error when the computation fails.
GeometryData convertGeometry(const GeometryData& data, GeometryType target, double param);

/// Sub-elements: group members, mesh triangles, cloud points, grid cells; a
/// primitive or hull is one element.
int numElements(const GeometryData& data);
/// Group member, Triangle primitive of a mesh or Point primitive of a cloud.
/// Throws std::out_of_range / std::invalid_argument.
GeometryData getElement(const GeometryData& data, int index);
/// Replaces a group member (index == size appends), moves a mesh triangle's
/// vertices to a Triangle primitive's, or a cloud point to a Point's.
void setElement(GeometryData& data, int index, const GeometryData& element);

}  // namespace klampt
