// Inertial sensors on a link: accelerometer, tilt, gyro and IMU. Velocities
// come from the robot's joint velocities; accelerations are finite
// differences between consecutive readings.
#pragma once
#include <array>
#include "klampt/sim/sensor_common.h"

namespace klampt {

/// Acceleration of the sensor point minus gravity (so at rest it reads
/// (0, 0, -9.8) rotated into the sensor frame, as the reference does), axes
/// not in hasAxis read 0.
class Accelerometer : public Sensor {
 public:
  int link = 0;
  RigidTransform Tsensor;
  std::array<bool, 3> hasAxis{false, false, false};
  Vector3 accelVariance = Vector3::Zero();

  Accelerometer();
  const char* type() const override { return "Accelerometer"; }
  void simulate(const SensorInputs& in) override;
  void advance(double dt) override { lastDt_ = dt; }
  void reset() override;
  std::vector<std::string> measurementNames() const override;
  std::vector<double> measurements() const override { return {accel_[0], accel_[1], accel_[2]}; }
  void setMeasurements(const std::vector<double>& v) override;
  std::vector<double> internalState() const override;
  void setInternalState(const std::vector<double>& s) override;
  int* mountLink() override { return &link; }
  RigidTransform* mountTransform() override { return &Tsensor; }

  /// The sensor frame's world rotation at the last reading.
  const Matrix3& lastRotation() const { return rotation_; }
  double lastDt() const { return lastDt_; }
  const Vector3& reading() const { return accel_; }

 private:
  Vector3 accel_ = Vector3::Zero(), lastVelocity_ = Vector3::Zero();
  Matrix3 rotation_ = Matrix3::Identity();
  double lastDt_ = 0;
};

/// Tilt angles of referenceDir seen from the sensor frame (a_x = asin d_y,
/// a_y = asin -d_x, a_z = asin d_z) and the angular velocity in the sensor
/// frame; axes not in hasAxis read 0.
class TiltSensor : public Sensor {
 public:
  int link = 0;
  Vector3 referenceDir = Vector3::UnitZ();
  Matrix3 Rsensor = Matrix3::Identity();
  std::array<bool, 3> hasAxis{true, true, false};
  bool hasVelocity = false;
  Vector3 resolution = Vector3::Zero(), variance = Vector3::Zero();

  TiltSensor();
  const char* type() const override { return "TiltSensor"; }
  void simulate(const SensorInputs& in) override;
  void reset() override;
  std::vector<std::string> measurementNames() const override;
  std::vector<double> measurements() const override;
  void setMeasurements(const std::vector<double>& v) override;
  int* mountLink() override { return &link; }

 private:
  Vector3 angles_ = Vector3::Zero(), angularVelocity_ = Vector3::Zero();
};

/// The link's world rotation (R_xx, R_xy, ... row by row), angular velocity
/// and angular acceleration (world frame), each only if enabled.
class GyroSensor : public Sensor {
 public:
  int link = 0;
  bool hasAngAccel = false, hasAngVel = false, hasRotation = false;
  Matrix3 angAccelVariance = Matrix3::Zero(), angVelVariance = Matrix3::Zero(), rotationVariance = Matrix3::Zero();

  GyroSensor();
  const char* type() const override { return "GyroSensor"; }
  void simulate(const SensorInputs& in) override;
  void advance(double dt) override { lastDt_ = dt; }
  void reset() override;
  std::vector<std::string> measurementNames() const override;
  std::vector<double> measurements() const override;
  void setMeasurements(const std::vector<double>& v) override;
  std::vector<double> internalState() const override;
  void setInternalState(const std::vector<double>& s) override;
  int* mountLink() override { return &link; }

  double lastDt() const { return lastDt_; }
  const Vector3& angAccel() const { return angAccel_; }
  const Vector3& angVel() const { return angVel_; }
  const Matrix3& rotation() const { return rotation_; }

 private:
  Vector3 angAccel_ = Vector3::Zero(), angVel_ = Vector3::Zero(), lastW_ = Vector3::Zero();
  Matrix3 rotation_ = Matrix3::Identity();
  double lastDt_ = 0;
};

/// An accelerometer and a gyro whose readings are integrated: world
/// acceleration without gravity, velocity and translation since the reset,
/// angular acceleration, angular velocity and rotation.
class IMUSensor : public Sensor {
 public:
  Accelerometer accelerometer;
  GyroSensor gyro;

  IMUSensor();
  const char* type() const override { return "IMUSensor"; }
  void simulate(const SensorInputs& in) override;
  void advance(double dt) override;
  void reset() override;
  std::vector<std::string> measurementNames() const override;
  std::vector<double> measurements() const override;
  void setMeasurements(const std::vector<double>& v) override;
  std::vector<double> internalState() const override;
  void setInternalState(const std::vector<double>& s) override;
  int* mountLink() override { return &accelerometer.link; }
  RigidTransform* mountTransform() override { return &accelerometer.Tsensor; }

 private:
  Vector3 accel_ = Vector3::Zero(), velocity_ = Vector3::Zero(), translation_ = Vector3::Zero();
  Vector3 angAccel_ = Vector3::Zero(), angVel_ = Vector3::Zero();
  Matrix3 rotation_ = Matrix3::Identity();
};

}  // namespace klampt
