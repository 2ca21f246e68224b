// The controller's motion queue: segments in link space, timed in simulation
// time. A segment is a cubic Hermite curve (setLinear / setCubic) or one
// parabolic ramp per DOF (setMilestone).
#pragma once
#include <vector>
#include "klampt/math/types.h"
#include "klampt/math/parabolic_ramp.h"

namespace klampt {

struct MotionQueue {
  struct Segment {
    double start = 0, duration = 0;
    VectorX q0, v0, q1, v1;
    std::vector<Ramp1D> ramps;  // one per DOF, or none for a cubic
  };
  std::vector<Segment> segments;
  /// The state the queue holds when empty or finished.
  VectorX qEnd, vEnd;

  void reset(const VectorX& q);
  double endTime(double now) const;
  void evaluate(double t, VectorX& q, VectorX& v) const;
  /// Drops segments after `t` and cuts the one running at t there.
  void cutAt(double t);
  /// Appends a cubic from the queue's end state (or from t if already past).
  void appendCubic(double now, const VectorX& q, const VectorX& v, double duration);
  void appendLinear(double now, const VectorX& q, double duration);
  /// Appends per-DOF ramps of the given duration, starting from their own
  /// initial state.
  void appendRamps(double now, std::vector<Ramp1D> ramps, double duration);
  /// The state a segment appended now would start from: the end of the last
  /// segment if it is still running, else the queue's state at `now`.
  void appendStart(double now, VectorX& q, VectorX& v) const;
};

}  // namespace klampt
