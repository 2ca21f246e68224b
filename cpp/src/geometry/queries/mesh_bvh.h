// Internal to the queries: the oriented-box tree of a triangle mesh (a Coal
// BVHModel<OBBRSS> built by a fast closed-form rule) and the mesh–mesh
// collision and distance traversals over it, warm-started per mesh pair.
#pragma once
#include <memory>
#include <utility>
#include <vector>
#include <coal/BVH/BVH_model.h>
#include <coal/shape/convex.h>
#include "klampt/geometry/queries/collision_cache.h"
#include "klampt/math/types.h"

namespace klampt {
namespace detail {

using MeshBVH = coal::BVHModel<coal::OBBRSS>;

/// Builds the tree of the triangles `tris` over `verts` (valid indices). The
/// RSS of its inner nodes are fitted by prepareForDistance.
std::shared_ptr<MeshBVH> buildMeshBVH(std::vector<coal::Vec3s> verts, std::vector<coal::Triangle> tris);

/// The tree of a convex hull's surface triangles (`hull` is the Coal shape of
/// `cache`), built on first use and kept in the cache: rays and volume grids
/// then test the few triangles near them instead of all of them.
const MeshBVH& hullSurfaceTree(const CollisionCache& cache, const coal::Convex<coal::Triangle>& hull);

/// Fits the RSS (distance volumes) of a tree from buildMeshBVH once, on its
/// first distance query, so that collision-only use never pays for them.
/// Thread-safe; does nothing for other geometries.
void prepareForDistance(const coal::CollisionGeometry& geometry);

/// True if some triangle of a (placed at Ta) is within `tol` >= 0 of some
/// triangle of b (placed at Tb); t1/t2 receive that pair.
bool meshMeshWithin(const MeshBVH& a, const RigidTransform& Ta, const MeshBVH& b, const RigidTransform& Tb,
                    double tol, int& t1, int& t2);

/// Appends to `pairs` the (triangle of a, triangle of b) pairs whose
/// parents' bounding volumes are within `tol` >= 0 of each other, with a and
/// b placed at Ta and Tb: every triangle pair within tol is among them, and
/// the caller tests each.
void meshMeshPairsWithin(const MeshBVH& a, const RigidTransform& Ta, const MeshBVH& b, const RigidTransform& Tb,
                         double tol, std::vector<std::pair<int, int>>& pairs);

/// A superset of meshMeshPairsWithin's pairs in blocks that, joined in
/// order, keep its order: past a thousand pairs, small node pairs are taken
/// whole, untested. The descent runs on the calling thread until it has
/// found `budget` pairs (block 0); what is left of it, a long list then
/// being certain, is split over the cores, a block per piece.
void meshMeshPairBlocksWithin(const MeshBVH& a, const RigidTransform& Ta, const MeshBVH& b, const RigidTransform& Tb,
                              double tol, size_t budget, std::vector<std::vector<std::pair<int, int>>>& blocks);

/// True if the local point p is within `tol` >= 0 of a triangle of the mesh.
bool pointNearMesh(const MeshBVH& mesh, const Vector3& p, double tol);

/// The triangle of the mesh closest to the local point p if at most `upper`
/// away (-1 otherwise), its closest point `cp` and the distance `d`.
int meshClosestPoint(const MeshBVH& mesh, const Vector3& p, double upper, Vector3& cp, double& d);

struct MeshMeshDistance {
  double d;          // 0 when the surfaces intersect
  Vector3 cp1, cp2;  // world closest points
  int t1 = -1, t2 = -1;
};
/// Distance between the mesh surfaces if below `upper` (t1 = -1 otherwise),
/// within relErr / absErr as Coal's distance requests define them.
MeshMeshDistance meshMeshDistance(const MeshBVH& a, const RigidTransform& Ta, const MeshBVH& b,
                                  const RigidTransform& Tb, double upper, double relErr, double absErr);

}  // namespace detail
}  // namespace klampt
