#include "klampt/sim/robot_controller.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include "klampt/dynamics/inverse_dynamics.h"
#include "klampt/model/robot.h"

namespace klampt {

namespace {

/// Driver-space value of link-space generalized forces (least squares for affine drivers).
double driverForce(const Robot& r, int d, const VectorX& linkForces) {
  const Driver& dr = r.drivers[d];
  if (dr.type == DriverType::Normal) return linkForces[dr.linkIndices[0]];
  if (dr.type == DriverType::Affine) {
    double num = 0, den = 0;
    for (size_t k = 0; k < dr.linkIndices.size(); ++k) {
      num += dr.affScaling[k] * linkForces[dr.linkIndices[k]];
      den += dr.affScaling[k] * dr.affScaling[k];
    }
    return den > 0 ? num / den : 0;
  }
  return 0;
}

/// Reads Klamp't's vector text "n v1 ... vn".
bool readConfig(std::istream& in, VectorX& v) {
  int n;
  if (!(in >> n) || n < 0 || n > 100000) return false;
  v.resize(n);
  for (int i = 0; i < n; ++i)
    if (!(in >> v[i])) return false;
  return v.allFinite();
}

}  // namespace

void RobotController::init(const Robot& robot) {
  const int nd = (int)robot.drivers.size(), n = robot.numLinks();
  mode = Mode::Queue;
  qCommand = robot.q;
  dqCommand = VectorX::Zero(n);
  torqueCommand = integral = gravityTorque = appliedTorque = VectorX::Zero(nd);
  kP.resize(nd);
  kI.resize(nd);
  kD.resize(nd);
  for (int d = 0; d < nd; ++d) {
    kP[d] = robot.drivers[d].servoP;
    kI[d] = robot.drivers[d].servoI;
    kD[d] = robot.drivers[d].servoD;
  }
  queue.reset(robot.q);
  queueTime = 0;
}

void RobotController::update(const Robot& robot, DynamicsWorkspace& ws) {
  if (mode == Mode::Queue) {
    queueTime += rate;
    auto& segs = queue.segments;
    while (!segs.empty() && segs.front().start + segs.front().duration < queueTime) segs.erase(segs.begin());
    queue.evaluate(queueTime, qCommand, dqCommand);
  }
  gravityTorque.setZero();
  if (gravityCompensation && mode != Mode::Torque && gravity.squaredNorm() > 0) {
    VectorX G(robot.numLinks());
    gravityForces(robot, gravity, ws, G.data());
    for (int d = 0; d < (int)robot.drivers.size(); ++d) gravityTorque[d] = driverForce(robot, d, G);
  }
}

void RobotController::torques(const Robot& robot, const VectorX& q, const VectorX& dq, double dt, VectorX& tau) {
  const int nd = (int)robot.drivers.size();
  tau.resize(nd);
  for (int d = 0; d < nd; ++d) {
    const Driver& dr = robot.drivers[d];
    double t = torqueCommand[d];
    if (mode != Mode::Torque) {
      const double e = robot.driverValue(d, qCommand) - robot.driverValue(d, q);
      const double de = robot.driverVelocity(d, dqCommand) - robot.driverVelocity(d, dq);
      t += kP[d] * e + kI[d] * integral[d] + kD[d] * de + gravityTorque[d];
      // The integral advances after use and is held where its torque alone
      // would pass a limit (anti-windup), as the reference's.
      integral[d] += e * dt;
      if (kI[d] > 0) integral[d] = std::max(dr.tmin / kI[d], std::min(dr.tmax / kI[d], integral[d]));
    }
    if (!std::isfinite(t)) {
      hadNonFiniteTorque = true;
      t = 0;
    }
    tau[d] = std::max(dr.tmin, std::min(dr.tmax, t));
  }
  appliedTorque = tau;
}

std::string RobotController::controlType() const { return mode == Mode::Torque ? "torque" : "PID"; }

void RobotController::setMilestone(const Robot& robot, const VectorX& q, const VectorX* dq, bool append,
                                   bool straightLine) {
  if (mode != Mode::Queue) setManualMode(false);
  if (!append) queue.cutAt(queueTime);
  VectorX q0, v0;
  queue.appendStart(queueTime, q0, v0);
  // As the reference: the move starts within the joint and velocity limits
  // and ends just inside them.
  const int n = (int)q.size();
  VectorX q1 = q, v1 = dq ? *dq : VectorX::Zero(n);
  for (int i = 0; i < n; ++i) {
    const double lo = robot.qMin[i], hi = robot.qMax[i], vm = robot.velMax[i];
    q0[i] = std::min(std::max(q0[i], lo), hi);
    if (q1[i] < lo || q1[i] > hi) {
      const double margin = std::isfinite(hi - lo) ? 1e-7 * (hi - lo) : 0.0;
      q1[i] = std::min(std::max(q1[i], lo + margin), hi - margin);
    }
    if (vm > 0 && std::isfinite(vm)) {
      v0[i] = std::min(std::max(v0[i], -vm), vm);
      if (std::fabs(v1[i]) > vm) v1[i] = std::copysign(vm * (1 - 2e-7), v1[i]);
    }
  }
  std::vector<Ramp1D> ramps;
  double T;
  if (straightLine)  // a rest-to-rest move, whatever the current velocity, as the reference's
    T = straightLineRamps(q0, q1, robot.accMax, robot.velMax, ramps);
  else
    T = synchronizedRamps(q0, v0, q1, v1, robot.accMax, robot.velMax, robot.qMin, robot.qMax, ramps);
  queue.appendRamps(queueTime, std::move(ramps), T);
}

void RobotController::setLinear(const VectorX& q, double dt, bool append) {
  const double now = queueTime;
  if (mode != Mode::Queue) setManualMode(false);
  if (!append) queue.cutAt(now);
  queue.appendLinear(now, q, dt);
}

void RobotController::setCubic(const VectorX& q, const VectorX& v, double dt, bool append) {
  const double now = queueTime;
  if (mode != Mode::Queue) setManualMode(false);
  if (!append) queue.cutAt(now);
  queue.appendCubic(now, q, v, dt);
}

void RobotController::setVelocity(const VectorX& dq, double dt) {
  const double now = queueTime;
  if (mode != Mode::Queue) setManualMode(false);
  queue.cutAt(now);
  queue.appendLinear(now, queue.qEnd + dq * dt, dt);
  queue.evaluate(now, qCommand, dqCommand);
}

void RobotController::setTorque(const Robot& robot, const VectorX& t) {
  const int nd = (int)robot.drivers.size();
  if (t.size() != nd && t.size() != robot.numLinks())
    throw std::invalid_argument("t must have numDrivers() or numLinks() entries");
  if (t.size() == nd) {
    torqueCommand = t;
  } else {
    for (int d = 0; d < nd; ++d) torqueCommand[d] = t[robot.drivers[d].linkIndices[0]];
  }
  mode = Mode::Torque;
}

void RobotController::setPID(const Robot& robot, const VectorX& q, const VectorX& dq, const VectorX* tff) {
  const int nd = (int)robot.drivers.size(), nl = robot.numLinks();
  // Driver-sized first, as the reference (it decides when both sizes agree).
  const bool perDriver = q.size() == nd && dq.size() == nd;
  if (!perDriver && !(q.size() == nl && dq.size() == nl))
    throw std::invalid_argument("qdes and dqdes must both have numDrivers() = " + std::to_string(nd) +
                                " or numLinks() = " + std::to_string(nl) + " entries, got " +
                                std::to_string(q.size()) + " and " + std::to_string(dq.size()));
  if (tff && tff->size() != nd && tff->size() != nl)
    throw std::invalid_argument("tfeedforward must have numDrivers() = " + std::to_string(nd) + " or numLinks() = " +
                                std::to_string(nl) + " entries, got " + std::to_string(tff->size()));
  if (!q.allFinite() || !dq.allFinite() || (tff && !tff->allFinite()))
    throw std::invalid_argument("qdes, dqdes and tfeedforward must be finite");
  // The setpoints live in link space: each driver's value spread over its links
  // (a link-sized command is first read through the drivers, so the links of an
  // affine driver agree, as in the reference). Links that no driver moves are
  // commanded to stay where the robot is.
  VectorX qc = robot.q, dqc = VectorX::Zero(nl);
  for (int d = 0; d < nd; ++d) {
    if (robot.drivers[d].linkIndices.empty()) continue;
    robot.setDriverValue(d, perDriver ? q[d] : robot.driverValue(d, q), qc);
    robot.setDriverVelocity(d, perDriver ? dq[d] : robot.driverVelocity(d, dq), dqc);
  }
  qCommand = qc;
  dqCommand = dqc;
  torqueCommand.setZero();
  if (tff) {
    if (tff->size() == nd)
      torqueCommand = *tff;
    else
      for (int d = 0; d < nd; ++d)
        if (!robot.drivers[d].linkIndices.empty()) torqueCommand[d] = (*tff)[robot.drivers[d].linkIndices[0]];
  }
  mode = Mode::PID;
}

void RobotController::setManualMode(bool enabled) {
  if (enabled) {
    if (mode == Mode::Queue) mode = Mode::PID;
    return;
  }
  if (mode == Mode::Queue) return;
  mode = Mode::Queue;
  queue.reset(qCommand);
  torqueCommand.setZero();
  dqCommand.setZero();
}

double RobotController::remainingTime() const {
  return mode == Mode::Queue ? std::max(0.0, queue.endTime(queueTime) - queueTime) : 0.0;
}

const std::vector<std::string>& RobotController::settingNames() {
  static const std::vector<std::string> n = {"enableFeedforwardAcceleration", "enableGravityCompensation", "gravity",
                                             "onlyJointCommands", "replay", "save"};
  return n;
}

const std::vector<std::string>& RobotController::commandNames() {
  static const std::vector<std::string> n = {"set_tq",   "set_q",           "set_qv",    "set_tv",
                                             "set_tqv",  "append_tq",       "append_q",  "append_q_linear",
                                             "append_qv", "append_tqv",     "brake"};
  return n;
}

std::string RobotController::getSetting(const std::string& name) const {
  if (name == "enableFeedforwardAcceleration") return feedforwardAcceleration ? "1" : "0";
  if (name == "enableGravityCompensation") return gravityCompensation ? "1" : "0";
  if (name == "onlyJointCommands") return onlyJointCommands ? "1" : "0";
  if (name == "replay" || name == "save") return "0";
  if (name == "gravity") {
    std::ostringstream s;
    s << gravity[0] << ' ' << gravity[1] << ' ' << gravity[2];
    return s.str();
  }
  return std::string();
}

bool RobotController::setSetting(const std::string& name, const std::string& value) {
  std::istringstream s(value);
  if (name == "gravity") {
    Vector3 g;
    if (!(s >> g[0] >> g[1] >> g[2]) || !g.allFinite()) return false;
    gravity = g;
    return true;
  }
  double x;
  if (!(s >> x)) return false;
  if (name == "enableFeedforwardAcceleration") feedforwardAcceleration = x != 0;
  else if (name == "enableGravityCompensation") gravityCompensation = x != 0;
  else if (name == "onlyJointCommands") onlyJointCommands = x != 0;
  else return false;
  return true;
}

bool RobotController::sendCommand(const Robot& robot, const std::string& name, const std::string& args) {
  std::istringstream in(args);
  const int n = robot.numLinks();
  VectorX q, v;
  double t = 0;
  const bool timed = name == "set_tq" || name == "set_tv" || name == "set_tqv" || name == "append_tq" ||
                     name == "append_tqv";
  if (timed && (!(in >> t) || !(t > 0))) return false;
  if (name == "brake") {
    setVelocity(VectorX::Zero(n), 0);
    return true;
  }
  if (name == "set_tv") {
    if (!readConfig(in, v) || v.size() != n) return false;
    setVelocity(v, t);
    return true;
  }
  if (!readConfig(in, q) || q.size() != n) return false;
  const bool withV = name == "set_qv" || name == "set_tqv" || name == "append_qv" || name == "append_tqv";
  if (withV && (!readConfig(in, v) || v.size() != n)) return false;
  const bool append = name.compare(0, 7, "append_") == 0;
  if (name == "set_q" || name == "append_q" || name == "set_qv" || name == "append_qv")
    setMilestone(robot, q, withV ? &v : nullptr, append);
  else if (name == "append_q_linear")
    setMilestone(robot, q, nullptr, true, true);
  else if (name == "set_tq" || name == "append_tq")
    setLinear(q, t, append);
  else if (name == "set_tqv" || name == "append_tqv")
    setCubic(q, v, t, append);
  else
    return false;
  return true;
}

}  // namespace klampt
