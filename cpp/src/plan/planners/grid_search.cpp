#include "klampt/plan/planners/grid_search.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <stdexcept>
#include <unordered_map>

namespace klampt {
namespace plan {

namespace {

/// Grids with more points than this are not searched.
constexpr double kMaxGridPoints = 2e7;

}  // namespace

GridSearchPlanner::GridSearchPlanner(std::shared_ptr<CSpace> space, std::uint64_t seed, const PlannerSettings& s,
                                     bool anytime)
    : MotionPlanner(std::move(space), seed), anytime_(anytime) {
  if (!space_->numericProperty("minimum", lo_) || !space_->numericProperty("maximum", hi_) ||
      lo_.size() != hi_.size())
    throw std::invalid_argument("fmm planners need the space's \"minimum\" and \"maximum\" properties");
  for (size_t i = 0; i < lo_.size(); ++i) {
    if (!std::isfinite(lo_[i]) || !std::isfinite(hi_[i]) || hi_[i] < lo_[i])
      throw std::invalid_argument("fmm planners need a finite box (minimum <= maximum)");
    const double width = hi_[i] - lo_[i];
    h_.push_back(s.gridResolution > 0 ? s.gridResolution : (width > 0 ? width / 8 : 1.0));
  }
}

int GridSearchPlanner::addMilestone(const Config& q) {
  if (endpoints_.size() >= 2 || q.size() != (Eigen::Index)lo_.size() || !space_->isFeasible(q)) return -1;
  endpoints_.push_back(q);
  return (int)endpoints_.size() - 1;
}

Config GridSearchPlanner::milestone(int i) const {
  if (i < 0 || i >= (int)endpoints_.size()) throw std::out_of_range("milestone index out of range");
  return endpoints_[i];
}

bool GridSearchPlanner::isConnected(int a, int b) const {
  if (a == b) return a >= 0 && a < (int)endpoints_.size();
  return !solution_.empty() && std::min(a, b) == 0 && std::max(a, b) == 1;
}

bool GridSearchPlanner::getPath(int a, int b, Path& out) {
  if (!isConnected(a, b)) return false;
  if (a == b) {
    out = {endpoints_[a]};
    return true;
  }
  out = solution_;
  if (a == 1) std::reverse(out.begin(), out.end());
  return true;
}

void GridSearchPlanner::iterate() {
  if (endpoints_.size() < 2) throw std::runtime_error("No start or goal set for point-to-point planner, cannot start");
  ++iterations_;
  if (searched_ && (!anytime_ || !refined_)) return;
  const double before = h_[0];
  Path p = search();
  searched_ = true;
  if (!p.empty()) {
    const double c = objective_.pathCost(*space_, p);
    if (c < solutionCost_) {
      solution_ = std::move(p);
      solutionCost_ = c;
    }
  }
  // The anytime version refines by sqrt(2) per iteration while the grid
  // stays below a million points.
  if (anytime_ && (double)gridPoints_ * std::pow(2.0, 0.5 * (double)h_.size()) <= 1e6)
    for (double& h : h_) h *= M_SQRT1_2;
  refined_ = h_[0] != before;
}

Path GridSearchPlanner::search() {
  const int d = (int)lo_.size();
  std::vector<long> counts(d);
  double total = 1;
  for (int i = 0; i < d; ++i) {
    counts[i] = (long)std::floor((hi_[i] - lo_[i]) / h_[i] + 1e-9) + 1;
    total *= (double)counts[i];
  }
  if (total > kMaxGridPoints) return {};
  gridPoints_ = (long)total;
  auto pointOf = [&](long id, Config& q) {
    q.resize(d);
    for (int i = 0; i < d; ++i) {
      q[i] = std::min(hi_[i], lo_[i] + (double)(id % counts[i]) * h_[i]);
      id /= counts[i];
    }
  };
  auto nearestId = [&](const Config& q) {
    long id = 0, stride = 1;
    for (int i = 0; i < d; ++i) {
      const long c = std::max(0L, std::min(counts[i] - 1, (long)std::lround((q[i] - lo_[i]) / h_[i])));
      id += c * stride;
      stride *= counts[i];
    }
    return id;
  };
  // Neighbour offsets: every diagonal up to 3-D, the axes beyond.
  std::vector<std::vector<int>> steps;
  if (d <= 3) {
    const int n = (int)std::pow(3, d);
    for (int k = 0; k < n; ++k) {
      std::vector<int> s(d);
      int r = k, nonzero = 0;
      for (int i = 0; i < d; ++i) {
        s[i] = r % 3 - 1;
        r /= 3;
        nonzero += s[i] != 0;
      }
      if (nonzero) steps.push_back(s);
    }
  } else {
    for (int i = 0; i < d; ++i)
      for (int sgn : {-1, 1}) {
        std::vector<int> s(d, 0);
        s[i] = sgn;
        steps.push_back(s);
      }
  }
  std::unordered_map<long, char> feasible;  // grid point -> 1 free, 0 blocked
  std::set<std::pair<long, long>> blocked;   // grid edges found blocked
  Config q, r;
  auto isFree = [&](long id) {
    auto it = feasible.find(id);
    if (it != feasible.end()) return it->second == 1;
    pointOf(id, q);
    const bool ok = space_->isFeasible(q);
    feasible[id] = ok;
    return ok;
  };
  const Config &start = endpoints_[0], &goal = endpoints_[1];
  const long s0 = nearestId(start), g0 = nearestId(goal);
  pointOf(s0, q);
  if (!isFree(s0) || !space_->isVisible(start, q)) return {};
  pointOf(g0, q);
  if (!isFree(g0) || !space_->isVisible(q, goal)) return {};
  for (int attempt = 0; attempt < 200; ++attempt) {
    // Dijkstra over free grid points.
    std::unordered_map<long, double> dist;
    std::unordered_map<long, long> prev;
    using Item = std::pair<double, long>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
    dist[s0] = 0;
    open.push({0, s0});
    bool reached = false;
    std::vector<long> coord(d);
    while (!open.empty()) {
      const auto [du, u] = open.top();
      open.pop();
      if (du > dist[u]) continue;
      if (u == g0) {
        reached = true;
        break;
      }
      long rest = u;
      for (int i = 0; i < d; ++i) {
        coord[i] = rest % counts[i];
        rest /= counts[i];
      }
      for (const auto& s : steps) {
        long v = 0, stride = 1;
        double len2 = 0;
        bool inside = true;
        for (int i = 0; i < d && inside; ++i) {
          const long c = coord[i] + s[i];
          inside = c >= 0 && c < counts[i];
          v += c * stride;
          stride *= counts[i];
          len2 += s[i] * s[i] * h_[i] * h_[i];
        }
        if (!inside || blocked.count({std::min(u, v), std::max(u, v)}) || !isFree(v)) continue;
        const double dv = du + std::sqrt(len2);
        auto it = dist.find(v);
        if (it == dist.end() || dv < it->second) {
          dist[v] = dv;
          prev[v] = u;
          open.push({dv, v});
        }
      }
    }
    if (!reached) return {};
    std::vector<long> ids{g0};
    while (ids.back() != s0) ids.push_back(prev[ids.back()]);
    std::reverse(ids.begin(), ids.end());
    // Check the grid path's edges; a blocked one is removed and the search repeated.
    bool free = true;
    for (size_t k = 0; k + 1 < ids.size() && free; ++k) {
      pointOf(ids[k], q);
      pointOf(ids[k + 1], r);
      if (!space_->isVisible(q, r)) {
        blocked.insert({std::min(ids[k], ids[k + 1]), std::max(ids[k], ids[k + 1])});
        free = false;
      }
    }
    if (!free) continue;
    Path path{start};
    for (long id : ids) {
      pointOf(id, q);
      path.push_back(q);
    }
    path.push_back(goal);
    straighten(path);
    return path;
  }
  return {};
}

void GridSearchPlanner::straighten(Path& path) {
  // From each kept point, skip ahead while the straight edge stays free.
  Path out{path.front()};
  size_t i = 0;
  while (i + 1 < path.size()) {
    size_t j = i + 1;
    while (j + 1 < path.size() && space_->isVisible(path[i], path[j + 1])) ++j;
    out.push_back(path[j]);
    i = j;
  }
  path = std::move(out);
}

void GridSearchPlanner::getRoadmap(std::vector<Config>& vertices, std::vector<Edge>& edges) const {
  vertices = endpoints_;
  edges.clear();
  if (solution_.empty()) return;
  vertices = solution_;
  for (size_t k = 0; k + 1 < solution_.size(); ++k) edges.emplace_back((int)k, (int)k + 1);
}

void GridSearchPlanner::getStats(std::map<std::string, std::string>& out) const {
  MotionPlanner::getStats(out);
  out["gridPoints"] = formatNumber((double)gridPoints_);
}

}  // namespace plan
}  // namespace klampt
