#include "klampt/dynamics/momentum.h"

#include "klampt/dynamics/body_state.h"

namespace klampt {

MomentumSummary momentum(const Robot& robot, const double* dq, DynamicsWorkspace& ws) {
  computeBodies(robot, ws, false);
  computeVelocities(robot, dq, ws);
  MomentumSummary s;
  for (int i = 0; i < robot.numLinks(); ++i) {
    const Mass& mass = robot.links[i].mass;
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
  double M = 0;
  Vector3 moment = Vector3::Zero();
  for (int i = 0; i < robot.numLinks(); ++i) {
    const Mass& mass = robot.links[i].mass;
    M += mass.mass;
    moment += mass.mass * robot.linkTransforms[i].apply(mass.com);
  }
  const Vector3 com = M > 0 ? Vector3(moment / M) : Vector3::Zero();
  Matrix3 I = Matrix3::Zero();
  for (int i = 0; i < robot.numLinks(); ++i) {
    const Mass& mass = robot.links[i].mass;
    const RigidTransform& T = robot.linkTransforms[i];
    const Vector3 d = T.apply(mass.com) - com;
    I += T.R * mass.inertia * T.R.transpose();
    I -= mass.mass * d * d.transpose();
    I.diagonal().array() += mass.mass * d.squaredNorm();
  }
  return I;
}

}  // namespace klampt
