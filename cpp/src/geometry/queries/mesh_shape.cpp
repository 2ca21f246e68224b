// Mesh–shape distance: a depth-first descent of the mesh's oriented-box tree
// in the mesh's frame, nearer child first, pruning nodes whose box is
// farther from the shape's local box than the best triangle so far; GJK
// gives the exact distance of each triangle that is reached. The last
// closest triangle of the pair is measured first, for a tight start.
#include "mesh_shape.h"
#include <coal/narrowphase/narrowphase.h>
#include <algorithm>
#include <cmath>
#include <functional>
#include <unordered_map>

namespace klampt {
namespace detail {

namespace {

struct ShapeSearch {
  const MeshBVH& mesh;
  const coal::ShapeBase& shape;
  coal::Transform3s Ts;  // the shape in the mesh's frame
  Matrix3 toShape;       // rotation from the mesh's frame to the shape's
  Vector3 center, half;  // of the shape's local box, in the shape's frame
  double best, relErr, absErr;
  bool depth = true;  // whether an overlapping triangle's penetration is measured
  int tri = -1;
  Vector3 P, Q;  // closest points in the mesh's frame
  coal::GJKSolver& solver;

  ShapeSearch(const MeshBVH& m, const coal::ShapeBase& s, const coal::Transform3s& rel, coal::GJKSolver& gjk)
      : mesh(m), shape(s), Ts(rel), toShape(rel.getRotation().transpose()), solver(gjk) {
    const coal::AABB& box = s.aabb_local;
    center = box.center();
    half = 0.5 * (box.max_ - box.min_);
  }

  bool prune(double bound) const { return bound >= best - absErr && bound * (1 + relErr) >= best; }

  /// The point p of the mesh's frame in the shape's frame.
  Vector3 inShape(const Vector3& p) const { return toShape * (p - Ts.getTranslation()); }
  /// The distance from the shape's box to a box of the shape's frame
  /// (centre c, half sizes e): a lower bound on the shape's distance to
  /// anything inside that box.
  double boxGap(const Vector3& c, const Vector3& e) const {
    return ((c - center).cwiseAbs() - half - e).cwiseMax(0.0).norm();
  }

  /// A lower bound on the distance from node n's triangles to the shape: the
  /// larger of the gap between the shape's box and the node's box bounded in
  /// the shape's frame, and the largest gap along the node box's own axes.
  double lowerBound(int n) const {
    const coal::OBB& o = mesh.getBV(n).bv.obb;
    const Matrix3 R = toShape * o.axes;  // node axes in the shape's frame
    const Vector3 c = inShape(o.To);
    double gap = boxGap(c, R.cwiseAbs() * o.extent);
    const Vector3 t = R.transpose() * (center - c);
    for (int k = 0; k < 3; ++k) gap = std::max(gap, std::abs(t[k]) - o.extent[k] - R.col(k).cwiseAbs().dot(half));
    return gap;
  }

  void leaf(int i) {
    const coal::Triangle& t = (*mesh.tri_indices)[i];
    const auto& v = *mesh.vertices;
    // Cheap bounds first, the triangle's box in the shape's frame (exact
    // for a triangle facing a face of a box) and the gap along its normal
    // (exact for a corner facing its inside): they spare GJK on most of the
    // triangles that nearly tie with the best.
    const Vector3 p0 = inShape(v[t[0]]), p1 = inShape(v[t[1]]), p2 = inShape(v[t[2]]);
    const Vector3 lo = p0.cwiseMin(p1).cwiseMin(p2), hi = p0.cwiseMax(p1).cwiseMax(p2);
    double gap = boxGap(0.5 * (lo + hi), 0.5 * (hi - lo));
    const Vector3 n = (p1 - p0).cross(p2 - p0);
    const double area2 = n.norm();
    if (area2 > 0) gap = std::max(gap, (std::abs(n.dot(center - p0)) - n.cwiseAbs().dot(half)) / area2);
    if (prune(gap)) return;
    const coal::TriangleP triangle(v[t[0]], v[t[1]], v[t[2]]);
    solver.distance_upper_bound = best;
    coal::Vec3s onShape, onTriangle, normal;
    double d = solver.shapeDistance(shape, Ts, triangle, coal::Transform3s::Identity(), depth, onShape, onTriangle,
                                    normal);
    // Without EPA, GJK's distance for an overlap is only below its tolerance.
    if (!depth && solver.gjk.status == coal::details::GJK::Collision) d = std::min(d, 0.0);
    if (solver.gjk.status == coal::details::GJK::NoCollisionEarlyStopped || !(d < best)) return;
    best = d;
    tri = i;
    P = onTriangle;
    Q = onShape;
  }

  void recurse(int n, double bound) {
    if (best <= 0 || prune(bound)) return;
    const auto& node = mesh.getBV(n);
    if (node.isLeaf()) {
      leaf(node.primitiveId());
      return;
    }
    int c[2] = {node.leftChild(), node.rightChild()};
    double b[2] = {lowerBound(c[0]), lowerBound(c[1])};
    if (b[1] < b[0]) {
      std::swap(c[0], c[1]);
      std::swap(b[0], b[1]);
    }
    recurse(c[0], b[0]);
    recurse(c[1], b[1]);
  }
};

/// The closest triangle found last for each mesh–shape pair on this thread,
/// measured first: a query near the last one then starts from a tight bound.
/// A stale entry (freed objects whose addresses are reused) is only a hint,
/// checked against the triangle count.
int& hintFor(const MeshBVH& mesh, const coal::ShapeBase& shape) {
  struct Hash {
    size_t operator()(const std::pair<const void*, const void*>& k) const {
      return std::hash<const void*>()(k.first) * 31 + std::hash<const void*>()(k.second);
    }
  };
  thread_local std::unordered_map<std::pair<const void*, const void*>, int, Hash> hints;
  if (hints.size() > 65536) hints.clear();
  return hints.try_emplace(std::make_pair(&mesh, &shape), -1).first->second;
}

}  // namespace

MeshShapeDistance meshShapeDistance(const MeshBVH& mesh, const coal::Transform3s& Tm, const coal::ShapeBase& shape,
                                    const coal::Transform3s& Ts, double upper, double relErr, double absErr,
                                    bool depth) {
  thread_local coal::GJKSolver solver = [] {
    coal::DistanceRequest req(true, true);
    req.gjk_tolerance = 1e-10;
    req.epa_tolerance = 1e-10;
    return coal::GJKSolver(req);
  }();
  MeshShapeDistance out{upper, Vector3::Zero(), Vector3::Zero()};
  if (mesh.getNumBVs() == 0) return out;
  ShapeSearch s(mesh, shape, Tm.inverseTimes(Ts), solver);
  s.best = upper;
  s.relErr = relErr;
  s.absErr = absErr;
  s.depth = depth;
  int& hint = hintFor(mesh, shape);
  if (hint >= 0 && (unsigned)hint < mesh.num_tris) s.leaf(hint);
  s.recurse(0, s.lowerBound(0));
  if (s.tri >= 0) hint = s.tri;
  if (s.tri < 0) return out;
  return {s.best, Tm.transform(s.P), Tm.transform(s.Q), s.tri};
}

}  // namespace detail
}  // namespace klampt
