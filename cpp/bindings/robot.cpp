// RobotModel: configuration, limits, drivers, kinematics and structural edits.
#include <pybind11/stl.h>

#include "convert.h"
#include "fast_call.h"
#include "handles.h"
#include "klampt/io/robot_files.h"
#include "klampt/model/config_space.h"
#include "klampt/model/kinematics.h"
#include "klampt/model/robot_edit.h"
#include "scratch.h"

namespace klampt_py {

using klampt::Robot;

namespace {

// Reads a configuration-sized vector of finite values into the robot's
// `target`, which is left unchanged if the value is malformed. Converting an
// element may run Python code that edits the robot, so the robot is looked up
// again, and the size checked again, once the value is read.
Robot& readJointVector(const RobotModel& s, py::handle obj, const char* name, VectorX Robot::*target) {
  Scratch<VectorX> value;
  readVector(obj, s.get().numLinks(), name, *value);
  Robot& r = s.get();
  checkSize(value->size(), r.numLinks(), name);
  if (!value->allFinite()) throw py::value_error(std::string(name) + " contains NaN or infinity");
  r.*target = *value;
  return r;
}

void setConfig(RobotModel& s, py::handle q) {
  readJointVector(s, q, "q", &Robot::q).updateFrames();
  s.dirtyDynamics = true;
}

void setVelocity(RobotModel& s, py::handle dq) {
  readJointVector(s, dq, "dq", &Robot::dq);
  s.dirtyDynamics = true;
}

int linkArg(const Robot& r, py::handle arg) {
  if (py::isinstance<py::str>(arg)) {
    std::string name = arg.cast<std::string>();
    int i = r.linkIndex(name);
    if (i < 0) throw py::key_error("no link named '" + name + "' in robot '" + r.name + "'");
    return i;
  }
  long i = arg.cast<long>();
  checkIndex(i, r.numLinks(), "link");
  return (int)i;
}

int driverArg(const Robot& r, py::handle arg) {
  if (py::isinstance<py::str>(arg)) {
    std::string name = arg.cast<std::string>();
    int i = r.driverIndex(name);
    if (i < 0) throw py::key_error("no driver named '" + name + "' in robot '" + r.name + "'");
    return i;
  }
  long i = arg.cast<long>();
  checkIndex(i, (long)r.drivers.size(), "driver");
  return (int)i;
}

py::array_t<double> comJacobianArray(const Robot& r) {
  auto J = newArray({3, r.numLinks()});
  klampt::comJacobian(r, klampt::RowMatrixMap(J.mutable_data(), 3, r.numLinks()));
  return J;
}

void setLimits(Robot& r, VectorX& lo, VectorX& hi, py::handle qmin, py::handle qmax, const char* a, const char* b) {
  readVector(qmin, r.numLinks(), a, lo);
  readVector(qmax, r.numLinks(), b, hi);
}

void refreshDriverLimits(Robot& r) {
  for (int d = 0; d < (int)r.drivers.size(); ++d)
    if (r.drivers[d].type != klampt::DriverType::Affine) r.setDriverLimitsFromLinks(d);
}

// The per-call hot paths, as fast methods (fast_call.h).

py::object getConfig(RobotModel& s) { return toList(s.get().q); }
py::object getVelocity(RobotModel& s) { return toList(s.get().dq); }

py::object setConfigMethod(RobotModel& s, const FastArgs& a) {
  auto [q] = a.get("setConfig", {"q"});
  setConfig(s, q);
  return py::none();
}

py::object setVelocityMethod(RobotModel& s, const FastArgs& a) {
  auto [dq] = a.get("setVelocity", {"dq"});
  setVelocity(s, dq);
  return py::none();
}

py::object getCom(RobotModel& s) { return toList(klampt::centerOfMass(s.get())); }

PyMethodDef robotFastMethods[] = {
    fastDef<RobotModel, getConfig>("getConfig", "getConfig($self)\n--\n\nThe configuration (list of n floats)."),
    fastDef<RobotModel, getVelocity>("getVelocity",
                                     "getVelocity($self)\n--\n\nThe joint velocities (list of n floats)."),
    fastDef<RobotModel, setConfigMethod>(
        "setConfig",
        "setConfig($self, q)\n--\n\nSets the configuration and updates the link transforms. Raises ValueError "
        "if q has the wrong size or contains NaN or infinity (the configuration is then unchanged)."),
    fastDef<RobotModel, setVelocityMethod>(
        "setVelocity",
        "setVelocity($self, dq)\n--\n\nSets the joint velocities. Raises ValueError if dq has the wrong size or "
        "contains NaN or infinity (the velocity is then unchanged)."),
    fastDef<RobotModel, getCom>("getCom", "getCom($self)\n--\n\nThe center of mass in world coordinates."),
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

void bindRobot(py::module_& m) {
  py::class_<RobotModel> cls(m, "RobotModel", "A model of a dynamic and kinematic robot.");
  addThisown(cls);
  cls.def(py::init([]() {
        RobotModel h;
        h.robot = std::make_shared<Robot>();
        return h;
      }))
      .def("loadFile",
           [](RobotModel& self, const std::string& fn) {
             klampt::LoadContext ctx;
             std::shared_ptr<Robot> loaded;
             try {
               py::gil_scoped_release release;
               loaded = klampt::loadRobotFile(fn, ctx);
             } catch (const std::exception& e) {
               emitWarnings(ctx.warnings);
               logError(e.what());
               return false;
             }
             emitWarnings(ctx.warnings);
             Robot& r = self.get();
             klampt::World* w = r.world;
             r = *loaded;
             r.world = w;
             return true;
           },
           py::arg("fn"), "Loads the robot from the file fn (.rob or .urdf). Returns False on failure.")
      .def("saveFile",
           [](RobotModel& self, const std::string& fn, py::object geometryPrefix) {
             try {
               klampt::saveRob(self.get(), fn, geometryPrefix.is_none() ? "" : geometryPrefix.cast<std::string>());
             } catch (const klampt::LoadError& e) {
               logError(e.what());
               return false;
             }
             return true;
           },
           py::arg("fn"), py::arg("geometryPrefix") = py::none(), "Saves the robot to a .rob file.")
      .def("getID", &RobotModel::id, "Returns the ID of the robot in its world.")
      .def("getName", [](const RobotModel& s) { return nameToPython(s.get().name); })
      .def("setName", [](RobotModel& s, const std::string& n) { s.get().name = n; }, py::arg("name"))
      .def("numLinks", [](const RobotModel& s) { return s.get().numLinks(); })
      .def("link",
           [](const RobotModel& s, py::object arg) { return RobotModelLink{s, linkArg(s.get(), arg)}; },
           py::arg("index"), "Returns a reference to the link by index or name.")
      .def("numDrivers", [](const RobotModel& s) { return (int)s.get().drivers.size(); })
      .def("driver",
           [](const RobotModel& s, py::object arg) { return RobotModelDriver{s, driverArg(s.get(), arg)}; },
           py::arg("index"), "Returns a reference to the driver by index or name.")
      .def("getJointType",
           [](const RobotModel& s, py::object arg) {
             const Robot& r = s.get();
             int j = r.jointOfLink(linkArg(r, arg));
             return std::string(j < 0 ? "normal" : klampt::jointTypeName(r.joints[j].type));
           },
           py::arg("index"))
      .def("getJointLimits", [](const RobotModel& s) { return py::make_tuple(toList(s.get().qMin), toList(s.get().qMax)); })
      .def("setJointLimits",
           [](RobotModel& s, py::handle a, py::handle b) {
             Robot& r = s.get();
             setLimits(r, r.qMin, r.qMax, a, b, "qmin", "qmax");
             refreshDriverLimits(r);
           },
           py::arg("qmin"), py::arg("qmax"))
      .def("getVelocityLimits", [](const RobotModel& s) { return toList(s.get().velMax); })
      .def("setVelocityLimits",
           [](RobotModel& s, py::handle v) {
             Robot& r = s.get();
             readVector(v, r.numLinks(), "vmax", r.velMax);
             r.velMin = -r.velMax;
             refreshDriverLimits(r);
           },
           py::arg("vmax"))
      .def("getAccelerationLimits", [](const RobotModel& s) { return toList(s.get().accMax); })
      .def("setAccelerationLimits",
           [](RobotModel& s, py::handle v) {
             Robot& r = s.get();
             readVector(v, r.numLinks(), "amax", r.accMax);
             refreshDriverLimits(r);
           },
           py::arg("amax"))
      .def("getTorqueLimits", [](const RobotModel& s) { return toList(s.get().torqueMax); })
      .def("setTorqueLimits",
           [](RobotModel& s, py::handle v) {
             Robot& r = s.get();
             readVector(v, r.numLinks(), "tmax", r.torqueMax);
             refreshDriverLimits(r);
           },
           py::arg("tmax"))
      .def("setDOFPosition",
           [](RobotModel& s, py::object i, double qi) {
             Robot& r = s.get();
             int k = linkArg(r, i);
             if (std::isnan(qi)) throw py::value_error("qi is NaN");
             r.q[k] = qi;
             r.updateSubtree(k);
           },
           py::arg("i"), py::arg("qi"))
      .def("getDOFPosition", [](const RobotModel& s, py::object i) { return s.get().q[linkArg(s.get(), i)]; },
           py::arg("i"))
      .def("getComJacobian", [](const RobotModel& s) { return comJacobianArray(s.get()); },
           "3 x n Jacobian of the center of mass (ndarray).")
      .def("getComJacobianCols",
           [](const RobotModel& s, py::handle links) {
             const Robot& r = s.get();
             std::vector<int> cols = toIntList(links, "links");
             for (int c : cols) checkIndex(c, r.numLinks(), "link");
             auto J = newArray({3, (py::ssize_t)cols.size()});
             klampt::comJacobianCols(r, cols, klampt::RowMatrixMap(J.mutable_data(), 3, (Eigen::Index)cols.size()));
             return J;
           },
           py::arg("links"))
      .def("interpolate",
           [](const RobotModel& s, py::handle a, py::handle b, double u) {
             const Robot& r = s.get();
             VectorX out;
             klampt::interpolateConfig(r, toVector(a, r.numLinks(), "a"), toVector(b, r.numLinks(), "b"), u, out);
             return toList(out);
           },
           py::arg("a"), py::arg("b"), py::arg("u"))
      .def("distance",
           [](const RobotModel& s, py::handle a, py::handle b) {
             const Robot& r = s.get();
             return klampt::configDistance(r, toVector(a, r.numLinks(), "a"), toVector(b, r.numLinks(), "b"));
           },
           py::arg("a"), py::arg("b"))
      .def("interpolateDeriv",
           [](const RobotModel& s, py::handle a, py::handle b) {
             const Robot& r = s.get();
             VectorX out;
             klampt::interpolateDerivative(r, toVector(a, r.numLinks(), "a"), toVector(b, r.numLinks(), "b"), out);
             return toList(out);
           },
           py::arg("a"), py::arg("b"))
      .def("randomizeConfig",
           [](RobotModel& s, double scale) {
             Robot& r = s.get();
             klampt::sampleConfig(r, scale, *klampt::SharedRandom(), r.q);
             r.updateFrames();
           },
           py::arg("unboundedScale") = 1.0)
      .def("configToDrivers",
           [](const RobotModel& s, py::handle q) {
             const Robot& r = s.get();
             VectorX c = toVector(q, r.numLinks(), "config");
             VectorX out((Eigen::Index)r.drivers.size());
             for (int d = 0; d < out.size(); ++d) out[d] = r.driverValue(d, c);
             return toList(out);
           },
           py::arg("config"))
      .def("velocityToDrivers",
           [](const RobotModel& s, py::handle dq) {
             const Robot& r = s.get();
             VectorX v = toVector(dq, r.numLinks(), "velocities");
             VectorX out((Eigen::Index)r.drivers.size());
             for (int d = 0; d < out.size(); ++d) out[d] = r.driverVelocity(d, v);
             return toList(out);
           },
           py::arg("velocities"))
      .def("configFromDrivers",
           [](const RobotModel& s, py::handle values) {
             const Robot& r = s.get();
             VectorX v = toVector(values, (int)r.drivers.size(), "driverValues");
             VectorX q = r.q;
             for (int d = 0; d < v.size(); ++d) r.setDriverValue(d, v[d], q);
             return toList(q);
           },
           py::arg("driverValues"))
      .def("velocityFromDrivers",
           [](const RobotModel& s, py::handle values) {
             const Robot& r = s.get();
             VectorX v = toVector(values, (int)r.drivers.size(), "driverVelocities");
             VectorX dq = r.dq;
             for (int d = 0; d < v.size(); ++d) r.setDriverVelocity(d, v[d], dq);
             return toList(dq);
           },
           py::arg("driverVelocities"))
      .def("selfCollisionEnabled",
           [](const RobotModel& s, int a, int b) {
             const Robot& r = s.get();
             checkIndex(a, r.numLinks(), "link1");
             checkIndex(b, r.numLinks(), "link2");
             return r.selfCollisionEnabled(a, b);
           },
           py::arg("link1"), py::arg("link2"))
      .def("enableSelfCollision",
           [](RobotModel& s, int a, int b, bool value) {
             Robot& r = s.get();
             checkIndex(a, r.numLinks(), "link1");
             checkIndex(b, r.numLinks(), "link2");
             r.setSelfCollision(a, b, value);
           },
           py::arg("link1"), py::arg("link2"), py::arg("value"))
      .def("reduce",
           [](RobotModel& s, const RobotModel& other) {
             Robot reduced;
             std::vector<int> map = klampt::reduceRobot(other.get(), reduced);
             Robot& r = s.get();
             klampt::World* w = r.world;
             r = reduced;
             r.world = w;
             return map;
           },
           py::arg("robot"),
           "Sets self to `robot` without its fixed DOFs; returns the map from old DOF indices to new ones (-1: removed).")
      .def("mount",
           [](RobotModel& s, int link, const RobotModel& sub, py::handle R, py::handle t) {
             Robot& r = s.get();
             if (link != -1) checkIndex(link, r.numLinks(), "link");
             const Robot& subRobot = sub.get();
             Robot copy = subRobot;  // mounting a robot onto itself reads a snapshot
             klampt::mountRobot(r, link, copy, {toRotation(R, "R"), toVector3(t, "t")}, subRobot.name);
           },
           py::arg("link"), py::arg("subRobot"), py::arg("R"), py::arg("t"),
           "Mounts a copy of subRobot onto link at (R,t); its links are renamed subRobot.getName():name.")
      .def_property_readonly("world", [](const RobotModel& s) { return s.world ? worldNumber(s.world.get()) : -1; })
      .def_property_readonly("index", &RobotModel::index)
      .def_property_readonly("robot", [](const RobotModel& s) { return (std::uintptr_t)s.robot.get(); },
                             "Opaque address of the underlying C++ robot.")
      .def_property_readonly("id", &RobotModel::id)
      .def_property("name", [](const RobotModel& s) { return nameToPython(s.get().name); },
                    [](RobotModel& s, const std::string& n) { s.get().name = n; })
      .def_property("config", [](const RobotModel& s) { return toList(s.get().q); },
                    [](RobotModel& s, py::handle q) { setConfig(s, q); })
      .def_property("velocity", [](const RobotModel& s) { return toList(s.get().dq); },
                    [](RobotModel& s, py::handle dq) { setVelocity(s, dq); })
      .def("__repr__", [](const RobotModel& s) {
        if (!s.robot) return nameToPython("<RobotModel (empty)>");
        return nameToPython("<RobotModel '" + s.robot->name + "' with " + std::to_string(s.robot->numLinks()) + " links>");
      });
  addFastMethods(cls, robotFastMethods);
  bindRobotDynamics(cls);
  bindRobotCollision(cls);
}

}  // namespace klampt_py
