// Joint position, velocity and driver torque sensors (klampt/sim/sensor_joint.h).
#include "klampt/model/robot.h"
#include "klampt/sim/sensor_common.h"
#include "klampt/sim/sensor_joint.h"

namespace klampt {

JointStateSensor::JointStateSensor(const std::string& prefix) : prefix_(prefix) {
  addSetting(prefix + "resolution", sizedVectorSetting(resolution));
  addSetting(prefix + "variance", sizedVectorSetting(variance));
  // Changing the indices resizes the readings so that names and values agree.
  SensorSetting list = indexListSetting(indices);
  addSetting("indices", {list.get, [this, set = list.set](const std::string& s) {
                           if (!set(s)) return false;
                           size(fullSize_);
                           return true;
                         }});
}

void JointStateSensor::size(int n) {
  fullSize_ = n;
  values_.assign(indices.empty() ? n : (int)indices.size(), 0.0);
}

void JointStateSensor::reset() { std::fill(values_.begin(), values_.end(), 0.0); }

std::vector<std::string> JointStateSensor::measurementNames() const {
  std::vector<std::string> names;
  if (!indices.empty()) {
    for (int i : indices) names.push_back(prefix_ + "[" + std::to_string(i) + "]");
  } else {
    for (size_t i = 0; i < values_.size(); ++i) names.push_back(prefix_ + "[" + std::to_string(i) + "]");
  }
  return names;
}

void JointStateSensor::read(const VectorX& full) {
  const int n = (int)full.size();
  std::vector<double> v(full.data(), full.data() + n);
  for (int i = 0; i < n; ++i) {
    const double var = i < (int)variance.size() ? variance[i] : 0.0;
    const double res = i < (int)resolution.size() ? resolution[i] : 0.0;
    v[i] = discretize(v[i], res, var);
  }
  fullSize_ = n;
  if (indices.empty()) {
    values_ = std::move(v);
    return;
  }
  values_.assign(indices.size(), 0.0);
  for (size_t k = 0; k < indices.size(); ++k)
    if (indices[k] < n) values_[k] = v[indices[k]];
}

std::vector<double> JointStateSensor::fullMeasurements() const {
  if (indices.empty()) return values_;
  std::vector<double> full(fullSize_, 0.0);
  for (size_t k = 0; k < indices.size() && k < values_.size(); ++k)
    if (indices[k] >= 0 && indices[k] < fullSize_) full[indices[k]] = values_[k];
  return full;
}

void JointPositionSensor::attach(const Robot& robot) { size(robot.numLinks()); }
void JointPositionSensor::simulate(const SensorInputs& in) { read(in.robot->q); }

void JointVelocitySensor::attach(const Robot& robot) { size(robot.numLinks()); }
void JointVelocitySensor::simulate(const SensorInputs& in) { read(in.robot->dq); }

void DriverTorqueSensor::attach(const Robot& robot) { size((int)robot.drivers.size()); }
void DriverTorqueSensor::simulate(const SensorInputs& in) {
  VectorX t = VectorX::Zero((int)in.robot->drivers.size());
  if (in.driverTorques.size() == (size_t)t.size()) t = Eigen::Map<const VectorX>(in.driverTorques.data(), t.size());
  read(t);
}

}  // namespace klampt
