// SimRobotController: the simulated robot's controller (motion queue, PID,
// torque commands, settings).
#include <pybind11/stl.h>

#include "convert.h"
#include "sim_bindings.h"

namespace klampt_py {

using klampt::RobotController;

namespace {

// Every method converts its arguments first (which may run Python code), then
// looks up the controller and robot: live() then checks that the world still
// has the structure the simulation was built for, so sizes still agree.
RobotController& ctrl(const SimRobotControllerHandle& h) {
  checkRobotIndex(live(*h.sim), h.robotIndex);
  return h.sim->controllers[h.robotIndex];
}
klampt::Robot& robotOf(const SimRobotControllerHandle& h) {
  checkRobotIndex(live(*h.sim), h.robotIndex);
  return *h.sim->world->robots[h.robotIndex];
}
int links(const SimRobotControllerHandle& h) { return robotOf(h).numLinks(); }
int drivers(const SimRobotControllerHandle& h) { return (int)robotOf(h).drivers.size(); }

double positiveDuration(double dt) {
  return toPositive(dt, "dt");
}

/// Motion-queue segments may last 0 s (a jump to the target), as in the
/// reference; negative or non-finite durations are errors.
double segmentDuration(double dt) {
  return toNonNegative(dt, "dt");
}

const klampt::RobotSensorSet& sensorsOf(const SimRobotControllerHandle& h) {
  checkRobotIndex(live(*h.sim), h.robotIndex);
  return *h.sim->robotSensors[h.robotIndex];
}

/// The reading of the robot's sensor of `type`, or the actual state when it has none.
std::vector<double> sensedOrActual(const SimRobotControllerHandle& h, const char* type, bool velocity) {
  std::vector<double> v;
  if (klampt::readSensorOfType(sensorsOf(h), type, v)) return v;
  VectorX q, dq;
  live(*h.sim).actualState(h.robotIndex, q, dq);
  const VectorX& x = velocity ? dq : q;
  return std::vector<double>(x.data(), x.data() + x.size());
}

double controlPeriod(const SimRobotControllerHandle& h) { return ctrl(h).rate; }

void setControlPeriod(SimRobotControllerHandle& h, double dt) {
  const double rate = positiveDuration(dt);
  ctrl(h).rate = rate;
}

}  // namespace

py::class_<SimRobotControllerHandle> bindSimRobotController(py::module_& m) {
  py::class_<SimRobotControllerHandle> cls(m, "SimRobotController", "A controller for a simulated robot.");
  addThisown(cls);
  cls.def("model", [](const SimRobotControllerHandle& h) {
       robotOf(h);
       return RobotModel{h.sim->world, h.sim->world->robots[h.robotIndex]};
     },
           "Returns the RobotModel this controller drives.")
      .def("setRate", &setControlPeriod, py::arg("dt"),
           "Sets the control period dt (seconds, > 0): the controller updates its commands every dt of simulated "
           "time.")
      .def("getRate", &controlPeriod,
           "Returns the control period in seconds (see setRate).")
      .def_property("rate", &controlPeriod, &setControlPeriod,
                    "The controller's update period in seconds (as getRate() / setRate(); Klamp't 0.10 calls it a "
                    "rate).")
      .def("getCommandedConfig", [](const SimRobotControllerHandle& h) { return toList(ctrl(h).qCommand); },
           "Returns the configuration the controller currently commands (one entry per link).")
      .def("getCommandedVelocity", [](const SimRobotControllerHandle& h) { return toList(ctrl(h).dqCommand); },
           "Returns the velocity the controller currently commands (one entry per link).")
      .def("getCommandedTorque", [](const SimRobotControllerHandle& h) { return toList(ctrl(h).torqueCommand); },
           "Returns the torques the controller currently commands (one entry per driver).")
      .def("getSensedConfig",
           [](const SimRobotControllerHandle& h) { return sensedOrActual(h, "JointPositionSensor", false); },
           "Returns the configuration read by the robot's joint position sensor, or the actual simulated "
           "configuration if it has none (one entry per link).")
      .def("getSensedVelocity",
           [](const SimRobotControllerHandle& h) { return sensedOrActual(h, "JointVelocitySensor", true); },
           "Returns the velocity read by the robot's joint velocity sensor, or the actual simulated velocity if "
           "it has none (one entry per link).")
      .def("getSensedTorque",
           [](const SimRobotControllerHandle& h) {
             std::vector<double> t;
             if (!klampt::readSensorOfType(sensorsOf(h), "DriverTorqueSensor", t))
               throw std::runtime_error("Robot has no torque sensor");
             return t;
           },
           "Returns the torques read by the robot's driver torque sensor (one entry per driver); RuntimeError if "
           "the robot has no torque sensor.")
      .def("commands", [](const SimRobotControllerHandle&) { return RobotController::commandNames(); },
           "Returns the names of the commands sendCommand accepts.")
      .def("sendCommand",
           [](SimRobotControllerHandle& h, const std::string& name, const std::string& args) {
             return ctrl(h).sendCommand(robotOf(h), name, args);
           },
           py::arg("name"), py::arg("args"),
           "Sends the named command (see commands()) with its arguments as a string of numbers; returns True if "
           "it was accepted, False otherwise.")
      .def("settings", [](const SimRobotControllerHandle&) { return RobotController::settingNames(); },
           "Returns the names of the controller's settings (see getSetting / setSetting).")
      .def("getSetting", [](const SimRobotControllerHandle& h, const std::string& n) { return ctrl(h).getSetting(n); },
           py::arg("name"),
           "Returns the value of the named setting as a string ('' for an unknown name).")
      .def("setSetting",
           [](SimRobotControllerHandle& h, const std::string& n, const std::string& v) { return ctrl(h).setSetting(n, v); },
           py::arg("name"), py::arg("val"),
           "Sets the named setting to the string val; returns True if it was accepted, False otherwise.")
      .def("setMilestone",
           [](SimRobotControllerHandle& h, FloatsArg q) {
             const VectorX qv = toVector(q, links(h), "q");
             ctrl(h).setMilestone(robotOf(h), qv, nullptr, false);
           },
           py::arg("q"),
           "Moves to configuration q along the time-optimal ramp within the robot's velocity and acceleration "
           "limits, from the current commanded state, ending at rest. Targets outside the joint limits stop just "
           "inside them.")
      .def("setMilestone",
           [](SimRobotControllerHandle& h, FloatsArg q, FloatsArg dq) {
             const VectorX qv = toVector(q, links(h), "q"), v = toVector(dq, links(h), "dq");
             ctrl(h).setMilestone(robotOf(h), qv, &v, false);
           },
           py::arg("q"), py::arg("dq"),
           "As setMilestone(q), arriving with velocity dq.")
      .def("addMilestone",
           [](SimRobotControllerHandle& h, FloatsArg q) {
             const VectorX qv = toVector(q, links(h), "q");
             ctrl(h).setMilestone(robotOf(h), qv, nullptr, true);
           },
           py::arg("q"),
           "As setMilestone(q), but appended to the motion queue: the move starts from the queued end state.")
      .def("addMilestone",
           [](SimRobotControllerHandle& h, FloatsArg q, FloatsArg dq) {
             const VectorX qv = toVector(q, links(h), "q"), v = toVector(dq, links(h), "dq");
             ctrl(h).setMilestone(robotOf(h), qv, &v, true);
           },
           py::arg("q"), py::arg("dq"),
           "As addMilestone(q), arriving with velocity dq.")
      .def("addMilestoneLinear",
           [](SimRobotControllerHandle& h, FloatsArg q) {
             const VectorX qv = toVector(q, links(h), "q");
             ctrl(h).setMilestone(robotOf(h), qv, nullptr, true, true);
           },
           py::arg("q"),
           "Appends a rest-to-rest move to q along the straight joint-space line from the queued end state, as "
           "fast as the limits allow.")
      .def("setLinear",
           [](SimRobotControllerHandle& h, FloatsArg q, double dt) {
             const VectorX qv = toVector(q, links(h), "q");
             ctrl(h).setLinear(qv, segmentDuration(dt), false);
           },
           py::arg("q"), py::arg("dt"),
           "Moves linearly from the current commanded configuration to q in dt seconds (the limits are not "
           "checked).")
      .def("addLinear",
           [](SimRobotControllerHandle& h, FloatsArg q, double dt) {
             const VectorX qv = toVector(q, links(h), "q");
             ctrl(h).setLinear(qv, segmentDuration(dt), true);
           },
           py::arg("q"), py::arg("dt"),
           "As setLinear, appended to the motion queue.")
      .def("setCubic",
           [](SimRobotControllerHandle& h, FloatsArg q, FloatsArg v, double dt) {
             const VectorX qv = toVector(q, links(h), "q"), vv = toVector(v, links(h), "v");
             ctrl(h).setCubic(qv, vv, segmentDuration(dt), false);
           },
           py::arg("q"), py::arg("v"), py::arg("dt"),
           "Replaces the motion queue by a cubic move ending at configuration q with velocity v (one entry per "
           "link) after dt seconds (>= 0).")
      .def("addCubic",
           [](SimRobotControllerHandle& h, FloatsArg q, FloatsArg v, double dt) {
             const VectorX qv = toVector(q, links(h), "q"), vv = toVector(v, links(h), "v");
             ctrl(h).setCubic(qv, vv, segmentDuration(dt), true);
           },
           py::arg("q"), py::arg("v"), py::arg("dt"),
           "Appends to the motion queue a cubic move ending at configuration q with velocity v (one entry per "
           "link) after dt seconds (>= 0).")
      .def("remainingTime", [](const SimRobotControllerHandle& h) { return ctrl(h).remainingTime(); },
           "Time left in the motion queue (0 when it is done or in PID/torque mode). The queue runs one control "
           "period ahead of the simulation: the command is where the motion should be at the end of the current "
           "period.")
      .def("setVelocity",
           [](SimRobotControllerHandle& h, FloatsArg dq, double dt) {
             const VectorX v = toVector(dq, links(h), "dq");
             ctrl(h).setVelocity(v, positiveDuration(dt));
           },
           py::arg("dq"), py::arg("dt"),
           "Replaces the motion queue by a move at velocity dq (one entry per link, rad/s or m/s) for dt seconds "
           "(> 0), after which the robot stops.")
      .def("setTorque",
           [](SimRobotControllerHandle& h, FloatsArg t) {
             const VectorX tv = toVector(t, -1, "t");
             ctrl(h).setTorque(robotOf(h), tv);
           },
           py::arg("t"),
           "Torque control; t has numDrivers() or numLinks() entries. Non-finite torques are not applied and the "
           "simulator status becomes STATUS_ERROR.")
      .def("setPIDCommand",
           [](SimRobotControllerHandle& h, FloatsArg q, FloatsArg dq) {
             const VectorX qv = toVector(q, -1, "qdes"), v = toVector(dq, -1, "dqdes");
             ctrl(h).setPID(robotOf(h), qv, v, nullptr);
           },
           py::arg("qdes"), py::arg("dqdes"),
           "PID control toward qdes, dqdes: both with numDrivers() entries (driver values, as the reference's control "
           "interfaces send them) or both with numLinks() entries (a configuration, read through the drivers; when "
           "the two sizes are equal, driver values). Raises ValueError, changing nothing, for other sizes or "
           "non-finite values.")
      .def("setPIDCommand",
           [](SimRobotControllerHandle& h, FloatsArg q, FloatsArg dq, FloatsArg t) {
             const VectorX qv = toVector(q, -1, "qdes"), v = toVector(dq, -1, "dqdes");
             const VectorX tff = toVector(t, -1, "tfeedforward");
             ctrl(h).setPID(robotOf(h), qv, v, &tff);
           },
           py::arg("qdes"), py::arg("dqdes"), py::arg("tfeedforward"),
           "As setPIDCommand(qdes, dqdes), plus a feedforward torque per driver (or per link: that of each driver's "
           "first link).")
      .def("setManualMode", [](SimRobotControllerHandle& h, bool e) { ctrl(h).setManualMode(e); },
           py::arg("enabled"),
           "Turns manual (direct PID) mode on or off; turning it off returns to the motion queue, starting from "
           "the last commanded configuration.")
      .def("getControlType", [](const SimRobotControllerHandle& h) { return ctrl(h).controlType(); },
           "Returns the current control type: 'torque' or 'PID'.")
      .def("setPIDGains",
           [](SimRobotControllerHandle& h, FloatsArg kP, FloatsArg kI, FloatsArg kD) {
             const int nd = drivers(h);
             VectorX p = toVector(kP, nd, "kP"), i = toVector(kI, nd, "kI"), d = toVector(kD, nd, "kD");
             RobotController& c = ctrl(h);
             c.kP = p;
             c.kI = i;
             c.kD = d;
           },
           py::arg("kP"), py::arg("kI"), py::arg("kD"),
           "Sets the PID gains kP, kI and kD (one entry per driver each).")
      .def("getPIDGains",
           [](const SimRobotControllerHandle& h) {
             const RobotController& c = ctrl(h);
             return py::make_tuple(toList(c.kP), toList(c.kI), toList(c.kD));
           },
           "Returns the PID gains (kP, kI, kD), each a list with one entry per driver.")
      .def_property_readonly("index", [](const SimRobotControllerHandle& h) { return h.robotIndex; },
          "Index of the controlled robot in the simulated world.")
      .def_property_readonly("sim", [](const SimRobotControllerHandle& h) { return h.sim; },
          "The simulator the controller belongs to.")
      .def_property_readonly("controller",
                             [](SimRobotControllerHandle& self) -> SimRobotControllerHandle& { return self; },
                             py::return_value_policy::reference,
                             "The controller itself (the reference exposes its C++ object here).");
  return cls;
}

}  // namespace klampt_py
