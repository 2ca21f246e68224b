// The joint-space mass matrix B(q) by the composite rigid body algorithm.
#pragma once
#include "klampt/dynamics/workspace.h"
#include "klampt/model/robot.h"

namespace klampt {

/// Writes the n x n mass matrix at the robot's current configuration into B.
/// B(j,k) is nonzero only when one of j, k is an ancestor of the other: it is
/// the generalized force on joint j of the momentum of k's subtree moving with
/// a unit velocity of joint k. O(n * depth).
void massMatrix(const Robot& robot, DynamicsWorkspace& ws, RowMatrixMap B);

/// The same from bodies and composites already in ws (computeBodies,
/// computeComposites), for algorithms that need them too.
void massMatrixFromComposites(const Robot& robot, const DynamicsWorkspace& ws, RowMatrixMap B);

}  // namespace klampt
