#include "klampt/dynamics/momentum.h"

#include "klampt/dynamics/body_state.h"

namespace klampt {

namespace {

// Calls visit(link, transform, w, v) with the angular velocity w of every link
// and, if WithLinear, the velocity v of its origin (else v is zero). A link
// whose parent is the previous one takes the parent's velocities from
// registers rather than from the copies kept in ws for branching trees.
template <bool WithLinear, class Visit>
void forEachLinkVelocity(const Robot& robot, const double* dq, DynamicsWorkspace& ws, Visit visit) {
  const int n = robot.numLinks();
  ws.reserve(n);
  auto& w = ws.angularVelocity;
  auto& v = ws.originVelocity;
  Vector3 wi = Vector3::Zero(), vi = Vector3::Zero();
  for (int i = 0; i < n; ++i) {
    const Link& l = robot.links[i];
    const RigidTransform& T = robot.linkTransforms[i];
    const int p = l.parent;
    if (p < 0) {
      wi.setZero();
      vi.setZero();
    } else {
      if (p != i - 1) {
        wi = w[p];
        if (WithLinear) vi = v[p];
      }
      if (WithLinear) vi += wi.cross(T.t - robot.linkTransforms[p].t);
    }
    if (!l.prismatic)
      wi += worldAxis(T.R, l.axis) * dq[i];
    else if (WithLinear)
      vi += worldAxis(T.R, l.axis) * dq[i];
    w[i] = wi;
    if (WithLinear) v[i] = vi;
    visit(l, T, wi, vi);
  }
}

// R I R^T w for a link's inertia I as given.
inline Vector3 worldSpin(const Mass& mass, const RigidTransform& T, const Vector3& w) {
  return T.R * (mass.inertia * (T.R.transpose() * w));
}

}  // namespace

Vector3 linearMomentum(const Robot& robot, const double* dq, DynamicsWorkspace& ws, double& mass) {
  Vector3 L = Vector3::Zero();
  double M = 0;
  forEachLinkVelocity<true>(robot, dq, ws, [&](const Link& l, const RigidTransform& T, const Vector3& w,
                                               const Vector3& v) {
    const double m = l.mass.mass;
    if (m == 0) return;
    M += m;
    L += m * (v + w.cross(T.R * l.mass.com));
  });
  mass = M;
  return L;
}

Vector3 comVelocity(const Robot& robot, const double* dq, DynamicsWorkspace& ws) {
  double mass;
  const Vector3 L = linearMomentum(robot, dq, ws, mass);
  return mass > 0 ? Vector3(L / mass) : Vector3::Zero();
}

Vector3 spinMomentum(const Robot& robot, const double* dq, DynamicsWorkspace& ws) {
  Vector3 H = Vector3::Zero();
  forEachLinkVelocity<false>(robot, dq, ws, [&](const Link& l, const RigidTransform& T, const Vector3& w,
                                                const Vector3&) {
    if (!isMassless(l.mass)) H += worldSpin(l.mass, T, w);
  });
  return H;
}

double kineticEnergy(const Robot& robot, const double* dq, DynamicsWorkspace& ws) {
  double twice = 0;
  forEachLinkVelocity<true>(robot, dq, ws, [&](const Link& l, const RigidTransform& T, const Vector3& w,
                                               const Vector3& v) {
    if (isMassless(l.mass)) return;
    const Vector3 vc = v + w.cross(T.R * l.mass.com);
    twice += l.mass.mass * vc.squaredNorm() + w.dot(worldSpin(l.mass, T, w));
  });
  return 0.5 * twice;
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
