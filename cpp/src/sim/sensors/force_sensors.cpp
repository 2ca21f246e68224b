// Contact and force/torque sensors (klampt/sim/sensor_force.h).
#include <cmath>
#include "klampt/dynamics/link_acceleration.h"
#include "klampt/model/robot.h"
#include "klampt/sim/sensor_force.h"

namespace klampt {

ContactSensor::ContactSensor() {
  addSetting("link", intSetting(link));
  addSetting("Tsensor", transformSetting(Tsensor));
  addSetting("patchMin", vector2Setting(patchMin));
  addSetting("patchMax", vector2Setting(patchMax));
  addSetting("patchTolerance", realSetting(patchTolerance));
  addSetting("hasForce", flagsSetting(hasForce));
  addSetting("fResolution", vector3Setting(fResolution));
  addSetting("fVariance", vector3Setting(fVariance));
  addSetting("fSensitivity", realSetting(fSensitivity));
  addSetting("fSaturation", vector3Setting(fSaturation));
  addSetting("falloffCoefficient", realSetting(falloffCoefficient));
}

void ContactSensor::simulate(const SensorInputs& in) {
  contact_ = false;
  force_.setZero();
  if (!in.hasForces || link < 0 || link >= in.robot->numLinks()) return;
  const RigidTransform T = in.robot->linkTransforms[link] * Tsensor;
  const RigidTransform Tinv = T.inverse();
  const Vector2 center = 0.5 * (patchMin + patchMax);
  const double area = (patchMax - patchMin).prod();
  for (const SensorContact& c : in.contacts) {
    if (c.link != link) continue;
    const Vector3 x = Tinv.apply(c.point);
    if (x.x() < patchMin.x() || x.x() > patchMax.x() || x.y() < patchMin.y() || x.y() > patchMax.y() ||
        std::abs(x.z()) > patchTolerance)
      continue;
    const Vector3 f = T.R.transpose() * c.force;
    double weight = 1.0;
    if (falloffCoefficient > 0 && area > 0)
      weight = std::pow(1.0 - std::abs(4.0 * (x.x() - center.x()) * (x.y() - center.y())) / area, falloffCoefficient);
    force_ += weight * f;
  }
  if (std::abs(force_.z()) > fSensitivity) contact_ = true;
  for (int i = 0; i < 3; ++i) {
    force_[i] = discretize(force_[i], fResolution[i], fVariance[i]);
    if (std::abs(force_[i]) > fSaturation[i]) force_[i] = std::copysign(fSaturation[i], force_[i]);
  }
}

void ContactSensor::reset() {
  contact_ = false;
  force_.setZero();
}

std::vector<std::string> ContactSensor::measurementNames() const {
  std::vector<std::string> names{"contact"};
  const char* axes[3] = {"force_x", "force_y", "force_z"};
  for (int i = 0; i < 3; ++i)
    if (hasForce[i]) names.push_back(axes[i]);
  return names;
}

std::vector<double> ContactSensor::measurements() const {
  std::vector<double> v{contact_ ? 1.0 : 0.0};
  for (int i = 0; i < 3; ++i)
    if (hasForce[i]) v.push_back(force_[i]);
  return v;
}

void ContactSensor::setMeasurements(const std::vector<double>& v) {
  if (v.empty()) return;
  contact_ = v[0] != 0;
  size_t k = 1;
  for (int i = 0; i < 3; ++i)
    if (hasForce[i] && k < v.size()) force_[i] = v[k++];
}

ForceTorqueSensor::ForceTorqueSensor() {
  addSetting("link", intSetting(link));
  addSetting("hasForce", flagsSetting(hasForce));
  addSetting("hasTorque", flagsSetting(hasTorque));
  addSetting("fVariance", vector3Setting(fVariance));
  addSetting("tVariance", vector3Setting(tVariance));
}

namespace {

/// The wrench (world frame, moment about the link origin) the parent of `link`
/// applies to keep its subtree on its current motion (ddq = 0) under gravity.
void kinematicJointWrench(const Robot& robot, int link, Vector3& force, Vector3& moment) {
  static const Vector3 gravity(0, 0, -9.806);
  DynamicsWorkspace ws;
  const Vector3 origin = robot.linkTransforms[link].t;
  force.setZero();
  moment.setZero();
  for (int k = 0; k < robot.numLinks(); ++k) {
    if (!robot.isAncestor(link, k)) continue;
    const Link& l = robot.links[k];
    const RigidTransform& T = robot.linkTransforms[k];
    Vector3 alpha, a;
    linkAcceleration(robot, k, l.mass.com, robot.dq.data(), nullptr, ws, alpha, a);
    const Vector3 w = angularVelocity(robot, k);
    const Matrix3 I = T.R * l.mass.inertia * T.R.transpose();
    const Vector3 f = l.mass.mass * (a - gravity);
    force += f;
    moment += (T.apply(l.mass.com) - origin).cross(f) + I * alpha + w.cross(I * w);
  }
}

}  // namespace

void ForceTorqueSensor::simulate(const SensorInputs& in) {
  force_.setZero();
  torque_.setZero();
  const Robot& robot = *in.robot;
  if (link < 0 || link >= robot.numLinks()) return;
  const RigidTransform& T = robot.linkTransforms[link];
  Vector3 f, m;
  if (!in.hasForces) {
    kinematicJointWrench(robot, link, f, m);
  } else {
    if ((int)in.jointForces.size() <= link || (int)in.jointMoments.size() <= link) return;
    const Vector3 com = T.apply(robot.links[link].mass.com);
    f = -in.jointForces[link];
    m = -(in.jointMoments[link] + (T.t - com).cross(in.jointForces[link]));
  }
  force_ = T.R.transpose() * f;
  torque_ = T.R.transpose() * m;
  for (int i = 0; i < 3; ++i) {
    force_[i] = hasForce[i] ? discretize(force_[i], 0, fVariance[i]) : 0.0;
    torque_[i] = hasTorque[i] ? discretize(torque_[i], 0, tVariance[i]) : 0.0;
  }
}

void ForceTorqueSensor::reset() {
  force_.setZero();
  torque_.setZero();
}

std::vector<std::string> ForceTorqueSensor::measurementNames() const {
  return {"force_x", "force_y", "force_z", "torque_x", "torque_y", "torque_z"};
}

std::vector<double> ForceTorqueSensor::measurements() const {
  return {force_[0], force_[1], force_[2], torque_[0], torque_[1], torque_[2]};
}

void ForceTorqueSensor::setMeasurements(const std::vector<double>& v) {
  if (v.size() != 6) return;
  force_ = Vector3(v[0], v[1], v[2]);
  torque_ = Vector3(v[3], v[4], v[5]);
}

}  // namespace klampt
