// The controller's motion queue: cubic Hermite segments in link space, timed
// in simulation time.
#pragma once
#include <vector>
#include "klampt/math/types.h"

namespace klampt {

struct MotionQueue {
  struct Segment {
    double start = 0, duration = 0;
    VectorX q0, v0, q1, v1;
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
  /// Duration of a smooth move between two states within velocity and
  /// acceleration bounds (per DOF; the slowest DOF sets the time).
  static double moveDuration(const VectorX& q0, const VectorX& v0, const VectorX& q1, const VectorX& v1,
                             const VectorX& vmax, const VectorX& amax);
};

}  // namespace klampt
