// The ball of a point cloud nearest to a mesh: a best-first joint descent of
// the cloud's tree and the mesh's (the pair with the smallest bound first,
// its larger node split), in the mesh's frame. A pair's bound is the larger
// of the distance from the cloud node's centre to the mesh node's box and
// swept rectangle less the node's radius, the gap between the cloud node's
// oriented box and the mesh node's box along the faces of either, the
// distance between the cloud node's box taken as a swept rectangle and the
// mesh node's swept rectangle, and the gap along the direction from the mesh
// to the nearest ball found so far.
#include <algorithm>
#include <coal/BV/RSS.h>
#include <vector>
#include "bv_point.h"
#include "cloud_queries.h"
#include "klampt/geometry/primitive.h"
#include "mesh_bvh.h"

namespace klampt {
namespace detail {

namespace {

struct Pending {
  double bound;
  int i, j;
  bool operator<(const Pending& o) const { return bound > o.bound; }  // smallest on top
};

struct CloudMeshSearch : NearestBall {
  const PointTree& tree;
  const MeshBVH& mesh;
  RigidTransform toMesh;  // cloud frame -> mesh frame
  /// Unit direction from the mesh's closest point to the best ball's centre
  /// (0 until one is found): surfaces facing each other across the gap are
  /// separated along it nearly as much as they are apart.
  Vector3 dir = Vector3::Zero();

  CloudMeshSearch(double upper, double stopBelow, const PointTree& t, const MeshBVH& m, const RigidTransform& T)
      : NearestBall{upper, stopBelow}, tree(t), mesh(m), toMesh(T) {}

  double bound(int i, int j) const {
    const PointTree::Node& a = tree.nodes()[i];
    const coal::OBBRSS& bv = mesh.getBV(j).bv;
    const coal::OBB& box = bv.obb;
    // Separating gaps between the cloud node's oriented box, placed in the
    // mesh's frame, and the mesh node's box, along the face axes of both.
    const Matrix3 axes = toMesh.R * a.boxAxes;
    const Vector3 d = toMesh.apply(a.boxCenter) - box.To;
    const Matrix3 rel = (box.axes.transpose() * axes).cwiseAbs();  // |mesh axis k . cloud axis m|
    double gap = 0;
    for (int k = 0; k < 3; ++k) {
      gap = std::max(gap, std::abs(box.axes.col(k).dot(d)) - box.extent[k] - rel.row(k).dot(a.boxHalf));
      gap = std::max(gap, std::abs(axes.col(k).dot(d)) - a.boxHalf[k] - rel.col(k).dot(box.extent));
    }
    double b = std::max(gap, pointNodeDistance(toMesh.apply(a.center), bv) - a.radius);
    if (b > 0 && open(b)) {
      // The cloud node's box as a swept rectangle against the mesh node's:
      // tighter where the nodes are apart, and not worth its cost where the
      // cheaper bounds find them touching.
      coal::RSS rss;
      rss.axes = a.rectAxes;
      rss.Tr = a.rectOrigin;
      rss.length[0] = a.rectLength[0];
      rss.length[1] = a.rectLength[1];
      rss.radius = a.rectRadius;
      b = std::max(b, coal::distance(toMesh.R, toMesh.t, bv.rss, rss));
    }
    // The gap along dir only where the others leave the pair open: it prunes
    // little where the surfaces touch.
    if (!open(b)) return b;
    return std::max(b, std::abs(dir.dot(d)) - (dir.transpose() * axes).cwiseAbs().dot(a.boxHalf) -
                           (dir.transpose() * box.axes).cwiseAbs().dot(box.extent));
  }

  /// The balls of a against the triangle of leaf node b, each first
  /// against the triangle's box (a third of the cost of its closest point).
  void leaves(const PointTree::Node& a, const coal::BVNode<coal::OBBRSS>& b) {
    const coal::Triangle& t = (*mesh.tri_indices)[b.primitiveId()];
    const auto& v = *mesh.vertices;
    for (int k = a.begin; k < a.end && !done(); ++k) {
      const int i = tree.pointAt(k);
      const Vector3 p = toMesh.apply(tree.center(i));
      const double r = tree.radius(i);
      if (!open(pointObbDistance(p, b.bv.obb) - r)) continue;
      const Vector3 q = closestPointOnTriangle(p, v[t[0]], v[t[1]], v[t[2]]);
      const double d = (p - q).norm();
      if (!open(d - r)) continue;
      offer(d - r, i);
      if (d > 0) dir = (p - q) / d;
    }
  }

  void search() {
    thread_local std::vector<Pending> heap;
    heap.clear();
    const double root = bound(0, 0);
    if (open(root)) heap.push_back({root, 0, 0});
    while (!heap.empty() && !done()) {
      std::pop_heap(heap.begin(), heap.end());
      const Pending p = heap.back();
      heap.pop_back();
      if (!open(p.bound)) break;  // so are all the others
      const PointTree::Node& a = tree.nodes()[p.i];
      const auto& b = mesh.getBV(p.j);
      if (a.isLeaf() && b.isLeaf()) {
        leaves(a, b);
        continue;
      }
      const bool splitCloud = !a.isLeaf() && (b.isLeaf() || a.radius > b.bv.obb.extent.norm());
      const int ci[2] = {splitCloud ? a.left : p.i, splitCloud ? a.right : p.i};
      const int cj[2] = {splitCloud ? p.j : b.leftChild(), splitCloud ? p.j : b.rightChild()};
      for (int k = 0; k < 2; ++k) {
        const double bd = bound(ci[k], cj[k]);
        if (!open(bd)) continue;
        heap.push_back({bd, ci[k], cj[k]});
        std::push_heap(heap.begin(), heap.end());
      }
    }
  }
};

}  // namespace

int nearestBallToMesh(const Leaf& cloud, const Leaf& mesh, double upper, double stopBelow, double& best) {
  const PointTree& tree = cloud.cache->points;
  const MeshBVH& bvh = mesh.meshBVH();
  best = upper;
  if (tree.nodes().empty() || bvh.getNumBVs() == 0) return -1;
  prepareForDistance(bvh);
  CloudMeshSearch s(upper, stopBelow, tree, bvh, mesh.T.inverse() * cloud.T);
  s.search();
  best = s.best;
  return s.ball;
}

}  // namespace detail
}  // namespace klampt
