// The sensor base class with its named settings, and the sensors of one
// robot as the simulator and RobotModel.sensor() hold them.
#pragma once
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include "klampt/sim/robot_sensors.h"

namespace klampt {

/// One named setting of a sensor: prints the value as the reference does and
/// parses a new one (false when the text is malformed or out of range).
struct SensorSetting {
  std::function<std::string()> get;
  std::function<bool(const std::string&)> set;
  /// What `set` accepts, for the error message, when more than the type says.
  std::string accepts = {};
  /// False for a view of other settings (a camera's fx is its xfov): readable
  /// and settable by name but left out of the list, so saving writes it once.
  bool listed = true;
};

class Sensor {
 public:
  Sensor();
  virtual ~Sensor() = default;
  Sensor(const Sensor&) = delete;
  Sensor& operator=(const Sensor&) = delete;

  /// The reference's type name ("JointPositionSensor", ...).
  virtual const char* type() const = 0;
  /// Sizes the measurements for the robot right after creation.
  virtual void attach(const Robot&) {}
  /// Takes a reading from the state in `in`.
  virtual void simulate(const SensorInputs& in) = 0;
  /// Moves the sensor's clock dt forward (called after simulate).
  virtual void advance(double) {}
  /// Forgets history and readings.
  virtual void reset() {}
  virtual std::vector<std::string> measurementNames() const = 0;
  virtual std::vector<double> measurements() const = 0;
  virtual void setMeasurements(const std::vector<double>& values) = 0;
  /// History other than the readings (previous velocities, queued readings).
  virtual std::vector<double> internalState() const { return {}; }
  virtual void setInternalState(const std::vector<double>&) {}

  /// The mounting link (-1: the world) and transform on it, or null for
  /// sensors without them (joint sensors have neither).
  virtual int* mountLink() { return nullptr; }
  virtual RigidTransform* mountTransform() { return nullptr; }

  /// Setting names in sorted order, as the reference lists them.
  std::vector<std::string> settingNames() const;
  /// The named setting's value; throws std::runtime_error if the sensor has
  /// no such setting.
  std::string getSetting(const std::string& key) const;
  /// Sets the named setting if the sensor has it and `value` parses; returns
  /// whether it did.
  bool trySetSetting(const std::string& key, const std::string& value);
  /// Sets the named setting; throws std::runtime_error if the sensor has no
  /// such setting or `value` does not parse.
  void setSetting(const std::string& key, const std::string& value);

  std::string name = "Unnamed sensor";
  double rate = 0;
  bool enabled = true;
  /// Simulated time since the last reading of a sensor with rate > 0
  /// (infinite until the first, which is taken at the first update).
  double pendingTime = INFINITY;

 protected:
  void addSetting(const std::string& key, SensorSetting setting);

 private:
  std::map<std::string, SensorSetting> settings_;
};

/// A new sensor of the given type name, or null for an unknown type.
std::unique_ptr<Sensor> makeSensor(const std::string& type);

struct RobotSensorSet {
  std::vector<std::shared_ptr<Sensor>> sensors;

  /// Index of the named sensor, -1 if absent.
  int find(const std::string& name) const;
  /// Adds a sensor of `type` sized for `robot`; throws std::invalid_argument
  /// for an unknown type.
  std::shared_ptr<Sensor> add(const Robot& robot, const std::string& name, const std::string& type);
};

/// Sensors from sensor XML text (<sensors>...</sensors>); link names in
/// `link` attributes are replaced by indices. Throws std::runtime_error.
std::shared_ptr<RobotSensorSet> parseRobotSensors(const Robot& robot, const std::string& xml);
/// Takes one reading of `sensor` and advances it by dt (kinematicSimulate).
void simulateSensor(Sensor& sensor, const SensorInputs& inputs, double dt);
/// The robot's kinematic sensor set, made from its properties on first use.
RobotSensorSet& kinematicSensors(Robot& robot);

}  // namespace klampt
