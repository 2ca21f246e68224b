// Ray casts against elevation maps (see heightmap_ray.h). In the grid's
// coordinates (continuous i, j and the height) the ray is a line; a 2D DDA
// visits the cells under it in order and tests each cell's two triangles.
#include "heightmap_ray.h"
#include <algorithm>
#include <cmath>
#include "klampt/geometry/heightmap.h"
#include "ray_triangle.h"

namespace klampt {
namespace detail {

HeightmapRay heightmapRay(const Heightmap& hm, const Vector3& s, const Vector3& d, double& t, int& triangle) {
  const int w = (int)hm.heights.rows(), h = (int)hm.heights.cols();
  if (hm.viewport.perspective || w < 2 || h < 2) return HeightmapRay::Undecided;
  // The ray in grid coordinates (an affine image of the local frame).
  const Vector3 q0 = heightmapProject(hm, s), qd = heightmapProject(hm, s + d) - q0;
  // The part of the ray over the footprint [0, w-1] x [0, h-1].
  double t0 = 0, t1 = INFINITY;
  const double hi[2] = {double(w - 1), double(h - 1)};
  for (int k = 0; k < 2; ++k) {
    if (qd[k] == 0) {
      if (q0[k] < 0 || q0[k] > hi[k]) return HeightmapRay::Miss;
      continue;
    }
    double a = (0 - q0[k]) / qd[k], b = (hi[k] - q0[k]) / qd[k];
    if (a > b) std::swap(a, b);
    t0 = std::max(t0, a);
    t1 = std::min(t1, b);
  }
  if (!(t0 <= t1)) return HeightmapRay::Miss;
  auto at = [&](double tt) { return Vector3(q0 + tt * qd); };
  // Whether a point on the footprint's border (rounding clamped) lies under the surface.
  auto underSurface = [&](const Vector3& q) {
    double surface;
    return heightmapSurfaceAt(hm, std::clamp(q.x(), 0.0, hi[0]), std::clamp(q.y(), 0.0, hi[1]), surface) &&
           q.z() <= surface;
  };
  // Entering or leaving the footprint under its surface crosses a wall.
  const Vector3 enter = at(t0);
  if (t0 > 0 && underSurface(enter)) return HeightmapRay::Undecided;
  int i = std::clamp((int)std::floor(enter.x()), 0, w - 2), j = std::clamp((int)std::floor(enter.y()), 0, h - 2);
  const int stepI = qd.x() > 0 ? 1 : -1, stepJ = qd.y() > 0 ? 1 : -1;
  auto crossing = [&](int k, int cell, int step) {  // t where the ray crosses the next grid line along k
    if (qd[k] == 0) return double(INFINITY);
    return ((step > 0 ? cell + 1 : cell) - q0[k]) / qd[k];
  };
  while (true) {
    const Vector3 a = heightmapVertex(hm, i, j), b = heightmapVertex(hm, i, j + 1), c = heightmapVertex(hm, i + 1, j),
                  e = heightmapVertex(hm, i + 1, j + 1);
    double best = INFINITY, tt;
    int which = -1;
    if (rayTriangle(s, d, a, b, c, tt) && tt < best) best = tt, which = 0;
    if (rayTriangle(s, d, b, e, c, tt) && tt < best) best = tt, which = 1;
    if (which >= 0) {
      t = best;
      triangle = 2 * (i * (h - 1) + j) + which;
      return HeightmapRay::Hit;
    }
    const double ti = crossing(0, i, stepI), tj = crossing(1, j, stepJ);
    if (std::min(ti, tj) >= t1) break;
    if (ti < tj) {
      i += stepI;
    } else {
      j += stepJ;
    }
    if (i < 0 || j < 0 || i > w - 2 || j > h - 2) break;
  }
  const Vector3 leave = at(t1);
  if (std::isfinite(t1) && underSurface(leave)) return HeightmapRay::Undecided;
  return HeightmapRay::Miss;
}

}  // namespace detail
}  // namespace klampt
