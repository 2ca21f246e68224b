// Internal to the queries: two volume grids (implicit surfaces) against
// each other, through the intersection of their solids.
#pragma once
#include "leaf.h"

namespace klampt {
namespace detail {

struct GridGridDistance {
  double d;
  Vector3 cp1, cp2;  // world
};

/// Over the cell centres of both grids: the solids overlap where
/// min max(fa, fb) <= 0 (d is that minimum, a depth estimate); otherwise d is
/// min (fa + fb), which distance fields keep above the distance between the
/// solids and bring down to it at each solid's surface point nearest the
/// other. Accurate to about a cell of the coarser grid. The search stops
/// once the answer is known to be <= stopBelow.
GridGridDistance gridGridDistance(const Leaf& a, const Leaf& b, double stopBelow);

}  // namespace detail
}  // namespace klampt
