// The trees of SBL-style planners (Sanchez & Latombe's single-query,
// bidirectional, lazy planner): trees grown by short random perturbations
// whose edges are checked only when a path through them is proposed. A
// proposed path between two trees is checked edge by edge, longest
// unchecked stretch first; when an edge fails, the part of the tree beyond it
// is handed to the other tree through the proposed bridge, keeping the work
// done. Node selection uses a grid over a random few of the coordinates,
// drawn for each tree on its own and re-drawn now and then, so sparse regions
// are expanded first.
#pragma once
#include <array>
#include <unordered_map>
#include <vector>
#include "klampt/plan/edge_check.h"
#include "klampt/plan/planner.h"

namespace klampt {
namespace plan {

class SBLForest {
 public:
  /// gridResolution <= 0 means 0.1; without a grid, nodes are picked uniformly.
  SBLForest(CSpace& space, Rng& rng, bool useGrid, double gridResolution);

  /// A new tree rooted at q (assumed feasible); returns its index.
  int addTree(const Config& q);
  int numTrees() const { return (int)members_.size(); }
  int root(int tree) const { return roots_[tree]; }
  int numNodes() const { return (int)nodes_.size(); }
  int treeOf(int node) const { return nodes_[node].tree; }
  int treeSize(int tree) const { return (int)members_[tree].size(); }
  const Config& config(int node) const { return nodes_[node].q; }

  /// A node to expand: a random occupied grid cell, then a random node in it.
  int pickExpand(int tree);
  /// A node of `tree` in x's grid cell if any, else pickExpand(tree).
  int findNearby(int tree, const Config& x);
  /// The node of `tree` nearest to x.
  int nearest(int tree, const Config& x) const;
  /// Perturbs a picked node within maxDistance / i at try i = 1..maxIters;
  /// the first feasible sample becomes its child (edge unchecked). -1 if none.
  int extend(int tree, double maxDistance, int maxIters);
  /// Checks the path root(tree(a)) -> a -> b -> root(tree(b)) lazily. On
  /// success returns true with its configurations in `out`; on failure the
  /// trees are rearranged as described above.
  bool checkPath(int a, int b, Path& out);
  /// Draws new grid coordinates for each tree, independently, and re-files its nodes.
  void randomizeGrid();
  /// Draws new grid coordinates for one tree and re-files its nodes.
  void randomizeGrid(int tree);

  /// Node configurations and tree edges (child, parent).
  void getRoadmap(std::vector<Config>& vertices, std::vector<Edge>& edges) const;

 private:
  struct Node {
    Config q;
    int tree = -1, parent = -1;
    /// The edge to the parent; `edgeStart` is the endpoint at u = 0.
    BisectionEdge edge;
    int edgeStart = -1;
    std::vector<int> children;
  };
  using Cell = std::array<long, 3>;
  struct CellHash {
    size_t operator()(const Cell& c) const {
      return (size_t)(c[0] * 73856093L ^ c[1] * 19349663L ^ c[2] * 83492791L);
    }
  };
  struct Grid {
    std::vector<int> dims;                          // the coordinates the cells divide
    std::unordered_map<Cell, int, CellHash> slot;  // cell -> index in cells
    std::vector<std::pair<Cell, std::vector<int>>> cells;
  };

  Cell cellOf(const Grid& g, const Config& q) const;
  void file(int node);
  void unfile(int node);
  int addNode(const Config& q, int tree);
  int randomNode(int tree);
  /// Hands the subtree below the failed edge (child `cut`, on the way to
  /// `end`) to the tree of `other`, re-rooted at `end` and hung from `other`
  /// by `bridge`.
  void transfer(int cut, int end, int other, const BisectionEdge& bridge, int bridgeStart);
  bool checkEdge(BisectionEdge& e, int start, int end);

  CSpace& space_;
  Rng& rng_;
  bool useGrid_;
  double h_;
  std::vector<Node> nodes_;
  std::vector<int> roots_;
  std::vector<std::vector<int>> members_;
  std::vector<int> memberSlot_;  // node -> index in members_[tree]
  std::vector<Grid> grids_;
};

}  // namespace plan
}  // namespace klampt
