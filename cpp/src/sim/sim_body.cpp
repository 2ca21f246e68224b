#include "klampt/sim/sim_body.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include "klampt/sim/preshrink.h"

namespace klampt {

namespace {

Matrix3 odeRotation(const dReal* R) {
  Matrix3 M;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) M(i, j) = R[i * 4 + j];
  return M;
}

}  // namespace

Matrix3 positiveInertia(const Matrix3& I, double floor) {
  Matrix3 S = 0.5 * (I + I.transpose());
  Eigen::SelfAdjointEigenSolver<Matrix3> es(S);
  if (es.eigenvalues().minCoeff() >= floor) return S;
  return es.eigenvectors() * es.eigenvalues().cwiseMax(floor).asDiagonal() * es.eigenvectors().transpose();
}

void SimBody::canonicalizeRotation() {
  if (!body) return;
  const dReal* q = dBodyGetQuaternion(body);
  setRawQuaternion(q);
}

void SimBody::setRawQuaternion(const dReal* q) {
  std::copy_n(q, 4, rawQuaternion.begin());
  dBodySetQuaternion(body, rawQuaternion.data());
}

RigidTransform SimBody::comTransform() const {
  if (!body) {
    RigidTransform T = geometry.currentTransform;
    T.t = T.apply(localCom);
    return T;
  }
  const dReal* p = dBodyGetPosition(body);
  return {odeRotation(dBodyGetRotation(body)), Vector3(p[0], p[1], p[2])};
}

RigidTransform SimBody::objectTransform() const {
  if (!body) return geometry.currentTransform;
  RigidTransform T = comTransform();
  T.t -= T.R * localCom;
  return T;
}

void SimBody::setComTransform(const RigidTransform& T) {
  wake();
  if (!body) {
    geometry.currentTransform = {T.R, T.t - T.R * localCom};
    boxCurrent = false;
    return;
  }
  dMatrix3 R;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) R[i * 4 + j] = T.R(i, j);
    R[i * 4 + 3] = 0;
  }
  dBodySetPosition(body, T.t[0], T.t[1], T.t[2]);
  dBodySetRotation(body, R);
  canonicalizeRotation();
  syncGeometry();
}

void SimBody::velocity(Vector3& w, Vector3& v) const {
  if (!body) {
    w.setZero();
    v.setZero();
    return;
  }
  const dReal* a = dBodyGetAngularVel(body);
  const dReal* l = dBodyGetLinearVel(body);
  w = Vector3(a[0], a[1], a[2]);
  v = Vector3(l[0], l[1], l[2]);
}

void SimBody::setVelocity(const Vector3& w, const Vector3& v) {
  if (!body) return;
  wake();
  dBodySetAngularVel(body, w[0], w[1], w[2]);
  dBodySetLinearVel(body, v[0], v[1], v[2]);
  lastKineticEnergy = kineticEnergy();
}

double SimBody::kineticEnergy() const {
  if (!body || dBodyIsKinematic(body)) return 0;
  Vector3 w, v;
  velocity(w, v);
  const Matrix3 R = comTransform().R;
  return 0.5 * mass * v.squaredNorm() + 0.5 * w.dot(R * inertia * R.transpose() * w);
}

void SimBody::applyFlags() {
  if (!body) return;
  if (!dynamicsEnabled || alwaysKinematic)
    dBodySetKinematic(body);
  else
    dBodySetDynamic(body);
  if (enabled && !asleep)
    dBodyEnable(body);
  else
    dBodyDisable(body);
}

void SimBody::applyPreshrink() {
  if (!originalShape) originalShape = geometry.data;
  geometry.data = preshrink ? preshrunkShape(originalShape, padding) : originalShape;
  boxCurrent = false;
}

void SimBody::wake() {
  idleSteps = 0;
  if (!asleep) return;
  asleep = false;
  applyFlags();
}

bool SimBody::active() const { return body && !dBodyIsKinematic(body) && dBodyIsEnabled(body); }

void SimBody::syncGeometry() {
  if (body) geometry.currentTransform = objectTransform();
}

}  // namespace klampt
