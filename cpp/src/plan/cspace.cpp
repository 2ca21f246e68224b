#include "klampt/plan/cspace.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include "klampt/plan/edge_check.h"

namespace klampt {
namespace plan {

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void checkSameSize(const Config& a, const Config& b) {
  if (a.size() != b.size())
    throw std::invalid_argument("configurations of different sizes: " + std::to_string(a.size()) + " and " +
                                std::to_string(b.size()));
}

}  // namespace

void atomicAdd(std::atomic<double>& a, double x) {
  double old = a.load(std::memory_order_relaxed);
  while (!a.compare_exchange_weak(old, old + x, std::memory_order_relaxed)) {
  }
}

void QueryStats::record(bool ok, double secs, double length) {
  count.fetch_add(1, std::memory_order_relaxed);
  if (ok) passed.fetch_add(1, std::memory_order_relaxed);
  atomicAdd(seconds, secs);
  if (length != 0) atomicAdd(ok ? passedLength : failedLength, length);
}

void QueryStats::reset() {
  count = 0;
  passed = 0;
  seconds = 0;
  passedLength = 0;
  failedLength = 0;
}

std::string formatNumber(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

void CSpace::sampleNeighborhood(const Config& c, double r, Rng& rng, Config& out) {
  std::uniform_real_distribution<double> u(-r, r);
  out.resize(c.size());
  for (Eigen::Index i = 0; i < c.size(); ++i) out[i] = c[i] + u(rng);
}

double CSpace::distance(const Config& a, const Config& b) {
  checkSameSize(a, b);
  return (a - b).norm();
}

void CSpace::interpolate(const Config& a, const Config& b, double u, Config& out) {
  checkSameSize(a, b);
  out = a + u * (b - a);
}

int CSpace::constraintIndex(const std::string& name) const {
  for (int i = 0; i < numConstraints(); ++i)
    if (constraintName(i) == name) return i;
  return -1;
}

std::vector<std::string> CSpace::feasibilityFailures(const Config& q) {
  std::vector<std::string> out;
  for (int i = 0; i < numConstraints(); ++i)
    if (!testFeasibility(i, q)) out.push_back(constraintName(i));
  return out;
}

bool CSpace::isFeasible(const Config& q) {
  const double t0 = now();
  const bool ok = checkFeasible(q);
  feasibleStats_.record(ok, now() - t0);
  return ok;
}

bool CSpace::isVisible(const Config& a, const Config& b) {
  const double t0 = now();
  const bool ok = checkVisible(a, b);
  visibleStats_.record(ok, now() - t0, distance(a, b));
  return ok;
}

void CSpace::recordEdge(bool ok, double seconds, double length) { visibleStats_.record(ok, seconds, length); }

bool CSpace::checkFeasible(const Config& q) {
  for (int i = 0; i < numConstraints(); ++i)
    if (!testFeasibility(i, q)) return false;
  return true;
}

bool CSpace::checkVisible(const Config& a, const Config& b) { return bisectionVisible(*this, a, b); }

void CSpace::setProperty(const std::string& key, const std::string& value) {
  std::lock_guard<std::mutex> lock(propertiesMutex_);
  properties_[key] = value;
}

bool CSpace::property(const std::string& key, std::string& value) const {
  std::lock_guard<std::mutex> lock(propertiesMutex_);
  auto it = properties_.find(key);
  if (it == properties_.end()) return false;
  value = it->second;
  return true;
}

std::map<std::string, std::string> CSpace::properties() const {
  std::lock_guard<std::mutex> lock(propertiesMutex_);
  return properties_;
}

bool CSpace::numericProperty(const std::string& key, std::vector<double>& out) const {
  std::string text;
  if (!property(key, text)) return false;
  std::istringstream s(text);
  out.clear();
  std::string word;
  while (s >> word) {
    char* end = nullptr;
    const double v = std::strtod(word.c_str(), &end);
    if (end == word.c_str() || *end != 0) return false;
    out.push_back(v);
  }
  return !out.empty();
}

std::map<std::string, std::string> CSpace::stats() const {
  std::map<std::string, std::string> out;
  auto put = [&](const char* prefix, const QueryStats& s) {
    const long n = s.count.load();
    out[std::string(prefix) + "_count"] = formatNumber((double)n);
    out[std::string(prefix) + "_probability"] = formatNumber(n ? (double)s.passed.load() / n : 0.0);
    out[std::string(prefix) + "_time"] = formatNumber(n ? s.seconds.load() / n : 0.0);
  };
  put("feasible", feasibleStats_);
  put("visible", visibleStats_);
  const long vp = visibleStats_.passed.load(), vf = visibleStats_.count.load() - vp;
  out["average_visible_length"] = formatNumber(vp ? visibleStats_.passedLength.load() / vp : 0.0);
  out["average_notvisible_length"] = formatNumber(vf ? visibleStats_.failedLength.load() / vf : 0.0);
  extraStats(out);
  return out;
}

void CSpace::resetStats() {
  feasibleStats_.reset();
  visibleStats_.reset();
}

bool CSpace::testVisibility(const std::string& name, const Config& a, const Config& b) {
  if (constraintIndex(name) < 0) throw std::runtime_error("Invalid constraint name");
  return isVisible(a, b);
}

std::vector<std::string> CSpace::visibilityFailures(const Config& a, const Config& b) {
  if (isVisible(a, b)) return {};
  return {"visible"};
}

std::vector<std::string> CSpace::queryOrder(bool edge) const {
  std::vector<std::string> names;
  if (edge) return names;
  for (int i = 0; i < numConstraints(); ++i) names.push_back(constraintName(i));
  return names;
}

void CSpace::setVisibilityEpsilon(double eps) {
  if (!(eps > 0)) throw std::runtime_error("Invalid epsilon");
  setEps(eps);
}

}  // namespace plan
}  // namespace klampt
