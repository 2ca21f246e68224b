// Second derivatives of a link's kinematics with respect to the configuration.
#pragma once
#include "klampt/dynamics/workspace.h"
#include "klampt/model/robot.h"

namespace klampt {

/// H[k][i][j] = d^2 x_k / dq_i dq_j for the world position x of the point
/// `plocal` of `link` (3 x n x n, row-major, symmetric in i, j). For i an
/// ancestor of (or equal to) j, both on the chain, the entry is z_i x J_j for
/// a revolute i (J_j the position Jacobian column) and zero for a prismatic i.
void positionHessian(const Robot& robot, int link, const Vector3& plocal, DynamicsWorkspace& ws, double* H);

/// H[k][i][j] = d J_k,i / dq_j, the derivative of column i of the orientation
/// Jacobian (the world axis of revolute joint i) with respect to q_j: z_j x z_i
/// when j is a strict revolute ancestor of a revolute i, else zero (3 x n x n,
/// row-major; not symmetric).
void orientationHessian(const Robot& robot, int link, DynamicsWorkspace& ws, double* H);

}  // namespace klampt
