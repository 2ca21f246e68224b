// Internal to the queries: the last overlap GJK found between two convex
// shapes, kept per thread, which answers the same pair again without GJK
// while the shapes still overlap at their new poses.
#pragma once
#include <coal/narrowphase/gjk.h>
#include "leaf.h"

namespace klampt {
namespace detail {

/// Whether the witness kept for the shapes of a and b (convex Coal shapes)
/// shows them overlapping at their current poses: four points of each whose
/// differences enclose the origin. Any points of the two shapes make a sound
/// test, so a witness from other poses can only fail to answer.
bool overlapByWitness(const Leaf& a, const Leaf& b);

/// Keeps the simplex of a GJK run on the shapes of a and b (a first, at their
/// current poses) that found them overlapping, if it encloses the origin by a
/// margin that rounding cannot cross.
void rememberOverlap(const Leaf& a, const Leaf& b, const coal::details::GJK& gjk);

}  // namespace detail
}  // namespace klampt
