// Internal to the queries: the ray-triangle test the ray casts share.
#pragma once
#include <cmath>
#include "klampt/math/types.h"

namespace klampt {
namespace detail {

/// Barycentric slack of the triangle test: a ray through an edge shared by
/// two triangles must hit at least one of them despite rounding.
constexpr double kEdgeSlack = 1e-12;

/// Möller–Trumbore: t of the hit with triangle abc, or false.
inline bool rayTriangle(const Vector3& s, const Vector3& d, const Vector3& a, const Vector3& b, const Vector3& c,
                        double& t) {
  const Vector3 e1 = b - a, e2 = c - a, p = d.cross(e2);
  const double det = e1.dot(p);
  if (std::abs(det) < 1e-300) return false;
  const Vector3 q = s - a;
  const double u = q.dot(p) / det;
  if (u < -kEdgeSlack || u > 1 + kEdgeSlack) return false;
  const Vector3 r = q.cross(e1);
  const double v = d.dot(r) / det;
  if (v < -kEdgeSlack || u + v > 1 + kEdgeSlack) return false;
  t = e2.dot(r) / det;
  return t >= 0;
}

}  // namespace detail
}  // namespace klampt
