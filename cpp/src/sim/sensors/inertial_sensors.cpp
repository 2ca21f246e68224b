// Accelerometer, tilt, gyro and IMU sensors (klampt/sim/sensor_inertial.h).
#include <cmath>
#include "klampt/model/kinematics.h"
#include "klampt/sim/sensor_inertial.h"

namespace klampt {

namespace {

const Vector3 kGravity(0, 0, -9.8);

bool validLink(const SensorInputs& in, int link) { return link >= 0 && link < in.robot->numLinks(); }

void putRotation(const Matrix3& R, std::vector<double>& v) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) v.push_back(R(i, j));
}

Matrix3 takeRotation(const std::vector<double>& v, size_t at) {
  Matrix3 R;
  for (int i = 0; i < 9; ++i) R(i / 3, i % 3) = v[at + i];
  return R;
}

const char* const kRotationNames[9] = {"R_xx", "R_xy", "R_xz", "R_yx", "R_yy", "R_yz", "R_zx", "R_zy", "R_zz"};

}  // namespace

Accelerometer::Accelerometer() {
  addSetting("link", intSetting(link));
  addSetting("Tsensor", transformSetting(Tsensor));
  addSetting("hasAxis", flagsSetting(hasAxis));
  addSetting("accelVariance", vector3Setting(accelVariance));
}

void Accelerometer::simulate(const SensorInputs& in) {
  if (!validLink(in, link)) return;
  const RigidTransform& T = in.robot->linkTransforms[link];
  const Vector3 v = pointVelocity(*in.robot, link, Tsensor.t);
  Vector3 a = lastDt_ == 0 ? Vector3::Zero() : Vector3((v - lastVelocity_) / lastDt_);
  lastVelocity_ = v;
  rotation_ = T.R * Tsensor.R;
  accel_ = rotation_.transpose() * (a + kGravity);
  for (int i = 0; i < 3; ++i) accel_[i] = hasAxis[i] ? discretize(accel_[i], 0, accelVariance[i]) : 0.0;
}

void Accelerometer::reset() {
  accel_.setZero();
  lastVelocity_.setZero();
  lastDt_ = 0;
}

std::vector<std::string> Accelerometer::measurementNames() const { return {"accel_x", "accel_y", "accel_z"}; }

void Accelerometer::setMeasurements(const std::vector<double>& v) {
  if (v.size() == 3) accel_ = Vector3(v[0], v[1], v[2]);
}

std::vector<double> Accelerometer::internalState() const {
  return {lastDt_, lastVelocity_[0], lastVelocity_[1], lastVelocity_[2]};
}

void Accelerometer::setInternalState(const std::vector<double>& s) {
  if (s.size() != 4) return;
  lastDt_ = s[0];
  lastVelocity_ = Vector3(s[1], s[2], s[3]);
}

TiltSensor::TiltSensor() {
  addSetting("link", intSetting(link));
  addSetting("referenceDir", vector3Setting(referenceDir));
  addSetting("Rsensor", matrixSetting(Rsensor));
  addSetting("hasAxis", flagsSetting(hasAxis));
  addSetting("hasVelocity", boolSetting(hasVelocity));
  addSetting("resolution", vector3Setting(resolution));
  addSetting("variance", vector3Setting(variance));
}

void TiltSensor::simulate(const SensorInputs& in) {
  if (!validLink(in, link)) return;
  const Matrix3 R = in.robot->linkTransforms[link].R * Rsensor;
  const Vector3 d = R.transpose() * referenceDir;
  auto asinClamped = [](double x) { return std::asin(std::max(-1.0, std::min(1.0, x))); };
  angles_ = Vector3(asinClamped(d.y()), asinClamped(-d.x()), asinClamped(d.z()));
  angularVelocity_ = R.transpose() * angularVelocity(*in.robot, link);
  for (int i = 0; i < 3; ++i) {
    angles_[i] = hasAxis[i] ? discretize(angles_[i], resolution[i], variance[i]) : 0.0;
    angularVelocity_[i] = hasAxis[i] ? discretize(angularVelocity_[i], resolution[i], variance[i]) : 0.0;
  }
}

void TiltSensor::reset() {
  angles_.setZero();
  angularVelocity_.setZero();
}

std::vector<std::string> TiltSensor::measurementNames() const { return {"a_x", "a_y", "a_z", "w_x", "w_y", "w_z"}; }

std::vector<double> TiltSensor::measurements() const {
  return {angles_[0], angles_[1], angles_[2], angularVelocity_[0], angularVelocity_[1], angularVelocity_[2]};
}

void TiltSensor::setMeasurements(const std::vector<double>& v) {
  if (v.size() != 6) return;
  angles_ = Vector3(v[0], v[1], v[2]);
  angularVelocity_ = Vector3(v[3], v[4], v[5]);
}

GyroSensor::GyroSensor() {
  addSetting("link", intSetting(link));
  addSetting("angAccelVariance", matrixSetting(angAccelVariance));
  addSetting("angVelVariance", matrixSetting(angVelVariance));
  addSetting("rotationVariance", matrixSetting(rotationVariance));
  addSetting("hasAngAccel", boolSetting(hasAngAccel));
  addSetting("hasAngVel", boolSetting(hasAngVel));
  addSetting("hasRotation", boolSetting(hasRotation));
}

void GyroSensor::simulate(const SensorInputs& in) {
  if (!validLink(in, link)) return;
  const Vector3 w = angularVelocity(*in.robot, link);
  if (hasAngAccel) {
    angAccel_ = lastDt_ == 0 ? Vector3::Zero() : Vector3((w - lastW_) / lastDt_);
    lastW_ = w;
    for (int i = 0; i < 3; ++i) angAccel_[i] = discretize(angAccel_[i], 0, angAccelVariance(i, i));
  }
  if (hasAngVel)
    for (int i = 0; i < 3; ++i) angVel_[i] = discretize(w[i], 0, angVelVariance(i, i));
  if (hasRotation) rotation_ = in.robot->linkTransforms[link].R;
}

void GyroSensor::reset() {
  lastDt_ = 0;
  lastW_.setZero();
  angAccel_.setZero();
  angVel_.setZero();
  rotation_.setIdentity();
}

std::vector<std::string> GyroSensor::measurementNames() const {
  std::vector<std::string> names(kRotationNames, kRotationNames + 9);
  for (const char* n : {"angVel_x", "angVel_y", "angVel_z", "angAccel_x", "angAccel_y", "angAccel_z"}) names.push_back(n);
  return names;
}

std::vector<double> GyroSensor::measurements() const {
  std::vector<double> v;
  putRotation(rotation_, v);
  for (int i = 0; i < 3; ++i) v.push_back(angVel_[i]);
  for (int i = 0; i < 3; ++i) v.push_back(angAccel_[i]);
  return v;
}

void GyroSensor::setMeasurements(const std::vector<double>& v) {
  if (v.size() != 15) return;
  rotation_ = takeRotation(v, 0);
  angVel_ = Vector3(v[9], v[10], v[11]);
  angAccel_ = Vector3(v[12], v[13], v[14]);
}

std::vector<double> GyroSensor::internalState() const { return {lastDt_, lastW_[0], lastW_[1], lastW_[2]}; }

void GyroSensor::setInternalState(const std::vector<double>& s) {
  if (s.size() != 4) return;
  lastDt_ = s[0];
  lastW_ = Vector3(s[1], s[2], s[3]);
}

IMUSensor::IMUSensor() {
  addSetting("link", {[this] { return std::to_string(accelerometer.link); },
                      [this](const std::string& s) {
                        if (!accelerometer.trySetSetting("link", s)) return false;
                        gyro.link = accelerometer.link;
                        return true;
                      }});
  for (const char* key : {"Tsensor", "hasAxis", "accelVariance"}) {
    std::string k = key;
    addSetting(k, {[this, k] { return accelerometer.getSetting(k); },
                   [this, k](const std::string& s) { return accelerometer.trySetSetting(k, s); }});
  }
  for (const char* key :
       {"angAccelVariance", "angVelVariance", "rotationVariance", "hasAngAccel", "hasAngVel", "hasRotation"}) {
    std::string k = key;
    addSetting(k, {[this, k] { return gyro.getSetting(k); },
                   [this, k](const std::string& s) { return gyro.trySetSetting(k, s); }});
  }
}

void IMUSensor::simulate(const SensorInputs& in) {
  gyro.link = accelerometer.link;
  if (!validLink(in, accelerometer.link)) return;
  accelerometer.simulate(in);
  const double dt = accelerometer.lastDt();
  accel_ = accelerometer.lastRotation() * accelerometer.reading() - kGravity;
  translation_ += velocity_ * dt + 0.5 * dt * dt * accel_;
  velocity_ += accel_ * dt;

  gyro.simulate(in);
  if (gyro.hasAngAccel) angAccel_ = gyro.angAccel();
  if (gyro.hasAngVel) angVel_ = gyro.angVel();
  else angVel_ += angAccel_ * gyro.lastDt();
  if (gyro.hasRotation) rotation_ = gyro.rotation();
  else rotation_ = rotation_ * momentRotation(angVel_ * gyro.lastDt());
}

void IMUSensor::advance(double dt) {
  accelerometer.advance(dt);
  gyro.advance(dt);
}

void IMUSensor::reset() {
  accel_.setZero();
  velocity_.setZero();
  translation_.setZero();
  angAccel_.setZero();
  angVel_.setZero();
  rotation_.setIdentity();
  accelerometer.reset();
  gyro.reset();
}

std::vector<std::string> IMUSensor::measurementNames() const {
  std::vector<std::string> names{"accel_x", "accel_y", "accel_z", "vel_x",      "vel_y",      "vel_z",
                                 "trans_x", "trans_y", "trans_z", "angAccel_x", "angAccel_y", "angAccel_z",
                                 "angVel_x", "angVel_y", "angVel_z"};
  names.insert(names.end(), kRotationNames, kRotationNames + 9);
  return names;
}

std::vector<double> IMUSensor::measurements() const {
  std::vector<double> v;
  for (const Vector3* x : {&accel_, &velocity_, &translation_, &angAccel_, &angVel_})
    for (int i = 0; i < 3; ++i) v.push_back((*x)[i]);
  putRotation(rotation_, v);
  return v;
}

void IMUSensor::setMeasurements(const std::vector<double>& v) {
  if (v.size() != 24) return;
  Vector3* parts[5] = {&accel_, &velocity_, &translation_, &angAccel_, &angVel_};
  for (int p = 0; p < 5; ++p) *parts[p] = Vector3(v[3 * p], v[3 * p + 1], v[3 * p + 2]);
  rotation_ = takeRotation(v, 15);
}

std::vector<double> IMUSensor::internalState() const {
  std::vector<double> s = accelerometer.internalState();
  std::vector<double> g = gyro.internalState();
  s.insert(s.end(), g.begin(), g.end());
  return s;
}

void IMUSensor::setInternalState(const std::vector<double>& s) {
  if (s.size() != 8) return;
  accelerometer.setInternalState({s.begin(), s.begin() + 4});
  gyro.setInternalState({s.begin() + 4, s.end()});
}

}  // namespace klampt
