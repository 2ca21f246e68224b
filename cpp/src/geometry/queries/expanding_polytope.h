// Internal to the queries: the penetration of two overlapping convex shapes
// by an expanding polytope grown from GJK's simplex.
#pragma once
#include <utility>
#include <vector>
#include <coal/narrowphase/gjk.h>

namespace klampt {
namespace detail {

/// What the expanding polytope found: the depth, the unit normal of the
/// Minkowski difference's face nearest the origin (from the first shape
/// towards the second), the deepest points of each shape (in the difference's
/// frame, that of the first shape), and the support hint it ended with.
struct Penetration {
  double depth;
  coal::Vec3s normal, point0, point1;
  coal::support_func_guess_t hint;
};

/// The polytope's storage, kept between queries so that they do not allocate.
struct PolytopeWorkspace {
  struct Face {
    int v[3];                 // vertices, counter-clockwise seen from outside
    int adj[3] = {-1, -1, -1};  // the face across edge (v[i], v[i+1])
    int adjEdge[3] = {0, 0, 0};  // that edge's index in it
    coal::Vec3s n;            // (v1 - v0) x (v2 - v0): outward, not normalised
    double offset, norm2;     // v0 . n and |n|^2
    double key;               // offset * |offset| / norm2: the origin's signed distance squared
    bool alive;
  };
  std::vector<coal::details::GJK::SimplexV> vertices;
  std::vector<Face> faces;
  std::vector<std::pair<int, int>> horizon;  // (face, edge) pairs bounding the faces a new vertex sees
};

/// The penetration of the two shapes of `gjk`'s Minkowski difference, which
/// GJK found overlapping, grown from its simplex (made a tetrahedron around
/// the origin) until the support along the nearest face's normal lies within
/// `tolerance` (absolute, and relative to the support's norm) of that face,
/// or for `maxIterations`. Faces are compared by their squared distances, so
/// a face costs one division and no square root until it is the nearest
/// (Coal's EPA normalises every face it makes). Returns
/// false when the simplex does not enclose the origin in a proper
/// tetrahedron or rounding breaks the polytope, which Coal's EPA then
/// settles.
bool expandPolytope(coal::details::GJK& gjk, size_t maxIterations, double tolerance, PolytopeWorkspace& work,
                    Penetration& out);

}  // namespace detail
}  // namespace klampt
