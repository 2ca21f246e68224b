// Volume grid against volume grid (see grid_grid.h).
#include "grid_grid.h"
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include "klampt/geometry/volume_grid.h"
#include "grid_bound.h"

namespace klampt {
namespace detail {

GridGridDistance gridGridDistance(const Leaf& a, const Leaf& b, double stopBelow) {
  const VolumeGrid& ga = a.data->grid;
  const VolumeGrid& gb = b.data->grid;
  double best = INFINITY, gap = INFINITY;
  Vector3 bestWorld = Vector3::Zero(), gapWorld = Vector3::Zero();
  // The answer (below) is known to be <= stopBelow.
  auto done = [&]() { return best <= std::min(stopBelow, 0.0) || (stopBelow >= 0 && gap <= stopBelow); };
  // Every cell centre of `from`, in world coordinates, against both fields.
  // Its own field's value there is the cell's; the other's is not looked up
  // where a lower bound of it (the least value of the other grid plus the
  // distance to its box) already rules the cell out.
  auto scan = [&](const Leaf& from, const Leaf& other) {
    const VolumeGrid& g = from.data->grid;
    const VolumeGrid& go = other.data->grid;
    const double otherLeast = gridLeastValue(go, other.cache->gridMinima);
    const RigidTransform toOther = other.T.inverse() * from.T;
    for (int i = 0; i < g.dims[0]; ++i)
      for (int j = 0; j < g.dims[1]; ++j)
        for (int k = 0; k < g.dims[2]; ++k) {
          if (done()) return;
          const Vector3 c = cellCenter(g, i, j, k);
          const double own = g.values[((size_t)i * g.dims[1] + j) * g.dims[2] + k];
          const Vector3 o = toOther.apply(c);
          const double otherBound = otherLeast + (go.bmin - o).cwiseMax(o - go.bmax).cwiseMax(0.0).norm();
          if (std::max(own, otherBound) >= best && own + otherBound >= gap) continue;
          const double fo = gridValue(go, o);
          if (std::max(own, fo) < best) {
            best = std::max(own, fo);
            bestWorld = from.T.apply(c);
          }
          if (own + fo < gap) {
            gap = own + fo;
            gapWorld = from.T.apply(c);
          }
        }
  };
  if (ga.values.empty() || gb.values.empty()) throw std::invalid_argument("the volume grid is empty");
  scan(a, b);
  scan(b, a);
  if (best > 0) {
    // Apart: fa + fb >= the distance between the solids everywhere, with
    // equality on each solid's surface point nearest the other.
    best = gap;
    bestWorld = gapWorld;
  }
  GridGridDistance out{best, bestWorld, bestWorld};
  // Closest points: from the meeting point down each field's gradient to its surface.
  auto onSurface = [&](const Leaf& leaf) {
    const Vector3 local = leaf.T.inverse().apply(bestWorld);
    return leaf.T.apply(gridLevelSetPoint(leaf.data->grid, local, gridValue(leaf.data->grid, local)));
  };
  if (std::isfinite(best)) {
    out.cp1 = onSurface(a);
    out.cp2 = onSurface(b);
  }
  return out;
}

}  // namespace detail
}  // namespace klampt
