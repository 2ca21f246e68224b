#include "klampt/plan/roadmap.h"

#include <algorithm>
#include <cmath>
#include <queue>

namespace klampt {
namespace plan {

int Roadmap::addNode(const Config& q) {
  nodes_.push_back(q);
  adjacency_.emplace_back();
  parent_.push_back((int)parent_.size());
  ++numComponents_;
  return (int)nodes_.size() - 1;
}

int Roadmap::find(int i) const {
  while (parent_[i] != i) {
    parent_[i] = parent_[parent_[i]];
    i = parent_[i];
  }
  return i;
}

int Roadmap::component(int i) const { return find(i); }

void Roadmap::addEdge(int i, int j, double cost) {
  for (Link& l : adjacency_[i])
    if (l.to == j) {
      l.cost = cost;
      for (Link& m : adjacency_[j])
        if (m.to == i) m.cost = cost;
      return;
    }
  adjacency_[i].push_back({j, cost});
  adjacency_[j].push_back({i, cost});
  const int a = find(i), b = find(j);
  if (a != b) {
    parent_[a] = b;
    --numComponents_;
  }
}

void Roadmap::removeEdge(int i, int j) {
  auto drop = [](std::vector<Link>& ls, int to) {
    ls.erase(std::remove_if(ls.begin(), ls.end(), [to](const Link& l) { return l.to == to; }), ls.end());
  };
  drop(adjacency_[i], j);
  drop(adjacency_[j], i);
}

bool Roadmap::hasEdge(int i, int j) const {
  for (const Link& l : adjacency_[i])
    if (l.to == j) return true;
  return false;
}

void Roadmap::recomputeComponents() {
  const int n = numNodes();
  for (int i = 0; i < n; ++i) parent_[i] = i;
  numComponents_ = n;
  for (int i = 0; i < n; ++i)
    for (const Link& l : adjacency_[i]) {
      const int a = find(i), b = find(l.to);
      if (a != b) {
        parent_[a] = b;
        --numComponents_;
      }
    }
}

std::vector<int> Roadmap::shortestPath(int a, const std::vector<int>& goals,
                                       const std::function<double(int, int, double)>& edgeCost,
                                       const std::function<double(int)>& terminal) const {
  const int n = numNodes();
  std::vector<double> d(n, INFINITY);
  std::vector<int> prev(n, -1);
  std::vector<char> isGoal(n, 0);
  for (int g : goals)
    if (g >= 0 && g < n) isGoal[g] = 1;
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  d[a] = 0;
  open.push({0, a});
  // With terminal costs the best goal is not the first one reached: run to
  // completion and compare cost-to-come plus terminal cost.
  const bool stopAtFirst = !terminal;
  int reached = -1;
  while (!open.empty()) {
    const auto [du, u] = open.top();
    open.pop();
    if (du > d[u]) continue;
    if (isGoal[u] && stopAtFirst) {
      reached = u;
      break;
    }
    for (const Link& l : adjacency_[u]) {
      const double c = edgeCost ? edgeCost(u, l.to, l.cost) : l.cost;
      if (d[u] + c < d[l.to]) {
        d[l.to] = d[u] + c;
        prev[l.to] = u;
        open.push({d[l.to], l.to});
      }
    }
  }
  if (!stopAtFirst) {
    double best = INFINITY;
    for (int g : goals)
      if (g >= 0 && g < n && std::isfinite(d[g]) && d[g] + terminal(g) < best) {
        best = d[g] + terminal(g);
        reached = g;
      }
  }
  std::vector<int> path;
  if (reached < 0) return path;
  for (int v = reached; v >= 0; v = prev[v]) path.push_back(v);
  std::reverse(path.begin(), path.end());
  return path;
}

std::vector<double> Roadmap::distancesFrom(int a) const {
  const int n = numNodes();
  std::vector<double> d(n, INFINITY);
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  d[a] = 0;
  open.push({0, a});
  while (!open.empty()) {
    const auto [du, u] = open.top();
    open.pop();
    if (du > d[u]) continue;
    for (const Link& l : adjacency_[u])
      if (du + l.cost < d[l.to]) {
        d[l.to] = du + l.cost;
        open.push({d[l.to], l.to});
      }
  }
  return d;
}

void Roadmap::edges(std::vector<Edge>& out) const {
  out.clear();
  for (int i = 0; i < numNodes(); ++i)
    for (const Link& l : adjacency_[i])
      if (i < l.to) out.emplace_back(i, l.to);
}

void Roadmap::clear() {
  nodes_.clear();
  adjacency_.clear();
  parent_.clear();
  numComponents_ = 0;
}

Path nodesToPath(const Roadmap& roadmap, const std::vector<int>& nodes) {
  Path p;
  p.reserve(nodes.size());
  for (int i : nodes) p.push_back(roadmap.node(i));
  return p;
}

}  // namespace plan
}  // namespace klampt
