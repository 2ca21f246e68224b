#include "klampt/dynamics/forward_dynamics.h"

#include "klampt/dynamics/body_state.h"
#include "klampt/dynamics/inverse_dynamics.h"
#include "klampt/dynamics/mass_matrix.h"
#include "klampt/dynamics/mass_matrix_factor.h"

namespace klampt {

void forwardDynamics(const Robot& robot, const double* dq, const double* tau, DynamicsWorkspace& ws, double* ddq) {
  const int n = robot.numLinks();
  computeBodies(robot, ws);
  computeComposites(robot, ws, false);
  RowMatrixMap H = ws.matrixA(n);
  massMatrixFromComposites(robot, ws, H);
  inverseDynamics(robot, dq, nullptr, Vector3::Zero(), ws, ddq);
  for (int i = 0; i < n; ++i) ddq[i] = tau[i] - ddq[i];
  if (factorMassMatrix(robot, H, ws.vec1.data())) {
    solveFactored(robot, H, ws.vec1.data(), ddq);
  } else {
    massMatrixFromComposites(robot, ws, H);  // the failed factorization overwrote it
    solveLeastSquares(H, ddq);
  }
}

void massMatrixInverse(const Robot& robot, DynamicsWorkspace& ws, RowMatrixMap out) {
  const int n = robot.numLinks();
  computeBodies(robot, ws);
  computeComposites(robot, ws, false);
  RowMatrixMap H = ws.matrixA(n);
  massMatrixFromComposites(robot, ws, H);
  if (factorMassMatrix(robot, H, ws.vec1.data())) {
    invertFactored(robot, H, ws.vec1.data(), ws.vec2.data(), out);
  } else {
    massMatrixFromComposites(robot, ws, H);
    pseudoInverse(H, out);
  }
}

}  // namespace klampt
