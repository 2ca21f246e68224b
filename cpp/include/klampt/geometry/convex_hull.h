// Convex hulls of point sets, computed with Qhull.
#pragma once
#include "klampt/geometry/geometry.h"

namespace klampt {

using PointMatrix = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;

/// The hull's boundary as a triangle mesh of its vertices, triangles wound
/// counter-clockwise seen from outside. Throws std::runtime_error when Qhull
/// fails (fewer than 4 points, all points coplanar, ...).
TriangleMesh convexHullMesh(const PointMatrix& points);

/// The points that are vertices of the hull, in input order.
PointMatrix convexHullVertices(const PointMatrix& points);

/// Points whose hull is the geometry's hull, in its local frame (mesh
/// vertices, cloud points, hull points, primitive corners / sphere samples,
/// group members' points).
PointMatrix hullPoints(const GeometryData& data);

/// A convex hull shape of g1's and g2's points at their current relative
/// pose, in g1's local frame (Geometry3D.setConvexHullGroup, after which the
/// geometry takes g1's pose).
GeometryData hullOfPair(const Geometry& g1, const Geometry& g2);

}  // namespace klampt
