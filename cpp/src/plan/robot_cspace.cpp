#include "klampt/plan/robot_cspace.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <coal/BVH/BVH_model.h>
#include <coal/narrowphase/narrowphase.h>
#include <coal/shape/convex.h>
#include <coal/shape/geometric_shapes.h>
#include "klampt/geometry/queries/collision_cache.h"
#include "klampt/geometry/queries/queries.h"
#include "klampt/model/self_collision.h"
#include "klampt/geometry/queries/shape_hull.h"
#include "klampt/model/config_space.h"

namespace klampt {
namespace plan {

namespace {

bool boxesOverlap(const Vector3& alo, const Vector3& ahi, const Vector3& blo, const Vector3& bhi, double pad) {
  return !((alo.array() > bhi.array() + pad).any() || (blo.array() > ahi.array() + pad).any());
}

double boxGap(const Vector3& alo, const Vector3& ahi, const Vector3& blo, const Vector3& bhi) {
  const Eigen::Array3d gap = (alo.array() - bhi.array()).max(blo.array() - ahi.array()).max(0.0);
  return gap.matrix().norm();
}

/// Builds the collision structures now rather than on the first query.
void warmUp(const Geometry& g) {
  if (g.empty()) return;
  collisionCache(*g.data);
  Vector3 lo, hi;
  looseBoundingBox(g, lo, hi);
}

/// Largest distance from the origin of the local frame to the shape.
double radiusAboutOrigin(const Geometry& g) {
  if (g.empty()) return 0;
  Vector3 lo, hi;
  tightBoundingBox(*g.data, RigidTransform(), lo, hi);
  return Vector3(std::max(std::fabs(lo.x()), std::fabs(hi.x())), std::max(std::fabs(lo.y()), std::fabs(hi.y())),
                 std::max(std::fabs(lo.z()), std::fabs(hi.z())))
             .norm() +
         g.margin;
}

}  // namespace

/// A private copy of the robot: its q, link transforms and placed link
/// geometries (shape data shared).
struct RobotCSpace::State {
  std::shared_ptr<Robot> robot;
  Config q;
  /// The link-body pair (index into the options' pairs) that collided at
  /// this state's last query, or -1: planners' queries are coherent, so it
  /// is tried first.
  int lastHitPair = -1;
  /// Whether the last query failed on self collision (then tried first).
  bool lastHitSelf = false;
  /// The robot's self-collision pairs with their prepared shapes, built
  /// once: rebuilding them per query cost as much as the test itself.
  SelfCollisionTable selfTable;
  /// The self pair that collided last, tried first.
  std::pair<int, int> lastSelfPair{-1, -1};
};

/// The other bodies, placed as they were at the last syncEnvironment.
/// One body as placed: its geometry, world box and the box of its shape.
struct RobotCSpace::Body {
  Geometry geom;
  Vector3 lo = Vector3::Zero(), hi = Vector3::Zero();
  /// The box of its shape (meshes and hulls) at boxPose, for the hull-box test.
  std::shared_ptr<const coal::Box> box;
  RigidTransform boxPose;
  bool present = false;
};

struct RobotCSpace::Environment {
  using Body = RobotCSpace::Body;
  std::vector<Body> terrains, objects;
  std::vector<std::vector<Body>> robots;  // per robot, per link
  const Body* body(const RobotCSpaceOptions::BodyPair& p) const {
    using K = RobotCSpaceOptions::BodyPair;
    const std::vector<Body>* v = p.kind == K::Terrain ? &terrains : p.kind == K::Object ? &objects : nullptr;
    int i = p.index;
    if (p.kind == K::Robot) {
      if (p.index < 0 || p.index >= (int)robots.size()) return nullptr;
      v = &robots[p.index];
      i = p.otherLink;
    }
    if (i < 0 || i >= (int)v->size() || !(*v)[i].present) return nullptr;
    return &(*v)[i];
  }
};

/// A state borrowed from the pool for one query.
class RobotCSpace::Lease {
 public:
  explicit Lease(const RobotCSpace& s) : space_(s) {
    {
      std::lock_guard<std::mutex> lock(s.poolMutex_);
      if (!s.pool_.empty()) {
        state_ = std::move(s.pool_.back());
        s.pool_.pop_back();
      }
    }
    if (!state_) state_ = s.newState();
  }
  ~Lease() {
    std::lock_guard<std::mutex> lock(space_.poolMutex_);
    space_.pool_.push_back(std::move(state_));
  }
  State& operator*() { return *state_; }
  State* operator->() { return state_.get(); }

 private:
  const RobotCSpace& space_;
  std::unique_ptr<State> state_;
};

RobotCSpace::RobotCSpace(std::shared_ptr<World> world, int robotIndex, const RobotCSpaceOptions& options)
    : world_(std::move(world)), robotIndex_(robotIndex), options_(options) {
  setVisibilityEpsilon(options_.eps);
  if (!world_ || robotIndex < 0 || robotIndex >= (int)world_->robots.size())
    throw std::invalid_argument("RobotCSpace: invalid robot index");
  const Robot& robot = *world_->robots[robotIndex];
  const int n = robot.numLinks();
  if (options_.offset.size() != n)
    throw std::invalid_argument("RobotCSpace: the offset must have one entry per link");
  if (options_.dim < 0) throw std::invalid_argument("RobotCSpace: negative dimension");
  std::vector<int> coordTerms(options_.dim, 0), linkTerms(n, 0);
  for (const auto& t : options_.terms) {
    if (t.coordinate < 0 || t.coordinate >= options_.dim || t.link < 0 || t.link >= n || !std::isfinite(t.scale) ||
        t.scale == 0)
      throw std::invalid_argument("RobotCSpace: invalid mapping term");
    ++coordTerms[t.coordinate];
    ++linkTerms[t.link];
  }
  for (int k = 0; k < options_.dim; ++k)
    if (coordTerms[k] == 0) throw std::invalid_argument("RobotCSpace: a coordinate moves no link");
  for (int l = 0; l < n; ++l)
    if (linkTerms[l] > 1) throw std::invalid_argument("RobotCSpace: a link is driven by two coordinates");
  if (!(options_.collisionMargin >= 0)) throw std::invalid_argument("collisionMargin must be >= 0");
  margin_ = options_.collisionMargin;

  // Moving links: driven ones and their descendants (parents come first).
  moving_.assign(n, 0);
  for (const auto& t : options_.terms) moving_[t.link] = 1;
  for (int i = 0; i < n; ++i)
    if (robot.links[i].parent >= 0 && moving_[robot.links[i].parent]) moving_[i] = 1;

  // Coordinate bounds from the joint limits of the links they drive.
  qlo_ = robot.qMin;
  qhi_ = robot.qMax;
  lower_ = VectorX::Constant(options_.dim, -INFINITY);
  upper_ = VectorX::Constant(options_.dim, INFINITY);
  for (const auto& t : options_.terms) {
    double a = (qlo_[t.link] - options_.offset[t.link]) / t.scale;
    double b = (qhi_[t.link] - options_.offset[t.link]) / t.scale;
    if (a > b) std::swap(a, b);
    lower_[t.coordinate] = std::max(lower_[t.coordinate], a);
    upper_[t.coordinate] = std::min(upper_[t.coordinate], b);
  }

  // The template robot at the offset, with self pairs of fixed links off.
  auto tmpl = copyRobot(robot);
  tmpl->setConfig(options_.offset);
  bool fixedSelfCollision = false;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      if (!tmpl->selfCollisionEnabled(i, j) || moving_[i] || moving_[j]) continue;
      const Geometry &gi = *tmpl->links[i].geometry, &gj = *tmpl->links[j].geometry;
      if (!gi.empty() && !gj.empty() && collides(gi, gj)) fixedSelfCollision = true;
      tmpl->setSelfCollision(i, j, false);
    }
  for (const Link& l : tmpl->links) warmUp(*l.geometry);

  template_ = tmpl;
  linear_ = true;
  for (const Joint& j : robot.joints)
    if (j.type != JointType::Normal && j.type != JointType::Weld) linear_ = false;
  weights_ = VectorX::Zero(options_.dim);
  for (const auto& t : options_.terms) weights_[t.coordinate] += t.scale * t.scale;

  // Test names, as the reference's RobotCSpace orders them (and #148's robots).
  names_ = {"joint limits", "setconfig"};
  if (options_.hasCollider) names_.push_back("calcbb");
  selfTest_ = (int)names_.size();
  names_.push_back("self collision");
  if (options_.hasCollider) {
    numObjects_ = (int)world_->rigidObjects.size();
    numTerrains_ = (int)world_->terrains.size();
    for (size_t i = 0; i < world_->rigidObjects.size(); ++i)
      names_.push_back("obj collision " + std::to_string(i) + " " + world_->rigidObjects[i]->name);
    for (size_t i = 0; i < world_->terrains.size(); ++i)
      names_.push_back("terrain collision " + std::to_string(i) + " " + world_->terrains[i]->name);
    for (size_t i = 0; i < world_->robots.size(); ++i)
      if ((int)i != robotIndex_)
        names_.push_back("robot collision " + std::to_string(i) + " " + world_->robots[i]->name);
  }
  if (fixedSelfCollision) fixedFailure_ = selfTest_;

  env_ = buildEnvironment();
  // Pairs per moving link; a pair of a fixed link is decided once, now.
  linkPairs_.assign(n, {});
  for (size_t p = 0; p < options_.pairs.size(); ++p) {
    const auto& bp = options_.pairs[p];
    if (bp.link < 0 || bp.link >= n) throw std::invalid_argument("RobotCSpace: invalid link in a collision pair");
    if (bp.kind == RobotCSpaceOptions::BodyPair::Robot && bp.index == robotIndex_)
      throw std::invalid_argument("RobotCSpace: self pairs are not body pairs");
    if (template_->links[bp.link].geometry->empty()) continue;
    if (moving_[bp.link]) {
      linkPairs_[bp.link].push_back((int)p);
      continue;
    }
    const Environment::Body* b = env_->body(bp);
    if (b && fixedFailure_ < 0 &&
        withinDistance(*template_->links[bp.link].geometry, b->geom, options_.collisionMargin))
      fixedFailure_ = testOfPair(bp);
  }

  linkHulls_.assign(n, nullptr);
  for (int i = 0; i < n; ++i)
    if (!linkPairs_[i].empty()) linkHulls_[i] = shapeHull(template_->links[i].geometry->data);

  // Bound on how far any point of the robot moves per unit of each coordinate:
  // the distance from each driven joint's axis to the farthest geometry below it.
  reach_.assign(options_.dim, 0.0);
  std::vector<double> below(n, 0.0);  // farthest geometry point from link i's origin, over its subtree
  for (int i = n - 1; i >= 0; --i) {
    below[i] = std::max(below[i], radiusAboutOrigin(*template_->links[i].geometry));
    const int p = robot.links[i].parent;
    if (p >= 0) below[p] = std::max(below[p], below[i] + robot.links[i].parentTransform.t.norm());
  }
  for (const auto& t : options_.terms)
    reach_[t.coordinate] += std::fabs(t.scale) * (robot.links[t.link].prismatic ? 1.0 : below[t.link]);

  testCounts_.reset(new std::atomic<long>[names_.size()]);
  testFailures_.reset(new std::atomic<long>[names_.size()]);
  for (size_t i = 0; i < names_.size(); ++i) testCounts_[i] = testFailures_[i] = 0;
}

RobotCSpace::~RobotCSpace() = default;

int RobotCSpace::testOfPair(const RobotCSpaceOptions::BodyPair& p) const {
  using K = RobotCSpaceOptions::BodyPair;
  if (!options_.hasCollider) return selfTest_;  // unnamed: report as a collision
  // The counts the test names were made from: the world may gain or lose
  // bodies while a planner runs.
  const int objects = numObjects_, terrains = numTerrains_;
  const int first = selfTest_ + 1;
  if (p.kind == K::Object) return first + p.index;
  if (p.kind == K::Terrain) return first + objects + p.index;
  return first + objects + terrains + (p.index < robotIndex_ ? p.index : p.index - 1);
}

std::unique_ptr<RobotCSpace::State> RobotCSpace::newState() const {
  auto s = std::make_unique<State>();
  s->robot = copyRobot(*template_);
  s->q = options_.offset;
  s->selfTable.reset(*s->robot);
  return s;
}

std::shared_ptr<const RobotCSpace::Environment> RobotCSpace::buildEnvironment() const {
  auto env = std::make_shared<Environment>();
  auto place = [](const std::shared_ptr<Geometry>& g, Environment::Body& b) {
    if (!g || g->empty()) return;
    b.geom = *g;
    b.geom.sourceFile.clear();
    warmUp(b.geom);
    looseBoundingBox(b.geom, b.lo, b.hi);
    if (b.geom.data->type == GeometryType::TriangleMesh || b.geom.data->type == GeometryType::ConvexHull) {
      Vector3 lo, hi;
      tightBoundingBox(*b.geom.data, RigidTransform(), lo, hi);
      if ((hi - lo).allFinite()) {
        b.box = std::make_shared<const coal::Box>(hi - lo);
        b.boxPose = RigidTransform{b.geom.currentTransform.R, b.geom.currentTransform.apply(0.5 * (lo + hi))};
      }
    }
    b.present = true;
  };
  env->terrains.resize(world_->terrains.size());
  for (size_t i = 0; i < world_->terrains.size(); ++i) place(world_->terrains[i]->geometry, env->terrains[i]);
  env->objects.resize(world_->rigidObjects.size());
  for (size_t i = 0; i < world_->rigidObjects.size(); ++i) place(world_->rigidObjects[i]->geometry, env->objects[i]);
  env->robots.resize(world_->robots.size());
  for (size_t r = 0; r < world_->robots.size(); ++r) {
    if ((int)r == robotIndex_) continue;
    const Robot& other = *world_->robots[r];
    env->robots[r].resize(other.numLinks());
    for (int l = 0; l < other.numLinks(); ++l) place(other.links[l].geometry, env->robots[r][l]);
  }
  return env;
}

void RobotCSpace::syncEnvironment() {
  const auto env = std::atomic_load(&env_);
  auto same = [](const std::shared_ptr<Geometry>& g, const Environment::Body& b) {
    if (!g || g->empty()) return !b.present;
    return b.present && g->data == b.geom.data && g->margin == b.geom.margin &&
           g->currentTransform.R == b.geom.currentTransform.R && g->currentTransform.t == b.geom.currentTransform.t;
  };
  bool changed = env->terrains.size() != world_->terrains.size() ||
                 env->objects.size() != world_->rigidObjects.size() || env->robots.size() != world_->robots.size();
  for (size_t i = 0; !changed && i < world_->terrains.size(); ++i)
    changed = !same(world_->terrains[i]->geometry, env->terrains[i]);
  for (size_t i = 0; !changed && i < world_->rigidObjects.size(); ++i)
    changed = !same(world_->rigidObjects[i]->geometry, env->objects[i]);
  for (size_t r = 0; !changed && r < world_->robots.size(); ++r) {
    if ((int)r == robotIndex_) continue;
    const Robot& other = *world_->robots[r];
    changed = (int)env->robots[r].size() != other.numLinks();
    for (int l = 0; !changed && l < other.numLinks(); ++l) changed = !same(other.links[l].geometry, env->robots[r][l]);
  }
  if (changed) std::atomic_store(&env_, buildEnvironment());
}

void RobotCSpace::setCollisionMargin(double m) {
  if (!(m >= 0) || !std::isfinite(m)) throw std::invalid_argument("collisionMargin must be finite and >= 0");
  margin_ = m;
}

void RobotCSpace::lift(const Config& x, Config& q) const {
  if (x.size() != options_.dim)
    throw std::invalid_argument("configuration has " + std::to_string(x.size()) + " elements, the space has " +
                                std::to_string(options_.dim));
  q = options_.offset;
  for (const auto& t : options_.terms) q[t.link] += t.scale * x[t.coordinate];
}

void RobotCSpace::project(const Config& q, Config& x) const {
  x.resize(options_.dim);
  std::vector<char> set(options_.dim, 0);
  for (const auto& t : options_.terms) {
    if (set[t.coordinate]) continue;
    x[t.coordinate] = (q[t.link] - options_.offset[t.link]) / t.scale;
    set[t.coordinate] = 1;
  }
}

void RobotCSpace::sample(Rng& rng, Config& out) {
  out.resize(options_.dim);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int k = 0; k < options_.dim; ++k) {
    if (std::isfinite(lower_[k]) && std::isfinite(upper_[k]))
      out[k] = lower_[k] + (upper_[k] - lower_[k]) * unit(rng);
    else
      out[k] = 2 * M_PI * unit(rng);
  }
}

void RobotCSpace::sampleNeighborhood(const Config& c, double r, Rng& rng, Config& out) {
  out.resize(options_.dim);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int k = 0; k < options_.dim; ++k) {
    const double lo = std::max(lower_[k], c[k] - r), hi = std::min(upper_[k], c[k] + r);
    out[k] = lo <= hi ? lo + (hi - lo) * unit(rng) : c[k];
  }
}

double RobotCSpace::distance(const Config& a, const Config& b) {
  if (linear_) return std::sqrt(((a - b).array().square() * weights_.array()).sum());
  thread_local Config qa, qb;
  lift(a, qa);
  lift(b, qb);
  return configDistance(*template_, qa, qb);
}

void RobotCSpace::interpolate(const Config& a, const Config& b, double u, Config& out) {
  if (linear_) {
    out = a + u * (b - a);
    return;
  }
  thread_local Config qa, qb, q;
  lift(a, qa);
  lift(b, qb);
  interpolateConfig(*template_, qa, qb, u, q);
  project(q, out);
}

std::string RobotCSpace::constraintName(int i) const {
  if (i < 0 || i >= numConstraints()) throw std::out_of_range("constraint index out of range");
  return i < (int)names_.size() ? names_[i] : extras_[i - names_.size()].first;
}

void RobotCSpace::addExtraTest(const std::string& name, std::function<bool(const Config&)> test) {
  for (auto& e : extras_)
    if (e.first == name) {
      e.second = std::move(test);
      return;
    }
  extras_.emplace_back(name, std::move(test));
}

bool RobotCSpace::inLimits(const Config& q) const {
  for (Eigen::Index i = 0; i < q.size(); ++i)
    if (!(q[i] >= qlo_[i] && q[i] <= qhi_[i])) return false;  // NaN fails too
  return true;
}

bool RobotCSpace::linkHitsBody(int link, const Geometry& g, const Vector3& lo, const Vector3& hi,
                               const Body* b, double pad) const {
  if (!b || !boxesOverlap(lo, hi, b->lo, b->hi, pad)) return false;
  // The link's hull farther than tol from the body's box: so is the link
  // from the body, and the tree descent, slowest on such near misses, is
  // spared. GJK alone (no penetration depth), stopped as soon as the
  // distance is known to exceed the bound; the slack covers its tolerance.
  const coal::ConvexBase* hull = linkHulls_[link].get();
  if (hull && b->box) {
    thread_local coal::GJKSolver solver;
    const double bound = pad + g.margin + b->geom.margin + 1e-5;
    solver.distance_upper_bound = bound;
    coal::Vec3s p1, p2, normal;
    const double d = solver.shapeDistance(*hull, coal::Transform3s(g.currentTransform.R, g.currentTransform.t), *b->box,
                                          coal::Transform3s(b->boxPose.R, b->boxPose.t), false, p1, p2, normal);
    if (d > bound) return false;
  }
  return withinDistance(g, b->geom, pad);
}

int RobotCSpace::firstCollision(State& st, const Environment& env, int only) const {
  const Robot& robot = *st.robot;
  const double pad = margin_.load();
  const bool all = only < 0;
  auto selfCollides = [&] {
    const auto hit = st.selfTable.firstColliding(robot, st.lastSelfPair);
    if (hit.first >= 0) st.lastSelfPair = hit;
    return hit.first >= 0;
  };
  // The test that failed last in this state first (its pair for the bodies).
  bool selfTried = false;
  if (all && st.lastHitSelf) {
    if (selfCollides()) return selfTest_;
    st.lastHitSelf = false;
    selfTried = true;
  }
  const int tried = all ? st.lastHitPair : -1;
  if (tried >= 0) {
    const auto& bp = options_.pairs[tried];
    const Geometry& g = *robot.links[bp.link].geometry;
    Vector3 lo, hi;
    looseBoundingBox(g, lo, hi);
    if (linkHitsBody(bp.link, g, lo, hi, env.body(bp), pad)) return testOfPair(bp);
    st.lastHitPair = -1;
  }
  if (all || only != selfTest_) {
    for (int l = 0; l < robot.numLinks(); ++l) {
      if (linkPairs_[l].empty()) continue;
      const Geometry& g = *robot.links[l].geometry;
      Vector3 lo, hi;
      looseBoundingBox(g, lo, hi);
      for (int p : linkPairs_[l]) {
        if (p == tried) continue;
        const auto& bp = options_.pairs[p];
        const int test = testOfPair(bp);
        if (!all && test != only) continue;
        if (linkHitsBody(l, g, lo, hi, env.body(bp), pad)) {
          if (all) st.lastHitPair = p;
          return test;
        }
      }
    }
  }
  if ((all && !selfTried) || only == selfTest_) {
    if (selfCollides()) {
      if (all) st.lastHitSelf = true;
      return selfTest_;
    }
  }
  return -1;
}

bool RobotCSpace::checkFeasible(const Config& x) {
  const int nNative = (int)names_.size();
  auto fail = [&](int test) {
    testFailures_[std::min(test, nNative - 1)].fetch_add(1, std::memory_order_relaxed);
    return false;
  };
  testCounts_[0].fetch_add(1, std::memory_order_relaxed);
  if (fixedFailure_ >= 0) return fail(fixedFailure_);
  {
    Lease st(*this);
    lift(x, st->q);
    if (!inLimits(st->q)) return fail(0);
    st->robot->setConfig(st->q);
    const auto env = std::atomic_load(&env_);
    const int hit = firstCollision(*st, *env);
    if (hit >= 0) return fail(hit);
  }
  for (const auto& e : extras_)
    if (!e.second(x)) return false;
  return true;
}

bool RobotCSpace::testFeasibility(int i, const Config& x) {
  if (i < 0 || i >= numConstraints()) throw std::out_of_range("constraint index out of range");
  if (i >= (int)names_.size()) return extras_[i - names_.size()].second(x);
  if (i == fixedFailure_) return false;
  Lease st(*this);
  lift(x, st->q);
  if (i == 0) return inLimits(st->q);
  if (names_[i] == "setconfig" || names_[i] == "calcbb") return true;
  st->robot->setConfig(st->q);
  const auto env = std::atomic_load(&env_);
  return firstCollision(*st, *env, i) < 0;
}

double RobotCSpace::clearance(const Config& x) {
  Lease st(*this);
  lift(x, st->q);
  st->robot->setConfig(st->q);
  const Robot& robot = *st->robot;
  const auto env = std::atomic_load(&env_);
  const double pad = margin_.load();
  DistanceQuerySettings settings;
  double best = INFINITY;
  std::vector<Vector3> lo(robot.numLinks()), hi(robot.numLinks());
  for (int l = 0; l < robot.numLinks(); ++l)
    if (!robot.links[l].geometry->empty()) looseBoundingBox(*robot.links[l].geometry, lo[l], hi[l]);
  for (int l = 0; l < robot.numLinks(); ++l) {
    const Geometry& g = *robot.links[l].geometry;
    for (int p : linkPairs_[l]) {
      const Environment::Body* b = env->body(options_.pairs[p]);
      if (!b || boxGap(lo[l], hi[l], b->lo, b->hi) - pad >= best) continue;
      settings.upperBound = best + pad;
      best = std::min(best, klampt::distance(g, b->geom, settings).d - pad);
    }
  }
  // Two links of the robot can approach each other from both sides: half of
  // their gap is what each may move.
  for (int i = 0; i < robot.numLinks(); ++i)
    for (int j = i + 1; j < robot.numLinks(); ++j) {
      if (!robot.selfCollisionEnabled(i, j) || robot.links[i].geometry->empty() || robot.links[j].geometry->empty())
        continue;
      if (0.5 * boxGap(lo[i], hi[i], lo[j], hi[j]) >= best) continue;
      settings.upperBound = 2 * best;
      best = std::min(best, 0.5 * klampt::distance(*robot.links[i].geometry, *robot.links[j].geometry, settings).d);
    }
  return best;
}

bool RobotCSpace::conservativeVisible(const Config& a, const Config& b, double ca, double cb, int depth) {
  double motion = 0;  // bound on any point's displacement from a to b
  for (int k = 0; k < options_.dim; ++k) motion += std::fabs(b[k] - a[k]) * reach_[k];
  // Each configuration between a and b is within its share of `motion` of
  // one of them, so clearances that together exceed it keep the edge free.
  if (ca + cb > motion) return true;
  if (depth > 40) return false;  // clearance ~0 over a vanishing stretch: grazing
  Config m;
  interpolate(a, b, 0.5, m);
  if (!isFeasible(m)) return false;
  const double cm = clearance(m);
  if (!(cm > 0)) return false;
  return conservativeVisible(a, m, ca, cm, depth + 1) && conservativeVisible(m, b, cm, cb, depth + 1);
}

bool RobotCSpace::checkVisible(const Config& a, const Config& b) {
  if (!options_.conservativeEdges) return CSpace::checkVisible(a, b);
  const double ca = clearance(a), cb = clearance(b);
  if (!(ca > 0) || !(cb > 0)) return false;
  return conservativeVisible(a, b, ca, cb, 0);
}

void RobotCSpace::extraStats(std::map<std::string, std::string>& out) const {
  const double n = (double)testCounts_[0].load();
  for (size_t i = 0; i < names_.size(); ++i) {
    const double f = (double)testFailures_[i].load();
    out[names_[i] + "_feasible_count"] = formatNumber(n);
    out[names_[i] + "_feasible_probability"] = formatNumber(n > 0 ? 1.0 - f / n : 0.0);
  }
}

}  // namespace plan
}  // namespace klampt
