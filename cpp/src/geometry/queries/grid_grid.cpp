// Volume grid against volume grid (see grid_grid.h).
#include "grid_grid.h"
#include <algorithm>
#include <cmath>
#include "klampt/geometry/volume_grid.h"

namespace klampt {
namespace detail {

GridGridDistance gridGridDistance(const Leaf& a, const Leaf& b) {
  const VolumeGrid& ga = a.data->grid;
  const VolumeGrid& gb = b.data->grid;
  double best = INFINITY, gap = INFINITY;
  Vector3 bestWorld = Vector3::Zero(), gapWorld = Vector3::Zero();
  // Every cell centre of `from`, in world coordinates, against both fields.
  auto scan = [&](const Leaf& from) {
    const VolumeGrid& g = from.data->grid;
    const RigidTransform toA = a.T.inverse() * from.T, toB = b.T.inverse() * from.T;
    for (int i = 0; i < g.dims[0]; ++i)
      for (int j = 0; j < g.dims[1]; ++j)
        for (int k = 0; k < g.dims[2]; ++k) {
          const Vector3 c = cellCenter(g, i, j, k);
          const double fa = gridValue(ga, toA.apply(c)), fb = gridValue(gb, toB.apply(c));
          if (std::max(fa, fb) < best) {
            best = std::max(fa, fb);
            bestWorld = from.T.apply(c);
          }
          if (fa + fb < gap) {
            gap = fa + fb;
            gapWorld = from.T.apply(c);
          }
        }
  };
  scan(a);
  scan(b);
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
