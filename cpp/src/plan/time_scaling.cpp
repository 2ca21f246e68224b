#include "klampt/plan/time_scaling.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include "klampt/math/parabolic_ramp.h"

namespace klampt {

namespace {

constexpr double kLimitTol = 1e-9;

void requireFinite(double x, const char* what) {
  if (!std::isfinite(x)) throw std::invalid_argument(std::string(what) + " must be finite");
}

/// vmax and amax: NaN or negative values are errors; amax must be > 0 (inf is no bound).
void checkBounds(double vmax, double amax) {
  if (std::isnan(vmax) || vmax < 0) throw std::invalid_argument("Invalid value for velocity maximum");
  if (std::isnan(amax) || !(amax > 0)) throw std::invalid_argument("Invalid value for acceleration maximum");
}

void checkStart(double x0, double v0, double x1, double v1, double xmin, double xmax, double vmax) {
  requireFinite(x0, "x0");
  requireFinite(v0, "v0");
  requireFinite(x1, "x1");
  requireFinite(v1, "v1");
  if (std::isnan(xmin) || std::isnan(xmax)) throw std::invalid_argument("Joint limits must not be NaN");
  if (std::fabs(v0) > vmax * (1 + kLimitTol)) throw std::invalid_argument("Initial velocity out of velocity limits");
  if (std::fabs(v1) > vmax * (1 + kLimitTol)) throw std::invalid_argument("Final velocity out of velocity limits");
  if (x1 < xmin - kLimitTol || x1 > xmax + kLimitTol) throw std::runtime_error("Final position out of joint limits");
}

bool stationary(double x0, double v0, double x1, double v1) { return x0 == x1 && v0 == 0 && v1 == 0; }

void checkSize(const VectorX& v, Eigen::Index n, const char* what) {
  if (v.size() != n) throw std::invalid_argument(std::string(what) + " is wrong length");
}

/// The knots at the phase boundaries of r.
Knots1D knotsOf(const Ramp1D& r) {
  Knots1D k;
  k.t.push_back(0);
  k.x.push_back(r.x0);
  k.v.push_back(r.v0);
  double t = 0;
  for (int p = 0; p < r.phases; ++p) {
    t += r.length[p];
    double x, v;
    r.evaluate(t, x, v);
    k.t.push_back(t);
    k.x.push_back(x);
    k.v.push_back(v);
  }
  return k;
}

/// Appends a knot unless it repeats the last one exactly.
void addKnot(Knots1D& k, double t, double x, double v) {
  if (!k.t.empty() && k.t.back() == t && k.x.back() == x && k.v.back() == v) return;
  k.t.push_back(t);
  k.x.push_back(x);
  k.v.push_back(v);
}

/// A move at constant velocity taking T (a jump if T is 0), with the
/// velocity switching from v0 and to v1 at the ends.
Knots1D constantVelocity(double x0, double v0, double x1, double v1, double T) {
  Knots1D k;
  const double vc = T > 0 ? (x1 - x0) / T : 0;
  addKnot(k, 0, x0, v0);
  addKnot(k, 0, x0, T > 0 ? vc : v0);
  addKnot(k, T, x1, T > 0 ? vc : v1);
  addKnot(k, T, x1, v1);
  return k;
}

bool within(const Ramp1D& r, double lo, double hi) {
  double a, b;
  r.bounds(a, b);
  return a >= lo - kLimitTol && b <= hi + kLimitTol;
}

/// Extends k to end at time T, at rest at its last position (a last knot
/// within rounding of T is moved onto it).
void holdUntil(Knots1D& k, double T) {
  if (T - k.t.back() > 1e-12 * std::max(1.0, T))
    addKnot(k, T, k.x.back(), 0.0);
  else
    k.t.back() = std::max(k.t.back(), T);
}

void cubicHermite(double x0, double v0, double x1, double v1, double h, double s, double& x, double& v) {
  const double u = s / h, u2 = u * u, u3 = u2 * u;
  x = (2 * u3 - 3 * u2 + 1) * x0 + (u3 - 2 * u2 + u) * h * v0 + (-2 * u3 + 3 * u2) * x1 + (u3 - u2) * h * v1;
  v = ((6 * u2 - 6 * u) * x0 + (3 * u2 - 4 * u + 1) * h * v0 + (-6 * u2 + 6 * u) * x1 + (3 * u2 - 2 * u) * h * v1) / h;
}

/// Position and velocity of a DOF's knot list at time t, between knots.
void evaluateKnots(const Knots1D& k, double t, double& x, double& v) {
  if (t >= k.t.back()) {
    x = k.x.back();
    v = 0;
    return;
  }
  if (t <= k.t.front()) {
    x = k.x.front();
    v = k.v.front();
    return;
  }
  // The last knot at or before t and the first one after it.
  const size_t hi = std::upper_bound(k.t.begin(), k.t.end(), t) - k.t.begin();
  const size_t lo = hi - 1;
  cubicHermite(k.x[lo], k.v[lo], k.x[hi], k.v[hi], k.t[hi] - k.t[lo], t - k.t[lo], x, v);
}

}  // namespace

Knots1D minTimeKnots(double x0, double v0, double x1, double v1, double xmin, double xmax, double vmax,
                     double amax) {
  // A DOF that stays at rest needs no bounds (fixed joints have zero ones).
  if (stationary(x0, v0, x1, v1)) {
    checkStart(x0, v0, x1, v1, xmin, xmax, INFINITY);
    return knotsOf(Ramp1D{x0, v0});
  }
  checkBounds(vmax, amax);
  checkStart(x0, v0, x1, v1, xmin, xmax, vmax);
  if (!std::isfinite(amax)) {
    if (vmax == 0) return Knots1D();
    return constantVelocity(x0, v0, x1, v1, std::isfinite(vmax) ? std::fabs(x1 - x0) / vmax : 0.0);
  }
  if (vmax == 0) return Knots1D();  // cannot move
  const Ramp1D r = minTimeRamp(x0, v0, x1, v1, amax, vmax);
  if (!within(r, xmin, xmax)) return Knots1D();
  return knotsOf(r);
}

Knots1D minAccelKnots(double x0, double v0, double x1, double v1, double endTime, double xmin, double xmax,
                      double vmax) {
  if (std::isnan(vmax) || vmax < 0) throw std::invalid_argument("Invalid value for velocity maximum");
  if (!(endTime > 0) || !std::isfinite(endTime)) throw std::invalid_argument("endTime must be positive");
  if (stationary(x0, v0, x1, v1)) {
    checkStart(x0, v0, x1, v1, xmin, xmax, INFINITY);
    Knots1D k = knotsOf(Ramp1D{x0, v0});
    holdUntil(k, endTime);
    return k;
  }
  checkStart(x0, v0, x1, v1, xmin, xmax, vmax);
  Ramp1D r;
  const double vcap = std::isfinite(vmax) ? vmax : INFINITY;
  if (vmax == 0) return Knots1D();
  if (!minAccelRampWithin(x0, v0, x1, v1, endTime, vcap, xmin, xmax, r)) return Knots1D();
  Knots1D k = knotsOf(r);
  holdUntil(k, endTime);
  return k;
}

std::vector<Knots1D> minTimeKnots(const VectorX& x0, const VectorX& v0, const VectorX& x1, const VectorX& v1,
                                  const VectorX& xmin, const VectorX& xmax, const VectorX& vmax,
                                  const VectorX& amax) {
  const Eigen::Index n = x0.size();
  checkSize(v0, n, "v0");
  checkSize(x1, n, "x1");
  checkSize(v1, n, "v1");
  checkSize(xmin, n, "xmin");
  checkSize(xmax, n, "xmax");
  checkSize(vmax, n, "vmax");
  checkSize(amax, n, "amax");
  // A DOF that stays at rest needs no bounds (fixed joints have zero ones).
  VectorX vm = vmax, am = amax;
  for (Eigen::Index i = 0; i < n; ++i) {
    if (stationary(x0[i], v0[i], x1[i], v1[i])) {
      checkStart(x0[i], v0[i], x1[i], v1[i], xmin[i], xmax[i], INFINITY);
      vm[i] = am[i] = 1;
      continue;
    }
    checkBounds(vmax[i], amax[i]);
    checkStart(x0[i], v0[i], x1[i], v1[i], xmin[i], xmax[i], vmax[i]);
  }
  // A DOF without an acceleration bound moves at constant velocity: it sets
  // a least duration for the others.
  double minDuration = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    if (std::isfinite(am[i])) continue;
    if (vm[i] == 0) return {};
    if (std::isfinite(vm[i]) && vm[i] > 0) minDuration = std::max(minDuration, std::fabs(x1[i] - x0[i]) / vm[i]);
  }
  // A slowed DOF stays within the range of its fastest move, as the
  // controller's moves (and the reference's) do, unless using all of its
  // joint range gives an earlier common arrival.
  auto synchronize = [&](bool inFastestRange, std::vector<Ramp1D>& ramps) {
    const double T = synchronizedRamps(x0, v0, x1, v1, am, vm, xmin, xmax, ramps, minDuration, inFastestRange);
    for (Eigen::Index i = 0; i < n; ++i)
      if (std::isfinite(am[i]) && std::fabs(ramps[i].duration() - T) > 1e-9 * std::max(1.0, T) &&
          (v1[i] != 0 || ramps[i].duration() > T))
        return (double)INFINITY;  // no common duration
    return T;
  };
  std::vector<Ramp1D> ramps, wide;
  double T = synchronize(true, ramps);
  const double Twide = synchronize(false, wide);
  if (Twide < T * (1 - 1e-9)) {
    T = Twide;
    ramps = wide;
  }
  if (!std::isfinite(T)) return {};
  std::vector<Knots1D> out(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    if (!std::isfinite(am[i])) {
      out[i] = constantVelocity(x0[i], v0[i], x1[i], v1[i], T);
      continue;
    }
    if (!within(ramps[i], xmin[i], xmax[i])) return {};
    out[i] = knotsOf(ramps[i]);
    holdUntil(out[i], T);
  }
  return out;
}

std::vector<Knots1D> minAccelKnots(const VectorX& x0, const VectorX& v0, const VectorX& x1, const VectorX& v1,
                                   double endTime, const VectorX& xmin, const VectorX& xmax, const VectorX& vmax) {
  const Eigen::Index n = x0.size();
  checkSize(v0, n, "v0");
  checkSize(x1, n, "x1");
  checkSize(v1, n, "v1");
  checkSize(xmin, n, "xmin");
  checkSize(xmax, n, "xmax");
  checkSize(vmax, n, "vmax");
  std::vector<Knots1D> out(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    out[i] = minAccelKnots(x0[i], v0[i], x1[i], v1[i], endTime, xmin[i], xmax[i], vmax[i]);
    if (out[i].empty()) return {};
  }
  return out;
}

KnotsND minTimeLinearKnots(const VectorX& x0, const VectorX& x1, const VectorX& vmax, const VectorX& amax) {
  const Eigen::Index n = x0.size();
  checkSize(x1, n, "x1");
  checkSize(vmax, n, "vmax");
  checkSize(amax, n, "amax");
  VectorX vm = vmax, am = amax;
  for (Eigen::Index i = 0; i < n; ++i) {
    requireFinite(x0[i], "x0");
    requireFinite(x1[i], "x1");
    if (x0[i] == x1[i]) {  // a DOF that does not move needs no bounds
      vm[i] = am[i] = INFINITY;
      continue;
    }
    checkBounds(vmax[i], amax[i]);
    if (vmax[i] == 0) throw std::invalid_argument("Invalid value for velocity maximum");
  }
  KnotsND out;
  std::vector<Ramp1D> ramps;
  straightLineRamps(x0, x1, am, vm, ramps);
  // Every DOF follows the same phases: take the knot times from any moving one.
  int lead = 0;
  for (Eigen::Index i = 0; i < n; ++i)
    if (ramps[i].phases > ramps[lead].phases) lead = (int)i;
  std::vector<double> times{0};
  if (n > 0)
    for (int p = 0; p < ramps[lead].phases; ++p) times.push_back(times.back() + ramps[lead].length[p]);
  for (double t : times) {
    VectorX x(n), v(n);
    for (Eigen::Index i = 0; i < n; ++i) ramps[i].evaluate(t, x[i], v[i]);
    out.t.push_back(t);
    out.x.push_back(x);
    out.v.push_back(v);
  }
  if (out.t.size() == 1 && x0 != x1) {
    // No acceleration bound on any moving DOF: a jump.
    out.t.push_back(0);
    out.x.push_back(x1);
    out.v.push_back(VectorX::Zero(n));
  }
  return out;
}

Knots1D brakeKnots(double x0, double v0, double amax) {
  requireFinite(x0, "x0");
  requireFinite(v0, "v0");
  if (std::isnan(amax) || !(amax > 0)) throw std::invalid_argument("Invalid value for acceleration maximum");
  Ramp1D r{x0, v0};
  if (v0 != 0 && std::isfinite(amax)) r.add(v0 > 0 ? -amax : amax, std::fabs(v0) / amax);
  Knots1D k = knotsOf(r);
  if (v0 != 0 && !std::isfinite(amax)) addKnot(k, 0, x0, 0);
  return k;
}

std::vector<Knots1D> brakeKnots(const VectorX& x0, const VectorX& v0, const VectorX& xmin, const VectorX& xmax,
                                const VectorX& amax) {
  const Eigen::Index n = x0.size();
  checkSize(v0, n, "v0");
  checkSize(xmin, n, "xmin");
  checkSize(xmax, n, "xmax");
  if (amax.size() != n) throw std::invalid_argument("Acceleration bound incorrect size");
  double T = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    requireFinite(x0[i], "x0");
    requireFinite(v0[i], "v0");
    if (std::isnan(amax[i]) || !(amax[i] > 0)) throw std::invalid_argument("Invalid value for acceleration maximum");
    if (std::isfinite(amax[i])) T = std::max(T, std::fabs(v0[i]) / amax[i]);
  }
  std::vector<Knots1D> out(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    Ramp1D r{x0[i], v0[i]};
    if (T > 0) r.add(-v0[i] / T, T);
    out[i] = knotsOf(r);
    if (T == 0 && v0[i] != 0) addKnot(out[i], 0, x0[i], 0);
    holdUntil(out[i], T);
  }
  return out;
}

KnotsND combineCubic(const std::vector<Knots1D>& dofs) {
  const int n = (int)dofs.size();
  KnotsND out;
  for (const Knots1D& k : dofs) {
    if (k.x.size() != k.t.size()) throw std::invalid_argument("Invalid input, need same # of positions as times");
    if (k.v.size() != k.t.size()) throw std::invalid_argument("Invalid input, need same # of velocities as times");
    if (k.t.empty()) throw std::invalid_argument("Invalid input, a DOF has no knots");
    for (size_t j = 0; j < k.t.size(); ++j) {
      if (!std::isfinite(k.t[j]) || !std::isfinite(k.x[j]) || !std::isfinite(k.v[j]))
        throw std::invalid_argument("Invalid input, knots must be finite");
      if (j > 0 && k.t[j] < k.t[j - 1]) throw std::invalid_argument("Invalid input, times must be nondecreasing");
    }
  }
  if (n == 0) return out;
  std::vector<double> times;
  for (const Knots1D& k : dofs) times.insert(times.end(), k.t.begin(), k.t.end());
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  for (double t : times) {
    // A time where some DOF has several knots (a velocity jump) gives as
    // many output knots; the other DOFs repeat their value there.
    int copies = 1;
    std::vector<std::pair<size_t, size_t>> range(n);
    for (int i = 0; i < n; ++i) {
      const auto& ts = dofs[i].t;
      const size_t a = std::lower_bound(ts.begin(), ts.end(), t) - ts.begin();
      const size_t b = std::upper_bound(ts.begin(), ts.end(), t) - ts.begin();
      range[i] = {a, b};
      copies = std::max(copies, (int)(b - a));
    }
    for (int c = 0; c < copies; ++c) {
      VectorX x(n), v(n);
      for (int i = 0; i < n; ++i) {
        const auto [a, b] = range[i];
        if (b > a) {
          const size_t j = std::min(a + c, b - 1);
          x[i] = dofs[i].x[j];
          v[i] = dofs[i].v[j];
        } else {
          evaluateKnots(dofs[i], t, x[i], v[i]);
        }
      }
      out.t.push_back(t);
      out.x.push_back(x);
      out.v.push_back(v);
    }
  }
  return out;
}

}  // namespace klampt
