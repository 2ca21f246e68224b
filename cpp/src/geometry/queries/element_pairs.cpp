// The element pairs of two geometries within a distance (Geometry3D.collides_ext
// / withinDistance_ext): triangle pairs of two meshes from the box-tree
// traversal, every other pair from a sweep over element boxes, each candidate
// confirmed by an exact test.
#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include "klampt/geometry/queries/point_tree.h"
#include "klampt/geometry/queries/queries.h"
#include "leaf.h"
#include "mesh_bvh.h"
#include "triangle_distance.h"

namespace klampt {

using detail::Leaf;

namespace {

/// One element of a geometry as the pairs report it: a mesh triangle, a cloud
/// point, or a whole leaf (primitive, hull, grid, group member).
struct Part {
  Vector3 lo, hi;  // world box
  int elem;
  const Leaf* leaf;
  int sub;  // triangle or point index, -1 for the whole leaf
  mutable std::optional<Geometry> geom;
};

/// Meshes and clouds outside groups are split into triangles and points;
/// a group member stands for itself.
bool splits(const Leaf& l) { return l.groupElem < 0 && (l.isMesh() || l.isCloud()); }

Vector3 vertex(const TriangleMesh& m, int t, int k) { return m.vertices.row(m.indices(t, k)).transpose(); }

double cloudRadius(const Leaf& l, int i) { return l.cache->points.radius(i); }

std::vector<Part> partsOf(const Leaf& l) {
  std::vector<Part> parts;
  if (!splits(l)) {
    Part p{Vector3::Zero(), Vector3::Zero(), l.elem(0), &l, -1, std::nullopt};
    l.worldBox(p.lo, p.hi);
    parts.push_back(std::move(p));
  } else if (l.isMesh()) {
    const TriangleMesh& m = l.data->mesh;
    parts.reserve(m.indices.rows());
    for (int t = 0; t < (int)m.indices.rows(); ++t) {
      Part p{Vector3::Constant(INFINITY), Vector3::Constant(-INFINITY), l.elem(t), &l, t, std::nullopt};
      for (int k = 0; k < 3; ++k) {
        const Vector3 v = l.T.apply(vertex(m, t, k));
        p.lo = p.lo.cwiseMin(v);
        p.hi = p.hi.cwiseMax(v);
      }
      parts.push_back(std::move(p));
    }
  } else {
    const auto& pts = l.data->pointCloud.points;
    parts.reserve(pts.rows());
    for (int i = 0; i < (int)pts.rows(); ++i) {
      const Vector3 c = l.T.apply(pts.row(i).transpose());
      const double r = cloudRadius(l, i);
      parts.push_back(Part{(c.array() - r).matrix(), (c.array() + r).matrix(), l.elem(i), &l, i, std::nullopt});
    }
  }
  return parts;
}

/// The part as a geometry of its own (margin 0), built on first use.
const Geometry& geometryOf(const Part& p) {
  if (p.geom) return *p.geom;
  const Leaf& l = *p.leaf;
  if (p.sub < 0) {
    // Not owning: the leaf's shape outlives the query.
    p.geom.emplace(std::shared_ptr<const GeometryData>(std::shared_ptr<const GeometryData>(), l.data), l.T, 0.0);
    return *p.geom;
  }
  auto data = std::make_shared<GeometryData>();
  data->type = GeometryType::Primitive;
  if (l.isMesh()) {
    data->primitive.type = "Triangle";
    for (int k = 0; k < 3; ++k) {
      const Vector3 v = vertex(l.data->mesh, p.sub, k);
      data->primitive.properties.insert(data->primitive.properties.end(), v.data(), v.data() + 3);
    }
  } else {
    const Vector3 c = l.data->pointCloud.points.row(p.sub).transpose();
    const double r = cloudRadius(l, p.sub);
    data->primitive.type = r > 0 ? "Sphere" : "Point";
    data->primitive.properties = {c.x(), c.y(), c.z()};
    if (r > 0) data->primitive.properties.push_back(r);
  }
  p.geom.emplace(std::move(data), l.T, 0.0);
  return *p.geom;
}

/// The parts whose box is within tol of [lo, hi].
std::vector<const Part*> near(const std::vector<Part>& parts, const Vector3& lo, const Vector3& hi, double tol) {
  std::vector<const Part*> out;
  for (const Part& p : parts)
    if (boxBoxDistance(p.lo, p.hi, lo, hi) <= tol) out.push_back(&p);
  return out;
}

/// Every pair of parts of a and b within tol: the boxes are swept along x,
/// then each pair of near boxes is measured exactly.
void sweepPairs(std::vector<const Part*> a, std::vector<const Part*> b, double tol,
                std::vector<std::pair<int, int>>& out) {
  const auto byLo = [](const Part* p, const Part* q) { return p->lo.x() < q->lo.x(); };
  std::sort(b.begin(), b.end(), byLo);
  double widest = 0;
  for (const Part* q : b) widest = std::max(widest, q->hi.x() - q->lo.x());
  for (const Part* p : a) {
    // b's parts that can reach p along x start no earlier than p.lo - tol - widest.
    const double from = p->lo.x() - tol - widest, to = p->hi.x() + tol;
    auto it = std::lower_bound(b.begin(), b.end(), from, [](const Part* q, double x) { return q->lo.x() < x; });
    for (; it != b.end() && (*it)->lo.x() <= to; ++it) {
      const Part* q = *it;
      if (boxBoxDistance(p->lo, p->hi, q->lo, q->hi) > tol) continue;
      if (withinDistance(geometryOf(*p), geometryOf(*q), tol)) out.emplace_back(p->elem, q->elem);
    }
  }
}

/// Whether triangle s of mesh leaf a is within tol of triangle t of b.
bool trianglesNear(const Leaf& a, int s, const Leaf& b, int t, double tol) {
  Vector3 p[3], q[3];
  for (int k = 0; k < 3; ++k) {
    p[k] = a.T.apply(vertex(a.data->mesh, s, k));
    q[k] = b.T.apply(vertex(b.data->mesh, t, k));
  }
  return detail::triangleDistance2(p[0], p[1], p[2], q[0], q[1], q[2]) <= tol * tol;
}

/// Parts of a whole geometry that the queries see through a stand-in
/// (heightmaps, occupancy grids): one element, 0.
bool wholeOnly(const Geometry& g) {
  return g.data->type == GeometryType::Heightmap || g.data->type == GeometryType::OccupancyGrid;
}

}  // namespace

std::vector<std::pair<int, int>> elementPairsWithin(const Geometry& a, const Geometry& b, double tol, int maxPairs) {
  if (std::isnan(tol)) throw std::invalid_argument("tol is NaN");
  if (maxPairs < 0) throw std::invalid_argument("maxContacts must be >= 0");
  std::vector<std::pair<int, int>> out;
  if (wholeOnly(a) && wholeOnly(b)) {
    if (withinDistance(a, b, tol)) out.emplace_back(0, 0);
  } else if (wholeOnly(a) || wholeOnly(b)) {
    // The stand-ins' own elements are not the geometry's: ask whether each
    // element of the other side touches the whole.
    const bool aWhole = wholeOnly(a);
    const Geometry& whole = aWhole ? a : b;
    const Geometry& other = aWhole ? b : a;
    const double reach = tol + a.margin + b.margin;
    const Geometry bare(whole.data, whole.currentTransform, 0.0);
    const std::vector<Leaf> leaves = detail::leavesOf(other);
    for (const Leaf& l : leaves)
      for (const Part& p : partsOf(l))
        if (withinDistance(bare, geometryOf(p), reach))
          out.emplace_back(aWhole ? 0 : p.elem, aWhole ? p.elem : 0);
  } else {
    const double reach = tol + a.margin + b.margin;
    const std::vector<Leaf> la = detail::leavesOf(a), lb = detail::leavesOf(b);
    std::vector<std::vector<Part>> pa(la.size()), pb(lb.size());
    for (size_t i = 0; i < la.size(); ++i) pa[i] = partsOf(la[i]);
    for (size_t j = 0; j < lb.size(); ++j) pb[j] = partsOf(lb[j]);
    std::vector<std::pair<int, int>> tris;
    for (size_t i = 0; i < la.size(); ++i) {
      Vector3 alo, ahi;
      la[i].worldBox(alo, ahi);
      for (size_t j = 0; j < lb.size(); ++j) {
        Vector3 blo, bhi;
        lb[j].worldBox(blo, bhi);
        if (boxBoxDistance(alo, ahi, blo, bhi) > reach) continue;
        const Leaf &x = la[i], &y = lb[j];
        if (splits(x) && splits(y) && x.isMesh() && y.isMesh()) {
          tris.clear();
          detail::meshMeshPairsWithin(x.meshBVH(), x.T, y.meshBVH(), y.T, reach, tris);
          for (const auto& [s, t] : tris)
            if (trianglesNear(x, s, y, t, reach)) out.emplace_back(x.elem(s), y.elem(t));
          continue;
        }
        sweepPairs(near(pa[i], blo, bhi, reach), near(pb[j], alo, ahi, reach), reach, out);
      }
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (maxPairs > 0 && (int)out.size() > maxPairs) out.resize(maxPairs);
  return out;
}

}  // namespace klampt
