// GJK and EPA between convex Coal shapes, climbing large hulls without
// clearing their visited flags on every support call, and measuring their
// penetration by this package's expanding polytope.
#include "convex_solver.h"
#include <coal/shape/geometric_shapes.h>
#include <algorithm>
#include <cstdint>
#include <vector>

namespace klampt {
namespace detail {

namespace {

using coal::ConvexBase;
using coal::Vec3s;
using coal::details::MinkowskiDiff;
using coal::details::ShapeSupportData;

/// Whether Coal finds the shape's support points by climbing its vertices
/// (its "LargeConvex" route), the route this file replaces.
bool climbsVertices(const coal::ShapeBase& s) {
  if (s.getNodeType() != coal::GEOM_CONVEX) return false;
  const auto& hull = static_cast<const ConvexBase&>(s);
  return hull.num_points > ConvexBase::num_vertices_large_convex_threshold && hull.neighbors != nullptr;
}

/// The visited marks of a climb over `n` vertices, in the flags Coal keeps per
/// shape (which its MinkowskiDiff::set leaves as n zeros at every query): a
/// vertex is visited when its mark is the climb's number, kept past the
/// marks, so the marks are cleared once every 255 climbs, not at every one.
uint8_t* startClimb(std::vector<int8_t>& flags, size_t n, uint8_t& visit) {
  if (flags.size() != n + 1) flags.assign(n + 1, 0);
  uint8_t* mark = reinterpret_cast<uint8_t*>(flags.data());
  if (++mark[n] == 0) {  // numbers wrapped: marks of old climbs could match
    std::fill(mark, mark + n, 0);
    mark[n] = 1;
  }
  visit = mark[n];
  return mark;
}

/// The vertex of `hull` farthest along `dir` (in the hull's frame), found as
/// Coal's climb finds it: from `hint`, or from the best of the hull's warm
/// starts when `dir` turned more than about 25 degrees from the last
/// direction, moving to any unvisited neighbour that is farther (or, until
/// one is, as far), so that among vertices equally far the same one is found.
void climb(const ConvexBase& hull, const Vec3s& dir, Vec3s& support, int& hint, ShapeSupportData& data) {
  const Vec3s unit = dir.normalized();
  const auto& warm = hull.support_warm_starts;
  if (!data.last_dir.isZero() && !warm.points.empty() && data.last_dir.dot(unit) < 0.9) {
    double best = warm.points[0].dot(dir);
    hint = warm.indices[0];
    for (size_t i = 1; i < warm.points.size(); ++i) {
      const double dot = warm.points[i].dot(dir);
      if (dot > best) {
        best = dot;
        hint = warm.indices[i];
      }
    }
  }
  data.last_dir = unit;
  const Vec3s* pts = hull.points->data();
  const ConvexBase::Neighbors* neighbors = hull.neighbors->data();
  // Locals, not references: stores to the marks could alias them otherwise.
  const Vec3s d = dir;
  int at = hint >= 0 && hint < (int)hull.num_points ? hint : 0;
  uint8_t visit;
  uint8_t* mark = startClimb(data.visited, hull.num_points, visit);
  mark[at] = visit;
  double best = pts[at].dot(d);
  // Equally far neighbours are taken until a farther one is found: from a
  // face orthogonal to dir every dot product is the same.
  bool moved = true, takeEqual = true;
  while (moved) {
    moved = false;
    // The neighbours of the vertex the pass started from, even after moving.
    const unsigned* around = neighbors[at].n_;
    const int count = neighbors[at].count();
    for (int k = 0; k < count; ++k) {
      const unsigned v = around[k];
      if (mark[v] == visit) continue;
      mark[v] = visit;
      const double dot = pts[v].dot(d);
      bool better = false;
      if (dot > best) {
        better = true;
        takeEqual = false;
      } else if (takeEqual && dot == best) {
        better = true;
      }
      if (better) {
        best = dot;
        at = (int)v;
        moved = true;
      }
    }
  }
  hint = at;
  support = pts[at];
}

/// The supports of both hulls in the Minkowski difference's frame (that of
/// the first), with the second placed by the difference's relative pose as
/// Coal places it (not at all when that pose is the identity).
template <bool Identity>
void hullPairSupports(const MinkowskiDiff& md, const Vec3s& dir, Vec3s& support0, Vec3s& support1,
                      coal::support_func_guess_t& hint, ShapeSupportData data[2]) {
  climb(static_cast<const ConvexBase&>(*md.shapes[0]), dir, support0, hint[0], data[0]);
  if (Identity) {
    climb(static_cast<const ConvexBase&>(*md.shapes[1]), -dir, support1, hint[1], data[1]);
  } else {
    climb(static_cast<const ConvexBase&>(*md.shapes[1]), -md.oR1.transpose() * dir, support1, hint[1], data[1]);
    support1 = md.oR1 * support1 + md.ot1;
  }
}

}  // namespace

double ConvexSolver::distance(const coal::ShapeBase& s1, const coal::Transform3s& tf1, const coal::ShapeBase& s2,
                              const coal::Transform3s& tf2, bool penetration, Vector3& p1, Vector3& p2,
                              Vector3& normal) const {
  if (!climbsVertices(s1) || !climbsVertices(s2)) return shapeDistance(s1, tf1, s2, tf2, penetration, p1, p2, normal);
  // Coal's GJK-then-EPA, with the support function replaced once Coal has set
  // the Minkowski difference up (its pose, radii and per-shape data).
  minkowski_difference.set<coal::details::SupportOptions::NoSweptSphere>(&s1, &s2, tf1, tf2);
  const bool identity = minkowski_difference.oR1.isIdentity() && minkowski_difference.ot1.isZero();
  minkowski_difference.getSupportFunc = identity ? hullPairSupports<true> : hullPairSupports<false>;
  gjk.reset(gjk_max_iterations, gjk_tolerance);
  gjk.setDistanceEarlyBreak(distance_upper_bound);
  gjk.gjk_variant = gjk_variant;
  gjk.convergence_criterion = gjk_convergence_criterion;
  gjk.convergence_criterion_type = gjk_convergence_criterion_type;
  epa.status = coal::details::EPA::Status::DidNotRun;
  Vec3s guess;
  coal::support_func_guess_t hint;
  getGJKInitialGuess(s1, s2, guess, hint);
  gjk.evaluate(minkowski_difference, guess, hint);

  double d;
  using GJK = coal::details::GJK;
  switch (gjk.status) {
    case GJK::NoCollisionEarlyStopped: GJKEarlyStopExtractWitnessPointsAndNormal(tf1, d, p1, p2, normal); break;
    case GJK::Collision:
      if (!penetration) {
        GJKCollisionExtractWitnessPointsAndNormal(tf1, d, p1, p2, normal);
        break;
      }
      if (Penetration found; expandPolytope(gjk, epa_max_iterations, epa_tolerance, polytope_, found)) {
        d = std::min(0.0, -found.depth);
        // Placed as Coal places EPA's points: about their middle, d apart along the normal.
        const Vector3 middle = tf1.transform(0.5 * (found.point0 + found.point1));
        normal = tf1.getRotation() * found.normal;
        p1 = middle - 0.5 * d * normal;
        p2 = middle + 0.5 * d * normal;
        cached_guess = -(found.depth * found.normal);
        support_func_cached_guess = found.hint;
        break;
      }
      epa.reset(epa_max_iterations, epa_tolerance);
      epa.evaluate(gjk, -guess);
      if (epa.status == coal::details::EPA::DidNotRun || epa.status == coal::details::EPA::FallBack)
        EPAFailedExtractWitnessPointsAndNormal(tf1, d, p1, p2, normal);
      else
        EPAExtractWitnessPointsAndNormal(tf1, d, p1, p2, normal);
      break;
    default:  // converged apart or touching, or out of iterations: GJK's own points
      GJKExtractWitnessPointsAndNormal(tf1, d, p1, p2, normal);
      break;
  }
  return d;
}

}  // namespace detail
}  // namespace klampt
