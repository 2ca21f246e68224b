// Internal to the queries: the exact distance between two triangles.
#pragma once
#include <cmath>
#include "klampt/math/types.h"

namespace klampt {
namespace detail {

/// Squared distance between the closed triangles (p0, p1, p2) and
/// (q0, q1, q2), given in one frame: 0 when they intersect, else the least
/// of the vertex-triangle and edge-edge distances. P and Q, if given,
/// receive a closest point on each. When a lower bound already exceeds
/// `stopAbove2`, that bound (> stopAbove2) is returned instead, with P and Q
/// unset: callers that only need the distance below a threshold skip the
/// rest. `parallelNearest`, if given, is set when an edge or face of one
/// triangle is parallel to the other's plane at the least height (disjoint
/// triangles with planes only): their nearest points are then many, P and
/// Q one pair of them.
double triangleDistance2(const Vector3& p0, const Vector3& p1, const Vector3& p2, const Vector3& q0,
                         const Vector3& q1, const Vector3& q2, Vector3* P = nullptr, Vector3* Q = nullptr,
                         double stopAbove2 = INFINITY, bool* parallelNearest = nullptr);

}  // namespace detail
}  // namespace klampt
