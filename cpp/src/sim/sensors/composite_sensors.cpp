// Filtered, time-delayed, transformed and corrupted sensors
// (klampt/sim/sensor_composite.h).
#include <algorithm>
#include "klampt/sim/sensor_composite.h"

namespace klampt {

namespace {

/// The entry of a one-or-per-measurement list for measurement i (null if the
/// list is empty or of the wrong size).
const double* entry(const std::vector<double>& list, size_t i, size_t count) {
  if (list.size() == 1) return &list[0];
  if (list.size() == count && i < count) return &list[i];
  return nullptr;
}

}  // namespace

void CompositeSensor::advance(double dt) {
  if (inner) inner->advance(dt);
}

void CompositeSensor::reset() {
  std::fill(values_.begin(), values_.end(), 0.0);
  if (inner) inner->reset();
}

std::vector<std::string> CompositeSensor::measurementNames() const {
  return inner ? inner->measurementNames() : std::vector<std::string>();
}

std::vector<double> CompositeSensor::internalState() const {
  return inner ? inner->internalState() : std::vector<double>();
}

void CompositeSensor::setInternalState(const std::vector<double>& s) {
  if (inner) inner->setInternalState(s);
}

FilteredSensor::FilteredSensor() { addSetting("smoothing", realSetting(smoothing)); }

void FilteredSensor::simulate(const SensorInputs& in) {
  if (inner) inner->simulate(in);
}

void FilteredSensor::advance(double dt) {
  if (!inner) return;
  const std::vector<double> reading = inner->measurements();
  inner->advance(dt);
  if (values_.size() != reading.size()) values_.assign(reading.size(), 0.0);
  for (size_t i = 0; i < values_.size(); ++i) values_[i] = smoothing * values_[i] + (1.0 - smoothing) * reading[i];
}

TimeDelayedSensor::TimeDelayedSensor() {
  addSetting("delay", realSetting(delay));
  addSetting("jitter", realSetting(jitter));
}

void TimeDelayedSensor::simulate(const SensorInputs& in) {
  if (!inner) return;
  inner->simulate(in);
  inTransit_.push_back(inner->measurements());
  deliveryTimes_.push_back(time_ + delay + (jitter > 0 ? uniformSample(-jitter, jitter) : 0.0));
  while (!deliveryTimes_.empty() && deliveryTimes_.front() <= time_) {
    values_ = std::move(inTransit_.front());
    inTransit_.pop_front();
    deliveryTimes_.pop_front();
  }
}

void TimeDelayedSensor::advance(double dt) {
  time_ += dt;
  CompositeSensor::advance(dt);
}

void TimeDelayedSensor::reset() {
  if (inner) inner->reset();
  inTransit_.clear();
  deliveryTimes_.clear();
  values_.clear();
  time_ = 0;
}

std::vector<double> TimeDelayedSensor::internalState() const {
  // Layout: m, the inner sensor's m values, time, queue length k, width w,
  // k*w queued readings, k delivery times.
  const std::vector<double> innerState = CompositeSensor::internalState();
  const size_t width = inTransit_.empty() ? 0 : inTransit_.front().size();
  std::vector<double> s{(double)innerState.size()};
  s.insert(s.end(), innerState.begin(), innerState.end());
  s.push_back(time_);
  s.push_back((double)inTransit_.size());
  s.push_back((double)width);
  for (const auto& m : inTransit_) {
    std::vector<double> row = m;
    row.resize(width, 0.0);
    s.insert(s.end(), row.begin(), row.end());
  }
  s.insert(s.end(), deliveryTimes_.begin(), deliveryTimes_.end());
  return s;
}

void TimeDelayedSensor::setInternalState(const std::vector<double>& s) {
  if (s.empty()) return;
  const size_t m = (size_t)s[0];
  if (s.size() < m + 4) return;
  const size_t k = (size_t)s[m + 2], w = (size_t)s[m + 3];
  if (s.size() != m + 4 + k * w + k) return;
  CompositeSensor::setInternalState({s.begin() + 1, s.begin() + 1 + m});
  time_ = s[m + 1];
  inTransit_.clear();
  deliveryTimes_.clear();
  size_t at = m + 4;
  for (size_t i = 0; i < k; ++i, at += w) inTransit_.emplace_back(s.begin() + at, s.begin() + at + w);
  for (size_t i = 0; i < k; ++i) deliveryTimes_.push_back(s[at++]);
}

TransformedSensor::TransformedSensor() {
  addSetting("scale", valueListSetting(scale));
  addSetting("bias", valueListSetting(bias));
  addSetting("minimum", valueListSetting(minimum));
  addSetting("maximum", valueListSetting(maximum));
}

void TransformedSensor::simulate(const SensorInputs& in) {
  if (!inner) return;
  inner->simulate(in);
  values_ = inner->measurements();
  const size_t n = values_.size();
  for (size_t i = 0; i < n; ++i) {
    if (const double* s = entry(scale, i, n)) values_[i] *= *s;
    if (const double* b = entry(bias, i, n)) values_[i] += *b;
    if (const double* lo = entry(minimum, i, n)) values_[i] = std::max(*lo, values_[i]);
    if (const double* hi = entry(maximum, i, n)) values_[i] = std::min(*hi, values_[i]);
  }
}

CorruptedSensor::CorruptedSensor() {
  addSetting("variance", valueListSetting(variance));
  addSetting("resolution", valueListSetting(resolution));
}

void CorruptedSensor::simulate(const SensorInputs& in) {
  if (!inner) return;
  inner->simulate(in);
  values_ = inner->measurements();
  const size_t n = values_.size();
  for (size_t i = 0; i < n; ++i) {
    const double* v = entry(variance, i, n);
    const double* r = entry(resolution, i, n);
    if (values_[i] != 0.0 && v) values_[i] = discretize(values_[i], 0, *v);
    if (r) values_[i] = discretize(values_[i], *r, 0);
  }
}

}  // namespace klampt
