// Robot self-collision: enabled link pairs, pruned by their bounds
// (klampt/model/self_collision.h).
#include "klampt/model/self_collision.h"

#include <algorithm>
#include <unordered_map>
#include "klampt/geometry/queries/queries.h"
#include "klampt/model/robot.h"

namespace klampt {

void SelfCollisionTable::reset(const Robot& robot) {
  const int n = robot.numLinks();
  shapes_.assign(n, PreparedShape());
  for (int i = 0; i < n; ++i) shapes_[i] = PreparedShape(*robot.links[i].geometry);
  pairs_.clear();
  links_.clear();
  std::vector<char> used(n, 0);
  for (int i = 0; i < n; ++i) {
    if (shapes_[i].empty()) continue;
    const char* enabled = robot.selfCollision.data() + (size_t)i * n;
    for (int j = i + 1; j < n; ++j)
      if (enabled[j] && !shapes_[j].empty()) {
        pairs_.emplace_back(i, j);
        used[i] = used[j] = 1;
      }
  }
  for (int i = 0; i < n; ++i)
    if (used[i]) links_.push_back(i);
}

const std::vector<PlacedBounds>& SelfCollisionTable::place(const Robot& robot) const {
  thread_local std::vector<PlacedBounds> placed;
  placed.resize(shapes_.size());
  for (int i : links_) {
    const Geometry& g = *robot.links[i].geometry;
    placed[i] = placeBounds(shapes_[i], g.currentTransform, g.margin);
  }
  return placed;
}

bool SelfCollisionTable::pairCollides(const Robot& robot, const std::vector<PlacedBounds>& placed, int i,
                                      int j) const {
  return preparedCollides(shapes_[i], *robot.links[i].geometry, placed[i], shapes_[j], *robot.links[j].geometry,
                          placed[j]);
}

std::pair<int, int> SelfCollisionTable::firstColliding(const Robot& robot, std::pair<int, int> tryFirst) const {
  if (pairs_.empty()) return {-1, -1};
  const auto& placed = place(robot);
  const bool hasFirst = std::binary_search(pairs_.begin(), pairs_.end(), tryFirst);
  if (hasFirst && pairCollides(robot, placed, tryFirst.first, tryFirst.second)) return tryFirst;
  for (const auto& [i, j] : pairs_) {
    if (hasFirst && std::make_pair(i, j) == tryFirst) continue;  // tested already, free
    if (pairCollides(robot, placed, i, j)) return {i, j};
  }
  return {-1, -1};
}

std::vector<std::pair<int, int>> SelfCollisionTable::allColliding(const Robot& robot) const {
  std::vector<std::pair<int, int>> hits;
  if (pairs_.empty()) return hits;
  const auto& placed = place(robot);
  for (const auto& [i, j] : pairs_)
    if (pairCollides(robot, placed, i, j)) hits.emplace_back(i, j);
  return hits;
}

std::vector<std::pair<int, int>> selfCollidingPairs(const Robot& robot, bool stopAtFirst) {
  thread_local SelfCollisionTable table;
  table.reset(robot);
  if (!stopAtFirst) return table.allColliding(robot);
  // A robot that collided usually collides again through the same pair: try
  // the last one found on this thread first.
  thread_local std::unordered_map<const Robot*, std::pair<int, int>> lastHit;
  auto it = lastHit.find(&robot);
  const auto hit = table.firstColliding(robot, it != lastHit.end() ? it->second : std::make_pair(-1, -1));
  if (hit.first < 0) return {};
  if (lastHit.size() > 1024) lastHit.clear();
  lastHit[&robot] = hit;
  return {hit};
}

}  // namespace klampt
