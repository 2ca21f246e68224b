// Point cloud operations: named properties, joining, structured clouds from
// depth / RGB-D images, meshing of structured clouds, and sampling of meshes.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>
#include <string>
#include "klampt/geometry/geometry.h"

namespace klampt {

/// n x 3 points, one a row, as PointCloud stores them.
using CloudPoints = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;
/// A row-major n x k matrix, as PointCloud stores its properties.
using CloudMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// Column of the named property, or -1.
int propertyIndex(const PointCloud& pc, const std::string& name);
/// Appends a property column (values.size() must equal the point count).
void addProperty(PointCloud& pc, const std::string& name, const VectorX& values);
/// Appends the other cloud's points; both must have the same property names.
void joinPointClouds(PointCloud& pc, const PointCloud& other);
/// Appends one point whose properties are all 0; returns its index.
int addPoint(PointCloud& pc, const Vector3& p);
/// Replaces the points; the properties follow the new count (kept for the
/// points that remain, 0 for the added ones).
void setPoints(PointCloud& pc, const CloudPoints& points);
/// Replaces points and properties from an n x (3 + numProperties) matrix:
/// the points, then one column per property.
void setPointsAndProperties(PointCloud& pc, const CloudMatrix& m);
/// Replaces every property value from an n x numProperties matrix, one row
/// per point.
void setProperties(PointCloud& pc, const CloudMatrix& values);
/// Renames the properties: columns beyond the old names are added as zeros,
/// those beyond the new names dropped.
void setPropertyNames(PointCloud& pc, const std::vector<std::string>& names);

/// Rebuilds `pc` as a structured w x h cloud from a depth image (row-major,
/// top row first) with intrinsics {fx, fy, cx, cy}: pixel (u, v) of depth d
/// (times depthScale) becomes ((u - cx) d / fx, (v - cy) d / fy, d) in the
/// camera frame (x right, y down, z forward). Pixels without depth (0 or
/// non-finite) become the point (0, 0, 0) so the cloud stays structured.
/// If rgb is given (packed 0xrrggbb, same layout), adds an "rgb" property.
void setDepthImage(PointCloud& pc, const std::array<double, 4>& intrinsics, const double* depth, int h, int w,
                   double depthScale, const std::uint32_t* rgb = nullptr);

/// Packs `count` colors of 3 channels (rgb, row-major) as 0xrrggbb: each
/// channel times `scale` (255 for channels in 0..1, 1 for 0..255), rounded
/// and clamped to 0..255; a non-finite channel becomes 0.
std::vector<std::uint32_t> packRGB(const double* rgb, std::size_t count, double scale);

/// Triangulates a structured cloud (settings width / height) in its pixel
/// grid, skipping pixels at the origin and triangles whose depth range
/// exceeds depthDiscontinuity.
TriangleMesh structuredCloudToMesh(const PointCloud& pc, double depthDiscontinuity);

/// Mesh vertices (with the normalized sum of their faces' normals) followed
/// by points from splitting each triangle at the midpoint of its longest edge
/// until that edge is at most sqrt(2)*dispersion (with the face normal).
/// dispersion <= 0: the mean longest triangle edge. Properties normal_x/y/z.
PointCloud meshToPointCloud(const TriangleMesh& mesh, double dispersion);

}  // namespace klampt
