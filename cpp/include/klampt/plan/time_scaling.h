// Time-optimal and least-acceleration moves as knot lists (times, positions,
// velocities at the phase boundaries), the form klampt.plan.motionplanning's
// interpolate_* / brake_* functions return. Built on math/parabolic_ramp.h, so
// they agree with SimRobotController.setMilestone.
#pragma once
#include <vector>
#include "klampt/math/types.h"

namespace klampt {

/// Knots of a piecewise-parabolic 1-D move: position x[k] and velocity v[k]
/// at time t[k]; between knots the acceleration is constant. Repeated times
/// mark velocity jumps (a DOF without an acceleration bound). Empty when no
/// move exists.
struct Knots1D {
  std::vector<double> t, x, v;
  bool empty() const { return t.empty(); }
};

/// Knots of an n-D move on one time grid: configurations x[k], velocities v[k].
struct KnotsND {
  std::vector<double> t;
  std::vector<VectorX> x, v;
};

// Errors: std::invalid_argument for NaNs, negative bounds, a start velocity
// beyond vmax, wrong sizes; std::runtime_error("Final position out of joint
// limits") when x1 is outside [xmin, xmax]. A move that exists in no way
// within the bounds (a start that cannot brake before a limit) is empty.

/// The fastest move from (x0, v0) to (x1, v1) with |v| <= vmax, |a| <= amax
/// within [xmin, xmax]. amax = inf moves at constant velocity vmax (velocity
/// jumps at both ends); both infinite is a jump.
Knots1D minTimeKnots(double x0, double v0, double x1, double v1, double xmin, double xmax, double vmax,
                     double amax);
/// The move of least peak acceleration lasting exactly endTime (> 0).
Knots1D minAccelKnots(double x0, double v0, double x1, double v1, double endTime, double xmin, double xmax,
                      double vmax);
/// One knot list per DOF, all ending together at the least time every DOF
/// can make; empty lists if some DOF cannot stay within its limits.
std::vector<Knots1D> minTimeKnots(const VectorX& x0, const VectorX& v0, const VectorX& x1, const VectorX& v1,
                                  const VectorX& xmin, const VectorX& xmax, const VectorX& vmax,
                                  const VectorX& amax);
/// One least-acceleration knot list per DOF, each lasting endTime; empty
/// lists if some DOF has no such move.
std::vector<Knots1D> minAccelKnots(const VectorX& x0, const VectorX& v0, const VectorX& x1, const VectorX& v1,
                                   double endTime, const VectorX& xmin, const VectorX& xmax, const VectorX& vmax);
/// The fastest rest-to-rest move along the straight segment from x0 to x1.
KnotsND minTimeLinearKnots(const VectorX& x0, const VectorX& x1, const VectorX& vmax, const VectorX& amax);
/// Stopping from velocity v0 at full deceleration amax (> 0).
Knots1D brakeKnots(double x0, double v0, double amax);
/// Stopping every DOF at once, in the least time the slowest DOF needs; each
/// DOF decelerates uniformly. The limits are not enforced (a stop cannot be
/// made shorter), only checked for size.
std::vector<Knots1D> brakeKnots(const VectorX& x0, const VectorX& v0, const VectorX& xmin, const VectorX& xmax,
                                const VectorX& amax);
/// Merges per-DOF knot lists into one time grid (the union of their times),
/// evaluating each DOF's cubic Hermite segment at the other DOFs' knots (exact
/// for parabolic segments). A DOF whose list ends early holds its last
/// position at rest.
KnotsND combineCubic(const std::vector<Knots1D>& dofs);

}  // namespace klampt
