// Whole-robot momentum quantities at the current configuration and a joint
// velocity vector: one O(n) velocity pass and a sum over links. The link
// inertias are used as the model gives them (like the reference), not
// symmetrized as in the equations of motion; kinetic energy does not depend on
// the difference.
#pragma once
#include "klampt/dynamics/workspace.h"
#include "klampt/model/robot.h"

namespace klampt {

/// sum m_i v_ci (v_ci: velocity of link i's center of mass); `mass`
/// receives the total mass.
Vector3 linearMomentum(const Robot& robot, const double* dq, DynamicsWorkspace& ws, double& mass);

/// Velocity of the center of mass: the linear momentum over the total mass,
/// or zero for a massless robot.
Vector3 comVelocity(const Robot& robot, const double* dq, DynamicsWorkspace& ws);

/// sum R_i I_i R_i^T w_i: the links' spins about their own centers of mass
/// only (no sum m_i c_i x v_ci term), which is what the reference's
/// getAngularMomentum returns.
Vector3 spinMomentum(const Robot& robot, const double* dq, DynamicsWorkspace& ws);

/// 1/2 sum (m_i |v_ci|^2 + w_i . I_i w_i) = 1/2 dq^T B dq.
double kineticEnergy(const Robot& robot, const double* dq, DynamicsWorkspace& ws);

/// 3 x 3 inertia of the whole robot, rigidly held, about its center of mass.
Matrix3 totalInertia(const Robot& robot);

}  // namespace klampt
