// Building the oriented-box tree of a mesh. Top-down like Coal's builder
// (each node split at its mean triangle centroid along its box's longest
// axis) but with closed-form fits: a leaf's axes follow its triangle's
// longest edge and normal; an inner node's box takes the principal axes of
// its surface covariance, from moments computed once per triangle and summed
// for the children while the parent's triangles are partitioned, and solved
// by Jacobi rotations from the parent's axes. The vertices a node's triangles
// share are projected once. The RSS (rectangle swept sphere) of inner nodes,
// needed by distance queries only, are fitted on the first of them.
#include "mesh_bvh.h"
#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <utility>

namespace klampt {
namespace detail {

namespace {

using Node = coal::BVNode<coal::OBBRSS>;

/// Weight and weighted first and second moments of a point set, the second
/// kept as the upper triangle of the symmetric matrix.
struct Moments {
  double weight = 0;
  Vector3 first = Vector3::Zero();
  double xx = 0, xy = 0, xz = 0, yy = 0, yz = 0, zz = 0;

  void addSecond(const Vector3& p, double w) {
    xx += w * p.x() * p.x();
    xy += w * p.x() * p.y();
    xz += w * p.x() * p.z();
    yy += w * p.y() * p.y();
    yz += w * p.y() * p.z();
    zz += w * p.z() * p.z();
  }
  Moments& operator+=(const Moments& o) {
    weight += o.weight;
    first += o.first;
    xx += o.xx, xy += o.xy, xz += o.xz, yy += o.yy, yz += o.yz, zz += o.zz;
    return *this;
  }
  Vector3 mean() const { return first / weight; }
  Matrix3 covariance() const {
    Matrix3 c;
    c << xx, xy, xz, xy, yy, yz, xz, yz, zz;
    const Vector3 m = mean();
    return c / weight - m * m.transpose();
  }
};

/// Principal axes of the moments, largest spread first (a right-handed
/// frame), by cyclic Jacobi rotations starting from the frame `guess`: a
/// node's axes are close to its parent's, so a sweep or two settle them.
Matrix3 principalAxes(const Moments& m, const Matrix3& guess) {
  Matrix3 V = guess;
  Matrix3 A = V.transpose() * m.covariance() * V;
  for (int sweep = 0; sweep < 6; ++sweep) {
    const double off = A(0, 1) * A(0, 1) + A(0, 2) * A(0, 2) + A(1, 2) * A(1, 2);
    const double diag = A(0, 0) * A(0, 0) + A(1, 1) * A(1, 1) + A(2, 2) * A(2, 2);
    if (!(off > 1e-10 * diag)) break;  // converged (or not finite)
    for (int p = 0; p < 2; ++p) {
      for (int q = p + 1; q < 3; ++q) {
        const double apq = A(p, q);
        if (!(apq * apq > 1e-10 * diag)) continue;  // already negligible
        // The rotation in the (p, q) plane that zeroes A(p, q): tangent t
        // (the smaller root of t^2 + 2 t d / h - 1 = 0), cosine c.
        const double d = A(q, q) - A(p, p), h = 2 * apq;
        const double norm = std::sqrt(d * d + h * h), u = std::abs(d) + norm;
        const double t = (d >= 0 ? h : -h) / u, c = std::sqrt(u / (2 * norm)), s = t * c;
        const int r = 3 - p - q;
        const double arp = A(r, p), arq = A(r, q);
        A(p, p) -= t * apq;
        A(q, q) += t * apq;
        A(p, q) = A(q, p) = 0;
        A(r, p) = A(p, r) = c * arp - s * arq;
        A(r, q) = A(q, r) = s * arp + c * arq;
        const Vector3 vp = V.col(p), vq = V.col(q);
        V.col(p) = c * vp - s * vq;
        V.col(q) = s * vp + c * vq;
      }
    }
  }
  int order[3] = {0, 1, 2};
  std::sort(order, order + 3, [&](int i, int j) { return A(i, i) > A(j, j); });
  // Zero-initialised: the finiteness test below reads the third column too.
  Matrix3 axes = Matrix3::Zero();
  axes.col(0) = V.col(order[0]).normalized();
  axes.col(1) = V.col(order[1]);
  axes.col(1) = (axes.col(1) - axes.col(1).dot(axes.col(0)) * axes.col(0)).normalized();
  if (!axes.allFinite()) return Matrix3::Identity();
  axes.col(2) = axes.col(0).cross(axes.col(1));
  return axes;
}

/// Extent of points along fixed axes.
struct Extent {
  Vector3 lo = Vector3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  void add(const Vector3& q) {
    lo = lo.cwiseMin(q);
    hi = hi.cwiseMax(q);
  }
};

coal::OBB boxAlong(const Matrix3& axes, const Extent& e) {
  coal::OBB box;
  box.axes = axes;
  box.To = axes * (0.5 * (e.lo + e.hi));
  box.extent = 0.5 * (e.hi - e.lo);
  return box;
}

/// RSS along `axes` of the points `local` (coordinates along the axes, with
/// extent e): the rectangle (sides along axes 0 and 1, at mid-thickness)
/// shrunk by what the sphere radius leaves each point, then grown where a
/// point in a corner region would be farther than the radius. The shrink
/// starts from the bounds that the extreme points (slack <= r) give at most;
/// a point farther than r from every side then cannot move them, so the loop
/// needs no test (and no branch).
coal::RSS rssAlong(const Matrix3& axes, const Extent& e, const Vector3* local, size_t n) {
  coal::RSS rss;
  rss.axes = axes;
  const double r = 0.5 * (e.hi[2] - e.lo[2]), midZ = 0.5 * (e.lo[2] + e.hi[2]);
  rss.radius = r;
  double x0 = e.lo[0] + r, x1 = e.hi[0] - r, y0 = e.lo[1] + r, y1 = e.hi[1] - r;
  for (size_t i = 0; i < n; ++i) {
    const Vector3& q = local[i];
    const double dz = q[2] - midZ;
    const double slack = std::sqrt(std::max(0.0, r * r - dz * dz));
    x0 = std::min(x0, q[0] + slack);
    x1 = std::max(x1, q[0] - slack);
    y0 = std::min(y0, q[1] + slack);
    y1 = std::max(y1, q[1] - slack);
  }
  if (x0 > x1) x0 = x1 = 0.5 * (x0 + x1);
  if (y0 > y1) y0 = y1 = 0.5 * (y0 + y1);
  for (size_t i = 0; i < n; ++i) {
    const Vector3& q = local[i];
    const double dx = std::max({x0 - q[0], q[0] - x1, 0.0}), dy = std::max({y0 - q[1], q[1] - y1, 0.0});
    if (dx == 0 || dy == 0) continue;  // the shrink left it within r
    const double dz = q[2] - midZ;
    if (dx * dx + dy * dy + dz * dz <= r * r) continue;
    // Covering the point's x leaves dy <= its slack, so it is within r.
    x0 = std::min(x0, q[0]);
    x1 = std::max(x1, q[0]);
  }
  rss.Tr = axes * Vector3(x0, y0, midZ);
  rss.length[0] = x1 - x0;
  rss.length[1] = y1 - y0;
  return rss;
}

/// The distinct vertices of runs of triangles, found with a per-vertex stamp
/// so that each is projected once per node.
class DistinctVertices {
 public:
  explicit DistinctVertices(size_t numVerts) : seen_(numVerts, 0) {}
  /// The vertices of the triangles ids[0, count), as [begin, end).
  std::pair<const unsigned*, const unsigned*> of(const std::vector<coal::Triangle>& tris, const unsigned* ids,
                                                 unsigned count) {
    ++visit_;
    if (distinct_.size() < 3 * (size_t)count) distinct_.resize(3 * (size_t)count);
    // Branch free: each vertex is written, and kept if not seen yet.
    size_t n = 0;
    for (unsigned i = 0; i < count; ++i) {
      const coal::Triangle& t = tris[ids[i]];
      for (int k = 0; k < 3; ++k) {
        const unsigned v = t[k];
        distinct_[n] = v;
        n += seen_[v] != visit_;
        seen_[v] = visit_;
      }
    }
    return {distinct_.data(), distinct_.data() + n};
  }

 private:
  std::vector<unsigned> seen_;  // per vertex: the last visit that listed it
  unsigned visit_ = 0;
  std::vector<unsigned> distinct_;
};

/// Axes of a leaf: its longest edge, then the in-plane normal to it, then the
/// triangle's normal. Every edge-aligned rectangle of a triangle has the
/// least area (twice the triangle's), and no eigen solve is needed.
bool triangleAxes(const Vector3& a, const Vector3& b, const Vector3& c, Matrix3& axes) {
  const Vector3 edges[3] = {b - a, c - b, a - c};
  int longest = 0;
  for (int k = 1; k < 3; ++k)
    if (edges[k].squaredNorm() > edges[longest].squaredNorm()) longest = k;
  const Vector3 normal = edges[0].cross(edges[1]);
  const double len = edges[longest].norm(), area2 = normal.norm();
  if (!(area2 > 1e-12 * len * len)) return false;  // degenerate: no plane
  axes.col(0) = edges[longest] / len;
  axes.col(2) = normal / area2;
  axes.col(1) = axes.col(2).cross(axes.col(0));
  return true;
}

/// Builds the nodes, their boxes and the RSS of the leaves; the RSS of inner
/// nodes are left to fitInnerRss. Box axes come from surface moments that
/// weight each triangle by its area plus the mean area: tight boxes on large
/// faces without letting finely tessellated details vanish from the axes.
class TreeBuilder {
 public:
  TreeBuilder(const std::vector<coal::Vec3s>& verts, const std::vector<coal::Triangle>& tris, const Vector3& origin,
              Node* nodes, unsigned* order)
      : verts_(verts), tris_(tris), origin_(origin), nodes_(nodes), order_(order), distinct_(verts.size()) {
    computeMoments();
  }

  void build() {
    const unsigned n = (unsigned)tris_.size();
    Pending root{0, -1, 0, n, Moments(), Vector3::Zero()};
    for (unsigned i = 0; i < n; ++i) {
      order_[i] = i;
      root.surface += data_[i].surface;
      root.centroids += data_[i].centroid;
    }
    std::vector<Pending> stack{root};
    unsigned numNodes = 1;
    // Children are numbered in pairs, depth first with the left subtree
    // first, as Coal numbers them; parents come before their children.
    while (!stack.empty()) {
      const Pending p = stack.back();
      stack.pop_back();
      Node& node = nodes_[p.node];
      node.first_primitive = p.first;
      node.num_primitives = p.count;
      if (p.count == 1) {
        node.first_child = -(int)order_[p.first] - 1;
        fitLeaf(node, p);
        continue;
      }
      fitBox(node, p);
      Pending left{(int)numNodes, p.node, p.first, 0, Moments(), Vector3::Zero()};
      Pending right{(int)numNodes + 1, p.node, 0, 0, Moments(), Vector3::Zero()};
      node.first_child = (int)numNodes;
      numNodes += 2;
      left.count = partition(node.bv.obb.axes.col(0), p, left, right);
      right.first = p.first + left.count;
      right.count = p.count - left.count;
      stack.push_back(right);
      stack.push_back(left);
    }
  }

 private:
  struct Pending {
    int node, parent;
    unsigned first, count;
    Moments surface;    // of the node's triangles
    Vector3 centroids;  // sum of their centroids
  };
  struct TriangleData {
    Vector3 centroid;  // relative to origin_, as the moments
    Moments surface;
  };

  void computeMoments() {
    data_.resize(tris_.size());
    std::vector<double> areas(tris_.size());
    double total = 0;
    for (size_t i = 0; i < tris_.size(); ++i) {
      const Vector3 &a = verts_[tris_[i][0]], &b = verts_[tris_[i][1]], &c = verts_[tris_[i][2]];
      areas[i] = 0.5 * (b - a).cross(c - a).norm();
      total += areas[i];
    }
    const double floor = std::max(total / tris_.size(), 1e-300);
    for (size_t i = 0; i < tris_.size(); ++i) {
      const Vector3 a = verts_[tris_[i][0]] - origin_, b = verts_[tris_[i][1]] - origin_,
                    c = verts_[tris_[i][2]] - origin_;
      TriangleData& d = data_[i];
      d.centroid = (a + b + c) / 3.0;
      const double w = areas[i] + floor;
      d.surface.weight = w;
      d.surface.first = w * d.centroid;
      d.surface.addSecond(d.centroid, 0.75 * w);
      for (const Vector3* p : {&a, &b, &c}) d.surface.addSecond(*p, w / 12.0);
    }
  }

  const Matrix3& parentAxes(const Pending& p) const {
    static const Matrix3 identity = Matrix3::Identity();
    return p.parent < 0 ? identity : nodes_[p.parent].bv.obb.axes;
  }

  /// A leaf's box and RSS share its triangle's axes.
  void fitLeaf(Node& node, const Pending& p) {
    const coal::Triangle& t = tris_[order_[p.first]];
    Matrix3 axes;
    if (!triangleAxes(verts_[t[0]], verts_[t[1]], verts_[t[2]], axes)) axes = principalAxes(p.surface, parentAxes(p));
    const Matrix3 toLocal = axes.transpose();
    Vector3 local[3];
    Extent e;
    for (int k = 0; k < 3; ++k) {
      local[k] = toLocal * verts_[t[k]];
      e.add(local[k]);
    }
    node.bv.obb = boxAlong(axes, e);
    node.bv.rss = rssAlong(axes, e, local, 3);
  }

  void fitBox(Node& node, const Pending& p) {
    const Matrix3 axes = principalAxes(p.surface, parentAxes(p));
    const Matrix3 toBox = axes.transpose();
    Extent e;
    const auto [begin, end] = distinct_.of(tris_, order_ + p.first, p.count);
    for (const unsigned* v = begin; v != end; ++v) e.add(toBox * verts_[*v]);
    node.bv.obb = boxAlong(axes, e);
  }

  /// Moves the triangles of p whose centroid lies at most at the mean
  /// centroid along `axis` first (half of them if that leaves a side empty),
  /// sums the moments of both sides and returns the size of the first.
  unsigned partition(const Vector3& axis, const Pending& p, Pending& left, Pending& right) {
    unsigned* ids = order_ + p.first;
    const double split = axis.dot(p.centroids) / p.count;
    unsigned numLeft = 0;
    for (unsigned i = 0; i < p.count; ++i) {
      const TriangleData& d = data_[ids[i]];
      Pending& side = axis.dot(d.centroid) > split ? right : left;
      side.surface += d.surface;
      side.centroids += d.centroid;
      if (&side == &left) std::swap(ids[i], ids[numLeft++]);
    }
    if (numLeft == 0 || numLeft == p.count) {
      numLeft = p.count / 2;
      for (Pending* side : {&left, &right}) {
        side->surface = Moments();
        side->centroids.setZero();
      }
      for (unsigned i = 0; i < p.count; ++i) {
        Pending& side = i < numLeft ? left : right;
        side.surface += data_[ids[i]].surface;
        side.centroids += data_[ids[i]].centroid;
      }
    }
    return numLeft;
  }

  const std::vector<coal::Vec3s>& verts_;
  const std::vector<coal::Triangle>& tris_;
  Vector3 origin_;
  Node* nodes_;
  unsigned* order_;
  std::vector<TriangleData> data_;
  DistinctVertices distinct_;
};

/// The RSS of the inner nodes of a built tree, along the principal axes of
/// the node's vertices weighted equally, as the reference's fit does: thinner
/// RSS on the robot meshes than area weights, so fewer node pairs in distance
/// queries (area-weighted boxes stay better for collisions and rays). The
/// moments are summed bottom up (children come after their parent).
void fitInnerRss(const std::vector<coal::Vec3s>& verts, const std::vector<coal::Triangle>& tris,
                 const Vector3& origin, Node* nodes, unsigned numNodes, const unsigned* order) {
  std::vector<Moments> corners(numNodes);
  std::vector<int> parent(numNodes, -1);
  for (unsigned i = numNodes; i-- > 0;) {
    const Node& n = nodes[i];
    if (n.isLeaf()) {
      const coal::Triangle& t = tris[n.primitiveId()];
      Moments& m = corners[i];
      for (int k = 0; k < 3; ++k) {
        const Vector3 p = verts[t[k]] - origin;
        m.first += p;
        m.addSecond(p, 1.0);
      }
      m.weight = 3;
      continue;
    }
    corners[i] = corners[n.leftChild()];
    corners[i] += corners[n.rightChild()];
    parent[n.leftChild()] = parent[n.rightChild()] = (int)i;
  }
  DistinctVertices distinct(verts.size());
  std::vector<Vector3> local;
  for (unsigned i = 0; i < numNodes; ++i) {
    Node& n = nodes[i];
    if (n.isLeaf()) continue;
    const Matrix3 axes = principalAxes(corners[i], parent[i] < 0 ? Matrix3::Identity() : nodes[parent[i]].bv.rss.axes);
    const Matrix3 toLocal = axes.transpose();
    const auto [begin, end] = distinct.of(tris, order + n.first_primitive, n.num_primitives);
    local.resize(end - begin);
    Extent e;
    for (size_t j = 0; j < local.size(); ++j) {
      local[j] = toLocal * verts[begin[j]];
      e.add(local[j]);
    }
    n.bv.rss = rssAlong(axes, e, local.data(), local.size());
  }
}

/// A Coal tree whose nodes are filled here rather than by Coal's fitter and
/// splitter; it is a plain BVHModel to every query once its distance volumes
/// are ready.
class MeshTree final : public MeshBVH {
 public:
  MeshTree(std::vector<coal::Vec3s> verts, std::vector<coal::Triangle> tris) {
    num_vertices = num_vertices_allocated = (unsigned)verts.size();
    num_tris = num_tris_allocated = (unsigned)tris.size();
    vertices = std::make_shared<std::vector<coal::Vec3s>>(std::move(verts));
    tri_indices = std::make_shared<std::vector<coal::Triangle>>(std::move(tris));
    num_bvs = num_bvs_allocated = num_tris > 0 ? 2 * num_tris - 1 : 0;
    bvs = std::make_shared<bv_node_vector_t>(num_bvs);
    primitive_indices = std::make_shared<std::vector<unsigned>>(num_tris);
    build_state = coal::BVH_BUILD_STATE_PROCESSED;
    if (num_vertices > 0) computeLocalAABB();
    // Moments about the box centre lose the least to rounding.
    origin_ = num_vertices > 0 ? Vector3(aabb_local.center()) : Vector3::Zero();
    if (num_tris > 0) TreeBuilder(*vertices, *tri_indices, origin_, bvs->data(), primitive_indices->data()).build();
  }

  /// Copies are plain trees: the distance volumes are fitted first.
  MeshBVH* clone() const override {
    prepareForDistance();
    return new MeshBVH(*this);
  }

  void prepareForDistance() const {
    std::call_once(innerRssFitted_, [this] {
      fitInnerRss(*vertices, *tri_indices, origin_, bvs->data(), num_bvs, primitive_indices->data());
    });
  }

 private:
  Vector3 origin_;
  mutable std::once_flag innerRssFitted_;
};

}  // namespace

std::shared_ptr<MeshBVH> buildMeshBVH(std::vector<coal::Vec3s> verts, std::vector<coal::Triangle> tris) {
  return std::make_shared<MeshTree>(std::move(verts), std::move(tris));
}

const MeshBVH& hullSurfaceTree(const CollisionCache& cache, const coal::Convex<coal::Triangle>& hull) {
  if (const MeshBVH* tree = cache.hullSurface.get()) return *tree;
  std::vector<coal::Vec3s> points(hull.points->begin(), hull.points->begin() + hull.num_points);
  std::vector<coal::Triangle> triangles(hull.polygons->begin(), hull.polygons->begin() + hull.num_polygons);
  return cache.hullSurface.publish(buildMeshBVH(std::move(points), std::move(triangles)));
}

void prepareForDistance(const coal::CollisionGeometry& geometry) {
  if (auto tree = dynamic_cast<const MeshTree*>(&geometry)) tree->prepareForDistance();
}

}  // namespace detail
}  // namespace klampt
