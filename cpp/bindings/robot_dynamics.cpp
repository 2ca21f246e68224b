// Dynamics methods of RobotModel and RobotModelLink: argument checks and
// conversions around the algorithms in cpp/include/klampt/dynamics.
#include <string>

#include "convert.h"
#include "fast_call.h"
#include "handles.h"
#include "robot_args.h"
#include "scratch.h"
#include "klampt/dynamics/coriolis_matrix.h"
#include "klampt/dynamics/forward_dynamics.h"
#include "klampt/dynamics/hessians.h"
#include "klampt/dynamics/inverse_dynamics.h"
#include "klampt/dynamics/link_acceleration.h"
#include "klampt/dynamics/mass_matrix.h"
#include "klampt/dynamics/mass_matrix_deriv.h"
#include "klampt/dynamics/momentum.h"

namespace klampt_py {

using klampt::Robot;
using klampt::RowMatrixMap;

namespace {

// A new list of the n values fill(double*, DynamicsWorkspace&) writes.
template <class Fill>
py::object vectorResult(int n, Fill fill) {
  Scratch<VectorX> out;
  Scratch<klampt::DynamicsWorkspace> ws;
  out->resize(n);
  fill(out->data(), *ws);
  return toList(*out);
}

// An n x n ndarray filled by fill(RowMatrixMap, DynamicsWorkspace&).
template <class Fill>
py::object squareMatrix(int n, Fill fill) {
  auto a = newArray({n, n});
  Scratch<klampt::DynamicsWorkspace> ws;
  fill(RowMatrixMap(a.mutable_data(), n, n), *ws);
  return std::move(a);
}

py::object matrix3(const klampt::Matrix3& M) {
  auto a = newArray({3, 3});
  Eigen::Map<Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(a.mutable_data()) = M;
  return std::move(a);
}

// RobotModel methods.

py::object getMassMatrix(RobotModel& s) {
  const Robot& r = s.get();
  return squareMatrix(r.numLinks(), [&](RowMatrixMap B, auto& ws) { klampt::massMatrix(r, ws, B); });
}

py::object getMassMatrixInv(RobotModel& s) {
  const Robot& r = s.get();
  return squareMatrix(r.numLinks(), [&](RowMatrixMap out, auto& ws) { klampt::massMatrixInverse(r, ws, out); });
}

py::object getMassMatrixDeriv(RobotModel& s, const FastArgs& a) {
  auto [arg] = a.get("getMassMatrixDeriv", {"i"});
  const long i = toIndex(arg, "i");
  const Robot& r = s.get();
  checkIndex(i, r.numLinks(), "DOF");
  return squareMatrix(r.numLinks(), [&](RowMatrixMap dB, auto& ws) { klampt::massMatrixDeriv(r, (int)i, ws, dB); });
}

py::object getMassMatrixTimeDeriv(RobotModel& s) {
  const Robot& r = s.get();
  return squareMatrix(r.numLinks(), [&](RowMatrixMap dB, auto& ws) {
    klampt::massMatrixDirectionalDeriv(r, r.dq.data(), ws, dB);
  });
}

py::object getCoriolisForceMatrix(RobotModel& s) {
  const Robot& r = s.get();
  return squareMatrix(r.numLinks(), [&](RowMatrixMap C, auto& ws) { klampt::coriolisMatrix(r, r.dq.data(), ws, C); });
}

py::object getCoriolisForces(RobotModel& s) {
  const Robot& r = s.get();
  return vectorResult(r.numLinks(), [&](double* out, auto& ws) {
    klampt::inverseDynamics(r, r.dq.data(), nullptr, Vector3::Zero(), ws, out);
  });
}

py::object getGravityForces(RobotModel& s, const FastArgs& a) {
  auto [g] = a.get("getGravityForces", {"g"});
  const Vector3 gravity = toFiniteVector3(g, "g");
  const Robot& r = s.get();
  return vectorResult(r.numLinks(), [&](double* out, auto& ws) { klampt::gravityForces(r, gravity, ws, out); });
}

py::object torquesFromAccel(RobotModel& s, const FastArgs& a) {
  auto [arg] = a.get("torquesFromAccel", {"ddq"});
  Scratch<VectorX> ddq;
  const Robot& r = readLinkVector(s, arg, "ddq", *ddq);
  return vectorResult(r.numLinks(), [&](double* out, auto& ws) {
    klampt::inverseDynamics(r, r.dq.data(), ddq->data(), Vector3::Zero(), ws, out);
  });
}

py::object accelFromTorques(RobotModel& s, const FastArgs& a) {
  auto [arg] = a.get("accelFromTorques", {"t"});
  Scratch<VectorX> tau;
  const Robot& r = readLinkVector(s, arg, "t", *tau);
  return vectorResult(r.numLinks(),
                      [&](double* out, auto& ws) { klampt::forwardDynamics(r, r.dq.data(), tau->data(), ws, out); });
}

py::object getComVelocity(RobotModel& s) {
  const Robot& r = s.get();
  Scratch<klampt::DynamicsWorkspace> ws;
  return toList(klampt::comVelocity(r, r.dq.data(), *ws));
}

py::object getLinearMomentum(RobotModel& s) {
  const Robot& r = s.get();
  Scratch<klampt::DynamicsWorkspace> ws;
  double mass;
  return toList(klampt::linearMomentum(r, r.dq.data(), *ws, mass));
}

py::object getAngularMomentum(RobotModel& s) {
  const Robot& r = s.get();
  Scratch<klampt::DynamicsWorkspace> ws;
  return toList(klampt::spinMomentum(r, r.dq.data(), *ws));
}

py::object getKineticEnergy(RobotModel& s) {
  const Robot& r = s.get();
  Scratch<klampt::DynamicsWorkspace> ws;
  return py::float_(klampt::kineticEnergy(r, r.dq.data(), *ws));
}

py::object getTotalInertia(RobotModel& s) { return matrix3(klampt::totalInertia(s.get())); }

PyMethodDef robotDynamicsMethods[] = {
    fastDef<RobotModel, getMassMatrix>(
        "getMassMatrix",
        "getMassMatrix($self)\n--\n\ngetMassMatrix(self) -> numpy.typing.NDArray[numpy.float64]\n\n"
        "Computes the nxn mass matrix B(q) at the current configuration (ndarray), by the composite rigid "
        "body algorithm in O(n*depth).\n\n"
        "The equations of motion use the symmetric part of each link's inertia matrix, so B is exactly "
        "symmetric even for files with slightly asymmetric inertias (atlas.rob), where the reference's B is "
        "not."),
    fastDef<RobotModel, getMassMatrixInv>(
        "getMassMatrixInv",
        "getMassMatrixInv($self)\n--\n\ngetMassMatrixInv(self) -> numpy.typing.NDArray[numpy.float64]\n\n"
        "Computes the inverse of the mass matrix B(q)^-1 (ndarray) from its tree-structured factorization "
        "B = L^T D L, in O(n^2*depth).\n\n"
        "If B is singular (links carrying no mass or inertia), returns the Moore-Penrose pseudo-inverse B^+: "
        "rows and columns of DOFs whose subtree is massless are zero; any other singularity (a pivot below "
        "1e-12 of its diagonal entry, e.g. a floating base at gimbal lock) is handled by a dense complete "
        "orthogonal decomposition with relative rank threshold 1e-12. getMassMatrixInv() * (t - "
        "getCoriolisForces()) always equals accelFromTorques(t)."),
    fastDef<RobotModel, getMassMatrixDeriv>(
        "getMassMatrixDeriv",
        "getMassMatrixDeriv($self, i)\n--\n\ngetMassMatrixDeriv(self, i: typing.SupportsIndex) -> numpy.typing.NDArray[numpy.float64]\n\n"
        "Computes the derivative dB/dq_i of the nxn mass matrix with respect to q_i (ndarray), in "
        "O(n + size of the subtree of i * depth). Raises IndexError if i is not a DOF index (the reference "
        "returns zeros)."),
    fastDef<RobotModel, getMassMatrixTimeDeriv>(
        "getMassMatrixTimeDeriv",
        "getMassMatrixTimeDeriv($self)\n--\n\ngetMassMatrixTimeDeriv(self) -> numpy.typing.NDArray[numpy.float64]\n\n"
        "Computes dB/dt = sum_k dB/dq_k dq_k at the current configuration and velocity (ndarray), in "
        "O(n*depth)."),
    fastDef<RobotModel, getCoriolisForceMatrix>(
        "getCoriolisForceMatrix",
        "getCoriolisForceMatrix($self)\n--\n\ngetCoriolisForceMatrix(self) -> numpy.typing.NDArray[numpy.float64]\n\n"
        "Computes the Coriolis force matrix C(q,dq) at the current configuration and velocity (ndarray): "
        "C[i,j] = sum_k G_ijk dq_k with the Christoffel symbols G_ijk = 1/2 (dB_ij/dq_k + dB_ik/dq_j - "
        "dB_jk/dq_i), as the reference. C*dq equals getCoriolisForces() and C + C^T equals "
        "getMassMatrixTimeDeriv(). O(n*depth)."),
    fastDef<RobotModel, getCoriolisForces>(
        "getCoriolisForces",
        "getCoriolisForces($self)\n--\n\ngetCoriolisForces(self) -> list[float]\n\n"
        "Computes the Coriolis forces C(q,dq)*dq at the current configuration and velocity (list of n "
        "floats), by recursive Newton-Euler with zero acceleration and no gravity, in O(n)."),
    fastDef<RobotModel, getGravityForces>(
        "getGravityForces",
        "getGravityForces($self, g)\n--\n\ngetGravityForces(self, g: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]\n\n"
        "Computes the generalized gravity vector G(q) for the workspace gravity vector g (usually "
        "(0,0,-9.8)): the joint torques that hold the robot still against gravity (list of n floats). "
        "The full equation of motion is B(q)*ddq + C(q,dq) + G(q) = t."),
    fastDef<RobotModel, torquesFromAccel>(
        "torquesFromAccel",
        "torquesFromAccel($self, ddq)\n--\n\ntorquesFromAccel(self, ddq: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]\n\n"
        "Computes the inverse dynamics t = B(q)*ddq + C(q,dq) at the current configuration and velocity "
        "by recursive Newton-Euler in O(n) (list of n floats). Gravity is not included: add "
        "getGravityForces(g). Raises ValueError if ddq has the wrong size or contains NaN/inf."),
    fastDef<RobotModel, accelFromTorques>(
        "accelFromTorques",
        "accelFromTorques($self, t)\n--\n\naccelFromTorques(self, t: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]\n\n"
        "Computes the forward dynamics: the ddq that solves B(q)*ddq + C(q,dq) = t at the current "
        "configuration and velocity (list of n floats), from the tree-structured factorization of B in "
        "O(n*depth^2). Gravity is not included: subtract getGravityForces(g) from t.\n\n"
        "If B is singular (links carrying no mass or inertia) the result is the minimum-norm least-squares "
        "solution B^+ (t - C): a DOF whose subtree moves no mass gets zero acceleration and the torque on "
        "it is ignored (the reference returns meaningless values there). See getMassMatrixInv. Raises "
        "ValueError if t has the wrong size or contains NaN/inf."),
    fastDef<RobotModel, getComVelocity>(
        "getComVelocity",
        "getComVelocity($self)\n--\n\ngetComVelocity(self) -> list[float]\n\nReturns the 3D velocity of the center of mass at the current config / "
        "velocity."),
    fastDef<RobotModel, getLinearMomentum>(
        "getLinearMomentum",
        "getLinearMomentum($self)\n--\n\ngetLinearMomentum(self) -> list[float]\n\n"
        "Computes the 3D linear momentum vector sum_i m_i v_i (v_i: velocity of link i's center of mass)."),
    fastDef<RobotModel, getAngularMomentum>(
        "getAngularMomentum",
        "getAngularMomentum($self)\n--\n\ngetAngularMomentum(self) -> list[float]\n\n"
        "Computes the 3D angular momentum vector as the reference (Klamp't 0.9.2) does: sum_i R_i I_i "
        "R_i^T w_i, the links' angular momenta about their own centers of mass (R_i: link rotation, I_i: "
        "the link's inertia matrix about its center of mass in link coordinates, as given, w_i: angular "
        "velocity), in world coordinates.\n\n"
        "This omits the orbital term sum_i m_i c_i x v_i, so it is not the physical angular momentum "
        "about the origin (nor, with c_i - com, about the center of mass) unless the links' centers of "
        "mass are at rest; add that term (getLinearMomentum gives sum_i m_i v_i) for the physical value."),
    fastDef<RobotModel, getKineticEnergy>(
        "getKineticEnergy",
        "getKineticEnergy($self)\n--\n\ngetKineticEnergy(self) -> float\n\nComputes the kinetic energy 1/2 dq^T B(q) dq at the current config / "
        "velocity."),
    fastDef<RobotModel, getTotalInertia>(
        "getTotalInertia",
        "getTotalInertia($self)\n--\n\ngetTotalInertia(self) -> numpy.typing.NDArray[numpy.float64]\n\n"
        "Computes the 3x3 inertia matrix of the whole robot, rigidly held at the current configuration, "
        "about its center of mass (ndarray), from the link inertia matrices as given."),
    {nullptr, nullptr, 0, nullptr}};

// RobotModelLink methods.

// Acceleration of the point plocal and angular acceleration of the link.
void linkAccelerations(const RobotModelLink& s, const Vector3& plocal, py::handle ddq, Vector3& angular,
                       Vector3& linear) {
  Scratch<VectorX> a;
  const Robot& r = readLinkVector(s.robot, ddq, "ddq", *a, true);
  s.link();
  Scratch<klampt::DynamicsWorkspace> ws;
  klampt::linkAcceleration(r, s.index, plocal, r.dq.data(), a->size() ? a->data() : nullptr, *ws, angular, linear);
}

py::object getAcceleration(RobotModelLink& s, const FastArgs& a) {
  auto [ddq] = a.get("getAcceleration", {"ddq"});
  Vector3 angular, linear;
  linkAccelerations(s, Vector3::Zero(), ddq, angular, linear);
  return toList(linear);
}

py::object getPointAcceleration(RobotModelLink& s, const FastArgs& a) {
  auto [plocal, ddq] = a.get("getPointAcceleration", {"plocal", "ddq"});
  Vector3 angular, linear;
  linkAccelerations(s, toFiniteVector3(plocal, "plocal"), ddq, angular, linear);
  return toList(linear);
}

py::object getAngularAcceleration(RobotModelLink& s, const FastArgs& a) {
  auto [ddq] = a.get("getAngularAcceleration", {"ddq"});
  Vector3 angular, linear;
  linkAccelerations(s, Vector3::Zero(), ddq, angular, linear);
  return toList(angular);
}

py::object getPositionHessian(RobotModelLink& s, const FastArgs& a) {
  auto [plocal] = a.get("getPositionHessian", {"plocal"});
  const Vector3 p = toFiniteVector3(plocal, "plocal");
  s.link();
  const Robot& r = s.r();
  const int n = r.numLinks();
  auto H = newArray({3, n, n});
  Scratch<klampt::DynamicsWorkspace> ws;
  klampt::positionHessian(r, s.index, p, *ws, H.mutable_data());
  return std::move(H);
}

py::object getOrientationHessian(RobotModelLink& s) {
  s.link();
  const Robot& r = s.r();
  const int n = r.numLinks();
  auto H = newArray({3, n, n});
  Scratch<klampt::DynamicsWorkspace> ws;
  klampt::orientationHessian(r, s.index, *ws, H.mutable_data());
  return std::move(H);
}

PyMethodDef linkDynamicsMethods[] = {
    fastDef<RobotModelLink, getAcceleration>(
        "getAcceleration",
        "getAcceleration($self, ddq)\n--\n\ngetAcceleration(self, ddq: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]\n\n"
        "Computes the acceleration of the link origin (world coordinates, list of 3 floats) given the "
        "robot's current configuration and velocity and the joint accelerations ddq: J*ddq + dJ/dt*dq. "
        "ddq may be empty, meaning zero."),
    fastDef<RobotModelLink, getPointAcceleration>(
        "getPointAcceleration",
        "getPointAcceleration($self, plocal, ddq)\n--\n\ngetPointAcceleration(self, plocal: collections.abc.Sequence[float] | numpy.ndarray, ddq: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]\n\n"
        "Computes the acceleration of the point plocal (link coordinates) in world coordinates (list of 3 "
        "floats), given the current configuration and velocity and the joint accelerations ddq (may be "
        "empty, meaning zero)."),
    fastDef<RobotModelLink, getAngularAcceleration>(
        "getAngularAcceleration",
        "getAngularAcceleration($self, ddq)\n--\n\ngetAngularAcceleration(self, ddq: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]\n\n"
        "Computes the angular acceleration of the link in world coordinates (list of 3 floats), given the "
        "current configuration and velocity and the joint accelerations ddq (may be empty, meaning zero)."),
    fastDef<RobotModelLink, getPositionHessian>(
        "getPositionHessian",
        "getPositionHessian($self, plocal)\n--\n\ngetPositionHessian(self, plocal: collections.abc.Sequence[float] | numpy.ndarray) -> numpy.typing.NDArray[numpy.float64]\n\n"
        "Computes the Hessians of the world position p of the point plocal w.r.t. the configuration: a "
        "3xnxn ndarray H with H[k,i,j] = d^2 p_k / dq_i dq_j (k over x, y, z)."),
    fastDef<RobotModelLink, getOrientationHessian>(
        "getOrientationHessian",
        "getOrientationHessian($self)\n--\n\ngetOrientationHessian(self) -> numpy.typing.NDArray[numpy.float64]\n\n"
        "Computes the derivatives of the orientation Jacobian Jo (angular velocity w = Jo*dq) w.r.t. the "
        "configuration: a 3xnxn ndarray H with H[k,i,j] = d Jo[k,i] / dq_j (k over wx, wy, wz), as the "
        "reference. Angular velocity is not the derivative of a function of q, so H is not symmetric."),
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

void bindRobotDynamics(py::class_<RobotModel>& cls) {
  addFastMethods(cls, robotDynamicsMethods);
  cls.def_property(
      "dirty_dynamics", [](const RobotModel& s) { return s.get().dynamicsDirty; },
      [](RobotModel& s, bool dirty) { s.get().dynamicsDirty = dirty; },
      "The reference's flag marking its cached dynamics terms stale (True after setConfig and setVelocity, "
      "through any handle to the robot). Nothing is cached here: every dynamics method computes from the "
      "current state, so the flag is accepted and kept but changes no result.");
}

void bindLinkDynamics(py::class_<RobotModelLink>& cls) { addFastMethods(cls, linkDynamicsMethods); }

}  // namespace klampt_py
