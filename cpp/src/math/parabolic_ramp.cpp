#include "klampt/math/parabolic_ramp.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace klampt {

namespace {

constexpr double kTimeTol = 1e-10;

bool bounded(double b) { return std::isfinite(b) && b > 0; }

double sign(double x) { return x < 0 ? -1.0 : 1.0; }

Ramp1D startingAt(double x0, double v0) {
  Ramp1D r;
  r.x0 = x0;
  r.v0 = v0;
  return r;
}

/// Accelerate with a for t1, then with -a for t2.
Ramp1D twoPhase(double x0, double v0, double a, double t1, double t2) {
  Ramp1D r = startingAt(x0, v0);
  r.add(a, std::max(0.0, t1));
  r.add(-a, std::max(0.0, t2));
  return r;
}

/// Reach the coasting velocity v from v0 at |a|, coast, then reach v1 at |a|,
/// taking T in all; false if the coast would last less than nothing.
bool threePhase(double x0, double v0, double v1, double v, double a, double T, Ramp1D& out) {
  const double t1 = std::fabs(v - v0) / a, t3 = std::fabs(v1 - v) / a;
  const double t2 = T - t1 - t3;
  if (t2 < -kTimeTol) return false;
  out = startingAt(x0, v0);
  out.add(v >= v0 ? a : -a, t1);
  out.add(0, std::max(0.0, t2));
  out.add(v1 >= v ? a : -a, t3);
  return true;
}

/// A ramp standing at (x1, v1) from the start: a move made instantly.
Ramp1D jump(double x1, double v1) { return startingAt(x1, v1); }

/// The constant acceleration that brings velocity v at x to rest exactly at
/// `bound`, and how long it takes (infinite if v does not head there).
struct Brake {
  double time = INFINITY, accel = INFINITY;
};
Brake brakeTo(double x, double v, double bound) {
  Brake b;
  const double gap = bound - x;
  if (v == 0 || gap * v < 0) return b;
  b.time = gap == 0 ? 0 : 2 * gap / v;
  b.accel = gap == 0 ? INFINITY : -v * v / (2 * gap);
  return b;
}

bool within(const Ramp1D& r, double lo, double hi) {
  double a, b;
  r.bounds(a, b);
  return a >= lo && b <= hi;
}

}  // namespace

void Ramp1D::add(double a, double dt) {
  if (!(dt > 0)) return;
  if (phases == kMaxPhases) throw std::logic_error("Ramp1D: too many phases");
  accel[phases] = a;
  length[phases] = dt;
  ++phases;
}

void Ramp1D::add(const Ramp1D& r) {
  for (int k = 0; k < r.phases; ++k) add(r.accel[k], r.length[k]);
}

double Ramp1D::duration() const {
  double T = 0;
  for (int k = 0; k < phases; ++k) T += length[k];
  return T;
}

void Ramp1D::evaluate(double t, double& x, double& v) const {
  x = x0;
  v = v0;
  for (int k = 0; k < phases; ++k) {
    const double h = std::min(std::max(t, 0.0), length[k]);
    x += v * h + 0.5 * accel[k] * h * h;
    v += accel[k] * h;
    t -= length[k];
  }
}

void Ramp1D::bounds(double& lo, double& hi) const {
  lo = hi = x0;
  double x = x0, v = v0;
  for (int k = 0; k < phases; ++k) {
    const double a = accel[k], h = length[k];
    if (a != 0 && v * a < 0) {
      const double turn = -v / a;  // where this phase reverses direction
      if (turn < h) {
        const double xt = x + v * turn + 0.5 * a * turn * turn;
        lo = std::min(lo, xt);
        hi = std::max(hi, xt);
      }
    }
    x += v * h + 0.5 * a * h * h;
    v += a * h;
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
}

double Ramp1D::peakAcceleration() const {
  double a = 0;
  for (int k = 0; k < phases; ++k) a = std::max(a, std::fabs(accel[k]));
  return a;
}

double Ramp1D::peakVelocity() const {
  double v = v0, peak = std::fabs(v0);
  for (int k = 0; k < phases; ++k) {
    v += accel[k] * length[k];
    peak = std::max(peak, std::fabs(v));
  }
  return peak;
}

Ramp1D minTimeRamp(double x0, double v0, double x1, double v1, double amax, double vmax) {
  if (!bounded(amax)) return jump(x1, v1);
  const double dx = x1 - x0;
  // Bang-bang: accelerate with a (either sign), then with -a. The switch
  // velocity vp solves vp^2 = a dx + (v0^2 + v1^2) / 2.
  Ramp1D best;
  double bestTime = INFINITY, bestPeak = 0;
  for (double a : {amax, -amax}) {
    const double square = a * dx + 0.5 * (v0 * v0 + v1 * v1);
    if (square < 0) continue;
    const double root = std::sqrt(square);
    for (double vp : {root, -root}) {
      const double t1 = (vp - v0) / a, t2 = (vp - v1) / a;
      if (t1 < -kTimeTol || t2 < -kTimeTol) continue;
      if (t1 + t2 < bestTime) {
        bestTime = t1 + t2;
        best = twoPhase(x0, v0, a, t1, t2);
        bestPeak = vp;
      }
    }
  }
  if (!std::isfinite(bestTime)) return jump(x1, v1);  // only from rounding: dx and v agree to ~1e-16
  if (!bounded(vmax) || std::fabs(bestPeak) <= vmax) return best;
  // Too fast at the switch: cap the velocity and coast in between.
  const double v = sign(bestPeak) * vmax;
  const double t1 = std::fabs(v - v0) / amax, t3 = std::fabs(v1 - v) / amax;
  const double travelled = 0.5 * (v0 + v) * t1 + 0.5 * (v + v1) * t3;
  Ramp1D r;
  threePhase(x0, v0, v1, v, amax, t1 + t3 + std::max(0.0, (dx - travelled) / v), r);
  return r;
}

bool minAccelRamp(double x0, double v0, double x1, double v1, double T, double vmax, Ramp1D& out) {
  const double dx = x1 - x0, dv = v1 - v0;
  if (T <= 0) {
    if (std::fabs(dx) > 1e-12 || std::fabs(dv) > 1e-12) return false;
    out = jump(x1, v1);
    return true;
  }
  // Bang-bang with a then -a, switching at t1: a (2 t1 - T) = dv and
  // dx - v0 T = a (2 T t1 - t1^2 - T^2 / 2), so T^2 a^2 + (2 dv T - 4 D) a - dv^2 = 0.
  const double D = dx - v0 * T;
  const double b = 2 * dv * T - 4 * D;
  const double disc = std::sqrt(b * b + 4 * T * T * dv * dv);
  bool found = false;
  double bestA = INFINITY, bestPeak = 0;
  for (double a : {(-b + disc) / (2 * T * T), (-b - disc) / (2 * T * T)}) {
    double t1;
    if (std::fabs(a) <= 1e-12 * (std::fabs(dv) + std::fabs(D) / T + 1e-300)) {
      if (std::fabs(dv) > 1e-12 || std::fabs(D) > 1e-12) continue;
      a = 0;
      t1 = T;  // coasting all the way
    } else {
      t1 = 0.5 * (dv / a + T);
      if (t1 < -kTimeTol || t1 > T + kTimeTol) continue;
    }
    if (std::fabs(a) < bestA) {
      bestA = std::fabs(a);
      out = twoPhase(x0, v0, a, std::min(t1, T), T - std::min(t1, T));
      bestPeak = v0 + a * std::min(std::max(t1, 0.0), T);
      found = true;
    }
  }
  if (!found) return false;
  if (!bounded(vmax) || std::fabs(bestPeak) <= vmax) return true;
  // Cap the velocity at vmax: the acceleration that then fits T exactly.
  const double v = sign(bestPeak) * vmax;
  const double excess = std::fabs(v - v0) * (v - v0) + std::fabs(v1 - v) * (v - v1);
  const double a = excess / (2 * (v * T - dx));
  if (!(a > 0) || !std::isfinite(a)) return false;
  return threePhase(x0, v0, v1, v, a, T, out);
}

bool minAccelRampWithin(double x0, double v0, double x1, double v1, double T, double vmax, double lo, double hi,
                        Ramp1D& out) {
  Ramp1D direct;
  if (minAccelRamp(x0, v0, x1, v1, T, vmax, direct) && within(direct, lo, hi)) {
    out = direct;
    return true;
  }
  // The least-|a| move overshoots [lo, hi]. Brake onto the bound the start
  // velocity heads for and/or leave from the bound the end velocity comes
  // from (at rest there), whichever needs the least acceleration.
  const double startBound = v0 > 0 ? hi : lo, endBound = v1 < 0 ? hi : lo;
  const Brake start = v0 != 0 ? brakeTo(x0, v0, startBound) : Brake();
  const Brake end = v1 != 0 ? brakeTo(x1, -v1, endBound) : Brake();
  double best = INFINITY;
  bool found = false;
  Ramp1D mid;
  auto choose = [&](double peak, const Ramp1D& candidate) {
    best = peak;
    out = candidate;
    found = true;
  };
  if (start.time < T && std::fabs(start.accel) < best && std::fabs(x1 - startBound) < (T - start.time) * vmax &&
      minAccelRamp(startBound, 0, x1, v1, T - start.time, vmax, mid) && mid.peakAcceleration() < best &&
      within(mid, lo, hi)) {
    Ramp1D r = startingAt(x0, v0);
    r.add(start.accel, start.time);
    r.add(mid);
    choose(std::max(std::fabs(start.accel), mid.peakAcceleration()), r);
  }
  if (end.time < T && std::fabs(end.accel) < best && std::fabs(x0 - endBound) < (T - end.time) * vmax &&
      minAccelRamp(x0, v0, endBound, 0, T - end.time, vmax, mid) && mid.peakAcceleration() < best &&
      within(mid, lo, hi)) {
    Ramp1D r = mid;
    r.add(end.accel, end.time);  // from rest at the bound into (x1, v1)
    choose(std::max(std::fabs(end.accel), mid.peakAcceleration()), r);
  }
  const double both = start.time + end.time, bothAccel = std::max(std::fabs(start.accel), std::fabs(end.accel));
  if (both < T && bothAccel < best) {
    if (startBound == endBound) {
      // Brake onto the bound, rest there, and leave it again.
      Ramp1D r = startingAt(x0, v0);
      r.add(start.accel, start.time);
      r.add(0, T - both);
      r.add(end.accel, end.time);
      choose(bothAccel, r);
    } else if (std::fabs(endBound - startBound) < (T - both) * vmax &&
               minAccelRamp(startBound, 0, endBound, 0, T - both, vmax, mid) && mid.peakAcceleration() < best) {
      // Brake onto one bound, cross to the other, leave from there.
      Ramp1D r = startingAt(x0, v0);
      r.add(start.accel, start.time);
      r.add(mid);
      r.add(end.accel, end.time);
      choose(std::max(bothAccel, mid.peakAcceleration()), r);
    }
  }
  return found;
}

double synchronizedRamps(const VectorX& x0, const VectorX& v0, const VectorX& x1, const VectorX& v1,
                         const VectorX& amax, const VectorX& vmax, const VectorX& qmin, const VectorX& qmax,
                         std::vector<Ramp1D>& out, double minDuration, bool stayInFastestRange) {
  const int n = (int)x0.size();
  auto at = [](const VectorX& b, int i, double otherwise) { return i < b.size() ? b[i] : otherwise; };
  std::vector<Ramp1D> fastest(n);
  double T = 0;
  for (int i = 0; i < n; ++i) {
    fastest[i] = minTimeRamp(x0[i], v0[i], x1[i], v1[i], at(amax, i, 0), at(vmax, i, 0));
    T = std::max(T, fastest[i].duration());
  }
  T = std::max(T, minDuration);
  out.assign(n, Ramp1D());
  // DOF i's move of duration t: its least acceleration within the range of its
  // fastest move (and its joint limits), if that is within its bounds.
  auto moveIn = [&](int i, double t, Ramp1D& r) {
    const double am = at(amax, i, 0), vm = at(vmax, i, 0);
    const double vcap = bounded(vm) ? vm : INFINITY;
    double lo = -INFINITY, hi = INFINITY;
    if (stayInFastestRange) {
      fastest[i].bounds(lo, hi);
      // (A DOF without an acceleration bound jumps: its range is from start to end.)
      lo = std::min({lo, x0[i], x1[i]}) - 1e-10;
      hi = std::max({hi, x0[i], x1[i]}) + 1e-10;
    }
    lo = std::max(lo, at(qmin, i, -INFINITY));
    hi = std::min(hi, at(qmax, i, INFINITY));
    if (!minAccelRampWithin(x0[i], v0[i], x1[i], v1[i], t, vcap, lo, hi, r)) return false;
    return (!bounded(am) || r.peakAcceleration() <= am * (1 + 1e-9)) && r.peakVelocity() <= vcap * (1 + 1e-9);
  };
  for (int attempt = 0; attempt < 64; ++attempt) {
    int slow = -1;
    for (int i = 0; i < n && slow < 0; ++i) {
      if (std::fabs(fastest[i].duration() - T) <= kTimeTol * std::max(1.0, T))
        out[i] = fastest[i];
      else if (!moveIn(i, T, out[i]))
        slow = i;
    }
    if (slow < 0) return T;
    // DOF `slow` cannot take exactly T (it must brake or turn around and has
    // a gap between its faster and slower moves): the next duration it can.
    double lo = T, hi = std::max(T * 2, T + 1e-3);
    Ramp1D r;
    while (!moveIn(slow, hi, r) && hi < 1e6) hi *= 2;
    for (int k = 0; k < 60; ++k) {
      const double mid = 0.5 * (lo + hi);
      (moveIn(slow, mid, r) ? hi : lo) = mid;
    }
    T = hi;
  }
  // No common duration found: each DOF on its own fastest move.
  T = 0;
  for (int i = 0; i < n; ++i) {
    out[i] = fastest[i];
    T = std::max(T, out[i].duration());
  }
  return T;
}

double straightLineRamps(const VectorX& x0, const VectorX& x1, const VectorX& amax, const VectorX& vmax,
                         std::vector<Ramp1D>& out) {
  const int n = (int)x0.size();
  // The path parameter s runs from 0 to 1 at rest at both ends; DOF i moves
  // s (x1 - x0)_i, so its bounds divided by its distance bound s.
  double as = INFINITY, vs = INFINITY;
  for (int i = 0; i < n; ++i) {
    const double d = std::fabs(x1[i] - x0[i]);
    if (d == 0) continue;
    if (i < amax.size() && bounded(amax[i])) as = std::min(as, amax[i] / d);
    if (i < vmax.size() && bounded(vmax[i])) vs = std::min(vs, vmax[i] / d);
  }
  const Ramp1D s = minTimeRamp(0, 0, 1, 0, as, vs);
  out.assign(n, Ramp1D());
  for (int i = 0; i < n; ++i) {
    const double d = x1[i] - x0[i];
    Ramp1D& r = out[i];
    r = startingAt(x0[i] + s.x0 * d, 0);
    for (int k = 0; k < s.phases; ++k) r.add(s.accel[k] * d, s.length[k]);
  }
  return s.duration();
}

}  // namespace klampt
