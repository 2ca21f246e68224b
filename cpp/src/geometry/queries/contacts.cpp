// Contact points between two geometries: every pair of surface points within
// the sum of paddings and margins, with depths measured from the padded surfaces.
#include <coal/collision.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>
#include <utility>
#include <vector>
#include <stdexcept>
#include "klampt/geometry/queries/queries.h"
#include "klampt/math/parallel_for.h"
#include "box_contacts.h"
#include "cloud_queries.h"
#include "grid_grid.h"
#include "leaf.h"
#include "mesh_contacts.h"
#include "surface_grid.h"

namespace klampt {

using detail::Leaf;

namespace {

using Contact = detail::ContactPoint;

Vector3 unitOr(const Vector3& v, const Vector3& fallback) {
  const double n = v.norm();
  return n > 1e-12 ? Vector3(v / n) : fallback;
}

Contact flipped(Contact c) {
  std::swap(c.p1, c.p2);
  std::swap(c.e1, c.e2);
  c.n = -c.n;
  return c;
}

/// The contact of a ball (centre c, radius r, element e) with a leaf, given
/// their distance bd, if within `pad`.
bool ballContactFrom(const Vector3& c, double r, int e, const detail::BallDistance& bd, const Leaf& b, double pad,
                     bool signedDepth, Contact& out) {
  if (bd.elem < 0 || bd.d > pad) return false;
  Vector3 n = unitOr(bd.cpLeaf - c, Vector3::Zero());
  if (bd.d + r < 0) n = -n;  // centre inside b: b's solid lies behind its closest surface point
  if (r == 0 && n.isZero() && b.isGrid()) {
    // A point on the zero level set: the field's gradient gives the normal.
    n = -unitOr(b.T.R * detail::gridGradient(b.data->grid, b.T.inverse().apply(c)), Vector3::Zero());
  }
  out = Contact{bd.cpBall, bd.cpLeaf, n, bd.d, e, bd.elem};
  // Without signed distance (a point in a box, a mesh surface) overlap counts as 0.
  if (!signedDepth) out.dist = std::max(0.0, out.dist);
  return true;
}

/// The contact of a ball (centre c, radius r, element e) with a leaf, if within `pad`.
bool ballContact(const Vector3& c, double r, int e, const Leaf& b, double pad, bool signedDepth, Contact& out) {
  return ballContactFrom(c, r, e, detail::ballLeafDistance(c, r, b, pad + 1e-12), b, pad, signedDepth, out);
}

/// Contacts of the balls of cloud a with cloud b within `pad`: each ball of a
/// with its nearest ball of b, as cloudContacts finds them, the candidates
/// from a joint descent of both trees instead of a search of b's tree from
/// its root for every ball of a near b (two overlapping tx90l links: 3.9 ms).
void cloudCloudContacts(const Leaf& a, const Leaf& b, double pad, bool swap, std::vector<Contact>& out) {
  const PointTree &ta = a.cache->points, &tb = b.cache->points;
  thread_local std::vector<std::pair<int, int>> pairs;
  pairs.clear();
  // The slack covers the rounding of the descent's transform.
  detail::cloudLeafPairsWithin(a, b, pad + 1e-9 * (1 + pad), pairs);
  // By a's leaf, in the order of PointTree::forEach (which cloudContacts
  // follows: the right subtree first), then b's.
  std::sort(pairs.begin(), pairs.end(), [&](const auto& x, const auto& y) {
    return std::make_pair(-ta.nodes()[x.first].begin, x.second) < std::make_pair(-ta.nodes()[y.first].begin, y.second);
  });
  const bool signedDepth = detail::signedPair(a, b);
  const RigidTransform toB = b.T.inverse();
  for (size_t first = 0; first < pairs.size();) {
    size_t last = first;
    while (last < pairs.size() && pairs[last].first == pairs[first].first) ++last;
    const PointTree::Node& x = ta.nodes()[pairs[first].first];
    for (int k = x.begin; k < x.end; ++k) {
      const int i = ta.pointAt(k);
      const Vector3 c = a.T.apply(ta.center(i)), local = toB.apply(c);
      // The least centre distance less radius, lowest ball first among equals.
      double best = INFINITY;
      int nearest = -1;
      for (size_t p = first; p < last; ++p) {
        const PointTree::Node& y = tb.nodes()[pairs[p].second];
        for (int l = y.begin; l < y.end; ++l) {
          const int j = tb.pointAt(l);
          const double d = (local - tb.center(j)).norm() - tb.radius(j);
          if (d < best || (d == best && j < nearest)) best = d, nearest = j;
        }
      }
      const double r = ta.radius(i);
      if (nearest < 0 || best - r > pad) continue;
      const auto bd = detail::ballDistanceFrom(c, r, detail::cloudBallPointDistance(b, local, nearest, best));
      Contact ct;
      if (ballContactFrom(c, r, a.elem(i), bd, b, pad, signedDepth, ct)) out.push_back(swap ? flipped(ct) : ct);
    }
    first = last;
  }
}

/// Contacts of the balls of cloud a with b within `pad`.
void cloudContacts(const Leaf& a, const Leaf& b, double pad, bool swap, std::vector<Contact>& out) {
  if (b.isCloud()) return cloudCloudContacts(a, b, pad, swap, out);
  const PointTree& tree = a.cache->points;
  const bool signedDepth = detail::signedPair(a, b);
  Vector3 blo, bhi;
  b.worldBox(blo, bhi);
  tree.forEach(
      [&](const Vector3& lo, const Vector3& hi) {
        Vector3 wlo, whi;
        transformBox(a.T, lo, hi, wlo, whi);
        return boxBoxDistance(wlo, whi, blo, bhi) <= pad;
      },
      [&](int i) {
        Contact ct;
        if (ballContact(a.T.apply(tree.center(i)), tree.radius(i), a.elem(i), b, pad, signedDepth, ct))
          out.push_back(swap ? flipped(ct) : ct);
      });
}

/// A volume grid against a surface (mesh, primitive, hull) or another grid:
/// one contact at the closest points the distance query finds, if within `pad`.
void gridContact(const Leaf& a, const Leaf& b, double pad, std::vector<Contact>& out) {
  Vector3 pa, pb;
  double d;
  int ea = a.elem(0), eb = b.elem(0);
  if (a.isGrid() && b.isGrid()) {
    const auto g = detail::gridGridDistance(a, b, -INFINITY);
    d = g.d, pa = g.cp1, pb = g.cp2;
  } else {
    const bool aGrid = a.isGrid();
    if (!(aGrid ? b : a).isCoal())
      throw std::invalid_argument("contacts between " + a.name() + " and " + b.name() + " are not supported");
    const auto g = detail::surfaceGridDistance(aGrid ? b : a, aGrid ? a : b, pad + 1e-12, -INFINITY);
    if (g.elem < 0) return;
    d = g.d;
    pa = aGrid ? g.cpGrid : g.cpSurface;
    pb = aGrid ? g.cpSurface : g.cpGrid;
    (aGrid ? eb : ea) = g.elem;
  }
  if (d > pad) return;
  // From a towards b; reversed when they overlap (b's solid lies behind its closest surface point).
  Vector3 n = unitOr(pb - pa, Vector3::Zero());
  if (d < 0) n = -n;
  out.push_back(Contact{pa, pb, n, d, ea, eb});
}

std::shared_ptr<const detail::MeshBVH> meshOf(const Leaf& leaf) {
  return std::static_pointer_cast<const detail::MeshBVH>(leaf.cache->shape);
}

void leafContacts(const Leaf& a, const Leaf& b, double pad, std::vector<Contact>& out) {
  Vector3 alo, ahi, blo, bhi;
  a.worldBox(alo, ahi);
  b.worldBox(blo, bhi);
  if (boxBoxDistance(alo, ahi, blo, bhi) > pad) return;
  if (a.isMesh() && b.isMesh()) {
    const size_t first = out.size();
    detail::meshMeshContacts(a.meshBVH(), a.T, b.meshBVH(), b.T, pad, out);
    for (size_t k = first; k < out.size(); ++k) {
      out[k].e1 = a.elem(out[k].e1);
      out[k].e2 = b.elem(out[k].e2);
    }
    return;
  }
  if (a.isCloud()) return cloudContacts(a, b, pad, false, out);
  if (b.isCloud()) return cloudContacts(b, a, pad, true, out);
  if (a.isBall() || b.isBall()) {
    // One contact at the closest points, as the distance query measures them.
    const bool aBall = a.isBall();
    Vector3 c;
    double r;
    detail::ballOf(aBall ? a : b, c, r);
    Contact ct;
    if (ballContact(c, r, (aBall ? a : b).elem(0), aBall ? b : a, pad, detail::signedPair(a, b), ct)) out.push_back(aBall ? ct : flipped(ct));
    return;
  }
  if (detail::isSolidBox(a) && detail::isSolidBox(b)) {
    thread_local std::vector<detail::BoxPairContact> boxContacts;
    boxContacts.clear();
    if (detail::boxPairContacts(a, b, pad, boxContacts)) {
      const bool signedDepth = detail::signedPair(a, b);
      for (const auto& c : boxContacts)
        out.push_back({c.p1, c.p2, c.n, signedDepth ? c.dist : std::max(0.0, c.dist), a.elem(0), b.elem(0)});
      return;
    }
  }
  if ((a.isMesh() && detail::isSolidBox(b)) || (detail::isSolidBox(a) && b.isMesh())) {
    // A mesh against a box: each triangle near it by the separating-axis
    // test, where Coal runs GJK and EPA on every one (a tx90l link's
    // triangles inside the other link's box: 28 ms). A mesh is a surface:
    // an overlap counts as distance 0.
    const bool meshFirst = a.isMesh();
    const size_t first = out.size();
    detail::meshBoxContacts(meshFirst ? a : b, meshFirst ? b : a, pad, out);
    for (size_t k = first; k < out.size(); ++k) {
      if (!meshFirst) out[k] = flipped(out[k]);
      out[k].dist = std::max(0.0, out[k].dist);
    }
    return;
  }
  if (a.isCoal() && b.isCoal()) {
    coal::CollisionRequest req(coal::CONTACT, 100000);
    req.security_margin = pad;
    coal::CollisionResult res;
    detail::coalCollide(a.cache->shape.get(), a.coalTransform(), b.cache->shape.get(), b.coalTransform(), req, res);
    const bool signedDepth = detail::signedPair(a, b);
    for (const auto& c : res.getContacts()) {
      // Coal's penetration_depth is the signed distance (p2 - p1 = depth * normal);
      // pairs without signed distance (meshes are surfaces) count overlap as 0.
      const double dist = signedDepth ? c.penetration_depth : std::max(0.0, c.penetration_depth);
      out.push_back({c.nearest_points[0], c.nearest_points[1], unitOr(c.normal, Vector3::Zero()), dist, a.elem(c.b1),
                     b.elem(c.b2)});
    }
    return;
  }
  if (a.isGrid() || b.isGrid()) {
    gridContact(a, b, pad, out);
    return;
  }
  throw std::invalid_argument("contacts between " + a.name() + " and " + b.name() + " are not supported");
}

/// Deterministic seeds: the deepest contact, then repeatedly the one farthest
/// from the seeds so far (in feature space).
std::vector<int> farthestSeeds(const std::vector<Eigen::Matrix<double, 6, 1>>& f, const std::vector<double>& depth,
                               int k) {
  std::vector<int> seeds;
  std::vector<double> gap(f.size(), INFINITY);
  int next = (int)(std::max_element(depth.begin(), depth.end()) - depth.begin());
  while ((int)seeds.size() < k) {
    seeds.push_back(next);
    const auto& seed = f[next];
    double far = -1;
    for (size_t i = 0; i < f.size(); ++i) {
      gap[i] = std::min(gap[i], (f[i] - seed).squaredNorm());
      if (gap[i] > far) {
        far = gap[i];
        next = (int)i;
      }
    }
    if (far <= 0) break;  // fewer distinct contacts than k
  }
  return seeds;
}

/// Reduces the contacts cs[subset] to at most k by k-means (Lloyd's
/// iterations from farthest-point seeds) on their positions and normals,
/// keeping the deepest contact of each cluster; returns indices into cs.
/// Normals weigh a tenth of the contact region's size, so contacts on
/// differently facing sides of a corner stay apart.
std::vector<int> clusterContacts(const std::vector<Contact>& cs, const std::vector<double>& allDepths,
                                 const std::vector<int>& subset, int k, double normalScale) {
  const size_t n = subset.size();
  Vector3 lo = cs[subset[0]].p1, hi = lo;
  for (int i : subset) {
    lo = lo.cwiseMin(cs[i].p1);
    hi = hi.cwiseMax(cs[i].p1);
  }
  const double normalWeight = normalScale >= 0 ? normalScale : 0.1 * (hi - lo).norm();
  std::vector<Eigen::Matrix<double, 6, 1>> f(n);
  std::vector<double> depth(n);
  for (size_t i = 0; i < n; ++i) {
    const Contact& c = cs[subset[i]];
    f[i] << 0.5 * (c.p1 + c.p2), normalWeight * c.n;
    depth[i] = allDepths[subset[i]];
  }
  const std::vector<int> seeds = farthestSeeds(f, depth, k);
  std::vector<Eigen::Matrix<double, 6, 1>> centers;
  for (int s : seeds) centers.push_back(f[s]);
  const int m = (int)centers.size();
  std::vector<int> label(n, -1);
  for (int iter = 0; iter < 50; ++iter) {
    bool changed = false;
    for (size_t i = 0; i < n; ++i) {
      int best = 0;
      double bestD = INFINITY;
      for (int c = 0; c < m; ++c) {
        const double d = (f[i] - centers[c]).squaredNorm();
        if (d < bestD) {
          bestD = d;
          best = c;
        }
      }
      changed |= label[i] != best;
      label[i] = best;
    }
    if (!changed) break;
    std::vector<Eigen::Matrix<double, 6, 1>> sum(m, Eigen::Matrix<double, 6, 1>::Zero());
    std::vector<int> count(m, 0);
    for (size_t i = 0; i < n; ++i) {
      sum[label[i]] += f[i];
      ++count[label[i]];
    }
    for (int c = 0; c < m; ++c)
      if (count[c] > 0) centers[c] = sum[c] / count[c];
  }
  std::vector<int> deepest(m, -1);
  for (size_t i = 0; i < n; ++i) {
    int& d = deepest[label[i]];
    if (d < 0 || depth[i] > depth[d]) d = (int)i;
  }
  std::vector<int> kept;
  for (int d : deepest)
    if (d >= 0) kept.push_back(subset[d]);
  return kept;
}

/// The contacts clustering sees: at most about `target`, the deepest of
/// each cell of a grid over the contacts (and of each side they face), so
/// that clustering costs the same however dense the meshes are.
void thinForClustering(const std::vector<Contact>& cs, const std::vector<double>& depth, size_t target,
                       std::vector<int>& order) {
  Vector3 lo = cs[order[0]].p1, hi = lo;
  for (int i : order) {
    lo = lo.cwiseMin(cs[i].p1);
    hi = hi.cwiseMax(cs[i].p1);
  }
  Vector3 e = hi - lo;
  std::sort(e.data(), e.data() + 3, std::greater<double>());
  // The contacts lie on a surface spanning about the two largest extents.
  double h = e[1] > 1e-3 * e[0] ? std::sqrt(e[0] * e[1] / target) : e[0] / target;
  if (!(h > 0)) h = 1;
  thread_local std::vector<std::pair<uint64_t, int>> keyed;
  keyed.clear();
  for (int i : order) {
    const Vector3 c = (cs[i].p1 - lo) / h;
    uint64_t key = 0;
    for (int k = 0; k < 3; ++k) key = (key << 19) | std::min<uint64_t>((uint64_t)c[k], (1u << 19) - 1);
    for (int k = 0; k < 3; ++k) key = (key << 1) | (cs[i].n[k] < 0);
    keyed.emplace_back(key, i);
  }
  std::sort(keyed.begin(), keyed.end(), [&](const auto& x, const auto& y) {
    return x.first < y.first || (x.first == y.first && depth[x.second] > depth[y.second]);
  });
  order.clear();
  for (size_t k = 0; k < keyed.size(); ++k)
    if (k == 0 || keyed[k].first != keyed[k - 1].first) order.push_back(keyed[k].second);
}

/// Contacts per piece of the result filled on one core: two overlapping
/// robot links give 100,000 contacts (9 MB of result), a simulator's pair a
/// few, filled on the calling thread.
constexpr size_t kResultPiece = 16384;

/// The result: the contacts cs[order] with their depths, their points moved
/// onto the padded surfaces along the normal.
ContactQueryResult resultOf(const std::vector<Contact>& cs, const std::vector<double>& depth,
                            const std::vector<int>& order, double pad1, double pad2) {
  ContactQueryResult r;
  const size_t n = order.size();
  r.points1.resize(n);
  r.points2.resize(n);
  r.normals.resize(n);
  r.depths.resize(n);
  r.elems1.resize(n);
  r.elems2.resize(n);
  const auto fill = [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) {
      const Contact& c = cs[order[k]];
      r.points1[k] = c.p1 + pad1 * c.n;
      r.points2[k] = c.p2 - pad2 * c.n;
      r.normals[k] = c.n;
      r.depths[k] = depth[order[k]];
      r.elems1[k] = c.e1;
      r.elems2[k] = c.e2;
    }
  };
  const int pieces = (int)((n + kResultPiece - 1) / kResultPiece);
  if (pieces < 2) {
    fill(0, n);
  } else {
    parallelFor(pieces, availableCores(),
                [&](int, int k) { fill(k * kResultPiece, std::min(n, (k + 1) * kResultPiece)); });
  }
  return r;
}

/// The placed mesh of a geometry that is a single triangle mesh, or null.
const Leaf* singleMesh(const std::vector<Leaf>& leaves) {
  return leaves.size() == 1 && leaves[0].isMesh() && leaves[0].groupElem < 0 ? &leaves[0] : nullptr;
}

/// How far, as a fraction of the padding, two meshes may move relative to
/// each other before the contacts remembered in a ContactCache are selected
/// anew. A twentieth keeps depth errors far below the boundary layer.
constexpr double kReselectFraction = 0.05;

}  // namespace

bool attachContactCache(ContactCache& cache, const Geometry& a, const Geometry& b) {
  std::vector<Leaf> la, lb;
  detail::leavesOf(a, la);
  detail::leavesOf(b, lb);
  const Leaf* ma = singleMesh(la);
  const Leaf* mb = singleMesh(lb);
  if (!ma || !mb) return false;
  cache.a = meshOf(*ma);
  cache.b = meshOf(*mb);
  return true;
}

ContactQueryResult contacts(const Geometry& a, const Geometry& b, double padding1, double padding2,
                            int maxContacts, double normalScale, ContactCache* cache) {
  if (std::isnan(padding1) || std::isnan(padding2)) throw std::invalid_argument("padding is NaN");
  if (maxContacts < 0) throw std::invalid_argument("maxContacts must be >= 0");
  const double pad1 = padding1 + a.margin, pad2 = padding2 + b.margin, pad = pad1 + pad2;
  // Per-thread scratch: the simulator asks for contacts of every close pair
  // at every step.
  thread_local std::vector<Leaf> la, lb;
  thread_local std::vector<Contact> cs;
  thread_local std::vector<double> depth;
  thread_local std::vector<int> order;
  detail::leavesOf(a, la);
  detail::leavesOf(b, lb);
  cs.clear();
  const Leaf* ma = singleMesh(la);
  const Leaf* mb = singleMesh(lb);
  const bool selectable = cache && ma && mb && maxContacts > 0;
  const bool reuseSelection = selectable && cache->maxContacts == maxContacts &&
                              cache->normalScale == normalScale && cache->padding == pad &&
                              detail::motionSince(*cache, ma->meshBVH(), ma->T, mb->meshBVH(), mb->T) <=
                                  kReselectFraction * pad;
  if (reuseSelection) {
    detail::meshPairContacts(ma->meshBVH(), ma->T, mb->meshBVH(), mb->T, pad, cache->pairs, cs);
  } else {
    for (const Leaf& x : la)
      for (const Leaf& y : lb) leafContacts(x, y, pad, cs);
  }
  depth.resize(cs.size());
  for (size_t i = 0; i < cs.size(); ++i) depth[i] = std::max(0.0, pad - cs[i].dist);
  order.resize(cs.size());
  std::iota(order.begin(), order.end(), 0);
  if (!reuseSelection && maxContacts > 0 && (int)cs.size() > maxContacts) {
    const size_t target = 8 * (size_t)maxContacts;
    if (order.size() > 2 * target) thinForClustering(cs, depth, target, order);
    if ((int)order.size() > maxContacts) order = clusterContacts(cs, depth, order, maxContacts, normalScale);
  }
  if (selectable && !reuseSelection) {
    detail::remember(*cache, meshOf(*ma), ma->T, meshOf(*mb), mb->T);
    for (int i : order) cache->pairs.emplace_back(cs[i].e1, cs[i].e2);
    cache->padding = pad;
    cache->maxContacts = maxContacts;
    cache->normalScale = normalScale;
  }
  return resultOf(cs, depth, order, pad1, pad2);
}

void prepareContacts(const Geometry& g) {
  if (g.empty()) return;
  for (const Leaf& leaf : detail::leavesOf(g))
    if (leaf.isCoal()) detail::prepareForDistance(*leaf.cache->shape);
}

}  // namespace klampt
