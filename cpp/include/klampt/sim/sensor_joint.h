// Sensors of the joint state: positions, velocities and driver torques, with
// optional noise, resolution and a subset of indices.
#pragma once
#include "klampt/sim/robot_sensor_set.h"

namespace klampt {

/// Common part: a vector read from the state, corrupted and subset.
class JointStateSensor : public Sensor {
 public:
  std::vector<double> resolution, variance;
  std::vector<int> indices;

  void reset() override;
  std::vector<std::string> measurementNames() const override;
  std::vector<double> measurements() const override { return values_; }
  void setMeasurements(const std::vector<double>& v) override { values_ = v; }
  /// The readings at their indices in the full state vector (others 0).
  std::vector<double> fullMeasurements() const;

 protected:
  /// prefix: "q", "dq" or "t"; the settings are <prefix>resolution, <prefix>variance.
  explicit JointStateSensor(const std::string& prefix);
  /// Applies noise, resolution and the index subset to `full`.
  void read(const VectorX& full);
  void size(int n);

 private:
  std::string prefix_;
  std::vector<double> values_;
  int fullSize_ = 0;  // entries of the full state vector
};

class JointPositionSensor : public JointStateSensor {
 public:
  JointPositionSensor() : JointStateSensor("q") {}
  const char* type() const override { return "JointPositionSensor"; }
  void attach(const Robot& robot) override;
  void simulate(const SensorInputs& in) override;
};

class JointVelocitySensor : public JointStateSensor {
 public:
  JointVelocitySensor() : JointStateSensor("dq") {}
  const char* type() const override { return "JointVelocitySensor"; }
  void attach(const Robot& robot) override;
  void simulate(const SensorInputs& in) override;
};

/// Torques the drivers applied during the last step (zeros in kinematic mode).
class DriverTorqueSensor : public JointStateSensor {
 public:
  DriverTorqueSensor() : JointStateSensor("t") {}
  const char* type() const override { return "DriverTorqueSensor"; }
  void attach(const Robot& robot) override;
  void simulate(const SensorInputs& in) override;
};

}  // namespace klampt
