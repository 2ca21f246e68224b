#include "klampt/plan/nearest.h"

#include <algorithm>
#include <cmath>

namespace klampt {
namespace plan {

void NearestNeighbors::add(int id, const Config& q) {
  ids_.push_back(id);
  points_.push_back(q);
}

void NearestNeighbors::remove(int id) {
  for (size_t i = 0; i < ids_.size(); ++i)
    if (ids_[i] == id) {
      ids_[i] = ids_.back();
      points_[i] = points_.back();
      ids_.pop_back();
      points_.pop_back();
      return;
    }
}

void NearestNeighbors::clear() {
  ids_.clear();
  points_.clear();
}

int NearestNeighbors::nearest(const Config& q, double* dist) const {
  int best = -1;
  double bestD = INFINITY;
  for (size_t i = 0; i < ids_.size(); ++i) {
    const double d = space_->distance(q, points_[i]);
    if (d < bestD) {
      bestD = d;
      best = ids_[i];
    }
  }
  if (dist) *dist = bestD;
  return best;
}

std::vector<int> NearestNeighbors::kNearest(const Config& q, int k) const {
  std::vector<std::pair<double, int>> all;
  all.reserve(ids_.size());
  for (size_t i = 0; i < ids_.size(); ++i) all.emplace_back(space_->distance(q, points_[i]), ids_[i]);
  const size_t m = std::min(all.size(), (size_t)std::max(k, 0));
  std::partial_sort(all.begin(), all.begin() + m, all.end());
  std::vector<int> out;
  for (size_t i = 0; i < m; ++i) out.push_back(all[i].second);
  return out;
}

std::vector<int> NearestNeighbors::within(const Config& q, double r) const {
  std::vector<std::pair<double, int>> hits;
  for (size_t i = 0; i < ids_.size(); ++i) {
    const double d = space_->distance(q, points_[i]);
    if (d <= r) hits.emplace_back(d, ids_[i]);
  }
  std::sort(hits.begin(), hits.end());
  std::vector<int> out;
  for (const auto& h : hits) out.push_back(h.second);
  return out;
}

}  // namespace plan
}  // namespace klampt
