// SimBody: a body of the simulation, by world ID.
#include <pybind11/stl.h>

#include "convert.h"
#include "sim_bindings.h"

namespace klampt_py {

using klampt::SimBody;

klampt::SimBody& SimBodyHandle::get() const {
  if (!sim) throw std::runtime_error("SimBody is not attached to a simulator");
  live(*sim);
  if (objectID < 0 || objectID >= (int)sim->bodyOfID.size() || sim->bodyOfID[objectID] < 0)
    throw std::runtime_error("world ID " + std::to_string(objectID) + " has no simulated body");
  return sim->bodies[sim->bodyOfID[objectID]];
}

namespace {

/// Force f (world frame) at a point in the body's COM-centred frame, over the next simulate() call.
void applyForceAtCOMLocalPoint(SimBodyHandle& s, FloatsArg f, FloatsArg p) {
  SimBody& b = s.get();
  const Vector3 force = toFiniteVector3(f, "f");
  b.pendingForce += force;
  b.pendingTorque += (b.comTransform().R * toFiniteVector3(p, "plocal")).cross(force);
}

}  // namespace

void bindSimBody(py::module_& m) {
  py::class_<SimBodyHandle> cls(m, "SimBody",
                                "A rigid body inside a Simulator (a rigid object, a terrain or a robot link). Its "
                                "transform is centred at the center of mass.");
  addThisown(cls);
  cls.def("getID", [](const SimBodyHandle& s) { return s.objectID; },
           "Returns the world ID of the element (robot link, rigid object or terrain) this body simulates.")
      .def("enable",
           [](SimBodyHandle& s, bool e) {
             SimBody& b = s.get();
             b.enabled = e;
             b.applyFlags();
             s.sim->invalidateContacts();
           },
           py::arg("enabled") = true,
           "Enables (True) or disables the body in the simulation; a disabled body takes no part in collisions or "
           "dynamics.")
      .def("isEnabled", [](const SimBodyHandle& s) { return s.get().enabled; },
           "Returns True if the body is enabled in the simulation.")
      .def("enableDynamics",
           [](SimBodyHandle& s, bool e) {
             SimBody& b = s.get();
             b.dynamicsEnabled = e;
             b.applyFlags();
             s.sim->invalidateContacts();
           },
           py::arg("enabled") = true,
           "Turns the body's dynamics on (True) or off; with dynamics off the body moves only where it is set "
           "(kinematically).")
      .def("isDynamicsEnabled", [](const SimBodyHandle& s) {
        const SimBody& b = s.get();
        return b.body != nullptr && b.dynamicsEnabled && !b.alwaysKinematic;
      },
           "Returns True if the body's motion follows the dynamics (False for terrains, bodies with dynamics "
           "disabled and links welded to the world).")
      .def("applyWrench",
           [](SimBodyHandle& s, FloatsArg f, FloatsArg t) {
             SimBody& b = s.get();
             b.pendingForce += toFiniteVector3(f, "f");
             b.pendingTorque += toFiniteVector3(t, "t");
           },
           py::arg("f"), py::arg("t"), "Force and torque about the COM over the next simulate() call.")
      .def("applyForceAtPoint",
           [](SimBodyHandle& s, FloatsArg f, FloatsArg p) {
             SimBody& b = s.get();
             const Vector3 force = toFiniteVector3(f, "f");
             b.pendingForce += force;
             b.pendingTorque += (toFiniteVector3(p, "pworld") - b.comTransform().t).cross(force);
           },
           py::arg("f"), py::arg("pworld"),
           "Applies the force f (3-list, N, world frame) at the point pworld (world coordinates, metres) during "
           "the next simulate() call.")
      .def("applyForceAtLocalPoint", &applyForceAtCOMLocalPoint, py::arg("f"), py::arg("plocal"),
           "Applies the force f (3-list, N, world frame) at the point plocal (metres, in the body's frame centred "
           "at its center of mass) during the next simulate() call.")
      .def("applyForceAtCOMLocalPoint", &applyForceAtCOMLocalPoint, py::arg("f"), py::arg("plocal"),
           "Applies force f (world frame) at a point given in the body's COM-centred frame, over the next "
           "simulate() call (the same as applyForceAtLocalPoint).")
      .def("applyForceAtObjectLocalPoint",
           [](SimBodyHandle& s, FloatsArg f, FloatsArg p) {
             SimBody& b = s.get();
             const Vector3 force = toFiniteVector3(f, "f");
             const Vector3 world = b.objectTransform().apply(toFiniteVector3(p, "plocal"));
             b.pendingForce += force;
             b.pendingTorque += (world - b.comTransform().t).cross(force);
           },
           py::arg("f"), py::arg("plocal"),
           "Applies force f (world frame) at a point given in the object's own frame (that of getObjectTransform), "
           "over the next simulate() call.")
      .def("getObjectVelocity",
           [](const SimBodyHandle& s) {
             const SimBody& b = s.get();
             Vector3 w, v;
             b.velocity(w, v);
             return toListPair(w, Vector3(v + w.cross(b.objectTransform().t - b.comTransform().t)));
           },
           "(angular velocity, velocity of the object's origin) in world coordinates.")
      .def("setObjectVelocity",
           [](SimBodyHandle& s, FloatsArg w, FloatsArg v) {
             const Vector3 angular = toFiniteVector3(w, "w"), origin = toFiniteVector3(v, "v");
             SimBody& b = s.get();
             b.setVelocity(angular, origin + angular.cross(b.comTransform().t - b.objectTransform().t));
           },
           py::arg("w"), py::arg("v"),
           "Sets the angular velocity and the velocity of the object's origin (world coordinates).")
      .def("setTransform",
           [](SimBodyHandle& s, FloatsArg R, FloatsArg t) {
             s.get().setComTransform(toTransform(R, t));
             s.sim->invalidateContacts();
           },
           py::arg("R"), py::arg("t"),
           "Sets the pose of the body's center-of-mass frame in world coordinates: R a column-major 9-list "
           "rotation matrix, t a 3-list (metres).")
      .def("getTransform", [](const SimBodyHandle& s) { return transformToTuple(s.get().comTransform()); },
           "Returns the pose (R,t) of the body's center-of-mass frame in world coordinates: R a column-major "
           "9-list rotation matrix, t a 3-list (metres).")
      .def("setObjectTransform",
           [](SimBodyHandle& s, FloatsArg R, FloatsArg t) {
             s.get().setObjectTransform(toTransform(R, t));
             s.sim->invalidateContacts();
           },
           py::arg("R"), py::arg("t"),
           "Sets the pose of the element's own frame (the object or link frame, not the center-of-mass frame) in "
           "world coordinates: R a column-major 9-list rotation matrix, t a 3-list (metres).")
      .def("getObjectTransform", [](const SimBodyHandle& s) { return transformToTuple(s.get().objectTransform()); },
           "Returns the pose (R,t) of the element's own frame (the object or link frame, not the center-of-mass "
           "frame) in world coordinates: R a column-major 9-list rotation matrix, t a 3-list (metres).")
      .def("setVelocity",
           [](SimBodyHandle& s, FloatsArg w, FloatsArg v) { s.get().setVelocity(toFiniteVector3(w, "w"), toFiniteVector3(v, "v")); },
           py::arg("w"), py::arg("v"),
           "Sets the body's angular velocity w (rad/s) and the linear velocity v (m/s) of its center of mass, "
           "3-lists in the world frame.")
      .def("getVelocity",
           [](const SimBodyHandle& s) {
             Vector3 w, v;
             s.get().velocity(w, v);
             return toListPair(w, v);
           },
           "(angular velocity, COM velocity).")
      .def("setCollisionPadding",
           [](SimBodyHandle& s, double padding) {
             toNonNegative(padding, "padding");
             s.get();  // raises for an element without a body
             s.sim->setPadding(s.sim->bodyOfID[s.objectID], padding);
           },
           py::arg("padding"),
           "Sets the body's collision padding (metres, >= 0): the boundary layer around its shape within which "
           "contacts are generated.")
      .def("getCollisionPadding", [](const SimBodyHandle& s) { return s.get().padding; },
           "Returns the collision padding in metres (see setCollisionPadding).")
      .def("setCollisionPreshrink",
           [](SimBodyHandle& s, bool shrinkVisualization) {
             s.get();  // raises for an element without a body
             s.sim->preshrink(s.sim->bodyOfID[s.objectID], shrinkVisualization);
           },
           py::arg("shrinkVisualization") = false,
           "Contacts use the geometry shrunk by the collision padding, so that the padded geometry matches the "
           "original surface. With shrinkVisualization the world element's geometry is shrunk too.")
      .def("getSurface", [](const SimBodyHandle& s) { return s.get().surface; },
           "Returns a copy of the body's contact surface parameters (ContactParameters); edit it and call "
           "setSurface to apply.")
      .def("setSurface", [](SimBodyHandle& s, const klampt::ContactParameters& p) { s.get().surface = p; },
           py::arg("params"),
           "Sets the body's contact surface parameters (friction, restitution, stiffness, damping) from the "
           "ContactParameters params.")
      .def_property_readonly("objectID", [](const SimBodyHandle& s) { return s.objectID; },
          "The world element id of the body (world.getName(objectID) names it).")
      .def_property_readonly("body", [](const SimBodyHandle& s) { return (std::uintptr_t)s.get().body; },
                             "Opaque address of the ODE body (0 for terrains).")
      .def_property_readonly("geometry", [](const SimBodyHandle& s) { return (std::uintptr_t)&s.get().geometry; },
                             "Opaque address of the simulated geometry.")
      .def_property_readonly("sim", [](const SimBodyHandle& s) { return s.sim; },
          "The simulator the body belongs to.");
}

}  // namespace klampt_py
