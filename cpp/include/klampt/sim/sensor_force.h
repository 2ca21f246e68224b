// Force sensors: a contact patch on a link, and a force/torque sensor at a
// link's joint.
#pragma once
#include <array>
#include "klampt/sim/sensor_common.h"

namespace klampt {

/// Sums the contact forces on a rectangular patch [patchMin, patchMax] of the
/// sensor's x-y plane (within patchTolerance of it); reads "contact" (force_z
/// above fSensitivity) and the force components in hasForce, in the sensor
/// frame. Reads zeros in kinematic mode.
class ContactSensor : public Sensor {
 public:
  int link = 0;
  RigidTransform Tsensor;
  Vector2 patchMin = Vector2::Zero(), patchMax = Vector2::Zero();
  double patchTolerance = 0.001;
  std::array<bool, 3> hasForce{false, false, false};
  Vector3 fResolution = Vector3::Zero(), fVariance = Vector3::Zero();
  double fSensitivity = 0;
  Vector3 fSaturation = Vector3::Constant(INFINITY);
  double falloffCoefficient = 0;

  ContactSensor();
  const char* type() const override { return "ContactSensor"; }
  void simulate(const SensorInputs& in) override;
  void reset() override;
  std::vector<std::string> measurementNames() const override;
  std::vector<double> measurements() const override;
  void setMeasurements(const std::vector<double>& v) override;
  int* mountLink() override { return &link; }
  RigidTransform* mountTransform() override { return &Tsensor; }

 private:
  bool contact_ = false;
  Vector3 force_ = Vector3::Zero();
};

/// The wrench through the joint of `link`, in the link's frame. In kinematic
/// mode: the wrench the parent applies to hold the link's subtree moving at the
/// current velocity against gravity (9.806 m/s^2), moment about the link
/// origin. In simulation: the wrench the link applies to its parent (the
/// reference's sign), moment about the link's center of mass.
class ForceTorqueSensor : public Sensor {
 public:
  int link = 0;
  std::array<bool, 3> hasForce{false, false, false}, hasTorque{false, false, false};
  Vector3 fVariance = Vector3::Zero(), tVariance = Vector3::Zero();

  ForceTorqueSensor();
  const char* type() const override { return "ForceTorqueSensor"; }
  void simulate(const SensorInputs& in) override;
  void reset() override;
  std::vector<std::string> measurementNames() const override;
  std::vector<double> measurements() const override;
  void setMeasurements(const std::vector<double>& v) override;
  int* mountLink() override { return &link; }

 private:
  Vector3 force_ = Vector3::Zero(), torque_ = Vector3::Zero();
};

}  // namespace klampt
