// The configuration space the planners work in: sampling, metric and
// interpolation, named feasibility tests, edge (visibility) checks at a
// resolution eps, and query statistics. Implementations: TestedSpace
// (callbacks, e.g. Python functions) and RobotCSpace (native robot checks).
#pragma once
#include <atomic>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <vector>
#include "klampt/math/types.h"

namespace klampt {
namespace plan {

using Config = VectorX;
using Rng = std::mt19937_64;

/// Adds x to an atomic double (no fetch_add for doubles before C++20).
void atomicAdd(std::atomic<double>& a, double x);

/// Counts of one kind of query: how many, how many passed, time spent and,
/// for edges, the summed lengths of passing and failing ones. Thread-safe.
struct QueryStats {
  std::atomic<long> count{0}, passed{0};
  std::atomic<double> seconds{0}, passedLength{0}, failedLength{0};
  void record(bool ok, double secs, double length = 0);
  void reset();
};

/// A space planners can query from several threads at once, as long as the
/// implementation allows it (native spaces do; callback spaces serialize on
/// their callbacks).
class CSpace {
 public:
  virtual ~CSpace() = default;

  virtual int dim() const = 0;
  /// Tells a space that does not know its dimension (dim() < 0) what its
  /// configurations' size is, once a plan learns it from its endpoints.
  virtual void noteDimension(int /*n*/) {}
  /// A configuration from (a superset of) the feasible space.
  virtual void sample(Rng& rng, Config& out) = 0;
  /// A configuration near c, within r; default: uniform in the box of half-width r.
  virtual void sampleNeighborhood(const Config& c, double r, Rng& rng, Config& out);
  /// Default: Euclidean. Configurations of different sizes throw
  /// std::invalid_argument (here and in interpolate).
  virtual double distance(const Config& a, const Config& b);
  /// Default: linear, out = a + u (b - a).
  virtual void interpolate(const Config& a, const Config& b, double u, Config& out);

  /// The named feasibility tests, in their current order.
  virtual int numConstraints() const = 0;
  virtual std::string constraintName(int i) const = 0;
  /// Runs one test alone; out of range throws std::out_of_range.
  virtual bool testFeasibility(int i, const Config& q) = 0;
  /// Index of a named test, -1 if none.
  int constraintIndex(const std::string& name) const;
  /// Names of the tests q fails.
  std::vector<std::string> feasibilityFailures(const Config& q);
  /// The edge checked by one named test. Default: the whole edge check, for
  /// a test the space has (else std::runtime_error "Invalid constraint name").
  virtual bool testVisibility(const std::string& name, const Config& a, const Config& b);
  /// Names of the edge tests the edge fails. Default: "visible" if it is not visible.
  virtual std::vector<std::string> visibilityFailures(const Config& a, const Config& b);
  /// The feasibility tests (edge: the edge tests) in the order they run.
  /// Default: the constraints in index order, and no edge tests.
  virtual std::vector<std::string> queryOrder(bool edge) const;
  /// Per-test statistics that reorder the tests; by default a space has none.
  virtual void enableAdaptiveQueries(bool /*enabled*/) {}
  virtual bool adaptiveQueriesEnabled() const { return false; }
  virtual void optimizeQueryOrder() {}

  /// All tests (counted and timed in stats()).
  bool isFeasible(const Config& q);
  /// The straight (interpolated) edge from a to b, both feasible (counted).
  bool isVisible(const Config& a, const Config& b);
  /// True when isVisible is a bisection of isFeasible down to eps(), so that
  /// planners may check edges incrementally (BisectionEdge) instead.
  virtual bool bisectionEdges() const { return true; }
  /// Records an edge checked outside isVisible (incrementally), for stats().
  void recordEdge(bool ok, double seconds, double length);

  /// Called at the start of each planMore (adaptive spaces re-order their tests).
  virtual void beginPlanning() {}

  /// Edge resolution in distance() units; read at every check.
  double eps() const { return eps_.load(std::memory_order_relaxed); }
  void setEps(double eps) { eps_.store(eps, std::memory_order_relaxed); }
  /// Checks edges by bisection to eps (> 0, else std::runtime_error "Invalid epsilon").
  virtual void setVisibilityEpsilon(double eps);

  /// Planner hints ("euclidean", "geodesic", "minimum", "maximum", "volume",
  /// "metricWeights", ...), read by planners when they are created.
  void setProperty(const std::string& key, const std::string& value);
  /// False if the property is not set.
  bool property(const std::string& key, std::string& value) const;
  std::map<std::string, std::string> properties() const;
  /// Reads a property as numbers; false if absent or not numbers.
  bool numericProperty(const std::string& key, std::vector<double>& out) const;

  /// feasible_*, visible_*, average_(not)visible_length, plus what
  /// extraStats() adds; values formatted as the reference does ("%g").
  std::map<std::string, std::string> stats() const;
  void resetStats();

 protected:
  /// All tests, first failure stops. Default: testFeasibility in order.
  virtual bool checkFeasible(const Config& q);
  /// Default: bisection of checkFeasible to eps().
  virtual bool checkVisible(const Config& a, const Config& b);
  virtual void extraStats(std::map<std::string, std::string>& /*out*/) const {}

 private:
  std::atomic<double> eps_{1e-3};
  mutable std::mutex propertiesMutex_;
  std::map<std::string, std::string> properties_;
  QueryStats feasibleStats_, visibleStats_;
};

/// Formats like C++ streams' default (6 significant digits): the reference's
/// stats strings.
std::string formatNumber(double x);

}  // namespace plan
}  // namespace klampt
