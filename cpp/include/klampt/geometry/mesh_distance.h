// Exact point-to-mesh distance with a bounding-box tree over the triangles
// (cheap to build: the structure of point queries on meshes),
// and inside/outside classification of grid rows by ray parity.
#pragma once
#include <vector>
#include "klampt/geometry/geometry.h"

namespace klampt {

class TriangleDistanceTree {
 public:
  explicit TriangleDistanceTree(const TriangleMesh& mesh);
  /// Unsigned distance from x to the closest triangle (infinity if none).
  double distance(const Vector3& x) const;
  /// The closest triangle to x if nearer than `upper` (-1 otherwise), its
  /// closest point and the distance.
  int closest(const Vector3& x, double upper, Vector3& point, double& dist) const;

 private:
  struct Node {
    Vector3 lo, hi;
    int left = -1, right = -1;  // children, or -1 for a leaf
    int begin = 0, end = 0;     // leaf range in order_
  };
  int build(int begin, int end);
  void search(int node, const Vector3& x, double& best2, int& bestTri, Vector3& bestPoint) const;

  std::vector<std::array<Vector3, 3>> tris_;
  std::vector<int> order_;
  std::vector<Node> nodes_;
};

/// Marks the cell centres of `grid` inside the (watertight) mesh, flat in the
/// grid's value order, by counting the mesh crossings of rays along +x. The
/// rays are nudged off the lattice by a tiny fraction of a cell so they do not
/// run exactly through the edges of meshes with vertices on round coordinates.
std::vector<char> insideCells(const TriangleMesh& mesh, const VolumeGrid& grid);

}  // namespace klampt
