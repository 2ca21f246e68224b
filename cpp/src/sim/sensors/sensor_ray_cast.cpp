// World ray casts for the laser and camera sensors (klampt/sim/sensor_ray_cast.h).
#include <cmath>
#include <map>
#include <mutex>
#include <stdexcept>
#include "klampt/geometry/queries/point_tree.h"
#include "klampt/geometry/queries/queries.h"
#include "klampt/model/world.h"
#include "klampt/sim/sensor_ray_cast.h"

namespace klampt {

SensorRayCaster::SensorRayCaster(const World* world, const Robot* robot, int skipLink) {
  auto addRobot = [&](const Robot& r) {
    for (int i = 0; i < r.numLinks(); ++i)
      if (!(&r == robot && i == skipLink)) addTarget(r.links[i].geometry.get(), r.links[i].appearance.get());
  };
  if (world) {
    for (const auto& t : world->terrains) addTarget(t->geometry.get(), t->appearance.get());
    for (const auto& o : world->rigidObjects) addTarget(o->geometry.get(), o->appearance.get());
    for (const auto& r : world->robots) addRobot(*r);
  }
  if (robot && (!world || world->robotIndex(robot) < 0)) addRobot(*robot);
}

namespace {

/// A box around a shape in its own frame (infinite if support points fail).
struct LocalBox {
  Vector3 center = Vector3::Zero(), half = Vector3::Constant(INFINITY);
};

LocalBox computeLocalBox(const std::shared_ptr<const GeometryData>& data) {
  Geometry local;
  local.data = data;
  LocalBox box;
  try {
    Vector3 bmin, bmax;
    for (int k = 0; k < 3; ++k) {
      bmax[k] = support(local, Vector3::Unit(k))[k];
      bmin[k] = support(local, -Vector3::Unit(k))[k];
    }
    if (bmin.allFinite() && bmax.allFinite()) box = {0.5 * (bmin + bmax), 0.5 * (bmax - bmin)};
  } catch (const std::exception&) {
  }
  return box;
}

/// Shapes are immutable once shared, so their boxes are computed once.
LocalBox localBox(const std::shared_ptr<const GeometryData>& data) {
  static std::mutex mutex;
  static std::map<const GeometryData*, std::pair<std::weak_ptr<const GeometryData>, LocalBox>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(data.get());
  if (it != cache.end() && it->second.first.lock() == data) return it->second.second;
  if (cache.size() > 4096)
    for (auto i = cache.begin(); i != cache.end();) i = i->second.first.expired() ? cache.erase(i) : std::next(i);
  const LocalBox box = computeLocalBox(data);
  cache[data.get()] = {data, box};
  return box;
}

}  // namespace

void SensorRayCaster::addTarget(const Geometry* g, const Appearance* a) {
  if (!g || g->empty()) return;
  const LocalBox box = localBox(g->data);
  const RigidTransform& T = g->currentTransform;
  const Vector3 center = T.apply(box.center);
  const Vector3 half = T.R.cwiseAbs() * box.half;
  // Padded by the margin and by rounding.
  const double pad = g->margin + 1e-9 * (1.0 + center.cwiseAbs().maxCoeff() + half.maxCoeff());
  if (!half.allFinite()) {
    targets_.push_back({g, a, Vector3::Constant(-INFINITY), Vector3::Constant(INFINITY)});
    return;
  }
  targets_.push_back({g, a, center - half - Vector3::Constant(pad), center + half + Vector3::Constant(pad)});
}

bool SensorRayCaster::cast(const Vector3& s, const Vector3& d, Vector3& hit, const Appearance** appearance) const {
  double best = INFINITY;
  const Appearance* bestApp = nullptr;
  for (const Target& t : targets_) {
    double tEnter;
    if (!rayBox(s, d, t.bmin, t.bmax, best, tEnter) || tEnter >= best) continue;
    Vector3 p;
    if (rayCast(*t.geometry, s, d, p) < 0) continue;
    const double dist = (p - s).dot(d);
    if (dist < best) {
      best = dist;
      hit = p;
      bestApp = t.appearance;
    }
  }
  if (appearance) *appearance = bestApp;
  return std::isfinite(best);
}

}  // namespace klampt
