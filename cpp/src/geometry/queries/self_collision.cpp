// Robot self-collision: enabled link pairs, pruned by their world boxes.
#include <stdexcept>
#include "klampt/geometry/queries/collision_cache.h"
#include "klampt/geometry/queries/queries.h"
#include "klampt/model/robot.h"

namespace klampt {

std::vector<std::pair<int, int>> selfCollidingPairs(const Robot& robot, bool stopAtFirst) {
  const int n = robot.numLinks();
  // World boxes (grown by the margins) of the links that have geometry.
  std::vector<Vector3> lo(n), hi(n);
  std::vector<char> has(n, 0);
  for (int i = 0; i < n; ++i) {
    const Geometry& g = *robot.links[i].geometry;
    if (g.empty()) continue;
    const CollisionCache& c = collisionCache(*g.data);
    transformBox(g.currentTransform, c.bmin, c.bmax, lo[i], hi[i]);
    lo[i].array() -= g.margin;
    hi[i].array() += g.margin;
    has[i] = 1;
  }
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < n; ++i) {
    if (!has[i]) continue;
    for (int j = i + 1; j < n; ++j) {
      if (!has[j] || !robot.selfCollisionEnabled(i, j)) continue;
      if ((lo[i].array() > hi[j].array()).any() || (lo[j].array() > hi[i].array()).any()) continue;
      if (collides(*robot.links[i].geometry, *robot.links[j].geometry)) {
        pairs.emplace_back(i, j);
        if (stopAtFirst) return pairs;
      }
    }
  }
  return pairs;
}

}  // namespace klampt
