#include "klampt/sim/sim_user_joint.h"

namespace klampt {

void SimUserJoint::setLimits(double lo, double hi) {
  if (type == Type::Hinge) {
    dJointSetHingeParam(joint, dParamLoStop, lo);
    dJointSetHingeParam(joint, dParamHiStop, hi);
  } else if (type == Type::Slider) {
    dJointSetSliderParam(joint, dParamLoStop, lo);
    dJointSetSliderParam(joint, dParamHiStop, hi);
  }
}

void SimUserJoint::setFriction(double friction) { setVelocity(0, friction); }

void SimUserJoint::setVelocity(double vel, double fmax) {
  if (type == Type::Hinge) {
    dJointSetHingeParam(joint, dParamVel, vel);
    dJointSetHingeParam(joint, dParamFMax, fmax);
  } else if (type == Type::Slider) {
    dJointSetSliderParam(joint, dParamVel, vel);
    dJointSetSliderParam(joint, dParamFMax, fmax);
  }
}

void SimUserJoint::applyPendingEffort() {
  if (pendingEffort == 0) return;
  if (type == Type::Hinge) dJointAddHingeTorque(joint, pendingEffort);
  if (type == Type::Slider) dJointAddSliderForce(joint, pendingEffort);
}

}  // namespace klampt
