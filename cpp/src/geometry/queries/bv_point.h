// Internal to the queries: lower bounds on the distance from a point to the
// triangles under a node of a mesh's tree, in the mesh's frame.
#pragma once
#include <algorithm>
#include <cmath>
#include <coal/BV/OBBRSS.h>
#include "klampt/math/types.h"

namespace klampt {
namespace detail {

/// Distance from p to the oriented box (0 inside).
inline double pointObbDistance(const Vector3& p, const coal::OBB& box) {
  const Vector3 q = box.axes.transpose() * (p - box.To);
  return (q.cwiseAbs() - box.extent).cwiseMax(0.0).norm();
}

/// Distance from p to the rectangle swept sphere (0 inside).
inline double pointRssDistance(const Vector3& p, const coal::RSS& rss) {
  const Vector3 q = rss.axes.transpose() * (p - rss.Tr);
  const double dx = q[0] - std::clamp(q[0], 0.0, rss.length[0]);
  const double dy = q[1] - std::clamp(q[1], 0.0, rss.length[1]);
  return std::max(0.0, std::sqrt(dx * dx + dy * dy + q[2] * q[2]) - rss.radius);
}

/// The larger of both: no triangle under the node is nearer to p. The RSS of
/// inner nodes must have been fitted (prepareForDistance).
inline double pointNodeDistance(const Vector3& p, const coal::OBBRSS& bv) {
  return std::max(pointObbDistance(p, bv.obb), pointRssDistance(p, bv.rss));
}

}  // namespace detail
}  // namespace klampt
