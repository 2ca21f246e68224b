// A robot's sensor set: creation by type name, the sensor XML format, and
// updates, resets and state for the simulator (klampt/sim/robot_sensors.h).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <tinyxml2.h>
#include "klampt/io/xml_text.h"
#include "klampt/model/robot.h"
#include "klampt/sim/sensor_composite.h"
#include "klampt/sim/sensor_force.h"
#include "klampt/sim/sensor_inertial.h"
#include "klampt/sim/sensor_joint.h"
#include "klampt/sim/sensor_visual.h"

namespace klampt {

std::unique_ptr<Sensor> makeSensor(const std::string& type) {
  if (type == "JointPositionSensor") return std::make_unique<JointPositionSensor>();
  if (type == "JointVelocitySensor") return std::make_unique<JointVelocitySensor>();
  if (type == "DriverTorqueSensor") return std::make_unique<DriverTorqueSensor>();
  if (type == "ContactSensor") return std::make_unique<ContactSensor>();
  if (type == "ForceTorqueSensor") return std::make_unique<ForceTorqueSensor>();
  if (type == "Accelerometer") return std::make_unique<Accelerometer>();
  if (type == "TiltSensor") return std::make_unique<TiltSensor>();
  if (type == "GyroSensor") return std::make_unique<GyroSensor>();
  if (type == "IMUSensor") return std::make_unique<IMUSensor>();
  if (type == "LaserRangeSensor") return std::make_unique<LaserRangeSensor>();
  if (type == "CameraSensor") return std::make_unique<CameraSensor>();
  if (type == "FilteredSensor") return std::make_unique<FilteredSensor>();
  if (type == "TimeDelayedSensor") return std::make_unique<TimeDelayedSensor>();
  if (type == "TransformedSensor") return std::make_unique<TransformedSensor>();
  if (type == "CorruptedSensor") return std::make_unique<CorruptedSensor>();
  return nullptr;
}

int RobotSensorSet::find(const std::string& name) const {
  for (size_t i = 0; i < sensors.size(); ++i)
    if (sensors[i]->name == name) return (int)i;
  return -1;
}

std::shared_ptr<Sensor> RobotSensorSet::add(const Robot& robot, const std::string& name, const std::string& type) {
  std::shared_ptr<Sensor> s = makeSensor(type);
  if (!s) throw std::invalid_argument("Invalid sensor type " + type);
  s->name = name;
  s->attach(robot);
  sensors.push_back(s);
  return s;
}

namespace {

[[noreturn]] void fail(const std::string& message) { throw std::runtime_error("sensors: " + message); }

bool isInteger(const char* text) {
  char* end = nullptr;
  std::strtol(text, &end, 10);
  return end != text && *end == '\0';
}

void readSensor(const Robot& robot, const tinyxml2::XMLElement* e, RobotSensorSet& set) {
  const std::string type = e->Name();
  std::shared_ptr<Sensor> s = makeSensor(type);
  if (!s) fail("unknown sensor type <" + type + "> (line " + std::to_string(e->GetLineNum()) + ")");
  if (auto* c = dynamic_cast<CompositeSensor*>(s.get())) {
    const char* inner = e->Attribute("sensor");
    if (!inner) fail("<" + type + "> needs a \"sensor\" attribute naming an earlier sensor");
    const int k = set.find(inner);
    if (k < 0) fail("<" + type + "> names the unknown sensor \"" + inner + "\"");
    c->inner = set.sensors[k];
  }
  for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
    const std::string key = a->Name();
    std::string value = a->Value();
    if (key == "sensor" && dynamic_cast<CompositeSensor*>(s.get())) continue;
    if (key == "name") {
      s->name = value;
      continue;
    }
    if (key == "link" && !isInteger(value.c_str())) {
      const int index = robot.linkIndex(value);
      if (index >= 0) value = std::to_string(index);
    }
    if (!s->trySetSetting(key, value))
      fail("<" + type + "> attribute " + key + "=\"" + value + "\" is not a setting of this sensor or is malformed");
  }
  s->attach(robot);
  set.sensors.push_back(s);
}

}  // namespace

std::shared_ptr<RobotSensorSet> parseRobotSensors(const Robot& robot, const std::string& xml) {
  // Read past nesting mistakes as Klamp't does (the loaders warned about them).
  tinyxml2::XMLDocument doc;
  const XmlParse parsed = parseXmlText(doc, xml, true);
  if (!parsed.ok) fail("invalid XML, line " + std::to_string(parsed.line) + ": " + parsed.error);
  const tinyxml2::XMLElement* root = doc.RootElement();
  if (!root || std::strcmp(root->Name(), "sensors") != 0) fail("the root element must be <sensors>");
  auto set = std::make_shared<RobotSensorSet>();
  for (const tinyxml2::XMLElement* e = root->FirstChildElement(); e; e = e->NextSiblingElement())
    readSensor(robot, e, *set);
  return set;
}

std::shared_ptr<RobotSensorSet> makeRobotSensors(const Robot& robot) {
  std::string text = robot.property("sensors");
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) {
    auto set = std::make_shared<RobotSensorSet>();
    set->add(robot, "q", "JointPositionSensor");
    set->add(robot, "dq", "JointVelocitySensor");
    return set;
  }
  if (text[first] != '<') {
    std::ifstream in(text);
    if (!in) fail("cannot read the sensor file " + text);
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  return parseRobotSensors(robot, text);
}

void simulateSensor(Sensor& sensor, const SensorInputs& inputs, double dt) {
  sensor.simulate(inputs);
  sensor.advance(dt);
}

void updateSensors(RobotSensorSet& set, const SensorInputs& inputs, double dt) {
  for (const auto& s : set.sensors) {
    if (!s->enabled) continue;
    double step = dt;
    if (s->rate > 0) {
      s->pendingTime += dt;
      if (s->pendingTime * s->rate < 1.0 - 1e-9) continue;
      if (std::isfinite(s->pendingTime)) step = s->pendingTime;
      s->pendingTime = 0;
    }
    simulateSensor(*s, inputs, step);
  }
}

bool readSensorOfType(const RobotSensorSet& set, const std::string& type, std::vector<double>& values) {
  for (const auto& s : set.sensors) {
    if (type != s->type()) continue;
    const auto* joint = dynamic_cast<const JointStateSensor*>(s.get());
    values = joint ? joint->fullMeasurements() : s->measurements();
    return true;
  }
  return false;
}

void resetSensors(RobotSensorSet& set) {
  for (const auto& s : set.sensors) {
    s->reset();
    s->pendingTime = INFINITY;
  }
}

namespace {

void writeVector(std::string& out, const std::vector<double>& v) {
  const std::uint64_t n = v.size();
  out.append(reinterpret_cast<const char*>(&n), sizeof n);
  if (n) out.append(reinterpret_cast<const char*>(v.data()), n * sizeof(double));
}

bool readVector(const std::string& in, size_t& at, std::vector<double>& v) {
  std::uint64_t n;
  if (at + sizeof n > in.size()) return false;
  std::memcpy(&n, in.data() + at, sizeof n);
  at += sizeof n;
  if (n > (in.size() - at) / sizeof(double)) return false;
  v.resize(n);
  if (n) std::memcpy(v.data(), in.data() + at, n * sizeof(double));
  at += n * sizeof(double);
  return true;
}

}  // namespace

std::string saveSensorState(const RobotSensorSet& set) {
  std::string out;
  for (const auto& s : set.sensors) {
    writeVector(out, s->measurements());
    writeVector(out, s->internalState());
    writeVector(out, {s->pendingTime});
  }
  return out;
}

bool restoreSensorState(RobotSensorSet& set, const std::string& data) {
  std::vector<std::vector<double>> parts(3 * set.sensors.size());
  size_t at = 0;
  for (auto& p : parts)
    if (!readVector(data, at, p)) return false;
  if (at != data.size()) return false;
  for (size_t i = 0; i < set.sensors.size(); ++i) {
    Sensor& s = *set.sensors[i];
    s.setMeasurements(parts[3 * i]);
    s.setInternalState(parts[3 * i + 1]);
    if (parts[3 * i + 2].size() == 1) s.pendingTime = parts[3 * i + 2][0];
  }
  return true;
}

RobotSensorSet& kinematicSensors(Robot& robot) {
  if (!robot.kinematicSensors.sensors) robot.kinematicSensors.sensors = makeRobotSensors(robot);
  return *robot.kinematicSensors.sensors;
}

}  // namespace klampt
