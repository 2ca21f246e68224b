// Height (elevation) maps and depth maps: a grid of heights defined at the
// vertices, placed by a viewport (size, projection, intrinsics and pose).
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "klampt/geometry/geometry.h"

namespace klampt {

/// Number of points a heightmap's arrays may hold (guards allocations).
constexpr long long kMaxHeightmapPoints = 1LL << 28;

/// Sets the grid to w x h vertices, keeping the heights of the vertices that
/// remain (new ones are 0), and scales the intrinsics with the size as the
/// reference does. Throws std::invalid_argument for negative or huge sizes.
void resizeHeightmap(Heightmap& hm, int w, int h);
/// Orthographic projection spanning width x height (height <= 0: square cells), centred on the origin.
void setHeightmapSize(Heightmap& hm, double width, double height);
/// Perspective projection with the fields of view in radians (fovy <= 0: square pixels), centred.
void setHeightmapFOV(Heightmap& hm, double fovx, double fovy);
/// Perspective projection with the given intrinsics (cx, cy < 0: the image centre).
void setHeightmapIntrinsics(Heightmap& hm, double fx, double fy, double cx, double cy);

/// Whether a height is a sample (missing: NaN or infinite; 0 too in perspective mode).
bool validHeight(const Heightmap& hm, double v);
/// The vertex of sample (i, j) in the geometry's local frame (viewport pose applied).
Vector3 heightmapVertex(const Heightmap& hm, int i, int j);
/// Where a local point falls in the grid: continuous (i, j) and the height
/// (orthographic) or depth (perspective) of the point itself.
Vector3 heightmapProject(const Heightmap& hm, const Vector3& p);

/// The surface through the valid samples: two triangles per cell, each kept
/// when its three corners are valid, facing the free side (up for elevation maps, towards
/// the camera for depth maps). Vertices are the valid samples in (i, j) order.
TriangleMesh heightmapMesh(const Heightmap& hm);
/// The sides of the solid below an elevation map: walls from its outer
/// edges (between valid samples) down to a floor a footprint diagonal below
/// its lowest sample. Empty for depth maps.
TriangleMesh heightmapWalls(const Heightmap& hm);
/// The valid samples as points, with r, g, b (and a) properties when coloured.
PointCloud heightmapPointCloud(const Heightmap& hm);
/// Whether the local point is on the solid side of the surface within the
/// grid's footprint (below an elevation map, behind a depth map): against
/// the mesh's triangle under it (exact for elevation maps; depth maps
/// interpolate depth across the image).
bool heightmapContains(const Heightmap& hm, const Vector3& p);
/// The height (depth) of the surface mesh over the continuous grid point
/// (x, y) of heightmapProject, on the cell's triangle as heightmapMesh splits
/// it; false outside the grid or where that triangle has a missing sample.
bool heightmapSurfaceAt(const Heightmap& hm, double x, double y, double& height);
/// heightmapContains of a point given in the viewport's frame (the pose
/// undone), for callers that fold the pose into their own transform.
bool heightmapContainsInView(const Heightmap& hm, const Vector3& viewPoint);

/// Signed distance to the surface on a grid around it (gridAround's layout,
/// cells of side `resolution`, <= 0: the smaller cell side of an elevation
/// map, else the largest extent / 64): negative on the solid side.
VolumeGrid heightmapToVolumeGrid(const Heightmap& hm, double resolution);

/// RGBA of sample (i, j) in [0, 1] (white when there are no colours).
std::array<double, 4> heightmapColor(const Heightmap& hm, int i, int j);
/// Sets sample (i, j)'s colour, adding an RGBA image (white) if there is none.
void setHeightmapColor(Heightmap& hm, int i, int j, const std::array<double, 4>& rgba);

/// Scales the map about the local origin per axis (positive factors, and a
/// pose without rotation, so that the map stays a heightmap).
void scaleHeightmap(Heightmap& hm, const Vector3& scale);

/// Throws std::invalid_argument if the arrays do not match the viewport's
/// w x h, the intrinsics are not finite and nonzero, or the pose is not rigid.
void validateHeightmap(const Heightmap& hm);

}  // namespace klampt
