// Internal to the queries: contact points between two triangle meshes, one
// per triangle pair within the padding, and the bookkeeping of a
// ContactCache's remembered triangle pairs.
#pragma once
#include <vector>
#include "klampt/geometry/queries/contact_cache.h"
#include "mesh_bvh.h"

namespace klampt {
namespace detail {

/// A contact between two shapes before padding: closest points on the
/// unpadded surfaces, the unit normal from a to b, and the signed distance
/// between them (p2 - p1 = dist * n when separated). e1, e2 are the
/// elements (triangles, points) of a and b.
struct ContactPoint {
  Vector3 p1, p2, n;
  double dist;
  int e1, e2;
};

/// Appends a contact for every triangle pair of a (placed at Ta) and b
/// (at Tb) within `pad`. Intersecting triangles get distance 0, a point on
/// their intersection and a normal from their faces.
void meshMeshContacts(const MeshBVH& a, const RigidTransform& Ta, const MeshBVH& b, const RigidTransform& Tb,
                      double pad, std::vector<ContactPoint>& out);

/// Appends the contacts of the listed triangle pairs that are within pad.
void meshPairContacts(const MeshBVH& a, const RigidTransform& Ta, const MeshBVH& b, const RigidTransform& Tb,
                      double pad, const std::vector<std::pair<int, int>>& pairs, std::vector<ContactPoint>& out);

/// An upper bound on how far the vertices of either mesh moved, in the
/// other's frame, since `c` remembered a and b; infinite when it remembers
/// other meshes.
double motionSince(const ContactCache& c, const MeshBVH& a, const RigidTransform& Ta, const MeshBVH& b,
                   const RigidTransform& Tb);

/// Makes `c` remember a and b at poses Ta, Tb (its pairs are cleared, for
/// the caller to fill).
void remember(ContactCache& c, const std::shared_ptr<const MeshBVH>& a, const RigidTransform& Ta,
              const std::shared_ptr<const MeshBVH>& b, const RigidTransform& Tb);

}  // namespace detail
}  // namespace klampt
