// SimJoint: hinge, slider and fixed joints the user adds between bodies.
#include <cmath>
#include <optional>
#include <pybind11/stl.h>

#include "convert.h"
#include "sim_bindings.h"

namespace klampt_py {

using klampt::SimUserJoint;

namespace {

int bodyIndex(const SimBodyHandle& h) {
  h.get();
  return h.sim->bodyOfID[h.objectID];
}

void make(SimJointHandle& j, SimUserJoint::Type type, const SimBodyHandle& a, const SimBodyHandle* b,
          const Vector3& pt, const Vector3& axis) {
  const int ia = bodyIndex(a), ib = b ? bodyIndex(*b) : -1;
  if (b && b->sim != a.sim) throw py::value_error("the bodies belong to different simulators");
  // Checked before the joint made earlier is destroyed: a failed make changes nothing.
  a.sim->checkUserJointBodies(ia, ib);
  if (j.joint && j.sim) j.sim->destroyUserJoint(*j.joint);
  j.sim = a.sim;
  j.joint = a.sim->addUserJoint(type, ia, ib, pt, axis);
}

SimUserJoint& joint(const SimJointHandle& j) {
  if (!j.joint || j.joint->type == SimUserJoint::Type::None) throw std::runtime_error("SimJoint has not been made");
  if (j.sim) live(*j.sim);
  return *j.joint;
}

/// The body at one end of a made joint; None if unmade or attached to the world.
std::optional<SimBodyHandle> endBody(const SimJointHandle& j, bool first) {
  if (!j.joint || !j.sim || j.joint->type == SimUserJoint::Type::None) return std::nullopt;
  const int b = first ? j.joint->a : j.joint->b;
  if (b < 0) return std::nullopt;
  return SimBodyHandle{j.sim, live(*j.sim).bodies[b].objectID};
}

}  // namespace

void bindSimJoint(py::module_& m) {
  py::class_<SimJointHandle> cls(m, "SimJoint", "A hinge, slider or fixed joint between simulated bodies.");
  addThisown(cls);
  cls.def(py::init<>())
      .def("makeHinge",
           [](SimJointHandle& j, const SimBodyHandle& a, FloatsArg pt, FloatsArg axis) {
             const Vector3 p = toFiniteVector3(pt, "pt"), u = toAxis(axis, "axis");
             make(j, SimUserJoint::Type::Hinge, a, nullptr, p, u);
           },
           py::arg("a"), py::arg("pt"), py::arg("axis"),
           "Makes this a hinge joint attaching body a to the world, rotating about the axis through the point pt "
           "(3-lists in world coordinates, metres); replaces any joint made before.")
      .def("makeHinge",
           [](SimJointHandle& j, const SimBodyHandle& a, const SimBodyHandle& b, FloatsArg pt, FloatsArg axis) {
             const Vector3 p = toFiniteVector3(pt, "pt"), u = toAxis(axis, "axis");
             make(j, SimUserJoint::Type::Hinge, a, &b, p, u);
           },
           py::arg("a"), py::arg("b"), py::arg("pt"), py::arg("axis"),
           "Makes this a hinge joint between bodies a and b, rotating about the axis through the point pt "
           "(3-lists in world coordinates, metres); replaces any joint made before.")
      .def("makeSlider",
           [](SimJointHandle& j, const SimBodyHandle& a, FloatsArg axis) {
             const Vector3 u = toAxis(axis, "axis");
             make(j, SimUserJoint::Type::Slider, a, nullptr, Vector3::Zero(), u);
           },
           py::arg("a"), py::arg("axis"),
           "Makes this a slider joint attaching body a to the world, translating along axis (3-list in world "
           "coordinates); replaces any joint made before.")
      .def("makeSlider",
           [](SimJointHandle& j, const SimBodyHandle& a, const SimBodyHandle& b, FloatsArg axis) {
             const Vector3 u = toAxis(axis, "axis");
             make(j, SimUserJoint::Type::Slider, a, &b, Vector3::Zero(), u);
           },
           py::arg("a"), py::arg("b"), py::arg("axis"),
           "Makes this a slider joint between bodies a and b, translating along axis (3-list in world "
           "coordinates); replaces any joint made before.")
      .def("makeFixed",
           [](SimJointHandle& j, const SimBodyHandle& a, const SimBodyHandle& b) {
             make(j, SimUserJoint::Type::Fixed, a, &b, Vector3::Zero(), Vector3::UnitZ());
           },
           py::arg("a"), py::arg("b"),
           "Makes this a fixed joint welding bodies a and b at their current relative pose; replaces any joint "
           "made before.")
      .def("destroy",
           [](SimJointHandle& j) {
             if (j.joint && j.sim) live(*j.sim).destroyUserJoint(*j.joint);
             j.joint.reset();
           },
           "Removes the joint from the simulation; the SimJoint can be made again.")
      .def("setLimits", [](SimJointHandle& j, double lo, double hi) { joint(j).setLimits(toFinite(lo, "min"), toFinite(hi, "max")); }, py::arg("min"),
           py::arg("max"),
           "Sets the joint's limits [min, max] (radians for a hinge, metres for a slider); no effect on a fixed "
           "joint.")
      .def("setFriction", [](SimJointHandle& j, double f) { joint(j).setFriction(toFinite(f, "friction")); }, py::arg("friction"),
           "Sets the joint's dry friction: the maximum torque (hinge, N*m) or force (slider, N) resisting its "
           "motion.")
      .def("setVelocity", [](SimJointHandle& j, double v, double fmax) { joint(j).setVelocity(toFinite(v, "vel"), toFinite(fmax, "fmax")); },
           py::arg("vel"), py::arg("fmax"),
           "Drives the joint toward the velocity vel (rad/s for a hinge, m/s for a slider) with a motor of at "
           "most fmax torque (N*m) or force (N).")
      .def("addForce", [](SimJointHandle& j, double f) { joint(j).addEffort(toFinite(f, "force")); }, py::arg("force"),
           "Torque (hinge) or force (slider) applied over the next simulate() call.")
      .def_property_readonly("type", [](const SimJointHandle& j) { return j.joint ? (int)j.joint->type : 0; },
                             "0: none, 1: hinge, 2: slider, 3: fixed.")
      .def_property_readonly("a", [](const SimJointHandle& j) { return endBody(j, true); },
          "The first body the joint connects (a SimBody).")
      .def_property_readonly("b", [](const SimJointHandle& j) { return endBody(j, false); },
          "The second body the joint connects (a SimBody), or None when fixed to the world.")
      .def_property_readonly("joint", [](const SimJointHandle& j) { return (std::uintptr_t)(j.joint ? j.joint->joint : nullptr); },
                             "Opaque address of the ODE joint.");
}

}  // namespace klampt_py
