// SimRobotSensor, RobotModel.sensor/addSensor and the controller's sensor
// methods.
#include <optional>
#include <pybind11/stl.h>

#include "convert.h"
#include "handles.h"
#include "klampt/sim/robot_sensor_set.h"
#include "sim_handles.h"
#include "use_scope.h"

namespace klampt_py {

namespace {

using klampt::Sensor;

/// A sensor of a robot: kinematic (owned by the robot model) or simulated
/// (owned by a simulation, which `sim` keeps alive). A null sensor has no
/// `sensor`.
struct SimRobotSensor {
  RobotModel robot;
  std::shared_ptr<Sensor> sensor;
  std::shared_ptr<klampt::Simulation> sim;
  /// The robot's structure the sensor was set up for (its link, its
  /// measurement sizes).
  klampt::StructureStamp stamp = 0;

  /// The sensor, once no long call of another thread uses its robot (or
  /// simulation); RuntimeError for a null sensor, or if the robot's links or
  /// the simulated world changed since the sensor was obtained.
  Sensor& get() const {
    if (!sensor) throw std::runtime_error("SimRobotSensor: this is a null sensor (unknown name or index)");
    if (sim) live(*sim);
    if (robot.get().structureStamp != stamp)
      throw std::runtime_error("the robot's links changed (loadFile, reduce, mount or setParent) after this sensor "
                               "was obtained: get the sensor again");
    return *sensor;
  }
};

SimRobotSensor pick(const RobotModel& robot, klampt::RobotSensorSet& set, long index,
                    std::shared_ptr<klampt::Simulation> sim) {
  SimRobotSensor s{robot, nullptr, std::move(sim), robot.get().structureStamp};
  if (index >= 0 && index < (long)set.sensors.size()) s.sensor = set.sensors[index];
  return s;
}

/// The reference raises RuntimeError for an unknown type.
std::shared_ptr<Sensor> addTo(klampt::RobotSensorSet& set, const klampt::Robot& robot, const std::string& name,
                              const std::string& type) {
  try {
    return set.add(robot, name, type);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(e.what());
  }
}

int& linkOf(const SimRobotSensor& s) {
  int* link = s.get().mountLink();
  if (!link) throw std::runtime_error("Sensor doesn't have link attribute");
  return *link;
}

klampt::RigidTransform& transformOf(const SimRobotSensor& s) {
  klampt::RigidTransform* T = s.get().mountTransform();
  if (!T) throw std::runtime_error("Sensor doesn't have Tsensor attribute");
  return *T;
}

// Takes a reading without the GIL, holding the robot and the world it ray
// casts (with all its robots).
void kinematicSimulate(const SimRobotSensor& s, klampt::World* world, double dt) {
  s.get();
  klampt::Robot& robot = s.robot.get();
  klampt::World* target = world ? world : robot.world;
  std::vector<klampt::UseLock*> locks{&robot.useLock};
  if (target) {
    const std::vector<klampt::UseLock*> all = worldLocks(*target);
    locks.insert(locks.end(), all.begin(), all.end());
  }
  UseScope use(std::move(locks));
  Sensor& sensor = s.get();  // checked again once the locks are held: waiting for them let other threads run
  klampt::SensorInputs in;
  in.robot = &robot;
  in.world = world ? world : robot.world;
  py::gil_scoped_release release;
  klampt::simulateSensor(sensor, in, dt);
}

py::tuple names(const std::vector<std::string>& v) {
  py::tuple t(v.size());
  for (size_t i = 0; i < v.size(); ++i) t[i] = py::str(v[i]);
  return t;
}

/// The sensors of the controller's robot in its simulation.
klampt::RobotSensorSet& controllerSensors(const SimRobotControllerHandle& c) {
  if (c.sim) live(*c.sim);
  if (!c.sim || c.robotIndex < 0 || c.robotIndex >= (int)c.sim->robotSensors.size() ||
      !c.sim->robotSensors[c.robotIndex])
    throw std::runtime_error("SimRobotController: no sensors for this robot");
  return *c.sim->robotSensors[c.robotIndex];
}

RobotModel controllerRobot(const SimRobotControllerHandle& c) {
  return RobotModel{c.sim->world, live(*c.sim).world->robots.at(c.robotIndex)};
}

std::optional<RobotModelLink> sensorLink(const SimRobotSensor& s) {
  const int link = linkOf(s);
  if (link < 0) return std::nullopt;
  return RobotModelLink{s.robot, link};
}

void setSensorLinkIndex(const SimRobotSensor& s, long link) {
  int& l = linkOf(s);
  if (link != -1) checkIndex(link, s.robot.get().numLinks(), "link");
  l = (int)link;
}

void setSensorLink(const SimRobotSensor& s, const RobotModelLink& link) {
  if (link.robot.robot != s.robot.robot) throw std::invalid_argument("the link belongs to another robot");
  linkOf(s) = link.index;
}

KLAMPT_TYPE_HINT(LinkIndexOrNone, "RobotModelLink | typing.SupportsIndex | None");
KLAMPT_TYPE_HINT(SensorTuple, "tuple[SimRobotSensor, ...]");
KLAMPT_TYPE_HINT(SensorMapping, "typing.Mapping[str, SimRobotSensor]");

/// The link property's setter: a link, an index, or None / -1 for the world.
void assignSensorLink(const SimRobotSensor& s, TypedArg<LinkIndexOrNone> link) {
  if (link.is_none())
    setSensorLinkIndex(s, -1);
  else if (py::isinstance<RobotModelLink>(link))
    setSensorLink(s, link.cast<const RobotModelLink&>());
  else
    setSensorLinkIndex(s, toIndex(link, "link"));
}

py::str sensorName(const SimRobotSensor& s) { return nameToPython(s.sensor ? s.get().name : std::string()); }
std::string sensorType(const SimRobotSensor& s) { return s.sensor ? s.get().type() : ""; }
bool sensorEnabled(const SimRobotSensor& s) { return s.sensor ? s.get().enabled : false; }
void setSensorEnabled(const SimRobotSensor& s, bool enabled) { s.get().enabled = enabled; }

/// The sensors of a set as a tuple and as a read-only name -> sensor mapping.
TypedArg<SensorTuple> sensorTuple(const RobotModel& robot, klampt::RobotSensorSet& set,
                                  const std::shared_ptr<klampt::Simulation>& sim) {
  py::tuple t(set.sensors.size());
  for (size_t i = 0; i < set.sensors.size(); ++i) t[i] = py::cast(pick(robot, set, (long)i, sim));
  return TypedArg<SensorTuple>(std::move(t));
}

TypedArg<SensorMapping> sensorMapping(const RobotModel& robot, klampt::RobotSensorSet& set,
                         const std::shared_ptr<klampt::Simulation>& sim) {
  py::dict d;
  for (size_t i = 0; i < set.sensors.size(); ++i) d[nameToPython(set.sensors[i]->name)] = py::cast(pick(robot, set, (long)i, sim));
  return TypedArg<SensorMapping>(py::module_::import("types").attr("MappingProxyType")(d));
}

const char* const kSensorsDoc = "A tuple of all sensors of the robot (index order).";
const char* const kSensorsDictDoc =
    "A read-only mapping (types.MappingProxyType) from sensor names to sensors (a repeated name maps to its last "
    "sensor).";

}  // namespace

void bindRobotSensors(py::module_& m) {
  py::class_<SimRobotSensor> cls(m, "SimRobotSensor", R"doc(
A sensor on a simulated robot. Retrieve one from the controller using
SimRobotController.sensor(), or create one with SimRobotController.addSensor().
Kinematically simulated sensors come from RobotModel.sensor() and
RobotModel.addSensor().

Settings use the attribute names of the Klamp't sensor XML format (rate,
enabled, link, Tsensor ...). In kinematic mode (kinematicReset, then
kinematicSimulate), laser and camera sensors ray cast the world, excluding the
link they are mounted on; contact sensors read zeros and force/torque sensors
read the wrench holding the link's subtree against gravity. Camera colors are
the flat appearance color of the element hit (no lighting or textures).
)doc");
  addThisown(cls);
  cls.def("name", &sensorName,
          "Returns the name of the sensor (empty for a null sensor). A method, as in Klamp't 0.9; getName() is the "
          "0.10 spelling.");
  cls.def("type", &sensorType,
          "Returns the type of the sensor (empty for a null sensor). A method, as in Klamp't 0.9; getType() is the "
          "0.10 spelling.");
  cls.def("getName", &sensorName, "Returns the name of the sensor (empty for a null sensor).");
  cls.def("setName", [](const SimRobotSensor& s, const std::string& name) { s.get().name = name; }, py::arg("name"),
          "Sets the name of the sensor.");
  cls.def("getType", &sensorType, "Returns the type of the sensor (empty for a null sensor).");
  cls.def("robot", [](const SimRobotSensor& s) { return s.robot; },
          "Returns the model of the robot to which this belongs.");
  cls.def_property_readonly("robotModel", [](const SimRobotSensor& s) { return s.robot; },
          "The model of the robot the sensor belongs to (as robot()).");
  cls.def_property_readonly("sensor", [](const SimRobotSensor& s) -> std::optional<py::capsule> {
    if (!s.sensor) return std::nullopt;
    return py::capsule(&s.get(), "Klampt::SensorBase");
  },
          "An opaque capsule of the native sensor, or None (for the reference's C++ interoperability).");
  cls.def("measurementNames",
          [](const SimRobotSensor& s) { return names(s.sensor ? s.get().measurementNames() : std::vector<std::string>()); },
          "Returns a list of names for the measurements (one per measurement).");
  cls.def("getMeasurements",
          [](const SimRobotSensor& s) {
            const std::vector<double> v = s.sensor ? s.get().measurements() : std::vector<double>();
            py::array_t<double> a = newArray({(py::ssize_t)v.size()});
            std::copy(v.begin(), v.end(), a.mutable_data());
            return a;
          },
          "Returns an array of measurements from the previous simulation (or kinematicSimulate) timestep.");
  cls.def("settings",
          [](const SimRobotSensor& s) { return names(s.sensor ? s.get().settingNames() : std::vector<std::string>()); },
          "Returns all setting names.");
  cls.def("getSetting",
          [](const SimRobotSensor& s, const std::string& name) { return s.get().getSetting(name); },
          py::arg("name"), "Returns the value of the named setting (you will need to manually parse this).");
  cls.def("setSetting",
          [](const SimRobotSensor& s, const std::string& name, const std::string& value) {
            s.get().setSetting(name, value);
          },
          py::arg("name"), py::arg("val"),
          "Sets the value of the named setting (you will need to manually cast an int/float/etc to a str).");
  cls.def("getEnabled", &sensorEnabled, "Return whether the sensor is enabled during simulation.");
  cls.def("setEnabled", &setSensorEnabled, py::arg("enabled"), "Sets whether the sensor is enabled.");
  cls.def_property("enabled", &sensorEnabled, &setSensorEnabled,
                   "Whether the sensor is enabled during simulation (as getEnabled() / setEnabled()).");
  cls.def("getLink", &sensorLink,
          "Returns the link on which the sensor is mounted, None if it is fixed in the world (link -1).");
  cls.def("setLink", &setSensorLinkIndex, py::arg("link"), "Sets the link on which the sensor is mounted (-1 for the world).");
  cls.def("setLink", &setSensorLink, py::arg("link"));
  cls.def("setLink", [](const SimRobotSensor& s, std::nullptr_t) { setSensorLinkIndex(s, -1); }, py::arg("link"));
  cls.def_property("link", &sensorLink, &assignSensorLink,
                   "The link on which the sensor is mounted, None if fixed in the world; assign a link, a link "
                   "index, or None / -1.");
  cls.def("getTransform", [](const SimRobotSensor& s) { return transformToTuple(transformOf(s)); },
          "Returns the local transform of the sensor on the robot's link.");
  cls.def("getTransformWorld",
          [](const SimRobotSensor& s) {
            const klampt::RigidTransform T = transformOf(s);
            const int link = linkOf(s);
            const klampt::Robot& robot = s.robot.get();
            if (link >= 0 && link < robot.numLinks()) return transformToTuple(robot.linkTransforms[link] * T);
            return transformToTuple(T);
          },
          "Returns the world transform of the sensor given the robot's current configuration.");
  cls.def("setTransform",
          [](const SimRobotSensor& s, FloatsArg R, FloatsArg t) {
            const klampt::RigidTransform T = toTransform(R, t);
            transformOf(s) = T;
          },
          py::arg("R"), py::arg("t"), "Sets the local transform of the sensor on the robot's link.");
  cls.def("kinematicSimulate",
          [](const SimRobotSensor& s, const WorldModel& world, double dt) { kinematicSimulate(s, &world.get(), dt); },
          py::arg("world"), py::arg("dt"),
          "Takes a reading from the robot's current configuration and velocity, ray casting `world`, then "
          "advances the sensor's clock by dt.");
  cls.def("kinematicSimulate", [](const SimRobotSensor& s, double dt) { kinematicSimulate(s, nullptr, dt); },
          py::arg("dt"), "The same, ray casting the robot's own world.");
  cls.def("kinematicReset", [](const SimRobotSensor& s) { s.get().reset(); },
          "Resets a kinematic simulation so that a new initial condition can be set.");

  m.attr("SensorModel") = cls;

  auto robotCls = py::reinterpret_borrow<py::class_<RobotModel>>(py::type::of<RobotModel>());
  robotCls.def("numSensors", [](const RobotModel& r) { return (int)klampt::kinematicSensors(r.get()).sensors.size(); },
               "Returns the number of sensors of the robot.");
  auto robotSensors = [](const RobotModel& r) { return sensorTuple(r, klampt::kinematicSensors(r.get()), nullptr); };
  auto robotSensorsDict = [](const RobotModel& r) { return sensorMapping(r, klampt::kinematicSensors(r.get()), nullptr); };
  robotCls.def("getSensors", robotSensors, kSensorsDoc);
  robotCls.def("getSensorsDict", robotSensorsDict, kSensorsDictDoc);
  robotCls.def_property_readonly("sensors", robotSensors, kSensorsDoc);
  robotCls.def_property_readonly("sensorsDict", robotSensorsDict, kSensorsDictDoc);
  robotCls.def("sensor",
               [](const RobotModel& r, long index) {
                 return pick(r, klampt::kinematicSensors(r.get()), index, nullptr);
               },
               py::arg("index"),
               "Returns a sensor by index or by name. If out of bounds or unavailable, a null sensor is returned "
               "(its name() and type() are empty).");
  robotCls.def("sensor",
               [](const RobotModel& r, const std::string& name) {
                 klampt::RobotSensorSet& set = klampt::kinematicSensors(r.get());
                 return pick(r, set, set.find(name), nullptr);
               },
               py::arg("name"));
  robotCls.def("addSensor",
               [](const RobotModel& r, const std::string& name, const std::string& type) {
                 klampt::Robot& robot = r.get();
                 return SimRobotSensor{r, addTo(klampt::kinematicSensors(robot), robot, name, type), nullptr,
                                       robot.structureStamp};
               },
               py::arg("name"), py::arg("type"), "Adds a new sensor with a given name and type.");
}

void bindSensors(py::module_&, py::class_<SimRobotControllerHandle>& controllerCls) {
  controllerCls.def("sensor",
                    [](const SimRobotControllerHandle& c, long index) {
                      klampt::RobotSensorSet& set = controllerSensors(c);
                      return pick(controllerRobot(c), set, index, c.sim);
                    },
                    py::arg("index"),
                    "Returns a sensor by index or by name. If out of bounds or unavailable, a null sensor is "
                    "returned (its name() and type() are empty).");
  controllerCls.def("sensor",
                    [](const SimRobotControllerHandle& c, const std::string& name) {
                      klampt::RobotSensorSet& set = controllerSensors(c);
                      return pick(controllerRobot(c), set, set.find(name), c.sim);
                    },
                    py::arg("name"));
  controllerCls.def("numSensors", [](const SimRobotControllerHandle& c) { return (int)controllerSensors(c).sensors.size(); },
                    "Returns the number of sensors of the simulated robot.");
  auto simSensors = [](const SimRobotControllerHandle& c) {
    klampt::RobotSensorSet& set = controllerSensors(c);
    return sensorTuple(controllerRobot(c), set, c.sim);
  };
  auto simSensorsDict = [](const SimRobotControllerHandle& c) {
    klampt::RobotSensorSet& set = controllerSensors(c);
    return sensorMapping(controllerRobot(c), set, c.sim);
  };
  controllerCls.def("getSensors", simSensors, kSensorsDoc);
  controllerCls.def("getSensorsDict", simSensorsDict, kSensorsDictDoc);
  controllerCls.def_property_readonly("sensors", simSensors, kSensorsDoc);
  controllerCls.def_property_readonly("sensorsDict", simSensorsDict, kSensorsDictDoc);
  controllerCls.def("addSensor",
                    [](const SimRobotControllerHandle& c, const std::string& name, const std::string& type) {
                      klampt::RobotSensorSet& set = controllerSensors(c);
                      RobotModel robot = controllerRobot(c);
                      return SimRobotSensor{robot, addTo(set, robot.get(), name, type), c.sim,
                                            robot.get().structureStamp};
                    },
                    py::arg("name"), py::arg("type"), "Adds a new sensor with a given name and type.");
}

}  // namespace klampt_py
