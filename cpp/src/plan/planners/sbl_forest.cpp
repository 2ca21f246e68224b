#include "klampt/plan/planners/sbl_forest.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace klampt {
namespace plan {

namespace {

void eraseValue(std::vector<int>& v, int x) {
  auto it = std::find(v.begin(), v.end(), x);
  if (it != v.end()) v.erase(it);
}

}  // namespace

SBLForest::SBLForest(CSpace& space, Rng& rng, bool useGrid, double gridResolution)
    : space_(space), rng_(rng), useGrid_(useGrid), h_(gridResolution > 0 ? gridResolution : 0.1) {}

SBLForest::Cell SBLForest::cellOf(const Grid& g, const Config& q) const {
  Cell c{0, 0, 0};
  for (size_t k = 0; k < g.dims.size(); ++k) c[k] = (long)std::floor(q[g.dims[k]] / h_);
  return c;
}

void SBLForest::file(int node) {
  Node& n = nodes_[node];
  memberSlot_[node] = (int)members_[n.tree].size();
  members_[n.tree].push_back(node);
  if (!useGrid_) return;
  Grid& g = grids_[n.tree];
  const Cell c = cellOf(g, n.q);
  auto it = g.slot.find(c);
  if (it == g.slot.end()) {
    g.slot[c] = (int)g.cells.size();
    g.cells.push_back({c, {node}});
  } else {
    g.cells[it->second].second.push_back(node);
  }
}

void SBLForest::unfile(int node) {
  Node& n = nodes_[node];
  std::vector<int>& m = members_[n.tree];
  const int slot = memberSlot_[node];
  m[slot] = m.back();
  memberSlot_[m[slot]] = slot;
  m.pop_back();
  if (!useGrid_) return;
  Grid& g = grids_[n.tree];
  const Cell c = cellOf(g, n.q);
  auto it = g.slot.find(c);
  if (it == g.slot.end()) return;
  const int s = it->second;
  std::vector<int>& in = g.cells[s].second;
  eraseValue(in, node);
  if (in.empty()) {
    // Swap the last cell into the freed slot.
    g.slot.erase(it);
    if (s != (int)g.cells.size() - 1) {
      g.cells[s] = std::move(g.cells.back());
      g.slot[g.cells[s].first] = s;
    }
    g.cells.pop_back();
  }
}

int SBLForest::addNode(const Config& q, int tree) {
  Node n;
  n.q = q;
  n.tree = tree;
  nodes_.push_back(std::move(n));
  memberSlot_.push_back(-1);
  const int id = (int)nodes_.size() - 1;
  file(id);
  return id;
}

int SBLForest::addTree(const Config& q) {
  const int tree = (int)members_.size();
  members_.emplace_back();
  grids_.emplace_back();
  // The first coordinates until the first re-draw, as the reference does.
  for (int d = 0; d < std::min<int>(3, (int)q.size()); ++d) grids_.back().dims.push_back(d);
  const int id = addNode(q, tree);
  roots_.push_back(id);
  return tree;
}

void SBLForest::randomizeGrid() {
  for (int t = 0; t < numTrees(); ++t) randomizeGrid(t);
}

void SBLForest::randomizeGrid(int tree) {
  const int n = (int)config(root(tree)).size();
  std::vector<int> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng_);
  const std::vector<int> nodes = members_[tree];
  members_[tree].clear();
  grids_[tree] = Grid();
  grids_[tree].dims.assign(perm.begin(), perm.begin() + std::min(3, n));
  for (int i : nodes) file(i);
}

int SBLForest::randomNode(int tree) {
  const std::vector<int>& m = members_[tree];
  return m[std::uniform_int_distribution<size_t>(0, m.size() - 1)(rng_)];
}

int SBLForest::pickExpand(int tree) {
  if (!useGrid_) return randomNode(tree);
  const Grid& g = grids_[tree];
  const auto& cell = g.cells[std::uniform_int_distribution<size_t>(0, g.cells.size() - 1)(rng_)].second;
  return cell[std::uniform_int_distribution<size_t>(0, cell.size() - 1)(rng_)];
}

int SBLForest::findNearby(int tree, const Config& x) {
  if (useGrid_) {
    const Grid& g = grids_[tree];
    auto it = g.slot.find(cellOf(g, x));
    if (it != g.slot.end()) {
      const auto& cell = g.cells[it->second].second;
      return cell[std::uniform_int_distribution<size_t>(0, cell.size() - 1)(rng_)];
    }
  }
  return pickExpand(tree);
}

int SBLForest::nearest(int tree, const Config& x) const {
  int best = -1;
  double bestD = INFINITY;
  for (int n : members_[tree]) {
    const double d = space_.distance(x, nodes_[n].q);
    if (d < bestD) {
      bestD = d;
      best = n;
    }
  }
  return best;
}

int SBLForest::extend(int tree, double maxDistance, int maxIters) {
  const int n = pickExpand(tree);
  Config x;
  for (int i = 1; i <= maxIters; ++i) {
    space_.sampleNeighborhood(nodes_[n].q, maxDistance / i, rng_, x);
    if (!space_.isFeasible(x)) continue;
    const int c = addNode(x, tree);
    Node& child = nodes_[c];
    child.parent = n;
    child.edge = BisectionEdge(space_, nodes_[n].q, x);
    child.edgeStart = n;
    nodes_[n].children.push_back(c);
    return c;
  }
  return -1;
}

bool SBLForest::checkEdge(BisectionEdge& e, int start, int end) {
  const bool ok = e.step(space_, nodes_[start].q, nodes_[end].q);
  // Counted as one edge query when its check finishes either way.
  if (!ok || e.done(space_)) space_.recordEdge(ok, 0.0, e.length());
  return ok;
}

void SBLForest::transfer(int cut, int end, int other, const BisectionEdge& bridge, int bridgeStart) {
  // Detach the subtree at `cut` (its parent edge failed).
  eraseValue(nodes_[nodes_[cut].parent].children, cut);
  nodes_[cut].parent = -1;
  // Re-root it at `end`: reverse the parent links from end up to cut, each
  // edge moving to the node that becomes the child.
  int child = end, par = nodes_[end].parent;
  BisectionEdge e = nodes_[end].edge;
  int es = nodes_[end].edgeStart;
  while (child != cut) {
    Node& p = nodes_[par];
    eraseValue(p.children, child);
    nodes_[child].children.push_back(par);
    const int next = p.parent;
    BisectionEdge ne = p.edge;
    const int nes = p.edgeStart;
    p.parent = child;
    p.edge = e;
    p.edgeStart = es;
    e = ne;
    es = nes;
    child = par;
    par = next;
  }
  Node& en = nodes_[end];
  en.parent = other;
  en.edge = bridge;
  en.edgeStart = bridgeStart;
  nodes_[other].children.push_back(end);
  // The subtree now belongs to `other`'s tree.
  const int tree = nodes_[other].tree;
  std::vector<int> stack{end};
  while (!stack.empty()) {
    const int n = stack.back();
    stack.pop_back();
    unfile(n);
    nodes_[n].tree = tree;
    file(n);
    for (int c : nodes_[n].children) stack.push_back(c);
  }
}

bool SBLForest::checkPath(int a, int b, Path& out) {
  // The path's edges: tree edges named by their child node, and the bridge (-1).
  std::vector<int> chainA, chainB;
  for (int n = a; n >= 0; n = nodes_[n].parent) chainA.push_back(n);
  for (int n = b; n >= 0; n = nodes_[n].parent) chainB.push_back(n);
  std::vector<int> edges;
  for (size_t i = 0; i + 1 < chainA.size(); ++i) edges.push_back(chainA[i]);
  for (size_t i = 0; i + 1 < chainB.size(); ++i) edges.push_back(chainB[i]);
  edges.push_back(-1);
  BisectionEdge bridge(space_, nodes_[a].q, nodes_[b].q);
  while (true) {
    // The edge with the longest unchecked stretch goes next.
    int best = -2;
    double bestPriority = -1;
    for (int e : edges) {
      const BisectionEdge& be = e < 0 ? bridge : nodes_[e].edge;
      if (be.done(space_)) continue;
      if (be.priority() > bestPriority) {
        bestPriority = be.priority();
        best = e;
      }
    }
    if (best == -2) break;
    const bool ok = best < 0 ? checkEdge(bridge, a, b)
                             : checkEdge(nodes_[best].edge, nodes_[best].edgeStart,
                                         nodes_[best].edgeStart == best ? nodes_[best].parent : best);
    if (ok) continue;
    if (best >= 0) {
      const int tree = nodes_[best].tree;
      if (tree == nodes_[a].tree)
        transfer(best, a, b, bridge, a);
      else
        transfer(best, b, a, bridge, a);
    }
    return false;
  }
  out.clear();
  for (auto it = chainA.rbegin(); it != chainA.rend(); ++it) out.push_back(nodes_[*it].q);
  for (int n : chainB) out.push_back(nodes_[n].q);
  return true;
}

void SBLForest::getRoadmap(std::vector<Config>& vertices, std::vector<Edge>& edges) const {
  vertices.clear();
  edges.clear();
  for (const Node& n : nodes_) vertices.push_back(n.q);
  for (int i = 0; i < numNodes(); ++i)
    if (nodes_[i].parent >= 0) edges.emplace_back(nodes_[i].parent, i);
}

}  // namespace plan
}  // namespace klampt
