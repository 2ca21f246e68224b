// Forward dynamics: joint accelerations from joint torques, and the inverse
// mass matrix, through the tree factorization of B (mass_matrix_factor.h).
#pragma once
#include "klampt/dynamics/workspace.h"
#include "klampt/model/robot.h"

namespace klampt {

/// ddq = B(q)^+ (tau - C(q, dq)) at the robot's current configuration, gravity
/// not included. When B is singular (massless links) this is the
/// minimum-norm least-squares solution: torques on DOFs that move no mass are
/// ignored and those DOFs get zero acceleration. O(n depth^2).
void forwardDynamics(const Robot& robot, const double* dq, const double* tau, DynamicsWorkspace& ws, double* ddq);

/// out = B(q)^-1 (n x n), or the pseudo-inverse B^+ when B is singular, so
/// that out * (tau - C) equals forwardDynamics. O(n^2 depth).
void massMatrixInverse(const Robot& robot, DynamicsWorkspace& ws, RowMatrixMap out);

}  // namespace klampt
