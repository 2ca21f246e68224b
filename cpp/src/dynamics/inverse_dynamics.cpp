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

namespace {

using Vector2 = Eigen::Vector2d;

// Walks the tree from the leaves up, summing over each link's subtree its mass
// and `moment(i, link mass)`, the link's own share of a first moment (a vector
// of type Vec), then calls visit(i, subtree mass, subtree moment).
template <class Vec, class Moment, class Visit>
inline void subtreeSums(const Robot& robot, DynamicsWorkspace& ws, Moment moment, Visit visit) {
  const int n = robot.numLinks();
  ws.reserve(n);
  auto& pendingMass = ws.vec1;
  auto& pendingMoment = ws.vecA;  // the leading components, when Vec is shorter
  constexpr int dim = Vec::RowsAtCompileTime;
  for (int i = 0; i < n; ++i) {
    pendingMass[i] = 0;
    pendingMoment[i].setZero();
  }
  double carriedMass = 0;
  Vec carriedMoment = Vec::Zero();
  for (int i = n - 1; i >= 0; --i) {
    const double m = robot.links[i].mass.mass;
    const double mass = m + pendingMass[i] + carriedMass;
    const Vec sum = moment(i, m) + pendingMoment[i].template head<dim>() + carriedMoment;
    visit(i, mass, sum);
    const int p = robot.links[i].parent;
    carriedMass = 0;
    carriedMoment.setZero();
    if (p == i - 1) {
      carriedMass = mass;
      carriedMoment = sum;
    } else if (p >= 0) {
      pendingMass[p] += mass;
      pendingMoment[p].template head<dim>() += sum;
    }
  }
}

}  // namespace

// With S the first moment sum m c of a joint's subtree about the world origin
// and M its mass, a revolute joint at p with axis z bears -z . ((S - M p) x g)
// and a prismatic one -M z . g. For vertical gravity g = (0, 0, gz) only the
// horizontal components of S, p and z enter: -gz (z_x (S - M p)_y - z_y (S - M p)_x).
void gravityForces(const Robot& robot, const Vector3& gravity, DynamicsWorkspace& ws, double* tau) {
  const auto& T = robot.linkTransforms;
  if (gravity.x() == 0 && gravity.y() == 0) {
    const double gz = gravity.z();
    subtreeSums<Vector2>(
        robot, ws,
        [&](int i, double m) -> Vector2 {
          return m * (T[i].R.topRows<2>() * robot.links[i].mass.com + T[i].t.head<2>());
        },
        [&](int i, double mass, const Vector2& S) {
          const Link& l = robot.links[i];
          const Vector3 z = worldAxis(T[i].R, l.axis);
          if (l.prismatic) {
            tau[i] = -mass * z.z() * gz;
          } else {
            const Vector2 arm = S - mass * T[i].t.head<2>();
            tau[i] = -gz * (z.x() * arm.y() - z.y() * arm.x());
          }
        });
    return;
  }
  subtreeSums<Vector3>(
      robot, ws, [&](int i, double m) -> Vector3 { return m * (T[i].R * robot.links[i].mass.com + T[i].t); },
      [&](int i, double mass, const Vector3& S) {
        const Link& l = robot.links[i];
        const Vector3 z = worldAxis(T[i].R, l.axis);
        tau[i] = l.prismatic ? -mass * z.dot(gravity) : -z.dot((S - mass * T[i].t).cross(gravity));
      });
}

}  // namespace klampt
