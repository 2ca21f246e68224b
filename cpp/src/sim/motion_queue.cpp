#include "klampt/sim/motion_queue.h"

#include <algorithm>
#include <cmath>

namespace klampt {

namespace {

void evaluateSegment(const MotionQueue::Segment& s, double t, VectorX& q, VectorX& v) {
  if (!s.ramps.empty()) {
    const Eigen::Index n = (Eigen::Index)s.ramps.size();
    q.resize(n);
    v.resize(n);
    for (Eigen::Index i = 0; i < n; ++i) s.ramps[(size_t)i].evaluate(t - s.start, q[i], v[i]);
    return;
  }
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
      evaluateSegment(s, t, q, v);
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
  appendStart(now, s.q0, s.v0);
  s.q1 = q;
  s.v1 = v;
  segments.push_back(s);
  qEnd = q;
  vEnd = VectorX::Zero(q.size());
}

void MotionQueue::appendLinear(double now, const VectorX& q, double duration) {
  VectorX q0, v0;
  appendStart(now, q0, v0);
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

void MotionQueue::appendRamps(double now, std::vector<Ramp1D> ramps, double duration) {
  Segment s;
  s.start = endTime(now);
  s.duration = duration;
  const Eigen::Index n = (Eigen::Index)ramps.size();
  s.q0.resize(n);
  s.v0.resize(n);
  s.q1.resize(n);
  s.v1.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    s.q0[i] = ramps[i].x0;
    s.v0[i] = ramps[i].v0;
    ramps[i].evaluate(duration, s.q1[i], s.v1[i]);
  }
  s.ramps = std::move(ramps);
  qEnd = s.q1;
  vEnd = VectorX::Zero(n);
  segments.push_back(std::move(s));
}

void MotionQueue::appendStart(double now, VectorX& q, VectorX& v) const {
  if (!segments.empty() && segments.back().start + segments.back().duration >= now) {
    q = segments.back().q1;
    v = segments.back().v1;
  } else {
    evaluate(now, q, v);
  }
}

}  // namespace klampt
