// Inverse dynamics by the recursive Newton-Euler algorithm.
#pragma once
#include "klampt/dynamics/workspace.h"
#include "klampt/model/robot.h"

namespace klampt {

/// tau = B(q) ddq + C(q, dq) + G(q) at the robot's current configuration, where
/// G is the generalized force that holds the robot against the gravity
/// acceleration g. dq or ddq may be null (zero); g = 0 leaves gravity out.
/// O(n); tau has n entries.
void inverseDynamics(const Robot& robot, const double* dq, const double* ddq, const Vector3& gravity,
                     DynamicsWorkspace& ws, double* tau);

/// G(q) alone, the torques that hold the robot against gravity g, from the
/// mass and first moment of each link's subtree, O(n).
void gravityForces(const Robot& robot, const Vector3& gravity, DynamicsWorkspace& ws, double* tau);

}  // namespace klampt
