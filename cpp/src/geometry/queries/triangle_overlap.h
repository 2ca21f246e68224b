// Internal to the queries: whether two triangles intersect, without the
// distance between them.
#pragma once
#include "klampt/math/types.h"

namespace klampt {
namespace detail {

enum class TriangleOverlap { Disjoint, Intersect, Degenerate };

/// Whether the closed triangles (p0, p1, p2) and (q0, q1, q2), given in one
/// frame, share a point: a separating-axis test over both normals, the nine
/// edge-edge cross products and, for coplanar pairs, the six in-plane edge
/// normals. Degenerate when either triangle has no area (a segment or a
/// point), which these axes cannot always separate: ask the distance then.
TriangleOverlap trianglesOverlap(const Vector3& p0, const Vector3& p1, const Vector3& p2, const Vector3& q0,
                                 const Vector3& q1, const Vector3& q2);

}  // namespace detail
}  // namespace klampt
