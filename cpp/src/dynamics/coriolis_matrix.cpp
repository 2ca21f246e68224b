#include "klampt/dynamics/coriolis_matrix.h"

#include "klampt/dynamics/body_state.h"
#include "klampt/dynamics/mass_matrix_deriv.h"

namespace klampt {

namespace {

// Momentum (linear, angular about body.com) of a composite body moving with
// the twist dS_j/dt, the rate of change of joint j's unit motion.
UnitMomentum momentumWithAxisRate(const DynamicsWorkspace& ws, const CompositeBody& body, int j, bool prismatic) {
  const Vector3& z = ws.axis[j];
  const Vector3 zDot = ws.angularVelocity[j].cross(z);
  if (prismatic) return {body.mass * zDot, Vector3::Zero()};
  // The twist's velocity at x is d/dt [z x (x - p_j)] = zDot x (x - p_j) - z x pDot_j.
  const Vector3 v = zDot.cross(body.com - ws.origin[j]) - z.cross(ws.originVelocity[j]);
  return {body.mass * v, body.inertia * zDot};
}

// K(i,j) = d(B dq)_i / dq_j. With h_j the momentum of subtree j and Ic_j its
// composite inertia: for j an ancestor of i (or i), K(i,j) = S_i . Ic_i dS_j/dt;
// for j a strict descendant of i, K(i,j) = S_i . (S_j x* h_j + Ic_j dS_j/dt).
void momentumJacobian(const Robot& robot, DynamicsWorkspace& ws, RowMatrixMap K) {
  const int n = robot.numLinks();
  const auto& links = robot.links;
  auto& linear = ws.vecA;   // momentum of subtree i
  auto& angular = ws.vecB;  // its angular part about origin i
  for (int i = 0; i < n; ++i) {
    const Vector3 L = links[i].mass.mass * ws.comVelocity[i];
    linear[i] = L;
    angular[i] = ws.inertia[i] * ws.angularVelocity[i] + (ws.com[i] - ws.origin[i]).cross(L);
  }
  for (int i = n - 1; i >= 0; --i) {
    const int p = links[i].parent;
    if (p < 0) continue;
    linear[p] += linear[i];
    angular[p] += angular[i] + (ws.origin[i] - ws.origin[p]).cross(linear[i]);
  }
  K.setZero();
  for (int i = 0; i < n; ++i) {
    const CompositeBody& body = ws.composite[i];
    const bool prismatic = links[i].prismatic;
    for (int j = i; j >= 0; j = links[j].parent) {
      const UnitMomentum m = momentumWithAxisRate(ws, body, j, links[j].prismatic);
      K(i, j) = jointForce(ws, i, prismatic, m.linear, m.angular, body.com);
    }
  }
  for (int j = 0; j < n; ++j) {
    if (links[j].parent < 0) continue;
    // The wrench S_j x* h_j + Ic_j dS_j/dt as a force and a moment about p_j.
    const CompositeBody& body = ws.composite[j];
    const Vector3& z = ws.axis[j];
    const UnitMomentum m = momentumWithAxisRate(ws, body, j, links[j].prismatic);
    Vector3 force = m.linear;
    Vector3 moment = m.angular + (body.com - ws.origin[j]).cross(m.linear);
    if (links[j].prismatic) {
      moment += z.cross(linear[j]);
    } else {
      force += z.cross(linear[j]);
      moment += z.cross(angular[j]);
    }
    for (int i = links[j].parent; i >= 0; i = links[i].parent)
      K(i, j) = jointForce(ws, i, links[i].prismatic, force, moment, ws.origin[j]);
  }
}

}  // namespace

void coriolisMatrix(const Robot& robot, const double* dq, DynamicsWorkspace& ws, RowMatrixMap C) {
  const int n = robot.numLinks();
  computeBodies(robot, ws);
  computeVelocities(robot, dq, ws);
  computeComposites(robot, ws, true);
  massMatrixDerivFromComposites(robot, ws, C);
  RowMatrixMap K = ws.matrixB(n);
  momentumJacobian(robot, ws, K);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) C(i, j) = 0.5 * (C(i, j) + K(i, j) - K(j, i));
}

}  // namespace klampt
