// A C-space assembled from callbacks: named feasibility tests, optionally run
// in an adaptive order (cheap, often-failing tests first, as the reference's
// adaptive queries), optional edge tests, and sampler / metric /
// interpolation callbacks. CSpaceInterface fills one with Python callables.
// Every edit publishes a new immutable set-up, so a planner running in
// another thread keeps a consistent one for the query in progress.
#pragma once
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>
#include "klampt/plan/cspace.h"

namespace klampt {
namespace plan {

class TestedSpace : public CSpace {
 public:
  using Test = std::function<bool(const Config&)>;
  using EdgeTest = std::function<bool(const Config&, const Config&)>;
  using Sampler = std::function<void(Config&)>;
  using NeighborhoodSampler = std::function<void(const Config&, double, Config&)>;
  using Metric = std::function<double(const Config&, const Config&)>;
  using Interpolator = std::function<void(const Config&, const Config&, double, Config&)>;

  TestedSpace();
  /// Takes over another space's callbacks, tests, eps and properties.
  void copyFrom(const TestedSpace& other);

  /// Required by sample(); the others fall back to CSpace's defaults when unset.
  void setSampler(Sampler f);
  void setNeighborhoodSampler(NeighborhoodSampler f);
  void setDistance(Metric f);
  void setInterpolate(Interpolator f);

  int dim() const override;
  void sample(Rng& rng, Config& out) override;
  void sampleNeighborhood(const Config& c, double r, Rng& rng, Config& out) override;
  double distance(const Config& a, const Config& b) override;
  void interpolate(const Config& a, const Config& b, double u, Config& out) override;

  /// Replaces every test by one named "feasible".
  void setFeasibility(Test f);
  /// Adds a test, or replaces the one of that name.
  void addFeasibilityTest(const std::string& name, Test f);
  /// Replaces every edge test by one.
  void setVisibility(EdgeTest f);
  /// Adds an edge test, or replaces the one of that name.
  void addVisibilityTest(const std::string& name, EdgeTest f);
  /// Drops the edge tests: edges are then checked by bisection to eps (> 0).
  void setVisibilityEpsilon(double eps) override;
  bool hasVisibilityTests() const;

  int numConstraints() const override;
  std::string constraintName(int i) const override;
  /// Runs test i (after the tests it depends on).
  bool testFeasibility(int i, const Config& q) override;
  /// One edge test, or a feasibility test of that name checked along the edge.
  bool testVisibility(const std::string& name, const Config& a, const Config& b) override;
  std::vector<std::string> visibilityFailures(const Config& a, const Config& b) override;
  bool bisectionEdges() const override { return !hasVisibilityTests(); }

  // Adaptive queries: per-test statistics and a cost-minimizing order.
  void enableAdaptiveQueries(bool enabled) override;
  bool adaptiveQueriesEnabled() const override;
  /// Orders the tests by expected cost per rejection (time / failure rate),
  /// keeping every test after the tests it depends on.
  void optimizeQueryOrder() override;
  void beginPlanning() override { optimizeQueryOrder(); }
  /// Test `name` must run after `preceding` (edge tests when `edge`).
  /// std::runtime_error if adaptive queries are off or a name is unknown.
  void setDependency(const std::string& name, const std::string& preceding, bool edge);
  void setPrior(const std::string& name, double cost, double probability, double strength, bool edge);
  double testCost(const std::string& name, bool edge) const;
  double testProbability(const std::string& name, bool edge) const;
  std::vector<std::string> queryOrder(bool edge) const override;

  /// Sets the dimension dim() reports, unless a sample already did. Then
  /// samples and interpolated configurations of another size throw
  /// std::invalid_argument.
  void noteDimension(int n) override;

 protected:
  bool checkFeasible(const Config& q) override;
  bool checkVisible(const Config& a, const Config& b) override;
  void extraStats(std::map<std::string, std::string>& out) const override;

 private:
  /// One named test; immutable once published except for its statistics.
  struct Record {
    std::string name;
    Test f;
    EdgeTest edge;
    std::vector<int> dependencies;
    double costPrior = 0, probabilityPrior = 0, strength = 1;
    std::shared_ptr<QueryStats> stats = std::make_shared<QueryStats>();
    double cost() const;
    double probability() const;
  };
  struct Setup {
    std::vector<std::shared_ptr<const Record>> tests, edgeTests;
    std::vector<int> order, edgeOrder;
    Sampler sampler;
    NeighborhoodSampler neighborhood;
    Metric metric;
    Interpolator interpolator;
    bool adaptive = false;
  };
  using SetupPtr = std::shared_ptr<const Setup>;
  SetupPtr current() const;
  /// Applies `edit` to a copy of the set-up and publishes it.
  void edit(const std::function<void(Setup&)>& change);
  static int find(const std::vector<std::shared_ptr<const Record>>& recs, const std::string& name);
  const Record& record(const Setup& s, const std::string& name, bool edge) const;
  bool run(const Setup& s, const Record& t, const Config& q) const;
  bool runDependencies(const Setup& s, int i, const Config& q, std::vector<char>& done) const;
  /// std::invalid_argument unless a callback's result `out` has the space's size.
  void checkResult(const Config& out, const char* what) const;

  SetupPtr setup_;
  std::mutex editMutex_;  // serializes writers; readers take a snapshot
  std::atomic<int> dimension_{-1};
};

}  // namespace plan
}  // namespace klampt
