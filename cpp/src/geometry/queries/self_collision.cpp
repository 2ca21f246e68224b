// Robot self-collision: enabled link pairs, pruned by their world boxes.
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>
#include "klampt/geometry/queries/collision_cache.h"
#include "klampt/geometry/queries/queries.h"
#include "klampt/model/robot.h"

namespace klampt {

std::vector<std::pair<int, int>> selfCollidingPairs(const Robot& robot, bool stopAtFirst) {
  const int n = robot.numLinks();
  // World boxes (grown by the margins) of the links that have geometry.
  thread_local std::vector<Vector3> lo, hi;
  thread_local std::vector<char> has;
  lo.resize(n);
  hi.resize(n);
  has.assign(n, 0);
  for (int i = 0; i < n; ++i) {
    const Geometry& g = *robot.links[i].geometry;
    if (g.empty()) continue;
    const CollisionCache& c = collisionCache(*g.data);
    transformBox(g.currentTransform, c.bmin, c.bmax, lo[i], hi[i]);
    lo[i].array() -= g.margin;
    hi[i].array() += g.margin;
    has[i] = 1;
  }
  auto boxesOverlap = [&](int i, int j) {
    return !((lo[i].array() > hi[j].array()).any() || (lo[j].array() > hi[i].array()).any());
  };
  // A robot that collided usually collides again through the same pair: try
  // the last one found on this thread first.
  thread_local std::unordered_map<const Robot*, std::pair<int, int>> lastHit;
  std::pair<int, int> tried(-1, -1);  // checked already, free
  if (stopAtFirst) {
    auto it = lastHit.find(&robot);
    if (it != lastHit.end()) {
      const auto [i, j] = it->second;
      if (j < n && has[i] && has[j] && robot.selfCollisionEnabled(i, j) && boxesOverlap(i, j)) {
        if (collides(*robot.links[i].geometry, *robot.links[j].geometry)) return {{i, j}};
        tried = {i, j};
      }
    }
  }
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < n; ++i) {
    if (!has[i]) continue;
    for (int j = i + 1; j < n; ++j) {
      if (!has[j] || !robot.selfCollisionEnabled(i, j)) continue;
      if (!boxesOverlap(i, j) || std::make_pair(i, j) == tried) continue;
      if (collides(*robot.links[i].geometry, *robot.links[j].geometry)) {
        pairs.emplace_back(i, j);
        if (stopAtFirst) {
          if (lastHit.size() > 1024) lastHit.clear();
          lastHit[&robot] = {i, j};
          return pairs;
        }
      }
    }
  }
  return pairs;
}

}  // namespace klampt
