// A robot articulated in ODE: one body per link (the virtual links of a
// floating joint are merged into the joint's last link), hinge/slider joints
// with stops at the joint limits, fixed joints for welds, and the reading of
// the actual configuration back from the bodies.
#pragma once
#include <ode/ode.h>
#include <vector>
#include "klampt/model/robot.h"

namespace klampt {

struct SimBody;

struct SimRobot {
  enum class LinkKind { Hinge, Slider, Fixed, Free, Ball, Virtual, Static };
  int robotIndex = -1;
  std::vector<LinkKind> kind;
  /// Index into Simulation::bodies of each link's body (-1 for virtual links).
  std::vector<int> body;
  /// The ODE joint to the parent body (null for free, virtual and static links).
  std::vector<dJointID> joint;
  std::vector<dJointFeedback> feedback;
  /// q of the link when its joint was created: ODE angles are relative to it.
  VectorX qOffset;
  /// Last configuration read (unwraps hinge angles).
  VectorX lastQ;
  /// Per floating, floating-planar or ball-and-socket joint: the link carrying
  /// the body and its virtual chain.
  struct FreeChain {
    int bodyLink = -1;
    std::vector<int> links;  // the chain's links, base first (bodyLink last)
    /// A ball-and-socket joint: the body hangs on an ODE ball joint.
    bool ball = false;
  };
  std::vector<FreeChain> freeChains;
};

/// Creates the bodies (appended to `bodies`) and joints of robot r at its
/// current configuration and velocity.
void buildSimRobot(dWorldID world, const Robot& r, int robotIndex, int firstID, std::vector<SimBody>& bodies,
                   SimRobot& out);
/// Actual q and dq from the bodies (updates sr.lastQ).
void readSimRobotState(const Robot& r, SimRobot& sr, const std::vector<SimBody>& bodies, VectorX& q, VectorX& dq);
/// Moves the bodies to configuration q with velocities dq (uses r as scratch
/// for forward kinematics).
void placeSimRobot(Robot& r, SimRobot& sr, std::vector<SimBody>& bodies, const VectorX& q, const VectorX& dq);
/// Adds each link DOF's effort (torque for revolute, force for prismatic):
/// on hinges and sliders directly, on the body of a floating or ball chain
/// as the wrench whose generalized forces are the chain's efforts. Needs
/// r's link transforms at the current configuration when there are chains.
void applyLinkEfforts(const Robot& r, const SimRobot& sr, std::vector<SimBody>& bodies, const VectorX& effort);
/// Adds to `effort` the link efforts of r's affine driver d applying torque t:
/// t along the driver's link weights, plus the transmission that keeps its
/// links on the commanded driver value qCmd (velocity dqCmd), a spring-damper
/// across the other link directions with the reference's stiffness
/// (0.25 servoP), damping (0.001 servoP) and torque bound (10 times the
/// largest torqueMax of its links).
void addAffineDriverEfforts(const Robot& r, int d, double t, double qCmd, double dqCmd, const VectorX& q,
                            const VectorX& dq, VectorX& effort);
/// Sets joint friction on link i: a zero-velocity motor limited to fmax.
void setLinkFriction(const SimRobot& sr, int link, double fmax);
/// Force and moment (about the link origin, world frame) that the parent
/// applies to link i through its joint during the last step.
void linkJointWrench(const SimRobot& sr, const std::vector<SimBody>& bodies, int link, Vector3& f, Vector3& m);

}  // namespace klampt
