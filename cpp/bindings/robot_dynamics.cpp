// Dynamics methods of RobotModel and RobotModelLink: argument checks and
// conversions around the algorithms in cpp/include/klampt/dynamics.
#include <string>

#include "convert.h"
#include "handles.h"
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

// Reused between calls so that repeated calls do not allocate (calls take
// microseconds, so the GIL is kept).
struct Buffers {
  klampt::DynamicsWorkspace ws;
  VectorX in, out;
};
Buffers& buffers() {
  static thread_local Buffers b;
  return b;
}

void requireFinite(const double* v, Eigen::Index n, const char* name) {
  for (Eigen::Index i = 0; i < n; ++i)
    if (!std::isfinite(v[i])) throw py::value_error(std::string(name) + " contains a NaN or infinite value");
}

// A joint-space vector of n finite values; if allowEmpty, [] is accepted too
// (then `in` is left empty).
const VectorX& jointVector(py::handle obj, int n, const char* name, bool allowEmpty = false) {
  VectorX& in = buffers().in;
  readVector(obj, -1, name, in);
  if (!(in.size() == n || (allowEmpty && in.size() == 0)))
    throw py::value_error(std::string(name) + " must have " + std::to_string(n) + " elements" +
                          (allowEmpty ? " (or none)" : "") + ", got " + std::to_string(in.size()));
  requireFinite(in.data(), in.size(), name);
  return in;
}

Vector3 finiteVector3(py::handle obj, const char* name) {
  Vector3 v = toVector3(obj, name);
  requireFinite(v.data(), 3, name);
  return v;
}

VectorX& output(int n) {
  VectorX& out = buffers().out;
  out.resize(n);
  return out;
}

// An n x n ndarray filled by fill(RowMatrixMap).
template <class Fill>
py::array_t<double> squareMatrix(int n, Fill fill) {
  auto a = newArray({n, n});
  fill(RowMatrixMap(a.mutable_data(), n, n));
  return a;
}

py::array_t<double> matrix3(const klampt::Matrix3& M) {
  auto a = newArray({3, 3});
  Eigen::Map<Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(a.mutable_data()) = M;
  return a;
}

klampt::MomentumSummary momentumOf(const Robot& r) { return klampt::momentum(r, r.dq.data(), buffers().ws); }

}  // namespace

void bindRobotDynamics(py::class_<RobotModel>& cls) {
  cls.def("getMassMatrix",
          [](const RobotModel& s) {
            const Robot& r = s.get();
            return squareMatrix(r.numLinks(), [&](RowMatrixMap B) { klampt::massMatrix(r, buffers().ws, B); });
          },
          "Computes the nxn mass matrix B(q) at the current configuration (ndarray), by the composite rigid "
          "body algorithm in O(n*depth).\n\n"
          "The equations of motion use the symmetric part of each link's inertia matrix, so B is exactly "
          "symmetric even for files with slightly asymmetric inertias (atlas.rob), where the reference's B is "
          "not.")
      .def("getMassMatrixInv",
           [](const RobotModel& s) {
             const Robot& r = s.get();
             return squareMatrix(r.numLinks(),
                                 [&](RowMatrixMap out) { klampt::massMatrixInverse(r, buffers().ws, out); });
           },
           "Computes the inverse of the mass matrix B(q)^-1 (ndarray) from its tree-structured factorization "
           "B = L^T D L, in O(n^2*depth).\n\n"
           "If B is singular (links carrying no mass or inertia), returns the Moore-Penrose pseudo-inverse B^+: "
           "rows and columns of DOFs whose subtree is massless are zero; any other singularity (a pivot below "
           "1e-12 of its diagonal entry, e.g. a floating base at gimbal lock) is handled by a dense complete "
           "orthogonal decomposition with relative rank threshold 1e-12. getMassMatrixInv() * (t - "
           "getCoriolisForces()) always equals accelFromTorques(t).")
      .def("getMassMatrixDeriv",
           [](const RobotModel& s, long i) {
             const Robot& r = s.get();
             checkIndex(i, r.numLinks(), "DOF");
             return squareMatrix(r.numLinks(),
                                 [&](RowMatrixMap dB) { klampt::massMatrixDeriv(r, (int)i, buffers().ws, dB); });
           },
           py::arg("i"),
           "Computes the derivative dB/dq_i of the nxn mass matrix with respect to q_i (ndarray), in "
           "O(n + size of the subtree of i * depth). Raises IndexError if i is not a DOF index (the reference returns zeros).")
      .def("getMassMatrixTimeDeriv",
           [](const RobotModel& s) {
             const Robot& r = s.get();
             return squareMatrix(r.numLinks(), [&](RowMatrixMap dB) {
               klampt::massMatrixDirectionalDeriv(r, r.dq.data(), buffers().ws, dB);
             });
           },
           "Computes dB/dt = sum_k dB/dq_k dq_k at the current configuration and velocity (ndarray), in "
           "O(n*depth).")
      .def("getCoriolisForceMatrix",
           [](const RobotModel& s) {
             const Robot& r = s.get();
             return squareMatrix(r.numLinks(), [&](RowMatrixMap C) {
               klampt::coriolisMatrix(r, r.dq.data(), buffers().ws, C);
             });
           },
           "Computes the Coriolis force matrix C(q,dq) at the current configuration and velocity (ndarray): "
           "C[i,j] = sum_k G_ijk dq_k with the Christoffel symbols G_ijk = 1/2 (dB_ij/dq_k + dB_ik/dq_j - "
           "dB_jk/dq_i), as the reference. C*dq equals getCoriolisForces() and C + C^T equals "
           "getMassMatrixTimeDeriv(). O(n*depth).")
      .def("getCoriolisForces",
           [](const RobotModel& s) {
             const Robot& r = s.get();
             VectorX& out = output(r.numLinks());
             klampt::inverseDynamics(r, r.dq.data(), nullptr, Vector3::Zero(), buffers().ws, out.data());
             return toList(out);
           },
           "Computes the Coriolis forces C(q,dq)*dq at the current configuration and velocity (list of n "
           "floats), by recursive Newton-Euler with zero acceleration and no gravity, in O(n).")
      .def("getGravityForces",
           [](const RobotModel& s, py::handle g) {
             const Robot& r = s.get();
             const Vector3 gravity = finiteVector3(g, "g");
             VectorX& out = output(r.numLinks());
             klampt::gravityForces(r, gravity, buffers().ws, out.data());
             return toList(out);
           },
           py::arg("g"),
           "Computes the generalized gravity vector G(q) for the workspace gravity vector g (usually "
           "(0,0,-9.8)): the joint torques that hold the robot still against gravity (list of n floats). "
           "The full equation of motion is B(q)*ddq + C(q,dq) + G(q) = t.")
      .def("torquesFromAccel",
           [](const RobotModel& s, py::handle ddq) {
             const Robot& r = s.get();
             const VectorX& a = jointVector(ddq, r.numLinks(), "ddq");
             VectorX& out = output(r.numLinks());
             klampt::inverseDynamics(r, r.dq.data(), a.data(), Vector3::Zero(), buffers().ws, out.data());
             return toList(out);
           },
           py::arg("ddq"),
           "Computes the inverse dynamics t = B(q)*ddq + C(q,dq) at the current configuration and velocity "
           "by recursive Newton-Euler in O(n) (list of n floats). Gravity is not included: add "
           "getGravityForces(g). Raises ValueError if ddq has the wrong size or contains NaN/inf.")
      .def("accelFromTorques",
           [](const RobotModel& s, py::handle t) {
             const Robot& r = s.get();
             const VectorX& tau = jointVector(t, r.numLinks(), "t");
             VectorX& out = output(r.numLinks());
             klampt::forwardDynamics(r, r.dq.data(), tau.data(), buffers().ws, out.data());
             return toList(out);
           },
           py::arg("t"),
           "Computes the forward dynamics: the ddq that solves B(q)*ddq + C(q,dq) = t at the current "
           "configuration and velocity (list of n floats), from the tree-structured factorization of B in "
           "O(n*depth^2). Gravity is not included: subtract getGravityForces(g) from t.\n\n"
           "If B is singular (links carrying no mass or inertia) the result is the minimum-norm least-squares "
           "solution B^+ (t - C): a DOF whose subtree moves no mass gets zero acceleration and the torque on "
           "it is ignored (the reference returns meaningless values there). See getMassMatrixInv. Raises "
           "ValueError if t has the wrong size or contains NaN/inf.")
      .def("getComVelocity",
           [](const RobotModel& s) {
             klampt::MomentumSummary m = momentumOf(s.get());
             return toList(m.mass > 0 ? Vector3(m.linear / m.mass) : Vector3::Zero());
           },
           "Returns the 3D velocity of the center of mass at the current config / velocity.")
      .def("getLinearMomentum", [](const RobotModel& s) { return toList(momentumOf(s.get()).linear); },
           "Computes the 3D linear momentum vector sum_i m_i v_i (v_i: velocity of link i's center of mass).")
      .def("getAngularMomentum", [](const RobotModel& s) { return toList(momentumOf(s.get()).spin); },
           "Computes the 3D angular momentum vector as the reference (Klamp't 0.9.2) does: sum_i R_i I_i "
           "R_i^T w_i, the links' angular momenta about their own centers of mass (R_i: link rotation, I_i: "
           "the link's inertia matrix about its center of mass in link coordinates, as given, w_i: angular "
           "velocity), in world coordinates.\n\n"
           "This omits the orbital term sum_i m_i c_i x v_i, so it is not the physical angular momentum "
           "about the origin (nor, with c_i - com, about the center of mass) unless the links' centers of "
           "mass are at rest; add that term (getLinearMomentum gives sum_i m_i v_i) for the physical value.")
      .def("getKineticEnergy", [](const RobotModel& s) { return momentumOf(s.get()).kinetic; },
           "Computes the kinetic energy 1/2 dq^T B(q) dq at the current config / velocity.")
      .def("getTotalInertia",
           [](const RobotModel& s) { return matrix3(klampt::totalInertia(s.get())); },
           "Computes the 3x3 inertia matrix of the whole robot, rigidly held at the current configuration, "
           "about its center of mass (ndarray), from the link inertia matrices as given.");
}

void bindLinkDynamics(py::class_<RobotModelLink>& cls) {
  // Acceleration of the point plocal (origin if null) and angular acceleration.
  auto accelerations = [](const RobotModelLink& s, const Vector3& plocal, py::handle ddq, Vector3& angular,
                          Vector3& linear) {
    s.link();
    const Robot& r = s.r();
    const VectorX& a = jointVector(ddq, r.numLinks(), "ddq", true);
    klampt::linkAcceleration(r, s.index, plocal, r.dq.data(), a.size() ? a.data() : nullptr, buffers().ws,
                             angular, linear);
  };
  cls.def("getAcceleration",
          [accelerations](const RobotModelLink& s, py::handle ddq) {
            Vector3 angular, linear;
            accelerations(s, Vector3::Zero(), ddq, angular, linear);
            return toList(linear);
          },
          py::arg("ddq"),
          "Computes the acceleration of the link origin (world coordinates, list of 3 floats) given the "
          "robot's current configuration and velocity and the joint accelerations ddq: J*ddq + dJ/dt*dq. "
          "ddq may be empty, meaning zero.")
      .def("getPointAcceleration",
           [accelerations](const RobotModelLink& s, py::handle plocal, py::handle ddq) {
             Vector3 angular, linear;
             accelerations(s, finiteVector3(plocal, "plocal"), ddq, angular, linear);
             return toList(linear);
           },
           py::arg("plocal"), py::arg("ddq"),
           "Computes the acceleration of the point plocal (link coordinates) in world coordinates (list of 3 "
           "floats), given the current configuration and velocity and the joint accelerations ddq (may be "
           "empty, meaning zero).")
      .def("getAngularAcceleration",
           [accelerations](const RobotModelLink& s, py::handle ddq) {
             Vector3 angular, linear;
             accelerations(s, Vector3::Zero(), ddq, angular, linear);
             return toList(angular);
           },
           py::arg("ddq"),
           "Computes the angular acceleration of the link in world coordinates (list of 3 floats), given the "
           "current configuration and velocity and the joint accelerations ddq (may be empty, meaning zero).")
      .def("getPositionHessian",
           [](const RobotModelLink& s, py::handle plocal) {
             s.link();
             const Robot& r = s.r();
             const Vector3 p = finiteVector3(plocal, "plocal");
             const int n = r.numLinks();
             auto H = newArray({3, n, n});
             klampt::positionHessian(r, s.index, p, buffers().ws, H.mutable_data());
             return H;
           },
           py::arg("plocal"),
           "Computes the Hessians of the world position p of the point plocal w.r.t. the configuration: a "
           "3xnxn ndarray H with H[k,i,j] = d^2 p_k / dq_i dq_j (k over x, y, z).")
      .def("getOrientationHessian",
           [](const RobotModelLink& s) {
             s.link();
             const Robot& r = s.r();
             const int n = r.numLinks();
             auto H = newArray({3, n, n});
             klampt::orientationHessian(r, s.index, buffers().ws, H.mutable_data());
             return H;
           },
           "Computes the derivatives of the orientation Jacobian Jo (angular velocity w = Jo*dq) w.r.t. the "
           "configuration: a 3xnxn ndarray H with H[k,i,j] = d Jo[k,i] / dq_j (k over wx, wy, wz), as the "
           "reference. Angular velocity is not the derivative of a function of q, so H is not symmetric.");
}

}  // namespace klampt_py
