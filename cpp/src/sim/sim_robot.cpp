#include "klampt/sim/sim_robot.h"

#include <cmath>
#include <Eigen/Dense>
#include "klampt/sim/sim_body.h"

namespace klampt {

namespace {

using Kind = SimRobot::LinkKind;

/// Angular velocity and link-origin velocity of every link for joint rates dq.
void linkVelocities(const Robot& r, const VectorX& dq, std::vector<Vector3>& w, std::vector<Vector3>& v) {
  const int n = r.numLinks();
  w.assign(n, Vector3::Zero());
  v.assign(n, Vector3::Zero());
  for (int i = 0; i < n; ++i) {
    const int p = r.links[i].parent;
    const Vector3 axis = r.linkTransforms[i].R * r.links[i].axis;
    if (p >= 0) {
      w[i] = w[p];
      v[i] = v[p] + w[p].cross(r.linkTransforms[i].t - r.linkTransforms[p].t);
    }
    if (r.links[i].prismatic)
      v[i] += axis * dq[i];
    else
      w[i] += axis * dq[i];
  }
}

/// The body a link's joint attaches to: its nearest ancestor with a body.
dBodyID parentBody(const Robot& r, const SimRobot& sr, const std::vector<SimBody>& bodies, int link) {
  for (int p = r.links[link].parent; p >= 0; p = r.links[p].parent)
    if (sr.body[p] >= 0) return bodies[sr.body[p]].body;
  return nullptr;
}

/// Whether three revolute chain links turn about z, y, x with no rotation in
/// between (the loaders' floating base).
bool isRollPitchYaw(const Robot& r, const std::vector<int>& rev) {
  const Vector3 axes[3] = {Vector3::UnitZ(), Vector3::UnitY(), Vector3::UnitX()};
  for (int k = 0; k < 3; ++k) {
    const Link& l = r.links[rev[k]];
    if ((l.axis.normalized() - axes[k]).norm() > 1e-12 || !l.parentTransform.R.isIdentity(1e-12)) return false;
  }
  return true;
}

/// The rotation of three revolute chain links at q (relative to the chain's
/// base), and in J the axes of their DOFs in the base frame.
Matrix3 chainRotation(const Robot& r, const std::vector<int>& rev, const VectorX& q, Matrix3& J) {
  Matrix3 R = Matrix3::Identity();
  for (int k = 0; k < 3; ++k) {
    const Link& l = r.links[rev[k]];
    R = R * l.parentTransform.R;
    const Vector3 a = l.axis.normalized();
    J.col(k) = R * a;
    R = R * axisAngleRotation(a, q[rev[k]]);
  }
  return R;
}

/// Joint values of a floating chain (prismatic DOFs first, then up to three
/// revolute DOFs composing Rz Ry Rx as the loaders build them) from the
/// body link's pose and velocity relative to the chain's base.
void readFreeChain(const Robot& r, const SimRobot::FreeChain& c, const RigidTransform& T, const Vector3& w,
                   const Vector3& vOrigin, VectorX& q, VectorX& dq) {
  std::vector<int> pris, rev;
  for (int l : c.links) (r.links[l].prismatic ? pris : rev).push_back(l);
  if (!pris.empty()) {
    Eigen::MatrixXd A(3, pris.size());
    for (size_t k = 0; k < pris.size(); ++k) A.col(k) = r.links[pris[k]].axis;
    const auto solver = A.completeOrthogonalDecomposition();
    const VectorX x = solver.solve(T.t - r.links[pris.front()].parentTransform.t);
    const VectorX xd = solver.solve(vOrigin);
    for (size_t k = 0; k < pris.size(); ++k) {
      q[pris[k]] = x[k];
      dq[pris[k]] = xd[k];
    }
  }
  if (rev.size() == 3 && isRollPitchYaw(r, rev)) {
    // R = Rot(a0, q0) Rot(a1, q1) Rot(a2, q2) with axes z, y, x.
    const Matrix3& R = T.R;
    const double qy = std::asin(std::max(-1.0, std::min(1.0, -R(2, 0))));
    const double qz = std::atan2(R(1, 0), R(0, 0));
    const double qx = std::atan2(R(2, 1), R(2, 2));
    q[rev[0]] = qz;
    q[rev[1]] = qy;
    q[rev[2]] = qx;
    Matrix3 J;
    const Matrix3 Rz = axisAngleRotation(Vector3::UnitZ(), qz);
    J.col(0) = Vector3::UnitZ();
    J.col(1) = Rz * Vector3::UnitY();
    J.col(2) = Rz * axisAngleRotation(Vector3::UnitY(), qy) * Vector3::UnitX();
    const Vector3 rates = J.colPivHouseholderQr().solve(w);
    for (int k = 0; k < 3; ++k) dq[rev[k]] = rates[k];
  } else if (rev.size() == 3) {
    // Other axes (a ball-and-socket chain): Gauss-Newton from the last angles,
    // which also keeps the angles continuous.
    Matrix3 J;
    for (int it = 0; it < 30; ++it) {
      const Matrix3 R = chainRotation(r, rev, q, J);
      const Eigen::AngleAxisd err(R.transpose() * T.R);
      const Vector3 e = R * (err.angle() * err.axis());
      if (e.norm() < 1e-14) break;
      const Vector3 step = J.colPivHouseholderQr().solve(e);
      for (int k = 0; k < 3; ++k) q[rev[k]] += step[k];
    }
    chainRotation(r, rev, q, J);
    const Vector3 rates = J.colPivHouseholderQr().solve(w);
    for (int k = 0; k < 3; ++k) dq[rev[k]] = rates[k];
  } else if (rev.size() == 1) {
    const Vector3 a = r.links[rev[0]].axis.normalized();
    const Eigen::AngleAxisd aa(T.R);
    q[rev[0]] = aa.angle() * aa.axis().dot(a);
    dq[rev[0]] = w.dot(a);
  }
}

/// Unit directions orthogonal to every column of S.
Eigen::Matrix<double, 3, Eigen::Dynamic> orthogonalComplement(const Eigen::Matrix<double, 3, Eigen::Dynamic>& S) {
  const Eigen::JacobiSVD<Matrix3> svd(S * S.transpose(), Eigen::ComputeFullU);
  int rank = 0;
  while (rank < 3 && svd.singularValues()[rank] > 1e-9) ++rank;
  return svd.matrixU().rightCols(3 - rank);
}

/// A floating chain with fewer than six DOFs (floating-planar, or only
/// translations): motors with unbounded force hold the body's velocity at
/// zero along the directions no DOF of the chain spans, in the frame of the
/// body the chain hangs from (or the world).
void lockMissingDofs(dWorldID world, const Robot& r, const SimRobot& sr, const std::vector<SimBody>& bodies,
                     const SimRobot::FreeChain& c) {
  const int base = r.links[c.links.front()].parent;
  const Matrix3 Rb = base >= 0 ? r.linkTransforms[base].R : Matrix3::Identity();
  Eigen::Matrix<double, 3, Eigen::Dynamic> translations(3, 0), rotations(3, 0);
  for (int l : c.links) {
    auto& span = r.links[l].prismatic ? translations : rotations;
    span.conservativeResize(3, span.cols() + 1);
    span.col(span.cols() - 1) = Rb.transpose() * (r.linkTransforms[l].R * r.links[l].axis.normalized());
  }
  const dBodyID self = bodies[sr.body[c.bodyLink]].body;
  const dBodyID parent = parentBody(r, sr, bodies, c.links.front());
  const int frame = parent ? 2 : 0;  // axes fixed in the parent body, or in the world
  const auto lockedT = orthogonalComplement(translations), lockedR = orthogonalComplement(rotations);
  auto hold = [](dJointID j, int k, void (*setParam)(dJointID, int, dReal)) {
    setParam(j, dParamVel + k * dParamGroup, 0);
    setParam(j, dParamFMax + k * dParamGroup, dInfinity);
    setParam(j, dParamCFM + k * dParamGroup, 1e-10);
  };
  if (lockedT.cols() > 0) {
    const dJointID j = dJointCreateLMotor(world, nullptr);
    dJointAttach(j, self, parent);
    dJointSetLMotorNumAxes(j, (int)lockedT.cols());
    for (int k = 0; k < lockedT.cols(); ++k) {
      dJointSetLMotorAxis(j, k, frame, lockedT(0, k), lockedT(1, k), lockedT(2, k));
      hold(j, k, dJointSetLMotorParam);
    }
  }
  if (lockedR.cols() > 0) {
    const dJointID j = dJointCreateAMotor(world, nullptr);
    dJointAttach(j, self, parent);
    dJointSetAMotorMode(j, dAMotorUser);
    dJointSetAMotorNumAxes(j, (int)lockedR.cols());
    for (int k = 0; k < lockedR.cols(); ++k) {
      dJointSetAMotorAxis(j, k, frame, lockedR(0, k), lockedR(1, k), lockedR(2, k));
      hold(j, k, dJointSetAMotorParam);
    }
  }
}

}  // namespace

void buildSimRobot(dWorldID world, const Robot& r, int robotIndex, int firstID, std::vector<SimBody>& bodies,
                   SimRobot& out) {
  const int n = r.numLinks();
  out.robotIndex = robotIndex;
  out.kind.assign(n, Kind::Hinge);
  out.body.assign(n, -1);
  out.joint.assign(n, nullptr);
  out.feedback.assign(n, dJointFeedback{});
  out.qOffset = r.q;
  out.lastQ = r.q;
  out.freeChains.clear();
  for (int i = 0; i < n; ++i) out.kind[i] = r.links[i].prismatic ? Kind::Slider : Kind::Hinge;
  for (const Joint& j : r.joints) {
    if (j.linkIndex < 0 || j.linkIndex >= n) continue;
    if (j.type == JointType::Weld) {
      out.kind[j.linkIndex] = Kind::Fixed;
    } else if (j.type == JointType::Floating || j.type == JointType::FloatingPlanar ||
               j.type == JointType::BallAndSocket) {
      SimRobot::FreeChain c;
      c.bodyLink = j.linkIndex;
      for (int l = j.linkIndex; l >= 0 && l != j.baseIndex; l = r.links[l].parent) c.links.insert(c.links.begin(), l);
      for (int l : c.links) out.kind[l] = Kind::Virtual;
      c.ball = j.type == JointType::BallAndSocket;
      out.kind[j.linkIndex] = c.ball ? Kind::Ball : Kind::Free;
      out.freeChains.push_back(c);
    }
  }
  // A weld to the world (directly or through other welds) is a static link.
  for (int i = 0; i < n; ++i) {
    const int p = r.links[i].parent;
    if (out.kind[i] == Kind::Fixed && (p < 0 || out.kind[p] == Kind::Static)) out.kind[i] = Kind::Static;
  }

  std::vector<Vector3> w, v;
  linkVelocities(r, r.dq, w, v);
  for (int i = 0; i < n; ++i) {
    if (out.kind[i] == Kind::Virtual) continue;
    const Link& link = r.links[i];
    SimBody b;
    b.objectID = firstID + i;
    b.robot = robotIndex;
    b.link = i;
    b.mass = link.mass.mass > 0 ? link.mass.mass : 1e-3;
    b.localCom = link.mass.com;
    b.inertia = positiveInertia(link.mass.inertia, 1e-8 * b.mass);
    b.geometry = *link.geometry;
    b.hasGeometry = !link.geometry->empty();
    b.padding = 0.0025;
    b.surface.kFriction = 1.0;
    b.surface.kRestitution = 0.1;
    b.body = dBodyCreate(world);
    dMass m;
    dMassSetParameters(&m, b.mass, 0, 0, 0, b.inertia(0, 0), b.inertia(1, 1), b.inertia(2, 2), b.inertia(0, 1),
                       b.inertia(0, 2), b.inertia(1, 2));
    dBodySetMass(b.body, &m);
    b.setObjectTransform(r.linkTransforms[i]);
    const Vector3 com = r.linkTransforms[i].apply(b.localCom);
    b.setVelocity(w[i], v[i] + w[i].cross(com - r.linkTransforms[i].t));
    b.alwaysKinematic = out.kind[i] == Kind::Static;
    b.applyFlags();
    out.body[i] = (int)bodies.size();
    bodies.push_back(b);
  }

  for (int i = 0; i < n; ++i) {
    if (out.body[i] < 0) continue;
    const dBodyID self = bodies[out.body[i]].body;
    const dBodyID parent = parentBody(r, out, bodies, i);
    const RigidTransform& T = r.linkTransforms[i];
    const Vector3 axis = T.R * r.links[i].axis.normalized();
    dJointID j = nullptr;
    switch (out.kind[i]) {
      case Kind::Hinge: {
        j = dJointCreateHinge(world, nullptr);
        dJointAttach(j, self, parent);
        dJointSetHingeAnchor(j, T.t[0], T.t[1], T.t[2]);
        dJointSetHingeAxis(j, axis[0], axis[1], axis[2]);
        const double lo = r.qMin[i] - r.q[i], hi = r.qMax[i] - r.q[i];
        if (lo >= -M_PI && hi <= M_PI && lo <= hi) {
          dJointSetHingeParam(j, dParamLoStop, lo);
          dJointSetHingeParam(j, dParamHiStop, hi);
        }
        break;
      }
      case Kind::Slider: {
        j = dJointCreateSlider(world, nullptr);
        dJointAttach(j, self, parent);
        dJointSetSliderAxis(j, axis[0], axis[1], axis[2]);
        const double lo = r.qMin[i] - r.q[i], hi = r.qMax[i] - r.q[i];
        if (std::isfinite(lo) && std::isfinite(hi) && lo <= hi) {
          dJointSetSliderParam(j, dParamLoStop, lo);
          dJointSetSliderParam(j, dParamHiStop, hi);
        }
        break;
      }
      case Kind::Fixed:
        j = dJointCreateFixed(world, nullptr);
        dJointAttach(j, self, parent);
        dJointSetFixed(j);
        break;
      case Kind::Ball:
        j = dJointCreateBall(world, nullptr);
        dJointAttach(j, self, parent);
        dJointSetBallAnchor(j, T.t[0], T.t[1], T.t[2]);
        break;
      default:
        break;
    }
    if (j) {
      dJointSetFeedback(j, &out.feedback[i]);
      out.joint[i] = j;
    }
  }
  for (const auto& c : out.freeChains)
    if (!c.ball) lockMissingDofs(world, r, out, bodies, c);
}

void readSimRobotState(const Robot& r, SimRobot& sr, const std::vector<SimBody>& bodies, VectorX& q, VectorX& dq) {
  const int n = r.numLinks();
  q = sr.lastQ;
  dq = VectorX::Zero(n);
  for (int i = 0; i < n; ++i) {
    switch (sr.kind[i]) {
      case Kind::Hinge: {
        double a = sr.qOffset[i] + dJointGetHingeAngle(sr.joint[i]);
        a += 2 * M_PI * std::round((sr.lastQ[i] - a) / (2 * M_PI));
        q[i] = a;
        dq[i] = dJointGetHingeAngleRate(sr.joint[i]);
        break;
      }
      case Kind::Slider:
        q[i] = sr.qOffset[i] + dJointGetSliderPosition(sr.joint[i]);
        dq[i] = dJointGetSliderPositionRate(sr.joint[i]);
        break;
      case Kind::Fixed:
      case Kind::Static:
        q[i] = sr.qOffset[i];
        break;
      default:
        break;
    }
  }
  for (const auto& c : sr.freeChains) {
    const SimBody& b = bodies[sr.body[c.bodyLink]];
    RigidTransform T = b.objectTransform();
    Vector3 w, v;
    b.velocity(w, v);
    Vector3 vOrigin = v + w.cross(T.t - b.comTransform().t);
    const int base = r.links[c.links.front()].parent;
    if (base >= 0 && sr.body[base] >= 0) {
      const SimBody& pb = bodies[sr.body[base]];
      const RigidTransform Tp = pb.objectTransform();
      Vector3 pw, pv;
      pb.velocity(pw, pv);
      const Vector3 pvOrigin = pv + pw.cross(Tp.t - pb.comTransform().t);
      vOrigin = Tp.R.transpose() * (vOrigin - pvOrigin - pw.cross(T.t - Tp.t));
      w = Tp.R.transpose() * (w - pw);
      T = Tp.inverse() * T;
    }
    readFreeChain(r, c, T, w, vOrigin, q, dq);
  }
  sr.lastQ = q;
}

void placeSimRobot(Robot& r, SimRobot& sr, std::vector<SimBody>& bodies, const VectorX& q, const VectorX& dq) {
  r.setConfig(q);
  std::vector<Vector3> w, v;
  linkVelocities(r, dq, w, v);
  for (int i = 0; i < r.numLinks(); ++i) {
    if (sr.body[i] < 0) continue;
    SimBody& b = bodies[sr.body[i]];
    b.setObjectTransform(r.linkTransforms[i]);
    const Vector3 com = r.linkTransforms[i].apply(b.localCom);
    b.setVelocity(w[i], v[i] + w[i].cross(com - r.linkTransforms[i].t));
  }
  sr.lastQ = q;
}

void applyLinkEfforts(const Robot& r, const SimRobot& sr, std::vector<SimBody>& bodies, const VectorX& effort) {
  for (int i = 0; i < r.numLinks(); ++i) {
    if (effort[i] == 0) continue;
    if (sr.kind[i] == Kind::Hinge) dJointAddHingeTorque(sr.joint[i], effort[i]);
    if (sr.kind[i] == Kind::Slider) dJointAddSliderForce(sr.joint[i], effort[i]);
  }
  for (const auto& c : sr.freeChains) {
    const int k = (int)c.links.size();
    VectorX tau(k);
    for (int d = 0; d < k; ++d) tau[d] = effort[c.links[d]];
    if (tau.isZero(0)) continue;
    // The chain's DOF efforts are the generalized forces J^T w of a wrench w
    // (force at the body's origin, moment) on the body: the least-norm w.
    const Vector3 origin = r.linkTransforms[c.bodyLink].t;
    Eigen::Matrix<double, 6, Eigen::Dynamic> J(6, k);
    for (int d = 0; d < k; ++d) {
      const int l = c.links[d];
      const Vector3 axis = r.linkTransforms[l].R * r.links[l].axis;
      if (r.links[l].prismatic)
        J.col(d) << axis, Vector3::Zero();
      else
        J.col(d) << axis.cross(origin - r.linkTransforms[l].t), axis;
    }
    const Eigen::Matrix<double, 6, 1> w = J.transpose().completeOrthogonalDecomposition().solve(tau);
    const Vector3 f = w.head<3>(), m = w.tail<3>();
    const dBodyID body = bodies[sr.body[c.bodyLink]].body;
    dBodyAddForceAtPos(body, f[0], f[1], f[2], origin[0], origin[1], origin[2]);
    dBodyAddTorque(body, m[0], m[1], m[2]);
    // The body the chain hangs from takes the reaction.
    if (const dBodyID base = parentBody(r, sr, bodies, c.links.front())) {
      dBodyAddForceAtPos(base, -f[0], -f[1], -f[2], origin[0], origin[1], origin[2]);
      dBodyAddTorque(base, -m[0], -m[1], -m[2]);
    }
  }
}

void addAffineDriverEfforts(const Robot& r, int d, double t, double qCmd, double dqCmd, const VectorX& q,
                            const VectorX& dq, VectorX& effort) {
  const Driver& dr = r.drivers[d];
  // The reference's mechanism: scaled with the servo gain, so that light
  // fingers (robotiq_85: servoP 5) are not driven by a spring too stiff for
  // the time step, and bounded at ten times the motor's torque limit.
  const double stiffness = 0.25 * dr.servoP, damping = 0.001 * dr.servoP;
  double maxTorque = 0;
  const size_t m = dr.linkIndices.size();
  VectorX basis(m), hold(m);
  for (size_t j = 0; j < m; ++j) {
    const int link = dr.linkIndices[j];
    maxTorque = std::max(maxTorque, 10 * r.torqueMax[link]);
    basis[j] = dr.affScaling[j];
    hold[j] = stiffness * (dr.affScaling[j] * qCmd + dr.affOffset[j] - q[link]) +
              damping * (dr.affScaling[j] * dqCmd - dq[link]);
  }
  // Only the disagreement between the links: the driver direction is the
  // motor's own.
  if (basis.squaredNorm() > 0) hold -= basis * (hold.dot(basis) / basis.squaredNorm());
  if (hold.norm() > maxTorque) hold *= maxTorque / hold.norm();
  for (size_t j = 0; j < m; ++j) effort[dr.linkIndices[j]] += hold[j] + basis[j] * t;
}

void setLinkFriction(const SimRobot& sr, int link, double fmax) {
  if (sr.kind[link] == Kind::Hinge) {
    dJointSetHingeParam(sr.joint[link], dParamVel, 0);
    dJointSetHingeParam(sr.joint[link], dParamFMax, fmax);
  } else if (sr.kind[link] == Kind::Slider) {
    dJointSetSliderParam(sr.joint[link], dParamVel, 0);
    dJointSetSliderParam(sr.joint[link], dParamFMax, fmax);
  }
}

void linkJointWrench(const SimRobot& sr, const std::vector<SimBody>& bodies, int link, Vector3& f, Vector3& m) {
  f.setZero();
  m.setZero();
  if (link < 0 || link >= (int)sr.joint.size() || !sr.joint[link]) return;
  const dJointFeedback& fb = sr.feedback[link];
  f = Vector3(fb.f1[0], fb.f1[1], fb.f1[2]);
  const SimBody& b = bodies[sr.body[link]];
  const Vector3 com = b.comTransform().t, origin = b.objectTransform().t;
  m = Vector3(fb.t1[0], fb.t1[1], fb.t1[2]) + (com - origin).cross(f);
}

}  // namespace klampt
