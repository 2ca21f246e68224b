#include "klampt/dynamics/mass_matrix.h"

#include "klampt/dynamics/body_state.h"

namespace klampt {

void massMatrixFromComposites(const Robot& robot, const DynamicsWorkspace& ws, RowMatrixMap B) {
  const int n = robot.numLinks();
  B.setZero();
  for (int k = 0; k < n; ++k) {
    const CompositeBody& body = ws.composite[k];
    const UnitMomentum h = unitMomentum(ws, body, k, robot.links[k].prismatic);
    for (int j = k; j >= 0; j = robot.links[j].parent) {
      const double b = jointForce(ws, j, robot.links[j].prismatic, h.linear, h.angular, body.com);
      B(j, k) = b;
      B(k, j) = b;
    }
  }
}

void massMatrix(const Robot& robot, DynamicsWorkspace& ws, RowMatrixMap B) {
  computeBodies(robot, ws);
  computeComposites(robot, ws, false);
  massMatrixFromComposites(robot, ws, B);
}

}  // namespace klampt
