#include "klampt/dynamics/momentum.h"

#include "klampt/dynamics/body_state.h"

namespace klampt {

MomentumSummary momentum(const Robot& robot, const double* dq, DynamicsWorkspace& ws) {
  computeBodies(robot, ws, false);
  computeVelocities(robot, dq, ws);
  MomentumSummary s;
  for (int i = 0; i < robot.numLinks(); ++i) {
    const Mass& mass = robot.links[i].mass;
    if (isMassless(mass)) continue;
    const Matrix3& R = robot.linkTransforms[i].R;
    const Vector3& v = ws.comVelocity[i];
    const Vector3& w = ws.angularVelocity[i];
    const Vector3 Iw = R * (mass.inertia * (R.transpose() * w));
    s.mass += mass.mass;
    s.linear += mass.mass * v;
    s.spin += Iw;
    s.kinetic += 0.5 * (mass.mass * v.squaredNorm() + w.dot(Iw));
  }
  return s;
}

Matrix3 totalInertia(const Robot& robot) {
  // One pass: the inertias rotated to the world, plus the second moment of the
  // masses about the root origin (offsets stay small), moved to the center of
  // mass at the end with the parallel axis theorem.
  const Vector3 origin = robot.numLinks() > 0 ? robot.linkTransforms[0].t : Vector3::Zero();
  double M = 0;
  Vector3 moment = Vector3::Zero();
  Matrix3 I = Matrix3::Zero(), second = Matrix3::Zero();
  for (int i = 0; i < robot.numLinks(); ++i) {
    const Mass& mass = robot.links[i].mass;
    const RigidTransform& T = robot.linkTransforms[i];
    const Matrix3 RI = T.R * mass.inertia;
    I.noalias() += RI * T.R.transpose();
    const Vector3 d = T.apply(mass.com) - origin;
    M += mass.mass;
    moment += mass.mass * d;
    second.noalias() += (mass.mass * d) * d.transpose();
  }
  // sum m (|d|^2 1 - d d^T) - M (|D|^2 1 - D D^T), D = moment / M
  if (M > 0) second.noalias() -= moment * moment.transpose() / M;
  I -= second;
  I.diagonal().array() += second.trace();
  return I;
}

}  // namespace klampt
