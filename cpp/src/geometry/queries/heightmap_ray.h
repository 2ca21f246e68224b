// Internal to the queries: ray casts against an elevation map by walking the
// grid cells under the ray, instead of descending its mesh's tree.
#pragma once
#include "klampt/geometry/geometry.h"

namespace klampt {
namespace detail {

enum class HeightmapRay { Hit, Miss, Undecided };

/// The first hit of the ray s + t d (local frame, d a unit vector) with an
/// elevation map whose samples are all valid: t and the surface triangle, as
/// heightmapMesh numbers them. Undecided where the walls of its solid could
/// be hit (the ray enters or leaves the footprint below the surface) and
/// for depth maps or maps with missing samples: the caller casts against
/// the mesh and walls then.
HeightmapRay heightmapRay(const Heightmap& hm, const Vector3& s, const Vector3& d, double& t, int& triangle);

}  // namespace detail
}  // namespace klampt
