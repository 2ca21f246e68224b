// The Coriolis matrix C(q, dq) of the Christoffel symbols, as the reference
// defines it: C(i,j) = sum_k G_ijk dq_k with
// G_ijk = 1/2 (dB_ij/dq_k + dB_ik/dq_j - dB_jk/dq_i), so that C dq is the
// Coriolis/centrifugal force vector and dB/dt = C + C^T.
#pragma once
#include "klampt/dynamics/workspace.h"
#include "klampt/model/robot.h"

namespace klampt {

/// Writes C(q, dq) (n x n) at the robot's current configuration as
/// 1/2 (dB/dt + K - K^T), K(i,j) = d(B dq)_i / dq_j, both computed from
/// composite bodies in O(n depth).
void coriolisMatrix(const Robot& robot, const double* dq, DynamicsWorkspace& ws, RowMatrixMap C);

}  // namespace klampt
