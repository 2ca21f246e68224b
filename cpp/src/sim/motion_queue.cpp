#include "klampt/sim/motion_queue.h"

#include <algorithm>
#include <cmath>

namespace klampt {

namespace {

void hermite(const MotionQueue::Segment& s, double t, VectorX& q, VectorX& v) {
  if (s.duration <= 0) {
    q = s.q1;
    v = s.v1;
    return;
  }
  const double T = s.duration, u = std::max(0.0, std::min(1.0, (t - s.start) / T));
  const double u2 = u * u, u3 = u2 * u;
  const double h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
  const double d00 = 6 * u2 - 6 * u, d10 = 3 * u2 - 4 * u + 1, d01 = -6 * u2 + 6 * u, d11 = 3 * u2 - 2 * u;
  q = h00 * s.q0 + h10 * T * s.v0 + h01 * s.q1 + h11 * T * s.v1;
  v = (d00 * s.q0 + d01 * s.q1) / T + d10 * s.v0 + d11 * s.v1;
}

}  // namespace

void MotionQueue::reset(const VectorX& q) {
  segments.clear();
  qEnd = q;
  vEnd = VectorX::Zero(q.size());
}

double MotionQueue::endTime(double now) const {
  return segments.empty() ? now : std::max(now, segments.back().start + segments.back().duration);
}

void MotionQueue::evaluate(double t, VectorX& q, VectorX& v) const {
  for (const Segment& s : segments) {
    if (t < s.start + s.duration) {
      hermite(s, t, q, v);
      return;
    }
  }
  q = qEnd;
  v = segments.empty() ? vEnd : VectorX(VectorX::Zero(qEnd.size()));
}

void MotionQueue::cutAt(double t) {
  VectorX q, v;
  evaluate(t, q, v);
  segments.clear();
  qEnd = q;
  vEnd = v;
}

void MotionQueue::appendCubic(double now, const VectorX& q, const VectorX& v, double duration) {
  Segment s;
  s.start = endTime(now);
  s.duration = duration;
  if (segments.empty() || segments.back().start + segments.back().duration < now) {
    s.q0 = qEnd;
    s.v0 = segments.empty() ? vEnd : VectorX::Zero(q.size());
  } else {
    s.q0 = segments.back().q1;
    s.v0 = segments.back().v1;
  }
  s.q1 = q;
  s.v1 = v;
  segments.push_back(s);
  qEnd = q;
  vEnd = VectorX::Zero(q.size());
}

void MotionQueue::appendLinear(double now, const VectorX& q, double duration) {
  VectorX q0 = segments.empty() || segments.back().start + segments.back().duration < now ? qEnd : segments.back().q1;
  const VectorX v = duration > 0 ? VectorX((q - q0) / duration) : VectorX::Zero(q.size());
  Segment s;
  s.start = endTime(now);
  s.duration = duration;
  s.q0 = q0;
  s.v0 = v;
  s.q1 = q;
  s.v1 = v;
  segments.push_back(s);
  qEnd = q;
  vEnd = VectorX::Zero(q.size());
}

double MotionQueue::moveDuration(const VectorX& q0, const VectorX& v0, const VectorX& q1, const VectorX& v1,
                                 const VectorX& vmax, const VectorX& amax) {
  double T = 0;
  for (int i = 0; i < q0.size(); ++i) {
    const double d = std::fabs(q1[i] - q0[i]);
    const double vm = i < vmax.size() && vmax[i] > 0 && std::isfinite(vmax[i]) ? vmax[i] : INFINITY;
    const double am = i < amax.size() && amax[i] > 0 && std::isfinite(amax[i]) ? amax[i] : INFINITY;
    // A cubic with zero end velocities peaks at 1.5 d/T in velocity and 6 d/T^2
    // in acceleration; end velocities add at most their own magnitude.
    const double vEnds = std::max(std::fabs(v0[i]), std::fabs(v1[i]));
    double Ti = 0;
    if (std::isfinite(vm)) Ti = std::max(Ti, 1.5 * d / vm);
    if (std::isfinite(am)) Ti = std::max(Ti, std::sqrt(6 * d / am) + (vEnds > 0 ? 2 * vEnds / am : 0));
    T = std::max(T, Ti);
  }
  return T;
}

}  // namespace klampt
