// A joint the user adds between simulated bodies (SimJoint): hinge, slider or
// fixed, with limits, dry friction, a velocity motor and applied efforts.
#pragma once
#include <ode/ode.h>

namespace klampt {

struct SimUserJoint {
  enum class Type { None, Hinge, Slider, Fixed };
  Type type = Type::None;
  dJointID joint = nullptr;
  /// Body indices (b = -1: attached to the world).
  int a = -1, b = -1;
  /// Torque (hinge) or force (slider) applied during the next simulate call.
  double pendingEffort = 0;

  void setLimits(double lo, double hi);
  void setFriction(double friction);
  void setVelocity(double vel, double fmax);
  /// Adds to the effort of the next simulate call (efforts accumulate until then).
  void addEffort(double effort) { pendingEffort += effort; }
  void applyPendingEffort();
};

}  // namespace klampt
