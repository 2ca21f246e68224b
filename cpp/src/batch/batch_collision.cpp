// Batch self-collision and environment collision (klampt/batch/batch_collision.h).
#include "klampt/batch/batch_collision.h"

#include "klampt/batch/batch_robot.h"
#include "klampt/batch/thread_pool.h"
#include "klampt/geometry/queries/queries.h"

namespace klampt {

namespace {

struct Box {
  Vector3 lo, hi;
  bool overlaps(const Box& b) const {
    return !((lo.array() > b.hi.array()).any() || (b.lo.array() > hi.array()).any());
  }
};

Box boxOf(const Geometry& g) {
  Box b;
  looseBoundingBox(g, b.lo, b.hi);  // grown by the margin, so disjoint boxes cannot collide
  return b;
}

}  // namespace

void batchSelfCollision(const Robot& robot, const double* configs, int N, bool* collides, int* pairs, int threads) {
  const int n = robot.numLinks();
  checkConfigs(configs, N, n);
  threads = batchThreadCount(threads, N);
  RobotCopies copies(robot, threads);
  parallelFor(N, threads, [&](int w, int i) {
    const Robot& r = copies.at(w, configs + (size_t)i * n);
    if (pairs) {
      const auto p = firstSelfCollidingPair(r);
      collides[i] = p.first >= 0;
      pairs[2 * i] = p.first;
      pairs[2 * i + 1] = p.second;
    } else {
      collides[i] = !selfCollidingPairs(r, true).empty();
    }
  });
}

void batchWorldCollision(const Robot& robot, const std::vector<Obstacle>& obstacles, const double* configs, int N,
                         bool* collides, int* pairs, int threads) {
  const int n = robot.numLinks();
  checkConfigs(configs, N, n);
  std::vector<const Obstacle*> solid;
  std::vector<Box> boxes;
  for (const Obstacle& o : obstacles)
    if (!o.geometry.empty()) {
      solid.push_back(&o);
      boxes.push_back(boxOf(o.geometry));
    }
  threads = batchThreadCount(threads, N);
  RobotCopies copies(robot, threads);
  parallelFor(N, threads, [&](int w, int i) {
    const Robot& r = copies.at(w, configs + (size_t)i * n);
    int hitLink = -1, hitId = -1;
    for (int l = 0; l < n && hitLink < 0; ++l) {
      const Geometry& g = *r.links[l].geometry;
      if (g.empty()) continue;
      const Box lb = boxOf(g);
      for (size_t k = 0; k < solid.size(); ++k) {
        if (!lb.overlaps(boxes[k]) || !klampt::collides(g, solid[k]->geometry)) continue;
        hitLink = l;
        hitId = solid[k]->id;
        break;
      }
    }
    collides[i] = hitLink >= 0;
    if (pairs) {
      pairs[2 * i] = hitLink;
      pairs[2 * i + 1] = hitId;
    }
  });
}

}  // namespace klampt
