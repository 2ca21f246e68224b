// The native robot C-space: coordinates x of some of a robot's DOFs (a
// subset, or affine driver values) mapped to full configurations
// q = offset + A x; tests joint limits, self collision and collision with
// terrains, rigid objects and other robots (per-link world boxes first, then
// the geometry), with an optional clearance margin and an edge check by
// bisection or by a conservative swept-motion bound. It never touches the
// world's robot: it keeps copies of the kinematic state (one per concurrent
// query) and snapshots of the other bodies' placements, sharing only the
// read-only shape data, so planners in several threads can use it at once.
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>
#include "klampt/geometry/geometry.h"
#include "klampt/model/world.h"
#include "klampt/plan/cspace.h"

namespace coal {
class ConvexBase;
}

namespace klampt {
namespace plan {

struct RobotCSpaceOptions {
  /// q = offset + sum of scale * x[coordinate] into q[link], per term.
  struct Term {
    int coordinate, link;
    double scale;
  };
  VectorX offset;
  std::vector<Term> terms;
  int dim = 0;
  /// Link-vs-body pairs to test (from the collider's mask): the body is a
  /// terrain, a rigid object, or link `otherLink` of robot `index`.
  struct BodyPair {
    enum Kind { Terrain, Object, Robot } kind;
    int link, index, otherLink;
  };
  std::vector<BodyPair> pairs;
  /// Whether the environment tests are named (a collider was given).
  bool hasCollider = false;
  /// Distances to other bodies below this (m) count as collisions (self
  /// collision keeps the robot model's own margins).
  double collisionMargin = 0;
  /// Edge check: bisection to eps, or a conservative check that no point of
  /// the robot moves farther than its clearance between checked configurations.
  bool conservativeEdges = false;
  /// Edge-check resolution (> 0).
  double eps = 1e-3;
};

class RobotCSpace : public CSpace {
 public:
  /// Throws std::runtime_error for eps <= 0, std::invalid_argument for an
  /// inconsistent mapping or pair.
  RobotCSpace(std::shared_ptr<World> world, int robotIndex, const RobotCSpaceOptions& options);
  ~RobotCSpace() override;

  int dim() const override { return options_.dim; }
  /// Uniform within the coordinate bounds (a coordinate with an infinite
  /// bound: uniform in [0, 2 pi], as the reference).
  void sample(Rng& rng, Config& out) override;
  /// Uniform in the box of half-width r around c, clamped to the bounds.
  void sampleNeighborhood(const Config& c, double r, Rng& rng, Config& out) override;
  /// The robot's configuration distance between the lifted configurations.
  double distance(const Config& a, const Config& b) override;
  /// The robot's interpolation (spin joints wrap) of the lifted configurations.
  void interpolate(const Config& a, const Config& b, double u, Config& out) override;

  int numConstraints() const override { return (int)names_.size() + (int)extras_.size(); }
  std::string constraintName(int i) const override;
  bool testFeasibility(int i, const Config& x) override;
  bool bisectionEdges() const override { return !options_.conservativeEdges; }

  /// A test run after the native ones (e.g. a Python constraint), on x.
  void addExtraTest(const std::string& name, std::function<bool(const Config&)> test);

  /// Number of robot DOFs (the size of lifted configurations).
  int robotDim() const { return (int)options_.offset.size(); }
  void lift(const Config& x, Config& q) const;
  void project(const Config& q, Config& x) const;
  const VectorX& lower() const { return lower_; }
  const VectorX& upper() const { return upper_; }

  double collisionMargin() const { return margin_.load(); }
  void setCollisionMargin(double m);
  /// Re-reads the placements of the other bodies (terrains, objects, other
  /// robots) when they moved. Call while nothing edits the world.
  void syncEnvironment();
  /// The world the space was made in.
  const World& world() const { return *world_; }
  /// Smallest distance from the robot (at x) to the tested bodies minus the
  /// margin, or half the gap of a self-collision pair if smaller; negative
  /// when colliding.
  double clearance(const Config& x);

 protected:
  bool checkFeasible(const Config& x) override;
  bool checkVisible(const Config& a, const Config& b) override;
  void extraStats(std::map<std::string, std::string>& out) const override;

 private:
  struct State;
  struct Environment;
  struct Body;
  class Lease;
  std::unique_ptr<State> newState() const;
  std::shared_ptr<const Environment> buildEnvironment() const;
  bool inLimits(const Config& q) const;
  /// The test a link-body pair belongs to.
  int testOfPair(const RobotCSpaceOptions::BodyPair& p) const;
  /// -1 if q (placed in st) collides with nothing, else the failing test.
  int firstCollision(State& st, const Environment& env, int only = -1) const;
  /// Whether `link` (geometry g placed, world box lo-hi) is within pad of body b
  /// (null: absent): boxes, then the separating-slab test, then the geometry.
  bool linkHitsBody(int link, const Geometry& g, const Vector3& lo, const Vector3& hi, const Body* b,
                    double pad) const;
  bool conservativeVisible(const Config& a, const Config& b, double ca, double cb, int depth);

  std::shared_ptr<World> world_;
  int robotIndex_;
  RobotCSpaceOptions options_;
  std::shared_ptr<const Robot> template_;  // the robot at offset, self pairs of moving links only
  std::vector<char> moving_;
  std::vector<std::vector<int>> linkPairs_;  // per link: indices into options_.pairs
  std::vector<std::shared_ptr<const coal::ConvexBase>> linkHulls_;  // per moving link with pairs: its hull, or null
  VectorX lower_, upper_, qlo_, qhi_;
  /// Only normal / weld joints, one coordinate per link: the metric is a
  /// weighted Euclidean one and interpolation is linear in x.
  bool linear_ = true;
  VectorX weights_;
  std::vector<double> reach_;  // per coordinate: bound on any point's motion per unit of x
  std::vector<std::string> names_;  // native tests
  int numObjects_ = 0, numTerrains_ = 0;  // bodies of the world when the names were made
  int selfTest_ = 3, fixedFailure_ = -1;
  std::vector<std::pair<std::string, std::function<bool(const Config&)>>> extras_;
  std::atomic<double> margin_{0};
  std::shared_ptr<const Environment> env_;
  mutable std::mutex poolMutex_;
  mutable std::vector<std::unique_ptr<State>> pool_;
  std::unique_ptr<std::atomic<long>[]> testCounts_, testFailures_;
};

}  // namespace plan
}  // namespace klampt
