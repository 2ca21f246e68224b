// A robot's sensors (joint position/velocity, torque, contact, force/torque,
// accelerometer, tilt, gyro, IMU, filtered, time-delayed, laser, camera) and
// what they read at each update. The physics simulator and kinematic
// simulation both drive them through updateSensors().
#pragma once
#include <memory>
#include <string>
#include <vector>
#include "klampt/math/types.h"

namespace klampt {

struct Robot;
struct World;

/// One contact point on a robot link, in world coordinates.
struct SensorContact {
  int link = -1;
  Vector3 point = Vector3::Zero();
  /// Unit normal pointing out of the other body, into the link.
  Vector3 normal = Vector3::UnitZ();
  /// Force applied to the link at `point`.
  Vector3 force = Vector3::Zero();
};

/// What sensors may read at one update.
struct SensorInputs {
  double time = 0;
  /// The robot with q and dq set to the actual state and frames current.
  const Robot* robot = nullptr;
  /// The world to ray cast (laser, depth camera); may be null.
  const World* world = nullptr;
  /// False in kinematic simulation: contact sensors then read zeros and
  /// force/torque sensors the wrench that holds the link against gravity.
  bool hasForces = false;
  /// Torque applied by each driver during the last step (physics only).
  std::vector<double> driverTorques;
  /// Contacts on this robot's links during the last step (physics only).
  std::vector<SensorContact> contacts;
  /// Per link: force and moment (about the link origin, world frame) its
  /// parent applies to it through the joint (physics only; empty if unknown).
  std::vector<Vector3> jointForces, jointMoments;
};

/// The sensors of one robot. Opaque to the simulator.
struct RobotSensorSet;

/// Sensors declared by the robot's "sensors" property (XML text or a file
/// name already resolved by the loaders). Throws std::runtime_error with a
/// clear message on malformed XML or unknown sensor types.
std::shared_ptr<RobotSensorSet> makeRobotSensors(const Robot& robot);
/// Advances every enabled sensor by dt with the given inputs.
void updateSensors(RobotSensorSet& sensors, const SensorInputs& inputs, double dt);
/// The last readings of the first sensor of `type` ("JointPositionSensor",
/// ...). Joint state sensors reading a subset of indices are spread back to
/// the full vector (unread entries are 0). False if the robot has no such sensor.
bool readSensorOfType(const RobotSensorSet& sensors, const std::string& type, std::vector<double>& values);
/// Forgets history (filters, delays, previous velocities).
void resetSensors(RobotSensorSet& sensors);
/// Serializes / restores the sensors' full internal state (for Simulator
/// getState/setState). restore returns false on malformed data.
std::string saveSensorState(const RobotSensorSet& sensors);
bool restoreSensorState(RobotSensorSet& sensors, const std::string& data);

}  // namespace klampt
