// Time-optimal moves under velocity and acceleration bounds: each DOF follows
// a few constant-acceleration phases (accelerate, coast, decelerate), and the
// DOFs of a multi-DOF move are stretched to arrive together. This is the
// "dynamic interpolant" behind SimRobotController.setMilestone.
#pragma once
#include <vector>
#include "klampt/math/types.h"

namespace klampt {

/// A 1-D trajectory from (x0, v0) made of constant-acceleration phases.
struct Ramp1D {
  static constexpr int kMaxPhases = 5;
  double x0 = 0, v0 = 0;
  int phases = 0;
  double accel[kMaxPhases] = {}, length[kMaxPhases] = {};

  /// Appends a phase of acceleration a lasting dt (dropped if dt <= 0).
  void add(double a, double dt);
  /// Appends the phases of r, which starts where this one ends.
  void add(const Ramp1D& r);
  double duration() const;
  /// Position and velocity at time t from the start (held at the end after it).
  void evaluate(double t, double& x, double& v) const;
  /// The range of positions the move passes through.
  void bounds(double& lo, double& hi) const;
  double peakAcceleration() const;
  double peakVelocity() const;
};

/// The fastest move from (x0, v0) to (x1, v1) with |a| <= amax and |v| <=
/// vmax. A non-finite or non-positive bound is no bound: the move is then a
/// jump (amax) or never coasts (vmax).
Ramp1D minTimeRamp(double x0, double v0, double x1, double v1, double amax, double vmax);

/// The move of least |a| that takes exactly T with |v| <= vmax; false if
/// there is none.
bool minAccelRamp(double x0, double v0, double x1, double v1, double T, double vmax, Ramp1D& out);

/// As minAccelRamp, but keeping within [lo, hi]: when the least-|a| move
/// overshoots, it brakes to the bound and turns back there instead.
bool minAccelRampWithin(double x0, double v0, double x1, double v1, double T, double vmax, double lo, double hi,
                        Ramp1D& out);

/// One ramp per DOF, all of the same duration: the least time in which every
/// DOF can make its move within its bounds. A DOF slower than needed takes
/// its least-acceleration move that stays within the range of its own fastest
/// move (and within [qmin, qmax]), or anywhere within [qmin, qmax] when
/// stayInFastestRange is false. The duration is at least minDuration.
/// Returns the duration.
double synchronizedRamps(const VectorX& x0, const VectorX& v0, const VectorX& x1, const VectorX& v1,
                         const VectorX& amax, const VectorX& vmax, const VectorX& qmin, const VectorX& qmax,
                         std::vector<Ramp1D>& out, double minDuration = 0, bool stayInFastestRange = true);

/// A rest-to-rest move along the straight joint-space segment from x0 to x1,
/// as fast as the bounds of every DOF allow. Returns its duration.
double straightLineRamps(const VectorX& x0, const VectorX& x1, const VectorX& amax, const VectorX& vmax,
                         std::vector<Ramp1D>& out);

}  // namespace klampt
