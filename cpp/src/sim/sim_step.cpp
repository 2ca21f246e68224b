// Simulation::simulate and what one step does: controller updates at their
// rates, efforts, contact joints, the ODE step, rollback of steps that
// penetrate the boundary layers, instability correction and contact records.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include "klampt/sim/simulation.h"

namespace klampt {

namespace {
// Steps shorter than this are merged into their neighbour: ODE's constraint
// correction divides by the step, so a sliver step would inject energy.
constexpr double kTimeEps = 1e-9;
}

void Simulation::saveBodies() {
  saved_.resize(bodies.size());
  for (size_t i = 0; i < bodies.size(); ++i) {
    const dBodyID b = bodies[i].body;
    if (!b) continue;
    BodyState& s = saved_[i];
    std::copy_n(dBodyGetPosition(b), 3, s.pos);
    std::copy_n(bodies[i].rawQuaternion.begin(), 4, s.quat);
    std::copy_n(dBodyGetLinearVel(b), 3, s.lin);
    std::copy_n(dBodyGetAngularVel(b), 3, s.ang);
  }
}

void Simulation::restoreBodies() {
  for (size_t i = 0; i < bodies.size(); ++i) {
    const dBodyID b = bodies[i].body;
    if (!b) continue;
    const BodyState& s = saved_[i];
    dBodySetPosition(b, s.pos[0], s.pos[1], s.pos[2]);
    bodies[i].setRawQuaternion(s.quat);
    dBodySetLinearVel(b, s.lin[0], s.lin[1], s.lin[2]);
    dBodySetAngularVel(b, s.ang[0], s.ang[1], s.ang[2]);
    bodies[i].syncGeometry();
  }
}

bool Simulation::bodiesFinite() const {
  for (const SimBody& sb : bodies) {
    if (!sb.body) continue;
    const dReal* p = dBodyGetPosition(sb.body);
    const dReal* q = dBodyGetQuaternion(sb.body);
    const dReal* v = dBodyGetLinearVel(sb.body);
    const dReal* w = dBodyGetAngularVel(sb.body);
    for (int k = 0; k < 3; ++k)
      if (!std::isfinite(p[k]) || !std::isfinite(v[k]) || !std::isfinite(w[k]) || std::fabs(p[k]) > 1e12) return false;
    for (int k = 0; k < 4; ++k)
      if (!std::isfinite(q[k])) return false;
  }
  return true;
}

void Simulation::refreshContacts() {
  for (SimBody& b : bodies) b.syncGeometry();
  contacts_ = generateContacts(bodies, settings, broadPhase(bodies, pairAllowed_), contactCaches_);
  contactsValid_ = true;
}

Robot& Simulation::loadActualState(int r) {
  Robot& robot = *world->robots[r];
  readSimRobotState(robot, robots[r], bodies, q_, dq_);
  robot.setConfig(q_);
  robot.dq = dq_;
  return robot;
}

void Simulation::controlUpdate(int r) { controllers[r].update(loadActualState(r), ws_); }

void Simulation::senseUpdate(int r) {
  loadActualState(r);
  runSensors(r, controllers[r].rate);
}

double Simulation::controlPeriod(int r) const {
  return controllers[r].rate > 0 ? controllers[r].rate : settings.simStep;
}

void Simulation::applyEfforts(double dt) {
  for (size_t r = 0; r < robots.size(); ++r) {
    Robot& robot = *world->robots[r];
    SimRobot& sr = robots[r];
    readSimRobotState(robot, sr, bodies, q_, dq_);
    if (!sr.freeChains.empty()) robot.setConfig(q_);
    RobotController& c = controllers[r];
    c.torques(robot, q_, dq_, dt, tau_);
    if (c.hadNonFiniteTorque) {
      status = std::max(status, (int)Error);
      c.hadNonFiniteTorque = false;
    }
    linkEffort_.setZero(robot.numLinks());
    for (size_t d = 0; d < robot.drivers.size(); ++d) {
      const Driver& dr = robot.drivers[d];
      if (dr.linkIndices.empty()) continue;
      if (dr.type == DriverType::Affine) {
        addAffineDriverEfforts(robot, (int)d, tau_[d], robot.driverValue((int)d, c.qCommand),
                               robot.driverVelocity((int)d, c.dqCommand), q_, dq_, linkEffort_);
      } else {
        linkEffort_[dr.linkIndices[0]] += tau_[d];
      }
      if (dr.type == DriverType::Normal || dr.type == DriverType::Affine) {
        // Viscous friction from the driver's velocity, on each of its links, as the reference.
        const double friction = dr.dryFriction + dr.viscousFriction * std::fabs(robot.driverVelocity((int)d, dq_));
        for (int link : dr.linkIndices) setLinkFriction(sr, link, friction);
      }
    }
    applyLinkEfforts(robot, sr, bodies, linkEffort_);
  }
  for (SimBody& b : bodies) {
    if (!b.body) continue;
    if (b.pendingForce.squaredNorm() > 0 || b.pendingTorque.squaredNorm() > 0) b.wake();
    if (b.pendingForce.squaredNorm() > 0) dBodyAddForce(b.body, b.pendingForce[0], b.pendingForce[1], b.pendingForce[2]);
    if (b.pendingTorque.squaredNorm() > 0)
      dBodyAddTorque(b.body, b.pendingTorque[0], b.pendingTorque[1], b.pendingTorque[2]);
  }
  for (auto& j : userJoints) j->applyPendingEffort();
}

void Simulation::correctInstability() {
  const double c0 = settings.instabilityConstantEnergyThreshold, c1 = settings.instabilityLinearEnergyThreshold;
  const double cmax = settings.instabilityMaxEnergyThreshold, post = settings.instabilityPostCorrectionEnergy;
  auto scaleVelocities = [](SimBody& b, double s) {
    Vector3 w, v;
    b.velocity(w, v);
    b.setVelocity(s * w, s * v);
  };
  for (SimBody& b : bodies) {
    if (b.rigidObject < 0 || !b.body) continue;
    double ke = b.kineticEnergy();
    if (ke > std::min(c0 * b.mass + c1 * b.lastKineticEnergy, cmax)) {
      const double target = post * std::min(b.lastKineticEnergy, cmax);
      scaleVelocities(b, std::sqrt(target / ke));
      ke = target;
      status = std::max(status, (int)Unstable);
    }
    b.lastKineticEnergy = ke;
  }
  for (SimRobot& sr : robots) {
    double ke = 0, mass = 0, last = 0;
    for (int bi : sr.body) {
      if (bi < 0) continue;
      ke += bodies[bi].kineticEnergy();
      mass += bodies[bi].mass;
      last += bodies[bi].lastKineticEnergy;
    }
    if (ke > std::min(c0 * mass + c1 * last, cmax)) {
      const double target = post * std::min(last, cmax);
      const double s = std::sqrt(target / ke);
      for (int bi : sr.body)
        if (bi >= 0) scaleVelocities(bodies[bi], s);
      status = std::max(status, (int)Unstable);
    }
    for (int bi : sr.body)
      if (bi >= 0) bodies[bi].lastKineticEnergy = bodies[bi].kineticEnergy();
  }
}

void Simulation::recordContacts(double dt) {
  size_t k = 0;
  for (auto& [key, s] : summaries) s.inContact = false;
  for (PairContacts& pc : contacts_) {
    pc.forces.resize(pc.points.size());
    Vector3 total = Vector3::Zero();
    for (size_t i = 0; i < pc.points.size(); ++i) {
      if (!pc.frozen) {
        pc.forces[i] = Vector3(feedback_[k].f1[0], feedback_[k].f1[1], feedback_[k].f1[2]);
        ++k;
      }
      total += pc.forces[i];
    }
    const int ida = bodies[pc.a].objectID, idb = bodies[pc.b].objectID;
    if (!feedbackEnabled(ida, idb)) continue;
    const auto key = std::minmax(ida, idb);
    ContactSummary& s = summaries[{key.first, key.second}];
    s.inContact = true;
    s.hadContact = true;
    s.hadPenetration |= pc.penetrating;
    s.meanForce += (ida == key.first ? total : Vector3(-total)) * dt;
  }
  for (auto& [key, s] : summaries) {
    if (!s.inContact) s.hadSeparation = true;
    s.weight += dt;
  }
  // contacts_ is replaced by the next step's contacts right after this.
  lastStepContacts_.swap(contacts_);
}

bool Simulation::approachingFast(const PairContacts& pc, double dt) const {
  // A body moving by less than half its boundary layer per step cannot
  // tunnel through it; slow settling (soft contacts) needs no rollback.
  const SimBody& a = bodies[pc.a];
  const SimBody& b = bodies[pc.b];
  const double layer = a.padding + b.padding + a.geometry.margin + b.geometry.margin;
  Vector3 wa, va, wb, vb;
  a.velocity(wa, va);
  b.velocity(wb, vb);
  const Vector3 ca = a.comTransform().t, cb = b.comTransform().t;
  for (size_t i = 0; i < pc.points.size(); ++i) {
    const Vector3& p = pc.points[i];
    // Normals of intersecting triangles are unreliable: use the full speed.
    const double speed = ((va + wa.cross(p - ca)) - (vb + wb.cross(p - cb))).norm();
    if (speed * dt > 0.5 * layer) return true;
  }
  return false;
}

bool Simulation::stepODE(double dt) {
  try {
    dWorldStep(world_, dt);
    return true;
  } catch (const std::runtime_error&) {
    // An ODE assertion (e.g. normalising a quaternion that overflowed) left
    // the world's job queue mid-step; ODE's destructor of that queue asserts
    // again, from a noexcept destructor. The old queue is deliberately leaked
    // and the world steps on a new one; the bodies are restored by the caller.
    threading_ = dThreadingAllocateSelfThreadedImplementation();
    if (!threading_) throw std::runtime_error("ODE could not allocate a threading implementation");
    dWorldSetStepThreadingImplementation(world_, dThreadingImplementationGetFunctions(threading_), threading_);
    return false;
  }
}

double Simulation::advance(double h) {
  if (!contactsValid_) refreshContacts();
  saveBodies();
  double dt = h;
  while (true) {
    applyEfforts(dt);
    createContactJoints(world_, contactGroup_, bodies, contacts_, settings, dt, feedback_);
    const bool stepped = stepODE(dt);
    if (stepped) for (SimBody& b : bodies) b.canonicalizeRotation();
    const bool finite = stepped && bodiesFinite();
    std::vector<PairContacts> next;
    bool newPenetration = false;
    if (finite) {
      for (SimBody& b : bodies) b.syncGeometry();
      next = generateContacts(bodies, settings, broadPhase(bodies, pairAllowed_, settings.autoDisable),
                              contactCaches_);
      if (settings.adaptiveTimeStepping && settings.boundaryLayerCollisions) {
        std::vector<std::pair<int, int>> penetratingBefore;
        for (const PairContacts& old : contacts_)
          if (old.penetrating) penetratingBefore.emplace_back(old.a, old.b);
        std::sort(penetratingBefore.begin(), penetratingBefore.end());
        for (const PairContacts& pc : next) {
          if (!pc.penetrating || !approachingFast(pc, dt)) continue;
          newPenetration |= !std::binary_search(penetratingBefore.begin(), penetratingBefore.end(),
                                                std::make_pair(pc.a, pc.b));
        }
      }
    }
    const bool canHalve = settings.adaptiveTimeStepping && dt * 0.5 >= settings.minimumAdaptiveTimeStep;
    if (!finite || (newPenetration && canHalve)) {
      dJointGroupEmpty(contactGroup_);
      restoreBodies();
      if (canHalve) {
        dt *= 0.5;
        status = std::max(status, finite ? (int)AdaptiveTimeStepping : (int)Unstable);
        continue;
      }
      // Nothing finite can be reached from here: stop the bodies where they were.
      for (SimBody& b : bodies) b.setVelocity(Vector3::Zero(), Vector3::Zero());
      status = std::max(status, (int)Error);
      contactsValid_ = false;
      time += dt;
      return dt;
    }
    if (newPenetration) status = std::max(status, (int)ContactUnreliable);
    recordContacts(dt);
    dJointGroupEmpty(contactGroup_);
    contacts_ = std::move(next);
    correctInstability();
    updateSleep();
    keepSleepingContacts();
    time += dt;
    return dt;
  }
}

void Simulation::simulate(double t) {
  if (!std::isfinite(t) || t < 0) throw std::invalid_argument("simulate: t must be a finite time >= 0");
  enterODE();
  status = Normal;
  for (auto& [key, s] : summaries) s = ContactSummary{};
  const double end = time + t;
  while (end - time > kTimeEps) {
    double h = std::min(settings.simStep, end - time);
    for (size_t r = 0; r < robots.size(); ++r) {
      if (time >= nextSenseTime[r] - kTimeEps) {
        senseUpdate((int)r);
        while (nextSenseTime[r] <= time + kTimeEps) nextSenseTime[r] += controlPeriod((int)r);
      }
      // Steps end on period boundaries.
      h = std::min(h, nextSenseTime[r] - time);
      if (nextControlTime[r] > time + kTimeEps) h = std::min(h, nextControlTime[r] - time);
    }
    if (end - time - h < kTimeEps) h = end - time;
    h = std::max(h, kTimeEps);
    for (size_t r = 0; r < robots.size(); ++r) {
      if (time + h < nextControlTime[r] - kTimeEps) continue;
      controlUpdate((int)r);
      while (nextControlTime[r] <= time + h + kTimeEps) nextControlTime[r] += controlPeriod((int)r);
    }
    advance(h);
  }
  if (std::fabs(time - end) < kTimeEps) time = end;
  for (SimBody& b : bodies) b.pendingForce.setZero(), b.pendingTorque.setZero();
  for (auto& j : userJoints) j->pendingEffort = 0;
  updateWorld();
}

void Simulation::fakeSimulate(double t) {
  if (!std::isfinite(t) || t < 0) throw std::invalid_argument("fakeSimulate: t must be a finite time >= 0");
  enterODE();
  const double end = time + t;
  while (end - time > kTimeEps) {
    double h = end - time;
    for (size_t r = 0; r < robots.size(); ++r) {
      RobotController& c = controllers[r];
      if (time >= nextControlTime[r] - kTimeEps) {
        c.update(*world->robots[r], ws_);
        while (nextControlTime[r] <= time + kTimeEps) nextControlTime[r] += controlPeriod((int)r);
      }
      h = std::min(h, nextControlTime[r] - time);
    }
    if (end - time - h < kTimeEps) h = end - time;
    h = std::max(h, kTimeEps);
    for (size_t r = 0; r < robots.size(); ++r) {
      RobotController& c = controllers[r];
      if (c.mode != RobotController::Mode::Torque) c.qCommand += c.dqCommand * h;
      placeSimRobot(*world->robots[r], robots[r], bodies, c.qCommand, c.dqCommand);
    }
    time += h;
  }
  contactsValid_ = false;
  updateWorld();
}

void Simulation::runSensors(int r, double dt) {
  const Robot& robot = *world->robots[r];
  SensorInputs in;
  in.time = time;
  in.robot = &robot;
  in.world = world.get();
  in.hasForces = true;
  const VectorX& tau = controllers[r].appliedTorque;
  in.driverTorques.assign(tau.data(), tau.data() + tau.size());
  for (const PairContacts& pc : lastStepContacts_) {
    const SimBody& a = bodies[pc.a];
    const SimBody& b = bodies[pc.b];
    const bool onA = a.robot == r, onB = b.robot == r;
    for (size_t i = 0; i < pc.points.size(); ++i) {
      const Vector3 f = i < pc.forces.size() ? pc.forces[i] : Vector3::Zero();
      if (onA) in.contacts.push_back({a.link, pc.points[i], pc.normals[i], f});
      if (onB) in.contacts.push_back({b.link, pc.points[i], -pc.normals[i], -f});
    }
  }
  const int n = robot.numLinks();
  in.jointForces.resize(n);
  in.jointMoments.resize(n);
  for (int i = 0; i < n; ++i) linkJointWrench(robots[r], bodies, i, in.jointForces[i], in.jointMoments[i]);
  ::klampt::updateSensors(*robotSensors[r], in, dt);
}

}  // namespace klampt
