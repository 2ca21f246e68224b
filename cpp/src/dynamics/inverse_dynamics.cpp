#include "klampt/dynamics/inverse_dynamics.h"

#include "klampt/dynamics/body_state.h"
#include "klampt/math/simd_clones.h"

namespace klampt {

// The passes along the tree follow it through memory only at branch points:
// when a link's parent is the link just visited (a serial chain), its state is
// carried in registers. Reading back a vector stored by the previous
// iteration would put a store-to-load forwarding delay on the critical path
// of every link.

KLAMPT_AVX2_CLONES void inverseDynamics(const Robot& robot, const double* dq, const double* ddq,
                                        const Vector3& gravity, DynamicsWorkspace& ws, double* tau) {
  const int n = robot.numLinks();
  ws.reserve(n);
  auto& w = ws.angularVelocity;
  auto& alpha = ws.vecA;   // angular acceleration
  auto& acc = ws.vecB;     // linear acceleration of the origin
  auto& force = ws.vecC;   // force on the subtree
  auto& moment = ws.vecD;  // moment on the subtree about its link's origin
  for (int i = 0; i < n; ++i) ws.axis[i] = worldAxis(robot.linkTransforms[i].R, robot.links[i].axis);
  // Velocities and accelerations. Gravity enters as an upward acceleration of
  // the world, felt identically at every point.
  Vector3 wi = Vector3::Zero(), alphai = Vector3::Zero(), acci = Vector3::Zero();  // of the previous link
  for (int i = 0; i < n; ++i) {
    const Link& l = robot.links[i];
    const Vector3& z = ws.axis[i];
    const double qd = dq ? dq[i] : 0.0;
    const int p = l.parent;
    if (p < 0) {
      wi.setZero();
      alphai.setZero();
      acci = -gravity;
    } else {
      if (p != i - 1) {
        wi = w[p];
        alphai = alpha[p];
        acci = acc[p];
      }
      const Vector3 r = robot.linkTransforms[i].t - robot.linkTransforms[p].t;
      acci += alphai.cross(r) + wi.cross(wi.cross(r));
    }
    if (l.prismatic) {
      acci += 2 * qd * wi.cross(z);
      if (ddq) acci += z * ddq[i];
    } else {
      alphai += qd * wi.cross(z);
      if (ddq) alphai += z * ddq[i];
      wi += z * qd;
    }
    w[i] = wi;
    alpha[i] = alphai;
    acc[i] = acci;
  }
  // Newton-Euler on each link alone, as a force and a moment about its
  // origin. The world inertia R I R^T is applied to vectors as R (I (R^T v)),
  // cheaper than forming it (and the same even where a file's rotations are
  // not exactly orthonormal).
  for (int i = 0; i < n; ++i) {
    const Link& l = robot.links[i];
    if (isMassless(l.mass)) {
      force[i].setZero();
      moment[i].setZero();
      continue;
    }
    const Matrix3& R = robot.linkTransforms[i].R;
    const Vector3 d = R * l.mass.com;
    const Vector3 comAcc = acc[i] + alpha[i].cross(d) + w[i].cross(w[i].cross(d));
    Matrix3 scratch;
    const Matrix3& I = symmetricPart(l.mass.inertia, scratch);
    const Vector3 Iw = R * (I * (R.transpose() * w[i]));
    const Vector3 Ialpha = R * (I * (R.transpose() * alpha[i]));
    const Vector3 f = l.mass.mass * comAcc;
    force[i] = f;
    moment[i] = Ialpha + w[i].cross(Iw) + d.cross(f);
  }
  // Backward: each subtree's wrench, projected on its joint.
  Vector3 carriedForce = Vector3::Zero(), carriedMoment = Vector3::Zero();  // subtree of i + 1, about p_i
  bool carried = false;
  for (int i = n - 1; i >= 0; --i) {
    const Link& l = robot.links[i];
    Vector3 f = force[i], m = moment[i];
    if (carried) {
      f += carriedForce;
      m += carriedMoment;
    }
    tau[i] = l.prismatic ? ws.axis[i].dot(f) : ws.axis[i].dot(m);
    carried = false;
    const int p = l.parent;
    if (p < 0) continue;
    m += (robot.linkTransforms[i].t - robot.linkTransforms[p].t).cross(f);
    if (p == i - 1) {
      carriedForce = f;
      carriedMoment = m;
      carried = true;
    } else {
      force[p] += f;
      moment[p] += m;
    }
  }
}

void gravityForces(const Robot& robot, const Vector3& gravity, DynamicsWorkspace& ws, double* tau) {
  const int n = robot.numLinks();
  ws.reserve(n);
  // Mass of each subtree and its first moment about the link origin,
  // sum m (c - p), passed up to the parent.
  auto& pendingMass = ws.vec1;
  auto& pendingMoment = ws.vecA;
  for (int i = 0; i < n; ++i) {
    pendingMass[i] = 0;
    pendingMoment[i].setZero();
  }
  double carriedMass = 0;
  Vector3 carriedMoment = Vector3::Zero();  // subtree of i + 1, about p_i
  bool carried = false;
  for (int i = n - 1; i >= 0; --i) {
    const Link& l = robot.links[i];
    const RigidTransform& T = robot.linkTransforms[i];
    double mass = l.mass.mass + pendingMass[i];
    if (carried) mass += carriedMass;
    // The carried moment is added last, so that only one addition per link
    // waits for the previous one.
    const Vector3 own = T.R * (l.mass.mass * l.mass.com) + pendingMoment[i];
    Vector3 moment = own;
    if (carried) moment += carriedMoment;
    const Vector3 z = worldAxis(T.R, l.axis);
    // Minus the generalized force of the weights m g acting at the centers of mass.
    tau[i] = l.prismatic ? -mass * z.dot(gravity) : -z.dot(moment.cross(gravity));
    const int p = l.parent;
    if (p < 0) {
      carried = false;
      continue;
    }
    Vector3 atParent = own + mass * (T.t - robot.linkTransforms[p].t);
    if (carried) atParent += carriedMoment;
    carried = p == i - 1;
    if (carried) {
      carriedMass = mass;
      carriedMoment = atParent;
    } else {
      pendingMass[p] += mass;
      pendingMoment[p] += atParent;
    }
  }
}

}  // namespace klampt
