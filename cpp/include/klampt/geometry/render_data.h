// What a renderer needs to draw a shape, computed once per shape version:
// flat-shaded (or crease-smoothed) float triangles and float point clouds. The
// C++ core draws nothing; klampt.vis uploads these arrays to OpenGL.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>
#include "klampt/geometry/geometry.h"

namespace klampt {

/// Triangles with one vertex per corner (3 per triangle), in the shape's local
/// frame. Normals are the face normals, averaged over the neighbouring faces
/// that meet at less than `creaseAngle` (0: flat shading). `sourceVertex[i]`
/// is the mesh vertex corner i came from (per-vertex colors), and
/// `sourceTriangle[i / 3]` is implied by the corner order.
struct RenderMesh {
  std::vector<float> positions;  // 3 floats per corner
  std::vector<float> normals;    // 3 floats per corner
  std::vector<std::uint32_t> sourceVertex;
  std::vector<std::uint32_t> edges;  // pairs of corner indices, each mesh edge once
  double creaseAngle = 0;
  std::uint64_t serial = 0;  // unique per built mesh: a renderer's cache key
};

/// Points of a cloud in its local frame, with RGBA colors in [0, 1] when the
/// cloud has rgb / rgba (packed 0xRRGGBB) or r, g, b(, a) properties.
struct RenderPoints {
  std::vector<float> positions;  // 3 floats per point
  std::vector<float> colors;     // 4 floats per point, or empty
  std::uint64_t serial = 0;
};

/// The render mesh of a shape: meshes as they are; primitives (except points
/// and segments), convex hulls and volume grids (isosurface at 0) meshed;
/// groups concatenated. Empty for point clouds, empty shapes and shapes that
/// cannot be meshed. Built once per shape version and crease angle, thread-safe.
std::shared_ptr<const RenderMesh> renderMesh(const GeometryData& data, double creaseAngle);

/// The render points of a point cloud (empty for other types); cached as above.
std::shared_ptr<const RenderPoints> renderPoints(const GeometryData& data);

}  // namespace klampt
