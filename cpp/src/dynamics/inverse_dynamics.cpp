#include "klampt/dynamics/inverse_dynamics.h"

#include "klampt/dynamics/body_state.h"

namespace klampt {

void inverseDynamicsFromBodies(const Robot& robot, const double* dq, const double* ddq, const Vector3& gravity,
                               DynamicsWorkspace& ws, double* tau) {
  const int n = robot.numLinks();
  auto& w = ws.angularVelocity;
  auto& alpha = ws.vecA;   // angular acceleration
  auto& acc = ws.vecB;     // linear acceleration of the origin
  auto& force = ws.vecC;   // force on the subtree
  auto& moment = ws.vecD;  // moment on the subtree about its link's origin
  // Forward: velocities and accelerations. Gravity enters as an upward
  // acceleration of the world, felt identically at every point.
  for (int i = 0; i < n; ++i) {
    const Link& l = robot.links[i];
    const Vector3& z = ws.axis[i];
    const double qd = dq ? dq[i] : 0.0, qdd = ddq ? ddq[i] : 0.0;
    if (l.parent < 0) {
      w[i].setZero();
      alpha[i].setZero();
      acc[i] = -gravity;
    } else {
      const int p = l.parent;
      const Vector3 r = ws.origin[i] - ws.origin[p];
      w[i] = w[p];
      alpha[i] = alpha[p];
      acc[i] = acc[p] + alpha[p].cross(r) + w[p].cross(w[p].cross(r));
    }
    if (l.prismatic) {
      acc[i] += z * qdd + 2 * qd * w[i].cross(z);
    } else {
      alpha[i] += z * qdd + qd * w[i].cross(z);
      w[i] += z * qd;
    }
    // Newton-Euler on the link alone, as a force and a moment about its
    // origin. The world inertia R I R^T is applied to vectors as R (I (R^T v)),
    // cheaper than forming it (and the same even where a file's rotations are
    // not exactly orthonormal).
    if (isMassless(l.mass)) {
      force[i].setZero();
      moment[i].setZero();
      continue;
    }
    const Vector3 d = ws.com[i] - ws.origin[i];
    const Vector3 comAcc = acc[i] + alpha[i].cross(d) + w[i].cross(w[i].cross(d));
    const Matrix3& R = robot.linkTransforms[i].R;
    const Matrix3 I = 0.5 * (l.mass.inertia + l.mass.inertia.transpose());
    const Vector3 Iw = R * (I * (R.transpose() * w[i]));
    force[i] = l.mass.mass * comAcc;
    moment[i].noalias() = R * (I * (R.transpose() * alpha[i]));
    moment[i] += w[i].cross(Iw) + d.cross(force[i]);
  }
  // Backward: each subtree's wrench, projected on its joint.
  for (int i = n - 1; i >= 0; --i) {
    const Link& l = robot.links[i];
    tau[i] = ws.axis[i].dot(l.prismatic ? force[i] : moment[i]);
    if (l.parent >= 0) {
      force[l.parent] += force[i];
      moment[l.parent] += moment[i] + (ws.origin[i] - ws.origin[l.parent]).cross(force[i]);
    }
  }
}

void gravityForces(const Robot& robot, const Vector3& gravity, DynamicsWorkspace& ws, double* tau) {
  const int n = robot.numLinks();
  ws.reserve(n);
  auto& mass = ws.vec1;       // mass of the subtree
  auto& moment = ws.vecA;     // its first moment about the link origin, sum m (c - p)
  for (int i = 0; i < n; ++i) {
    const Link& l = robot.links[i];
    mass[i] = l.mass.mass;
    moment[i].noalias() = robot.linkTransforms[i].R * (l.mass.mass * l.mass.com);
  }
  for (int i = n - 1; i >= 0; --i) {
    const Link& l = robot.links[i];
    const RigidTransform& T = robot.linkTransforms[i];
    const Vector3 z = T.R * l.axis;
    // Minus the generalized force of the weights m g acting at the centers of mass.
    tau[i] = l.prismatic ? -mass[i] * z.dot(gravity) : -z.dot(moment[i].cross(gravity));
    if (l.parent >= 0) {
      mass[l.parent] += mass[i];
      moment[l.parent] += moment[i] + mass[i] * (T.t - robot.linkTransforms[l.parent].t);
    }
  }
}

void inverseDynamics(const Robot& robot, const double* dq, const double* ddq, const Vector3& gravity,
                     DynamicsWorkspace& ws, double* tau) {
  computeBodies(robot, ws, false);
  inverseDynamicsFromBodies(robot, dq, ddq, gravity, ws, tau);
}

}  // namespace klampt
