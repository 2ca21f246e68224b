// Proximity queries between placed geometries (Geometry3D.collides, distance,
// contacts, rayCast, support ...) and robot self-collision. Margins are
// honoured as in Klamp't: a margin m subtracts m from every distance.
#pragma once
#include <limits>
#include <utility>
#include <vector>
#include "klampt/geometry/geometry.h"
#include "klampt/geometry/queries/contact_cache.h"

namespace klampt {


struct DistanceQuerySettings {
  double relErr = 0.0, absErr = 0.0;
  double upperBound = std::numeric_limits<double>::infinity();
};

struct DistanceQueryResult {
  double d = std::numeric_limits<double>::infinity();
  bool hasClosestPoints = false, hasGradients = false;
  Vector3 cp1 = Vector3::Zero(), cp2 = Vector3::Zero();
  Vector3 grad1 = Vector3::Zero(), grad2 = Vector3::Zero();
  int elem1 = -1, elem2 = -1;
};

struct ContactQueryResult {
  std::vector<double> depths;
  std::vector<Vector3> points1, points2, normals;
  std::vector<int> elems1, elems2;
};

/// Throws std::invalid_argument for an unsupported type pair or an empty
/// geometry, std::runtime_error when a structure cannot be built.
bool collides(const Geometry& a, const Geometry& b);
bool withinDistance(const Geometry& a, const Geometry& b, double tol);
/// True when a and b are certainly farther apart than tol (margins
/// included) by the bounding boxes of collision structures they already
/// have; false when they may be within tol or a structure is missing. Never
/// builds anything, so a binding can answer the commonest "no" without
/// releasing the GIL.
bool apartByBuiltBounds(const Geometry& a, const Geometry& b, double tol);
/// True when both are primitives: any query between them takes a few
/// microseconds, so a binding gains nothing by releasing the GIL for it.
bool primitivePair(const Geometry& a, const Geometry& b);
/// The (element of a, element of b) pairs within tol + both margins, sorted,
/// each once: mesh triangles, cloud points (balls with their radius
/// property) and top-level group members as numbered by getElement, 0 for
/// any other shape (a heightmap or occupancy grid is one element). Every pair
/// is confirmed by withinDistance of the two elements alone. maxPairs > 0
/// keeps the first that many; 0 keeps all. Throws as withinDistance does.
std::vector<std::pair<int, int>> elementPairsWithin(const Geometry& a, const Geometry& b, double tol, int maxPairs);
/// Whether the world point p lies in g's solid (margin not counted): signed
/// distance <= 0 for primitives, hulls and volume grids, a generalized
/// winding number of at least 1/2 for meshes (exact for closed meshes), a
/// point cloud's point or within its radius property, below a heightmap's
/// surface, in an occupied cell of an occupancy grid, in any group member.
bool containsPoint(const Geometry& g, const Vector3& p);
/// Distance minus both margins. Signed (negative when penetrating) when
/// either side is a sphere or a volume grid, or both are convex hulls;
/// otherwise clamped at 0 before the margins are subtracted.
DistanceQueryResult distance(const Geometry& a, const Geometry& b, const DistanceQuerySettings& settings);
/// Distance from the world point p to a (signed for spheres, grids, hulls).
DistanceQueryResult distancePoint(const Geometry& a, const Vector3& p, const DistanceQuerySettings& settings);
/// First hit of the ray s + t d (t >= 0): element index (0 for primitives,
/// triangle / point / group element) or -1, and the hit point.
int rayCast(const Geometry& g, const Vector3& s, const Vector3& d, Vector3& hitPoint);
/// Pairs of points within padding1 + padding2 + both margins; maxContacts > 0
/// keeps at most that many: k-means clusters of the contacts (positions and
/// normals scaled by normalScale, deterministic seeds), the deepest contact
/// of each. A negative normalScale scales normals by a tenth of the
/// contacts' extent.
/// With a cache the caller keeps for this pair, a query of two meshes that
/// barely moved since the last one measures the last answer's triangle
/// pairs again instead of selecting contacts anew (see ContactCache).
ContactQueryResult contacts(const Geometry& a, const Geometry& b, double padding1, double padding2,
                            int maxContacts, double normalScale = -1, ContactCache* cache = nullptr);
/// Points a cache filled from saved values (pairs, relative pose, reaches,
/// settings) at the meshes of a and b, as a contacts query of a and b that
/// made the selection would have. False when a or b is not a single mesh.
bool attachContactCache(ContactCache& cache, const Geometry& a, const Geometry& b);
/// Builds the structures the contacts queries of g use (collision trees and
/// their distance volumes) now rather than on the first query.
void prepareContacts(const Geometry& g);
/// The point of g furthest in direction dir (world coordinates).
Vector3 support(const Geometry& g, const Vector3& dir);

}  // namespace klampt
