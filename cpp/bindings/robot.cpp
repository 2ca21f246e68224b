// RobotModel: configuration, limits, drivers, kinematics and structural edits.
#include <pybind11/stl.h>

#include "convert.h"
#include "fast_call.h"
#include "handles.h"
#include "robot_args.h"
#include "klampt/io/robot_files.h"
#include "klampt/model/config_space.h"
#include "klampt/model/driver_vectors.h"
#include "klampt/model/kinematics.h"
#include "klampt/model/link_limits.h"
#include "klampt/model/robot_edit.h"
#include "scratch.h"

namespace klampt_py {

using klampt::Robot;

namespace {

void setConfig(RobotModel& s, py::handle q) {
  Scratch<VectorX> value;
  readLinkVector(s, q, "q", *value).setConfig(*value);
}

void setVelocity(RobotModel& s, py::handle dq) {
  Scratch<VectorX> value;
  readLinkVector(s, dq, "dq", *value).setVelocity(*value);
}

// A link given by index or name. The index is converted (which may run
// Python code) before the robot is looked at.
int linkArg(const RobotModel& s, py::handle arg) {
  if (py::isinstance<py::str>(arg)) {
    const std::string name = arg.cast<std::string>();
    const Robot& r = s.get();
    int i = r.linkIndex(name);
    if (i < 0) throw py::key_error("no link named '" + name + "' in robot '" + r.name + "'");
    return i;
  }
  const long i = toIndex(arg, "index");
  checkIndex(i, s.get().numLinks(), "link");
  return (int)i;
}

int driverArg(const RobotModel& s, py::handle arg) {
  if (py::isinstance<py::str>(arg)) {
    const std::string name = arg.cast<std::string>();
    const Robot& r = s.get();
    int i = r.driverIndex(name);
    if (i < 0) throw py::key_error("no driver named '" + name + "' in robot '" + r.name + "'");
    return i;
  }
  const long i = toIndex(arg, "index");
  checkIndex(i, (long)s.get().drivers.size(), "driver");
  return (int)i;
}

py::array_t<double> comJacobianArray(const Robot& r) {
  auto J = newArray({3, r.numLinks()});
  klampt::comJacobian(r, klampt::RowMatrixMap(J.mutable_data(), 3, r.numLinks()));
  return J;
}

// A per-link limit vector (infinite entries allowed, NaN not), read before the
// robot is changed so that a bad value changes nothing. Returns the robot as
// it is after the conversion, with the size checked against it.
Robot& readLimits(const RobotModel& s, py::handle obj, const char* name, VectorX& out) {
  out = toLimits(obj, s.get().numLinks(), name);
  Robot& r = s.get();
  checkSize(out.size(), r.numLinks(), name);
  return r;
}

// A vector with one entry per link or per driver, read with the size the
// robot has before the conversion; callers check it again against the robot
// as it is afterwards (the conversion may run Python code that edits it).
VectorX linkVector(const RobotModel& s, py::handle obj, const char* name) {
  return toVector(obj, s.get().numLinks(), name);
}
VectorX driverVector(const RobotModel& s, py::handle obj, const char* name) {
  return toVector(obj, (int)s.get().drivers.size(), name);
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
    fastDef<RobotModel, getConfig>("getConfig", "getConfig($self)\n--\n\ngetConfig(self) -> list[float]\n\nThe configuration (list of n floats)."),
    fastDef<RobotModel, getVelocity>("getVelocity",
                                     "getVelocity($self)\n--\n\ngetVelocity(self) -> list[float]\n\nThe joint velocities (list of n floats)."),
    fastDef<RobotModel, setConfigMethod>(
        "setConfig",
        "setConfig($self, q)\n--\n\nsetConfig(self, q: collections.abc.Sequence[float] | numpy.ndarray) -> None\n\nSets the configuration and updates the link transforms. Raises ValueError "
        "if q has the wrong size or contains NaN or infinity (the configuration is then unchanged)."),
    fastDef<RobotModel, setVelocityMethod>(
        "setVelocity",
        "setVelocity($self, dq)\n--\n\nsetVelocity(self, dq: collections.abc.Sequence[float] | numpy.ndarray) -> None\n\nSets the joint velocities. Raises ValueError if dq has the wrong size or "
        "contains NaN or infinity (the velocity is then unchanged)."),
    fastDef<RobotModel, getCom>("getCom", "getCom($self)\n--\n\ngetCom(self) -> list[float]\n\nThe center of mass in world coordinates."),
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
             klampt::replaceRobot(self.get(), *loaded);  // other threads ran meanwhile: get() waits for their calls
             return true;
           },
           py::arg("fn"), "Loads the robot from the file fn (.rob or .urdf). Returns False on failure.")
      .def("saveFile",
           [](RobotModel& self, const std::string& fn, OptionalStrArg geometryPrefix) {
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
      .def("getName", [](const RobotModel& s) { return nameToPython(s.get().name); },
           "Returns the name of the robot.")
      .def("setName", [](RobotModel& s, const std::string& n) { s.get().name = n; }, py::arg("name"),
           "Sets the name of the robot.")
      .def("numLinks", [](const RobotModel& s) { return s.get().numLinks(); },
           "Returns the number of links, which is the number of degrees of freedom (entries of a configuration).")
      .def("link",
           [](const RobotModel& s, IndexOrNameArg arg) { return RobotModelLink{s, linkArg(s, arg)}; },
           py::arg("index"), "Returns a reference to the link by index or name.")
      .def("numDrivers", [](const RobotModel& s) { return (int)s.get().drivers.size(); },
           "Returns the number of drivers (actuators).")
      .def("driver",
           [](const RobotModel& s, IndexOrNameArg arg) { return RobotModelDriver{s, driverArg(s, arg)}; },
           py::arg("index"), "Returns a reference to the driver by index or name.")
      .def("getJointType",
           [](const RobotModel& s, IndexOrNameArg arg) {
             const int link = linkArg(s, arg);
             const Robot& r = s.get();
             int j = r.jointOfLink(link);
             return std::string(j < 0 ? "normal" : klampt::jointTypeName(r.joints[j].type));
           },
           py::arg("index"),
           "Returns the type of the joint of the link given by index or name: 'weld', 'normal', 'spin', "
           "'floating', 'floatingplanar' or 'ballandsocket'; 'normal' for a link that belongs to no joint.")
      .def("getJointLimits", [](const RobotModel& s) { return toListPair(s.get().qMin, s.get().qMax); },
           "Returns the joint limits (qmin, qmax): two lists with one entry per link (radians for revolute links, "
           "metres for prismatic ones; may be infinite).")
      .def("setJointLimits",
           [](RobotModel& s, FloatsArg a, FloatsArg b) {
             VectorX lo, hi;
             readLimits(s, a, "qmin", lo);
             Robot& r = readLimits(s, b, "qmax", hi);
             checkSize(lo.size(), r.numLinks(), "qmin");
             klampt::setJointLimits(r, lo, hi);
           },
           py::arg("qmin"), py::arg("qmax"),
           "Sets the joint limits: qmin and qmax are lists with one entry per link (radians for revolute links, "
           "metres for prismatic ones).")
      .def("getVelocityLimits", [](const RobotModel& s) { return toList(s.get().velMax); },
           "Returns the velocity limits vmax (one entry per link, rad/s or m/s): velocities are bounded to "
           "[-vmax, vmax].")
      .def("setVelocityLimits",
           [](RobotModel& s, FloatsArg v) {
             VectorX vmax;
             Robot& r = readLimits(s, v, "vmax", vmax);
             klampt::setVelocityLimits(r, vmax);
           },
           py::arg("vmax"),
           "Sets the velocity limits vmax (one entry per link, rad/s or m/s): velocities are bounded to [-vmax, "
           "vmax].")
      .def("getAccelerationLimits", [](const RobotModel& s) { return toList(s.get().accMax); },
           "Returns the acceleration limits amax (one entry per link, rad/s^2 or m/s^2): accelerations are "
           "bounded to [-amax, amax].")
      .def("setAccelerationLimits",
           [](RobotModel& s, FloatsArg v) {
             VectorX amax;
             Robot& r = readLimits(s, v, "amax", amax);
             klampt::setAccelerationLimits(r, amax);
           },
           py::arg("amax"),
           "Sets the acceleration limits amax (one entry per link, rad/s^2 or m/s^2): accelerations are bounded "
           "to [-amax, amax].")
      .def("getTorqueLimits", [](const RobotModel& s) { return toList(s.get().torqueMax); },
           "Returns the torque limits tmax (one entry per link, N*m or N): torques are bounded to [-tmax, tmax].")
      .def("setTorqueLimits",
           [](RobotModel& s, FloatsArg v) {
             VectorX tmax;
             Robot& r = readLimits(s, v, "tmax", tmax);
             klampt::setTorqueLimits(r, tmax);
           },
           py::arg("tmax"),
           "Sets the torque limits tmax (one entry per link, N*m or N): torques are bounded to [-tmax, tmax].")
      .def("setDOFPosition",
           [](RobotModel& s, IndexOrNameArg i, double qi) {
             toFinite(qi, "qi");
             const int k = linkArg(s, i);
             Robot& r = s.get();
             r.q[k] = qi;
             r.updateSubtree(k);
           },
           py::arg("i"), py::arg("qi"),
           "Sets the position of the single DOF i (a link index or name) to qi (radians or metres) and updates "
           "the frames of the links it moves.")
      .def("getDOFPosition",
           [](const RobotModel& s, IndexOrNameArg i) {
             const int k = linkArg(s, i);
             return s.get().q[k];
           },
           py::arg("i"),
           "Returns the position of the single DOF i (a link index or name) in the current configuration.")
      .def("getComJacobian", [](const RobotModel& s) { return comJacobianArray(s.get()); },
           "3 x n Jacobian of the center of mass (ndarray).")
      .def("getComJacobianCols",
           [](const RobotModel& s, IntsArg links) {
             const std::vector<int> cols = toIntList(links, "links");
             const Robot& r = s.get();
             checkIndices(cols, r.numLinks(), "link");
             auto J = newArray({3, (py::ssize_t)cols.size()});
             klampt::comJacobianCols(r, cols, klampt::RowMatrixMap(J.mutable_data(), 3, (Eigen::Index)cols.size()));
             return J;
           },
           py::arg("links"),
           "Returns the 3 x len(links) Jacobian of the robot's center of mass (world coordinates) with respect to "
           "the given DOFs (link indices), at the current configuration.")
      .def("interpolate",
           [](const RobotModel& s, FloatsArg a, FloatsArg b, double u) {
             const VectorX qa = linkVector(s, a, "a"), qb = linkVector(s, b, "b");
             const Robot& r = s.get();
             checkSize(qa.size(), r.numLinks(), "a");
             checkSize(qb.size(), r.numLinks(), "b");
             VectorX out;
             klampt::interpolateConfig(r, qa, qb, u, out);
             return toList(out);
           },
           py::arg("a"), py::arg("b"), py::arg("u"),
           "Returns the configuration a fraction u in [0,1] of the way from configuration a to configuration b, "
           "interpolating each joint according to its type (e.g. rotations of floating and spin joints).")
      .def("distance",
           [](const RobotModel& s, FloatsArg a, FloatsArg b) {
             const VectorX qa = linkVector(s, a, "a"), qb = linkVector(s, b, "b");
             const Robot& r = s.get();
             checkSize(qa.size(), r.numLinks(), "a");
             checkSize(qb.size(), r.numLinks(), "b");
             return klampt::configDistance(r, qa, qb);
           },
           py::arg("a"), py::arg("b"),
           "Returns the distance between configurations a and b: the Euclidean distance over the joints, floating "
           "joints adding their translation distance and rotation angle.")
      .def("interpolateDeriv",
           [](const RobotModel& s, FloatsArg a, FloatsArg b) {
             const VectorX qa = linkVector(s, a, "a"), qb = linkVector(s, b, "b");
             const Robot& r = s.get();
             checkSize(qa.size(), r.numLinks(), "a");
             checkSize(qb.size(), r.numLinks(), "b");
             VectorX out;
             klampt::interpolateDerivative(r, qa, qb, out);
             return toList(out);
           },
           py::arg("a"), py::arg("b"),
           "Returns the derivative of interpolate(a,b,u) with respect to u at u=0: the direction of motion from a "
           "toward b.")
      .def("randomizeConfig",
           [](RobotModel& s, double scale) {
             Robot& r = s.get();
             klampt::sampleConfig(r, scale, *klampt::SharedRandom(), r.q);
             r.updateFrames();
           },
           py::arg("unboundedScale") = 1.0,
           "Sets the robot to a random configuration: uniform within finite joint limits, Laplacian with scale "
           "unboundedScale around 0 for infinite limits, uniform rotations for floating joints; the frames are "
           "updated.")
      .def("configToDrivers",
           [](const RobotModel& s, FloatsArg q) {
             const VectorX c = linkVector(s, q, "config");
             const Robot& r = s.get();
             checkSize(c.size(), r.numLinks(), "config");
             return toList(klampt::configToDrivers(r, c));
           },
           py::arg("config"),
           "Returns the driver values (one per driver) that correspond to the configuration config (one entry per "
           "link).")
      .def("velocityToDrivers",
           [](const RobotModel& s, FloatsArg dq) {
             const VectorX v = linkVector(s, dq, "velocities");
             const Robot& r = s.get();
             checkSize(v.size(), r.numLinks(), "velocities");
             return toList(klampt::velocityToDrivers(r, v));
           },
           py::arg("velocities"),
           "Returns the driver velocities (one per driver) that correspond to the link velocities (one entry per "
           "link).")
      .def("configFromDrivers",
           [](const RobotModel& s, FloatsArg values) {
             const VectorX v = driverVector(s, values, "driverValues");
             const Robot& r = s.get();
             checkSize(v.size(), (Py_ssize_t)r.drivers.size(), "driverValues");
             return toList(klampt::configFromDrivers(r, v));
           },
           py::arg("driverValues"),
           "Returns the robot's current configuration with every driver set to the values driverValues (one per "
           "driver); links no driver moves keep their current values.")
      .def("velocityFromDrivers",
           [](const RobotModel& s, FloatsArg values) {
             const VectorX v = driverVector(s, values, "driverVelocities");
             const Robot& r = s.get();
             checkSize(v.size(), (Py_ssize_t)r.drivers.size(), "driverVelocities");
             return toList(klampt::velocityFromDrivers(r, v));
           },
           py::arg("driverVelocities"),
           "Returns the robot's current velocity with every driver's velocity set to driverVelocities (one per "
           "driver).")
      .def("selfCollisionEnabled",
           [](const RobotModel& s, int a, int b) {
             const Robot& r = s.get();
             checkIndex(a, r.numLinks(), "link1");
             checkIndex(b, r.numLinks(), "link2");
             return r.selfCollisionEnabled(a, b);
           },
           py::arg("link1"), py::arg("link2"),
           "Returns True if self-collisions between the links with indices link1 and link2 are checked.")
      .def("enableSelfCollision",
           [](RobotModel& s, int a, int b, bool value) {
             Robot& r = s.get();
             checkIndex(a, r.numLinks(), "link1");
             checkIndex(b, r.numLinks(), "link2");
             r.setSelfCollision(a, b, value);
           },
           py::arg("link1"), py::arg("link2"), py::arg("value"),
           "Enables (value=True) or disables checking self-collisions between the links with indices link1 and "
           "link2.")
      .def("reduce",
           [](RobotModel& s, const RobotModel& other) {
             Robot reduced;
             std::vector<int> map = klampt::reduceRobot(other.get(), reduced);
             klampt::replaceRobot(s.get(), reduced);
             return map;
           },
           py::arg("robot"),
           "Sets self to `robot` without its fixed DOFs; returns the map from old DOF indices to new ones (-1: removed).")
      .def("mount",
           [](RobotModel& s, int link, const RobotModel& sub, FloatsArg R, FloatsArg t) {
             const klampt::RigidTransform T = toTransform(R, t);
             const Robot copy = sub.get();  // mounting a robot onto itself reads a snapshot
             Robot& r = s.get();
             if (link != -1) checkIndex(link, r.numLinks(), "link");
             klampt::mountRobot(r, link, copy, T, copy.name);
             r.structureChanged();
           },
           py::arg("link"), py::arg("subRobot"), py::arg("R"), py::arg("t"),
           "Mounts a copy of subRobot onto link at (R,t); its links are renamed subRobot.getName():name.")
      .def("structureStamp", [](const RobotModel& s) { return s.get().structureStamp; },
           "A number that changes whenever the robot's links, joints or drivers change (loadFile, reduce, mount, "
           "setParent), never to a value it had before: whatever derived data from the robot's structure (IK "
           "solvers, sensors) compares it to tell that its data are stale.")
      .def_property_readonly("world", [](const RobotModel& s) { return s.world ? worldNumber(s.world.get()) : -1; },
          "Index of the robot's world, or -1 for a standalone robot.")
      .def_property_readonly("index", &RobotModel::index,
          "Index of the robot within its world.")
      .def_property_readonly("robot", [](const RobotModel& s) { return (std::uintptr_t)s.robot.get(); },
                             "Opaque address of the underlying C++ robot.")
      .def_property_readonly("id", &RobotModel::id,
          "The robot's element id in its world (world.getName(id) names it).")
      .def_property("name", [](const RobotModel& s) { return nameToPython(s.get().name); },
                    [](RobotModel& s, const std::string& n) { s.get().name = n; },
          "The robot's name.")
      .def_property("config", [](const RobotModel& s) { return toList(s.get().q); },
                    [](RobotModel& s, FloatsArg q) { setConfig(s, q); },
          "The current configuration (one value per link, rad or m), as getConfig(); assigning calls setConfig().")
      .def_property("velocity", [](const RobotModel& s) { return toList(s.get().dq); },
                    [](RobotModel& s, FloatsArg dq) { setVelocity(s, dq); },
          "The current velocity (rad/s or m/s per link), as getVelocity(); assigning calls setVelocity().")
      .def("__repr__", [](const RobotModel& s) {
        if (!s.robot) return nameToPython("<RobotModel (empty)>");
        return nameToPython("<RobotModel '" + s.robot->name + "' with " + std::to_string(s.robot->numLinks()) + " links>");
      });
  addFastMethods(cls, robotFastMethods);
  bindRobotDynamics(cls);
  bindRobotCollision(cls);
}

}  // namespace klampt_py
