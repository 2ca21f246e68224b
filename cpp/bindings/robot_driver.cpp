// RobotModelDriver: an actuator of a robot and the links it moves.
#include <pybind11/stl.h>

#include "convert.h"
#include "handles.h"

namespace klampt_py {

using klampt::Driver;

namespace {

void setValue(RobotModelDriver& s, double v) {
  toFinite(v, "value");
  s.driver();
  klampt::Robot& r = s.r();
  r.setDriverValue(s.index, v, r.q);
  r.updateFrames();
}

void setVelocity(RobotModelDriver& s, double v) {
  toFinite(v, "velocity");
  s.driver();
  klampt::Robot& r = s.r();
  r.setDriverVelocity(s.index, v, r.dq);
}

}  // namespace

py::class_<RobotModelDriver> declareRobotDriver(py::module_& m) {
  return py::class_<RobotModelDriver>(m, "RobotModelDriver", "A reference to a driver of a RobotModel.");
}

void bindRobotDriver(py::class_<RobotModelDriver>& cls) {
  addThisown(cls);
  cls.def(py::init<>())
      .def("robot", [](const RobotModelDriver& s) { return s.robot; },
           "Returns the RobotModel this driver belongs to.")
      .def("getName", [](const RobotModelDriver& s) { return nameToPython(s.driver().name); },
           "Returns the name of the driver.")
      .def("setName", [](RobotModelDriver& s, const std::string& n) { s.driver().name = n; }, py::arg("name"),
           "Sets the name of the driver.")
      .def("getType", [](const RobotModelDriver& s) { return std::string(klampt::driverTypeName(s.driver().type)); },
           "One of 'normal', 'affine', 'translation', 'rotation'.")
      .def("getAffectedLink", [](const RobotModelDriver& s) { return s.driver().linkIndices.at(0); },
           "Returns the index of the (first) link the driver moves.")
      .def("getAffectedLinks", [](const RobotModelDriver& s) { return s.driver().linkIndices; },
           "Returns the indices of the links the driver moves.")
      .def("getAffineCoeffs",
           [](const RobotModelDriver& s) {
             const Driver& d = s.driver();
             return py::make_tuple(d.affScaling, d.affOffset);
           },
           "(scale, offset) lists of an affine driver; empty lists for other drivers.")
      .def("getLimits", [](const RobotModelDriver& s) { return py::make_tuple(s.driver().qmin, s.driver().qmax); },
           "Returns the driver's value limits (qmin, qmax) (radians or metres).")
      .def("getVelocityLimits", [](const RobotModelDriver& s) { return py::make_tuple(s.driver().vmin, s.driver().vmax); },
           "Returns the driver's velocity limits (vmin, vmax).")
      .def("getAccelerationLimits",
           [](const RobotModelDriver& s) { return py::make_tuple(s.driver().amin, s.driver().amax); },
           "Returns the driver's acceleration limits (amin, amax).")
      .def("getTorqueLimits", [](const RobotModelDriver& s) { return py::make_tuple(s.driver().tmin, s.driver().tmax); },
           "Returns the driver's torque (or force) limits (tmin, tmax).")
      .def("getValue", [](const RobotModelDriver& s) { return s.r().driverValue(s.index, s.r().q); },
           "The driver's value at the robot's current configuration.")
      .def("setValue",
           [](RobotModelDriver& s, double v) { setValue(s, v); },
           py::arg("val"), "Sets the affected links of the robot's current configuration and updates its frames.")
      .def("getVelocity", [](const RobotModelDriver& s) { return s.r().driverVelocity(s.index, s.r().dq); },
           "Returns the driver's velocity, computed from the robot's current velocity.")
      .def("setVelocity",
           [](RobotModelDriver& s, double v) { setVelocity(s, v); },
           py::arg("val"),
           "Sets the driver's velocity to val, changing the robot's current velocity of the links it moves.")
      .def_property_readonly("world", [](const RobotModelDriver& s) { return s.robot.world ? worldNumber(s.robot.world.get()) : -1; },
          "Index of the robot's world, or -1.")
      .def_property_readonly("robotIndex", [](const RobotModelDriver& s) { return s.robot.index(); },
          "Index of the driver's robot within its world.")
      .def_property_readonly("robotPtr", [](const RobotModelDriver& s) { return (std::uintptr_t)s.robot.robot.get(); },
                             "Opaque address of the underlying C++ robot.")
      .def_property_readonly("index", [](const RobotModelDriver& s) { return s.index; },
          "Index of the driver within its robot.")
      .def_property("name", [](const RobotModelDriver& s) { return nameToPython(s.driver().name); },
                    [](RobotModelDriver& s, const std::string& n) { s.driver().name = n; },
          "The driver's name.")
      .def_property_readonly("type", [](const RobotModelDriver& s) { return std::string(klampt::driverTypeName(s.driver().type)); },
          "The driver's type: 'normal', 'affine', 'translation' or 'rotation'.")
      .def_property_readonly("affectedLink", [](const RobotModelDriver& s) { return s.driver().linkIndices.at(0); },
          "Index of the (first) link the driver moves.")
      .def_property_readonly("affectedLinks", [](const RobotModelDriver& s) { return s.driver().linkIndices; },
          "Indices of the links the driver moves.")
      .def_property("value", [](const RobotModelDriver& s) { return s.r().driverValue(s.index, s.r().q); },
                    [](RobotModelDriver& s, double v) { setValue(s, v); },
          "The driver's value at the robot's current configuration (rad or m); assigning sets the configuration.")
      .def_property("velocity", [](const RobotModelDriver& s) { return s.r().driverVelocity(s.index, s.r().dq); },
                    [](RobotModelDriver& s, double v) { setVelocity(s, v); },
          "The driver's velocity at the robot's current velocity (rad/s or m/s); assigning sets the velocity.")
      .def("__repr__", [](const RobotModelDriver& s) {
        if (!s.robot.robot || s.index < 0) return nameToPython("<RobotModelDriver (empty)>");
        return nameToPython("<RobotModelDriver " + std::to_string(s.index) + " of robot '" + s.robot.robot->name + "'>");
      });
}

}  // namespace klampt_py
