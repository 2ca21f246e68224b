#include "klampt/plan/tested_space.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace klampt {
namespace plan {

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

double TestedSpace::Record::cost() const {
  const double n = (double)stats->count.load();
  return (costPrior * strength + stats->seconds.load()) / (strength + n);
}

double TestedSpace::Record::probability() const {
  const double n = (double)stats->count.load();
  return (probabilityPrior * strength + (double)stats->passed.load()) / (strength + n);
}

TestedSpace::TestedSpace() : setup_(std::make_shared<Setup>()) {}

void TestedSpace::copyFrom(const TestedSpace& other) {
  std::atomic_store(&setup_, other.current());
  setEps(other.eps());
  for (const auto& [k, v] : other.properties()) setProperty(k, v);
  dimension_.store(other.dim());
}

TestedSpace::SetupPtr TestedSpace::current() const { return std::atomic_load(&setup_); }

void TestedSpace::edit(const std::function<void(Setup&)>& change) {
  std::lock_guard<std::mutex> lock(editMutex_);
  auto next = std::make_shared<Setup>(*current());
  change(*next);
  std::atomic_store(&setup_, SetupPtr(std::move(next)));
}

int TestedSpace::find(const std::vector<std::shared_ptr<const Record>>& recs, const std::string& name) {
  for (size_t i = 0; i < recs.size(); ++i)
    if (recs[i]->name == name) return (int)i;
  return -1;
}

const TestedSpace::Record& TestedSpace::record(const Setup& s, const std::string& name, bool edge) const {
  const auto& recs = edge ? s.edgeTests : s.tests;
  const int i = find(recs, name);
  if (i < 0) throw std::runtime_error("Invalid constraint name");
  return *recs[i];
}

void TestedSpace::setSampler(Sampler f) {
  edit([&](Setup& s) { s.sampler = std::move(f); });
}
void TestedSpace::setNeighborhoodSampler(NeighborhoodSampler f) {
  edit([&](Setup& s) { s.neighborhood = std::move(f); });
}
void TestedSpace::setDistance(Metric f) {
  edit([&](Setup& s) { s.metric = std::move(f); });
}
void TestedSpace::setInterpolate(Interpolator f) {
  edit([&](Setup& s) { s.interpolator = std::move(f); });
}

int TestedSpace::dim() const { return dimension_.load(); }

void TestedSpace::sample(Rng&, Config& out) {
  const SetupPtr s = current();
  if (!s->sampler) throw std::runtime_error("Python sample method not defined");
  s->sampler(out);
  int unknown = -1;
  dimension_.compare_exchange_strong(unknown, (int)out.size());
}

void TestedSpace::sampleNeighborhood(const Config& c, double r, Rng& rng, Config& out) {
  const SetupPtr s = current();
  if (s->neighborhood)
    s->neighborhood(c, r, out);
  else
    CSpace::sampleNeighborhood(c, r, rng, out);
}

double TestedSpace::distance(const Config& a, const Config& b) {
  const SetupPtr s = current();
  return s->metric ? s->metric(a, b) : CSpace::distance(a, b);
}

void TestedSpace::interpolate(const Config& a, const Config& b, double u, Config& out) {
  const SetupPtr s = current();
  if (s->interpolator)
    s->interpolator(a, b, u, out);
  else
    CSpace::interpolate(a, b, u, out);
}

void TestedSpace::setFeasibility(Test f) {
  edit([&](Setup& s) {
    auto r = std::make_shared<Record>();
    r->name = "feasible";
    r->f = std::move(f);
    s.tests = {r};
    s.order = {0};
  });
}

void TestedSpace::addFeasibilityTest(const std::string& name, Test f) {
  edit([&](Setup& s) {
    const int i = find(s.tests, name);
    auto r = i >= 0 ? std::make_shared<Record>(*s.tests[i]) : std::make_shared<Record>();
    r->name = name;
    r->f = std::move(f);
    if (i >= 0) {
      s.tests[i] = r;
    } else {
      s.tests.push_back(r);
      s.order.push_back((int)s.tests.size() - 1);
    }
  });
}

void TestedSpace::setVisibility(EdgeTest f) {
  edit([&](Setup& s) {
    auto r = std::make_shared<Record>();
    r->name = "visible";
    r->edge = std::move(f);
    s.edgeTests = {r};
    s.edgeOrder = {0};
  });
}

void TestedSpace::addVisibilityTest(const std::string& name, EdgeTest f) {
  edit([&](Setup& s) {
    const int i = find(s.edgeTests, name);
    auto r = i >= 0 ? std::make_shared<Record>(*s.edgeTests[i]) : std::make_shared<Record>();
    r->name = name;
    r->edge = std::move(f);
    if (i >= 0) {
      s.edgeTests[i] = r;
    } else {
      s.edgeTests.push_back(r);
      s.edgeOrder.push_back((int)s.edgeTests.size() - 1);
    }
  });
}

void TestedSpace::setVisibilityEpsilon(double eps) {
  if (!(eps > 0)) throw std::runtime_error("Invalid epsilon");
  edit([](Setup& s) {
    s.edgeTests.clear();
    s.edgeOrder.clear();
  });
  setEps(eps);
}

bool TestedSpace::hasVisibilityTests() const { return !current()->edgeTests.empty(); }

int TestedSpace::numConstraints() const { return (int)current()->tests.size(); }

std::string TestedSpace::constraintName(int i) const {
  const SetupPtr s = current();
  if (i < 0 || i >= (int)s->order.size()) throw std::out_of_range("constraint index out of range");
  return s->tests[s->order[i]]->name;
}

bool TestedSpace::run(const Setup& s, const Record& t, const Config& q) const {
  if (!t.f) throw std::runtime_error("Python feasible test for constraint " + t.name + " not defined");
  if (!s.adaptive) return t.f(q);
  const double t0 = now();
  const bool ok = t.f(q);
  t.stats->record(ok, now() - t0);
  return ok;
}

bool TestedSpace::runDependencies(const Setup& s, int i, const Config& q, std::vector<char>& done) const {
  for (int d : s.tests[i]->dependencies) {
    if (done[d]) continue;
    done[d] = 1;
    if (!runDependencies(s, d, q, done) || !run(s, *s.tests[d], q)) return false;
  }
  return true;
}

bool TestedSpace::testFeasibility(int i, const Config& q) {
  const SetupPtr s = current();
  if (i < 0 || i >= (int)s->order.size()) throw std::out_of_range("constraint index out of range");
  const int t = s->order[i];
  std::vector<char> done(s->tests.size(), 0);
  done[t] = 1;
  // A test that relies on another (e.g. on "setconfig") gets it run first;
  // a failing prerequisite still lets the test itself decide.
  runDependencies(*s, t, q, done);
  return run(*s, *s->tests[t], q);
}

bool TestedSpace::checkFeasible(const Config& q) {
  const SetupPtr s = current();
  if (s->tests.empty()) throw std::runtime_error("Python feasible method not defined");
  for (int i : s->order)
    if (!run(*s, *s->tests[i], q)) return false;
  return true;
}

bool TestedSpace::checkVisible(const Config& a, const Config& b) {
  const SetupPtr s = current();
  if (s->edgeTests.empty()) return CSpace::checkVisible(a, b);
  for (int i : s->edgeOrder) {
    const Record& t = *s->edgeTests[i];
    if (!t.edge) throw std::runtime_error("Python visible test for constraint " + t.name + " not defined");
    const double t0 = now();
    const bool ok = t.edge(a, b);
    if (s->adaptive) t.stats->record(ok, now() - t0);
    if (!ok) return false;
  }
  return true;
}

bool TestedSpace::testVisibility(const std::string& name, const Config& a, const Config& b) {
  const SetupPtr s = current();
  const int i = find(s->edgeTests, name);
  if (i >= 0) {
    if (!s->edgeTests[i]->edge) throw std::runtime_error("Python visible test for constraint " + name + " not defined");
    return s->edgeTests[i]->edge(a, b);
  }
  const int f = find(s->tests, name);
  if (f < 0) throw std::runtime_error("Invalid constraint name");
  // Without an edge test of its own, the feasibility test is checked at eps
  // steps along the edge.
  Config x;
  const double L = distance(a, b), h = eps();
  const int n = std::max(1, (int)std::ceil(L / h));
  for (int k = 0; k <= n; ++k) {
    interpolate(a, b, (double)k / n, x);
    if (!run(*s, *s->tests[f], x)) return false;
  }
  return true;
}

std::vector<std::string> TestedSpace::visibilityFailures(const Config& a, const Config& b) {
  const SetupPtr s = current();
  std::vector<std::string> out;
  const auto& recs = s->edgeTests.empty() ? s->tests : s->edgeTests;
  const auto& order = s->edgeTests.empty() ? s->order : s->edgeOrder;
  for (int i : order)
    if (!testVisibility(recs[i]->name, a, b)) out.push_back(recs[i]->name);
  return out;
}

void TestedSpace::enableAdaptiveQueries(bool enabled) {
  edit([&](Setup& s) { s.adaptive = enabled; });
}

bool TestedSpace::adaptiveQueriesEnabled() const { return current()->adaptive; }

void TestedSpace::setDependency(const std::string& name, const std::string& preceding, bool edge) {
  edit([&](Setup& s) {
    if (!s.adaptive) throw std::runtime_error("adaptive queries not enabled for this space");
    auto& recs = edge ? s.edgeTests : s.tests;
    const int i = find(recs, name), j = find(recs, preceding);
    if (i < 0 || j < 0 || i == j) throw std::runtime_error("Invalid dependency");
    auto r = std::make_shared<Record>(*recs[i]);
    if (std::find(r->dependencies.begin(), r->dependencies.end(), j) == r->dependencies.end())
      r->dependencies.push_back(j);
    recs[i] = r;
  });
}

void TestedSpace::setPrior(const std::string& name, double cost, double probability, double strength, bool edge) {
  edit([&](Setup& s) {
    auto& recs = edge ? s.edgeTests : s.tests;
    const int i = find(recs, name);
    if (i < 0) throw std::runtime_error("Invalid constraint name");
    auto r = std::make_shared<Record>(*recs[i]);
    r->costPrior = cost;
    r->probabilityPrior = probability;
    r->strength = strength;
    r->stats = std::make_shared<QueryStats>();
    recs[i] = r;
  });
}

double TestedSpace::testCost(const std::string& name, bool edge) const {
  const SetupPtr s = current();
  return record(*s, name, edge).cost();
}

double TestedSpace::testProbability(const std::string& name, bool edge) const {
  const SetupPtr s = current();
  return record(*s, name, edge).probability();
}

std::vector<std::string> TestedSpace::queryOrder(bool edge) const {
  const SetupPtr s = current();
  std::vector<std::string> out;
  for (int i : edge ? s->edgeOrder : s->order) out.push_back((edge ? s->edgeTests : s->tests)[i]->name);
  return out;
}

namespace {

/// Greedy order: among the tests whose dependencies are placed, the one with
/// the least expected cost per rejection; ties keep the current order.
template <class Recs>
std::vector<int> costOrder(const Recs& recs, const std::vector<int>& current) {
  const int n = (int)recs.size();
  std::vector<char> placed(n, 0);
  std::vector<int> out;
  while ((int)out.size() < n) {
    int best = -1;
    double bestScore = INFINITY;
    for (int i : current) {
      if (placed[i]) continue;
      bool ready = true;
      for (int d : recs[i]->dependencies) ready = ready && placed[d];
      if (!ready) continue;
      const double fail = 1.0 - recs[i]->probability();
      const double score = fail > 0 ? recs[i]->cost() / fail : INFINITY;
      if (best < 0 || score < bestScore) {
        best = i;
        bestScore = score;
      }
    }
    if (best < 0)  // a dependency cycle: keep the rest as they were
      for (int i : current)
        if (!placed[i]) best = i;
    placed[best] = 1;
    out.push_back(best);
  }
  return out;
}

}  // namespace

void TestedSpace::optimizeQueryOrder() {
  if (!current()->adaptive) return;
  edit([](Setup& s) {
    s.order = costOrder(s.tests, s.order);
    s.edgeOrder = costOrder(s.edgeTests, s.edgeOrder);
  });
}

void TestedSpace::extraStats(std::map<std::string, std::string>& out) const {
  const SetupPtr s = current();
  if (!s->adaptive) return;
  for (const auto& t : s->tests) {
    const long n = t->stats->count.load();
    out[t->name + "_feasible_count"] = formatNumber((double)n);
    out[t->name + "_feasible_probability"] = formatNumber(n ? (double)t->stats->passed.load() / n : 0.0);
    out[t->name + "_feasible_time"] = formatNumber(n ? t->stats->seconds.load() / n : 0.0);
  }
}

}  // namespace plan
}  // namespace klampt
