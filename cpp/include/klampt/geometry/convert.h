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
/// setElement with the element given as a geometry: a group member goes where
/// the element's current transform puts it in the group's frame (its shape
/// moved by it), as in Klamp't; a triangle or point takes the shape as is.
/// Throws std::invalid_argument for a rotated volume or occupancy grid member.
void setElement(GeometryData& data, int index, const Geometry& element);

}  // namespace klampt
