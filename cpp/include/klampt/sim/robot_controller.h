// The default robot controller of the simulator: a motion queue feeding PID
// loops with the robot's servo gains, or manual PID / torque commands, with
// the robot's joint friction and torque limits.
#pragma once
#include <map>
#include <string>
#include <vector>
#include "klampt/dynamics/workspace.h"
#include "klampt/sim/motion_queue.h"

namespace klampt {

struct Robot;

struct RobotController {
  enum class Mode { Queue, PID, Torque };
  Mode mode = Mode::Queue;
  double rate = 0.01;
  /// Link-space setpoints (queue mode: the queue at the last control update).
  VectorX qCommand, dqCommand;
  /// Per driver: feedforward torque and PID integral.
  VectorX torqueCommand, integral;
  VectorX kP, kI, kD;
  MotionQueue queue;
  /// The motion queue's clock. Each update advances it by `rate` before the
  /// queue is read, so the command is where the motion should be at the end
  /// of the control period (the reference's timing); queue operations start
  /// from this time.
  double queueTime = 0;
  bool feedforwardAcceleration = false, gravityCompensation = true, onlyJointCommands = false;
  Vector3 gravity{0, 0, -9.8};
  /// Per driver, gravity-compensation torques from the last control update.
  VectorX gravityTorque;
  /// Torque applied per driver during the last substep.
  VectorX appliedTorque;
  bool hadNonFiniteTorque = false;

  void init(const Robot& robot);
  /// Called at the control rate with the actual state (robot frames current).
  void update(const Robot& robot, DynamicsWorkspace& ws);
  /// Driver torques for one substep of length dt at actual state (q, dq).
  void torques(const Robot& robot, const VectorX& q, const VectorX& dq, double dt, VectorX& tau);

  std::string controlType() const;
  /// A time-optimal move within the robot's velocity and acceleration limits
  /// from the current (or, appending, the queued) state, along a straight
  /// joint-space line if straightLine.
  void setMilestone(const Robot& robot, const VectorX& q, const VectorX* dq, bool append, bool straightLine = false);
  void setLinear(const VectorX& q, double dt, bool append);
  void setCubic(const VectorX& q, const VectorX& v, double dt, bool append);
  void setVelocity(const VectorX& dq, double dt);
  /// Torque control: t per driver (numDrivers() entries) or per link (that of
  /// each driver's first link); throws std::invalid_argument for other sizes.
  void setTorque(const Robot& robot, const VectorX& t);
  /// Manual PID setpoints: q and dq both per driver (numDrivers() entries) or
  /// both per link (numLinks(), read through the drivers); tff, if given, is a
  /// feedforward torque per driver (or per link: that of each driver's first
  /// link). Throws std::invalid_argument, changing nothing, for other sizes or
  /// non-finite values.
  void setPID(const Robot& robot, const VectorX& q, const VectorX& dq, const VectorX* tff);
  void setManualMode(bool enabled);
  double remainingTime() const;

  static const std::vector<std::string>& settingNames();
  static const std::vector<std::string>& commandNames();
  std::string getSetting(const std::string& name) const;
  bool setSetting(const std::string& name, const std::string& value);
  bool sendCommand(const Robot& robot, const std::string& name, const std::string& args);
};

}  // namespace klampt
