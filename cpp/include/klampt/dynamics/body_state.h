// The links of a robot as rigid bodies in world coordinates at its current
// configuration (from Robot::linkTransforms): joint axes, origins, centers of
// mass and inertias, and their velocities for a joint velocity vector. Every
// dynamics algorithm starts from these; positions only ever enter as
// differences of nearby points, which keeps small links accurate far from the
// world origin.
#pragma once
#include "klampt/dynamics/workspace.h"
#include "klampt/model/robot.h"

namespace klampt {

/// A link without mass or inertia (a virtual link of a floating base, a
/// frame): it exerts no force, so the algorithms skip its terms.
inline bool isMassless(const Mass& m) { return m.mass == 0 && m.inertia.isZero(0.0); }

/// R * axis. Most files give joint axes along coordinate axes, which pick a
/// column of R (exactly the value of the product) without arithmetic.
inline Vector3 worldAxis(const Matrix3& R, const Vector3& axis) {
  if (axis.x() == 0 && axis.y() == 0 && axis.z() == 1) return R.col(2);
  if (axis.x() == 0 && axis.z() == 0 && axis.y() == 1) return R.col(1);
  if (axis.y() == 0 && axis.z() == 0 && axis.x() == 1) return R.col(0);
  return R * axis;
}

/// The symmetric part of a matrix: the matrix itself when it is symmetric, as
/// link inertias nearly always are, else formed in `scratch`.
inline const Matrix3& symmetricPart(const Matrix3& M, Matrix3& scratch) {
  if (M(0, 1) == M(1, 0) && M(0, 2) == M(2, 0) && M(1, 2) == M(2, 1)) return M;
  scratch = 0.5 * (M + M.transpose());
  return scratch;
}

/// Fills ws.axis, ws.origin, ws.com and, if withInertia, ws.inertia (sizes ws
/// first). The equations of motion use the symmetric part of
/// Link::mass.inertia: only that part is physical, and a few files (atlas.rob)
/// give slightly asymmetric matrices.
void computeBodies(const Robot& robot, DynamicsWorkspace& ws, bool withInertia = true);

/// The symmetric part of a link's inertia in world coordinates, R I R^T.
Matrix3 worldInertia(const Link& link, const RigidTransform& T);

/// Fills ws.angularVelocity, ws.originVelocity and ws.comVelocity for joint
/// velocities dq (n values); needs computeBodies. Links before firstMoving are
/// known to be at rest (dq is zero on them, hence on their ancestors too).
void computeVelocities(const Robot& robot, const double* dq, DynamicsWorkspace& ws, int firstMoving = 0);

/// Composite bodies of every subtree into ws.composite (needs computeBodies;
/// withRates also needs computeVelocities and fills the rates).
void computeComposites(const Robot& robot, DynamicsWorkspace& ws, bool withRates);

/// Lumps body b into body a (rates too if withRates).
void lumpInto(CompositeBody& a, const CompositeBody& b, bool withRates);

/// Momentum (linear L, angular H about the body's center of mass) of a body
/// moving with the unit motion of joint k.
struct UnitMomentum {
  Vector3 linear, angular;
};
inline UnitMomentum unitMomentum(const DynamicsWorkspace& ws, const CompositeBody& body, int k, bool prismatic) {
  const Vector3& z = ws.axis[k];
  if (prismatic) return {body.mass * z, Vector3::Zero()};
  return {body.mass * z.cross(body.com - ws.origin[k]), body.inertia * z};
}

/// Generalized force on joint j of a wrench given by its force and its moment
/// about the point `at`.
inline double jointForce(const DynamicsWorkspace& ws, int j, bool prismatic, const Vector3& force,
                         const Vector3& moment, const Vector3& at) {
  const Vector3& z = ws.axis[j];
  if (prismatic) return z.dot(force);
  return z.dot(moment + (at - ws.origin[j]).cross(force));
}

}  // namespace klampt
