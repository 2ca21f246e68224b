// Robot self-collision: enabled link pairs, pruned by their world boxes.
#include <cmath>
#include <unordered_map>
#include <utility>
#include <vector>
#include "klampt/geometry/queries/collision_cache.h"
#include "klampt/geometry/queries/queries.h"
#include "klampt/model/robot.h"
#include "mesh_bvh.h"

namespace klampt {

namespace {

/// A link's geometry and its collision cache, looked up once per call.
struct LinkShape {
  const Geometry* geom = nullptr;
  const CollisionCache* cache = nullptr;
  Vector3 lo, hi;  // world box grown by the margin
  bool isMesh() const { return geom->data->type == GeometryType::TriangleMesh && cache->shape; }
};

bool linksCollide(const LinkShape& a, const LinkShape& b) {
  // Mesh pairs (the common case) go straight to the tree traversal.
  const double tol = a.geom->margin + b.geom->margin;
  if (a.isMesh() && b.isMesh() && !std::isnan(tol)) {
    int t1, t2;
    return detail::meshMeshWithin(static_cast<const detail::MeshBVH&>(*a.cache->shape), a.geom->currentTransform,
                                  static_cast<const detail::MeshBVH&>(*b.cache->shape), b.geom->currentTransform,
                                  tol, t1, t2);
  }
  return collides(*a.geom, *b.geom);
}

/// The colliding pairs in index order; with tryLastHit, the pair this thread
/// found last for this robot is tried first.
std::vector<std::pair<int, int>> collidingPairs(const Robot& robot, bool stopAtFirst, bool tryLastHit) {
  const int n = robot.numLinks();
  thread_local std::vector<LinkShape> links;
  links.assign(n, LinkShape());
  for (int i = 0; i < n; ++i) {
    const Geometry& g = *robot.links[i].geometry;
    if (g.empty()) continue;
    LinkShape& l = links[i];
    l.geom = &g;
    l.cache = &collisionCache(*g.data);
    transformBox(g.currentTransform, l.cache->bmin, l.cache->bmax, l.lo, l.hi);
    l.lo.array() -= g.margin;
    l.hi.array() += g.margin;
  }
  auto boxesOverlap = [&](int i, int j) {
    const LinkShape &a = links[i], &b = links[j];
    return !((a.lo.array() > b.hi.array()).any() || (b.lo.array() > a.hi.array()).any());
  };
  // A robot that collided usually collides again through the same pair: try
  // the last one found on this thread first.
  thread_local std::unordered_map<const Robot*, std::pair<int, int>> lastHit;
  std::pair<int, int> tried(-1, -1);  // checked already, free
  if (stopAtFirst && tryLastHit) {
    auto it = lastHit.find(&robot);
    if (it != lastHit.end()) {
      const auto [i, j] = it->second;
      if (j < n && links[i].geom && links[j].geom && robot.selfCollisionEnabled(i, j) && boxesOverlap(i, j)) {
        if (linksCollide(links[i], links[j])) return {{i, j}};
        tried = {i, j};
      }
    }
  }
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < n; ++i) {
    if (!links[i].geom) continue;
    const char* enabled = robot.selfCollision.data() + (size_t)i * n;
    for (int j = i + 1; j < n; ++j) {
      if (!enabled[j] || !links[j].geom) continue;
      if (!boxesOverlap(i, j) || std::make_pair(i, j) == tried) continue;
      if (linksCollide(links[i], links[j])) {
        pairs.emplace_back(i, j);
        if (stopAtFirst) {
          if (tryLastHit) {
            if (lastHit.size() > 1024) lastHit.clear();
            lastHit[&robot] = {i, j};
          }
          return pairs;
        }
      }
    }
  }
  return pairs;
}

}  // namespace

std::vector<std::pair<int, int>> selfCollidingPairs(const Robot& robot, bool stopAtFirst) {
  return collidingPairs(robot, stopAtFirst, true);
}

std::pair<int, int> firstSelfCollidingPair(const Robot& robot) {
  const auto pairs = collidingPairs(robot, true, false);
  return pairs.empty() ? std::make_pair(-1, -1) : pairs.front();
}

}  // namespace klampt
