// Sensors built on another sensor of the same robot: low-pass filtered,
// time-delayed, transformed (scale, bias, clamp) and corrupted (noise).
#pragma once
#include <deque>
#include "klampt/sim/sensor_common.h"

namespace klampt {

/// Common part: the wrapped sensor (the XML attribute `sensor` names it).
class CompositeSensor : public Sensor {
 public:
  std::shared_ptr<Sensor> inner;

  void advance(double dt) override;
  void reset() override;
  std::vector<std::string> measurementNames() const override;
  std::vector<double> measurements() const override { return values_; }
  void setMeasurements(const std::vector<double>& v) override { values_ = v; }
  std::vector<double> internalState() const override;
  void setInternalState(const std::vector<double>& s) override;

 protected:
  std::vector<double> values_;
};

/// values = smoothing * values + (1 - smoothing) * reading, at each advance.
class FilteredSensor : public CompositeSensor {
 public:
  double smoothing = 0;
  FilteredSensor();
  const char* type() const override { return "FilteredSensor"; }
  void simulate(const SensorInputs& in) override;
  void advance(double dt) override;
};

/// Readings arrive `delay` (plus a uniform jitter in [-jitter, jitter])
/// seconds after they are taken; until the first arrives it reads nothing.
class TimeDelayedSensor : public CompositeSensor {
 public:
  double delay = 0, jitter = 0;
  TimeDelayedSensor();
  const char* type() const override { return "TimeDelayedSensor"; }
  void simulate(const SensorInputs& in) override;
  void advance(double dt) override;
  void reset() override;
  std::vector<double> internalState() const override;
  void setInternalState(const std::vector<double>& s) override;

 private:
  double time_ = 0;
  std::deque<std::vector<double>> inTransit_;
  std::deque<double> deliveryTimes_;
};

/// reading * scale + bias, then clamped to [minimum, maximum]; each list has
/// one value for all measurements or one per measurement (or is empty).
class TransformedSensor : public CompositeSensor {
 public:
  std::vector<double> scale, bias, minimum, maximum;
  TransformedSensor();
  const char* type() const override { return "TransformedSensor"; }
  void simulate(const SensorInputs& in) override;
};

/// Gaussian noise on the nonzero readings, then rounding to a resolution;
/// one value for all measurements or one per measurement (or empty).
class CorruptedSensor : public CompositeSensor {
 public:
  std::vector<double> variance, resolution;
  CorruptedSensor();
  const char* type() const override { return "CorruptedSensor"; }
  void simulate(const SensorInputs& in) override;
};

}  // namespace klampt
