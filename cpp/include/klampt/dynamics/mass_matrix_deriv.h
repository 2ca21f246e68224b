// Derivatives of the mass matrix: the directional derivative sum_k v_k dB/dq_k,
// which is dB/dt for v = dq and dB/dq_i for v = e_i.
#pragma once
#include "klampt/dynamics/workspace.h"
#include "klampt/model/robot.h"

namespace klampt {

/// Writes sum_k v[k] dB/dq_k (n x n) at the robot's current configuration.
/// Differentiates the composite-body expression of each entry (mass_matrix.h)
/// with the bodies moving at joint velocities v. O(n depth).
void massMatrixDirectionalDeriv(const Robot& robot, const double* v, DynamicsWorkspace& ws, RowMatrixMap dB);

/// dB/dq_i alone. Its nonzero entries (j,k), j an ancestor of k, have j a
/// strict ancestor of i and k in the subtree of i, or both j and k strict
/// ancestors of i: only those are computed.
void massMatrixDeriv(const Robot& robot, int i, DynamicsWorkspace& ws, RowMatrixMap dB);

/// The directional derivative from bodies, velocities (for v) and composites
/// with rates already in ws. If dof >= 0 (v = e_dof) only the entries that
/// can be nonzero are computed.
void massMatrixDerivFromComposites(const Robot& robot, DynamicsWorkspace& ws, RowMatrixMap dB, int dof = -1);

}  // namespace klampt
