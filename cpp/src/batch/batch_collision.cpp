// Batch self-collision and environment collision (klampt/batch/batch_collision.h).
// Everything the single query looks up per call (each shape's collision
// structure and bounds, the enabled pairs) is looked up once per batch;
// each configuration only places the links the test reads and runs the
// broad and narrow phases.
#include "klampt/batch/batch_collision.h"

#include <utility>
#include "klampt/batch/batch_robot.h"
#include "klampt/batch/thread_pool.h"
#include "klampt/geometry/queries/prepared_shape.h"
#include "klampt/model/self_collision.h"

namespace klampt {

namespace {

/// The last colliding pair a worker found, one cache line each so that
/// workers do not write to a line another reads.
struct alignas(64) LastHit {
  std::pair<int, int> pair{-1, -1};
};

}  // namespace

void batchSelfCollision(const Robot& robot, const double* configs, int N, bool* collides, int* pairs, int threads) {
  const int n = robot.numLinks();
  checkConfigs(configs, N, n);
  const SelfCollisionTable table(robot);
  const std::vector<int> frames = linksWithAncestors(robot, table.links());
  threads = batchThreadCount(threads, N);
  RobotCopies copies(robot, threads);
  std::vector<LastHit> last(threads);
  parallelFor(N, threads, [&](int w, int i) {
    Robot& r = copies.atLinks(w, configs + (size_t)i * n, frames);
    if (pairs) {
      // The first pair in index order: no pair may be tried out of turn.
      const auto p = table.firstColliding(r);
      collides[i] = p.first >= 0;
      pairs[2 * i] = p.first;
      pairs[2 * i + 1] = p.second;
    } else {
      // Only whether some pair collides: the pair this worker found last,
      // which nearby configurations usually share, is tried first.
      const auto p = table.firstColliding(r, last[w].pair);
      collides[i] = p.first >= 0;
      if (p.first >= 0) last[w].pair = p;
    }
  });
}

void batchWorldCollision(const Robot& robot, const std::vector<Obstacle>& obstacles, const double* configs, int N,
                         bool* collides, int* pairs, int threads) {
  const int n = robot.numLinks();
  checkConfigs(configs, N, n);
  struct Placed {
    const Obstacle* obstacle;
    PreparedShape shape;
    PlacedBounds bounds;
  };
  std::vector<Placed> solid;
  for (const Obstacle& o : obstacles)
    if (!o.geometry.empty()) {
      PreparedShape s(o.geometry);
      solid.push_back({&o, s, placeBounds(s, o.geometry.currentTransform, o.geometry.margin)});
    }
  std::vector<PreparedShape> shapes;
  std::vector<int> withGeometry;
  for (int l = 0; l < n; ++l) {
    shapes.emplace_back(*robot.links[l].geometry);
    if (!shapes.back().empty() && !solid.empty()) withGeometry.push_back(l);
  }
  const std::vector<int> frames = linksWithAncestors(robot, withGeometry);
  threads = batchThreadCount(threads, N);
  RobotCopies copies(robot, threads);
  std::vector<LastHit> last(threads);
  auto test = [&](const Robot& r, int l, const PlacedBounds& bl, size_t k) {
    const Geometry& g = *r.links[l].geometry;
    return preparedCollides(shapes[l], g, bl, solid[k].shape, solid[k].obstacle->geometry, solid[k].bounds);
  };
  parallelFor(N, threads, [&](int w, int i) {
    const Robot& r = copies.atLinks(w, configs + (size_t)i * n, frames);
    auto bounds = [&](int l) {
      const Geometry& g = *r.links[l].geometry;
      return placeBounds(shapes[l], g.currentTransform, g.margin);
    };
    int hitLink = -1, hitIndex = -1;
    // Only whether something collides: the (link, obstacle) pair this
    // worker found last is tried first.
    const auto [lastLink, lastIndex] = last[w].pair;
    const bool tryLast = !pairs && lastLink >= 0;
    if (tryLast && test(r, lastLink, bounds(lastLink), (size_t)lastIndex)) {
      hitLink = lastLink;
      hitIndex = lastIndex;
    }
    for (size_t a = 0; a < withGeometry.size() && hitLink < 0; ++a) {
      const int l = withGeometry[a];
      const PlacedBounds bl = bounds(l);
      for (size_t k = 0; k < solid.size(); ++k) {
        if (tryLast && l == lastLink && (int)k == lastIndex) continue;  // tested already, free
        if (!test(r, l, bl, k)) continue;
        hitLink = l;
        hitIndex = (int)k;
        break;
      }
    }
    collides[i] = hitLink >= 0;
    if (hitLink >= 0) last[w].pair = {hitLink, hitIndex};
    if (pairs) {
      pairs[2 * i] = hitLink;
      pairs[2 * i + 1] = hitLink >= 0 ? solid[hitIndex].obstacle->id : -1;
    }
  });
}

std::vector<Obstacle> worldObstacles(const World& w, int robot) {
  std::vector<Obstacle> obs;
  auto add = [&](const Geometry& g, int id) { obs.push_back({Geometry(g.data, g.currentTransform, g.margin), id}); };
  for (size_t k = 0; k < w.terrains.size(); ++k) add(*w.terrains[k]->geometry, w.terrainID((int)k));
  for (size_t k = 0; k < w.rigidObjects.size(); ++k) add(*w.rigidObjects[k]->geometry, w.rigidObjectID((int)k));
  for (int r = 0; r < (int)w.robots.size(); ++r) {
    if (r == robot) continue;
    const Robot& other = *w.robots[r];
    for (int l = 0; l < other.numLinks(); ++l) add(*other.links[l].geometry, w.linkID(r, l));
  }
  return obs;
}

}  // namespace klampt
