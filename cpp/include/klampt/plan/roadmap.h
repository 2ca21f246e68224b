// A roadmap graph of milestones: undirected edges with a cost, connected
// components (union-find, for planners that only add checked edges) and
// shortest paths (Dijkstra).
#pragma once
#include <functional>
#include <vector>
#include "klampt/plan/planner.h"

namespace klampt {
namespace plan {

class Roadmap {
 public:
  struct Link {
    int to;
    double cost;
  };

  int addNode(const Config& q);
  /// Adds (or updates the cost of) the edge i-j and merges the components.
  void addEdge(int i, int j, double cost);
  /// Removes the edge; components are then stale until recomputeComponents().
  void removeEdge(int i, int j);
  bool hasEdge(int i, int j) const;
  int numNodes() const { return (int)nodes_.size(); }
  const Config& node(int i) const { return nodes_[i]; }
  const std::vector<Link>& links(int i) const { return adjacency_[i]; }

  int component(int i) const;
  bool connected(int i, int j) const { return component(i) == component(j); }
  int numComponents() const { return numComponents_; }
  void recomputeComponents();

  /// The cheapest path from a to any node of `goals` (plus terminal[g] for
  /// goal g when given), as node indices; empty if none. Edge costs come from
  /// `edgeCost(i, j, stored cost)` when given, else the stored costs.
  std::vector<int> shortestPath(int a, const std::vector<int>& goals,
                                const std::function<double(int, int, double)>& edgeCost = {},
                                const std::function<double(int)>& terminal = {}) const;
  /// Cost-to-come from a to every node (inf when unreachable).
  std::vector<double> distancesFrom(int a) const;

  void edges(std::vector<Edge>& out) const;
  void clear();

 private:
  int find(int i) const;
  std::vector<Config> nodes_;
  std::vector<std::vector<Link>> adjacency_;
  mutable std::vector<int> parent_;
  int numComponents_ = 0;
};

/// Converts node indices to their configurations.
Path nodesToPath(const Roadmap& roadmap, const std::vector<int>& nodes);

}  // namespace plan
}  // namespace klampt
