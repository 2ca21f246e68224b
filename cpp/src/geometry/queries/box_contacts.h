// Internal to the queries: solid boxes (Box and AABB primitives) by the
// separating-axis test: whether two are within a distance, their
// penetration, and their contact manifold, which the general query reduces
// to a single point; and the contacts of a triangle mesh's triangles with a
// box.
#pragma once
#include <vector>
#include "leaf.h"
#include "mesh_contacts.h"

namespace klampt {
namespace detail {

struct BoxPairContact {
  Vector3 p1, p2;  // closest points on box a and box b
  Vector3 n;       // unit normal from a to b
  double dist;     // signed distance between the boxes at this contact
};

/// Whether the leaf is a solid box.
bool isSolidBox(const Leaf& leaf);

/// Signed distance from the world point p to a solid box leaf (negative
/// inside: minus the distance to the nearest face), and the closest point
/// of its surface.
double pointSolidBoxDistance(const Leaf& box, const Vector3& p, Vector3& closest);

enum class BoxPairWithin { No, Yes, Unknown };

/// Whether two solid boxes are within `tol`, by the separating-axis test
/// (face normals of both, cross products of their edges): No when an axis
/// separates them by more than tol, Yes when none separates them (they
/// intersect), Unknown when they are apart by at most tol along some axis,
/// which only their distance settles.
BoxPairWithin boxPairWithin(const Leaf& a, const Leaf& b, double tol);

/// The signed distance of two solid boxes by the separating-axis test, when
/// the axis of largest separation is a face normal and a vertex of one box
/// gives the pair: `sep` (positive apart, minus the least penetration depth
/// when they intersect), and pa on a's surface, pb on b's, with pb - pa along
/// that normal, sep long. The axis bounds every pair's distance from below
/// and the pair attains it, so the answer is exact. Returns false when the
/// axis is a cross product of edges or no vertex of the facing features
/// gives the pair (crossing edges): the caller then uses the general query.
bool boxPairSeparation(const Leaf& a, const Leaf& b, double& sep, Vector3& pa, Vector3& pb);

/// Contacts of two solid boxes within `pad`: every vertex of either box
/// within pad of the other, all with the normal of the separating-axis test.
/// Returns false when that test picks an edge-edge axis or finds no vertex
/// in range (crossing edges): the caller then uses the general query. Returns
/// true with no contacts when the boxes are farther apart than pad.
bool boxPairContacts(const Leaf& a, const Leaf& b, double pad, std::vector<BoxPairContact>& out);

/// Appends a contact for every triangle of the mesh leaf within `pad` of the
/// solid box leaf: the closest points on the triangle (p1) and on the box
/// (p2), the unit normal from the triangle to the box, and their signed
/// distance (minus the least penetration depth where they overlap); e1 is the
/// triangle, e2 the box's element. The axis of largest separation among the
/// box's faces, the triangle's normal and the cross products of their edges
/// gives the answer when a vertex of either attains it (then it is exact);
/// other pairs (crossing edges, triangles without area) take GJK/EPA, as the
/// general contact query does for every triangle.
void meshBoxContacts(const Leaf& mesh, const Leaf& box, double pad, std::vector<ContactPoint>& out);

}  // namespace detail
}  // namespace klampt
