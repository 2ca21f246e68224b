// Outward normals of a triangle mesh, per triangle and per vertex.
#pragma once
#include "klampt/geometry/geometry.h"

namespace klampt {

using NormalArray = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;

/// Unit normal (b - a) x (c - a) of each triangle (a, b, c); zero for a
/// degenerate triangle. Throws std::out_of_range for an index past the vertices.
NormalArray triangleNormals(const TriangleMesh& mesh);

/// Unit normal of each vertex: the sum of the normals of the triangles using
/// it, each weighted by twice its area (areaWeighted) or not at all; zero for
/// a vertex of no (non-degenerate) triangle.
NormalArray vertexNormals(const TriangleMesh& mesh, bool areaWeighted);

}  // namespace klampt
