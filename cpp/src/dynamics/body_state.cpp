#include "klampt/dynamics/body_state.h"

namespace klampt {

void computeBodies(const Robot& robot, DynamicsWorkspace& ws, bool withInertia) {
  const int n = robot.numLinks();
  ws.reserve(n);
  for (int i = 0; i < n; ++i) {
    const Link& l = robot.links[i];
    const RigidTransform& T = robot.linkTransforms[i];
    ws.axis[i] = worldAxis(T.R, l.axis);
    ws.origin[i] = T.t;
    ws.com[i].noalias() = T.R * l.mass.com;
    ws.com[i] += T.t;
    if (withInertia) ws.inertia[i] = worldInertia(l, T);
  }
}

Matrix3 worldInertia(const Link& link, const RigidTransform& T) {
  if (isMassless(link.mass)) return Matrix3::Zero();
  Matrix3 scratch;
  const Matrix3 RI = T.R * symmetricPart(link.mass.inertia, scratch);
  return RI * T.R.transpose();
}

void computeVelocities(const Robot& robot, const double* dq, DynamicsWorkspace& ws, int firstMoving) {
  const int n = robot.numLinks();
  for (int i = 0; i < firstMoving; ++i) {
    ws.angularVelocity[i].setZero();
    ws.originVelocity[i].setZero();
    ws.comVelocity[i].setZero();
  }
  // A link whose parent is the previous one takes the parent's velocities
  // from registers rather than back from memory.
  Vector3 w = Vector3::Zero(), v = Vector3::Zero();
  for (int i = firstMoving; i < n; ++i) {
    const Link& l = robot.links[i];
    const int p = l.parent;
    if (p < 0) {
      w.setZero();
      v.setZero();
    } else {
      if (p != i - 1 || i == firstMoving) {
        w = ws.angularVelocity[p];
        v = ws.originVelocity[p];
      }
      v += w.cross(ws.origin[i] - ws.origin[p]);
    }
    if (l.prismatic)
      v += ws.axis[i] * dq[i];
    else
      w += ws.axis[i] * dq[i];
    ws.angularVelocity[i] = w;
    ws.originVelocity[i] = v;
    ws.comVelocity[i] = v + w.cross(ws.com[i] - ws.origin[i]);
  }
}

namespace {

// |d|^2 1 - d d^T: the parallel-axis term of a unit mass at offset d.
inline Matrix3 parallelAxis(const Vector3& d) {
  Matrix3 P = -d * d.transpose();
  P.diagonal().array() += d.squaredNorm();
  return P;
}

}  // namespace

// The reduced-mass form m_a m_b / M |c_b - c_a|^2 needs only the offset
// between the two centers, never a distance to the origin.
void lumpInto(CompositeBody& a, const CompositeBody& b, bool withRates) {
  a.inertia += b.inertia;
  if (withRates) a.inertiaRate += b.inertiaRate;
  if (b.mass == 0) return;
  if (a.mass == 0) {
    a.mass = b.mass;
    a.com = b.com;
    a.comVelocity = b.comVelocity;
    return;
  }
  const double M = a.mass + b.mass, mu = a.mass * b.mass / M, wb = b.mass / M;
  const Vector3 d = b.com - a.com;
  a.inertia += mu * parallelAxis(d);
  a.com += wb * d;
  if (withRates) {
    const Vector3 dd = b.comVelocity - a.comVelocity;
    // Bodies at rest relative to each other (e.g. all of them, outside the
    // moving subtree of dB/dq_i) add nothing.
    if (dd.isZero(0.0)) {
      a.mass = M;
      return;
    }
    Matrix3 rate = -(dd * d.transpose() + d * dd.transpose());
    rate.diagonal().array() += 2 * d.dot(dd);
    a.inertiaRate += mu * rate;
    a.comVelocity += wb * dd;
  }
  a.mass = M;
}

void computeComposites(const Robot& robot, DynamicsWorkspace& ws, bool withRates) {
  const int n = robot.numLinks();
  for (int i = 0; i < n; ++i) {
    CompositeBody& c = ws.composite[i];
    c.mass = robot.links[i].mass.mass;
    c.com = ws.com[i];
    c.inertia = ws.inertia[i];
    if (withRates) {
      c.comVelocity = ws.comVelocity[i];
      // d/dt (R I R^T) = [w]x I' - I' [w]x
      const Vector3& w = ws.angularVelocity[i];
      if (w.isZero(0.0)) {
        c.inertiaRate.setZero();
        continue;
      }
      Matrix3 W;
      W << 0, -w.z(), w.y(), w.z(), 0, -w.x(), -w.y(), w.x(), 0;
      const Matrix3 WI = W * c.inertia;
      c.inertiaRate = WI + WI.transpose();  // I' is symmetric and W^T = -W
    }
  }
  // Children come after their parents, so a reverse sweep completes each
  // subtree before it is lumped into its parent.
  for (int i = n - 1; i >= 0; --i) {
    const int p = robot.links[i].parent;
    if (p >= 0) lumpInto(ws.composite[p], ws.composite[i], withRates);
  }
}

}  // namespace klampt
