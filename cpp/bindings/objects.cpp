// RigidObjectModel and TerrainModel.
#include "convert.h"
#include "geometry_handle.h"
#include "handles.h"
#include "klampt/io/world_files.h"
#include "mass_value.h"

namespace klampt_py {

using klampt::RigidObject;
using klampt::Terrain;

namespace {

// Loads an element file (without the GIL) and replaces the handle's element
// with it (`replace`, keeping its world); False after logging a failure.
template <class Handle, class Loader, class Replace>
bool reload(const Handle& handle, const std::string& fn, Loader load, Replace replace) {
  handle.get();
  klampt::LoadContext ctx;
  decltype(load(fn, ctx)) loaded;
  try {
    py::gil_scoped_release release;
    loaded = load(fn, ctx);
  } catch (const std::exception& e) {
    emitWarnings(ctx.warnings);
    logError(e.what());
    return false;
  }
  emitWarnings(ctx.warnings);
  replace(handle.get(), *loaded);  // other threads ran meanwhile: get() waits for their long calls
  return true;
}

// Saves an element file, logging a failure and returning False as the reference does.
template <class T, class Saver>
bool save(Saver saver, const T& element, const std::string& fn, const py::object& geometryName) {
  try {
    saver(element, fn, geometryName.is_none() ? std::string() : geometryName.cast<std::string>());
  } catch (const klampt::LoadError& e) {
    logError(e.what());
    return false;
  }
  return true;
}

int objectID(const RigidObjectModel& s) {
  s.get();
  int i = s.index();
  return i < 0 ? -1 : s.world->rigidObjectID(i);
}

int terrainID(const TerrainModel& s) {
  s.get();
  int i = s.index();
  return i < 0 ? -1 : s.world->terrainID(i);
}

template <class Handle>
py::str elementName(const Handle& s) {
  return nameToPython(s.get().name);
}

template <class Handle>
void setElementName(Handle& s, const std::string& n) {
  s.get().name = n;
}

MassValue objectMass(const RigidObjectModel& s) { return MassValue::from(s.get().mass); }
void setObjectMass(RigidObjectModel& s, const MassValue& mv) { s.get().mass = mv.toCore(); }
TransformTuple objectTransform(const RigidObjectModel& s) { return transformToTuple(s.get().transform); }

}  // namespace

void bindObjects(py::module_& m) {
  py::class_<RigidObjectModel> objCls(m, "RigidObjectModel", "A rigid movable object.");
  addThisown(objCls);
  objCls.def(py::init([]() { return RigidObjectModel{nullptr, std::make_shared<RigidObject>()}; }))
      .def("loadFile", [](RigidObjectModel& s, const std::string& fn) {
             return reload(s, fn, klampt::loadRigidObjectFile, klampt::replaceRigidObject);
           },
           py::arg("fn"),
           "Loads the object from the file fn (a .obj object file or any geometry file), replacing this object's "
           "data; returns True on success, False (with an error logged) on failure.")
      .def("saveFile",
           [](RigidObjectModel& s, const std::string& fn, OptionalStrArg geometryName) {
             return save(klampt::saveRigidObjectFile, s.get(), fn, geometryName);
           },
           py::arg("fn"), py::arg("geometryName") = py::none(),
           "Saves the object to the object file fn; if geometryName is given, the geometry is also saved to that "
           "file and referenced from fn. Returns True on success, False (with an error logged) on failure.")
      .def("getID", &objectID,
           "Returns the ID of the object in its world, or -1 if it is not in a world.")
      .def("getName", &elementName<RigidObjectModel>,
           "Returns the name of the object.")
      .def("setName", &setElementName<RigidObjectModel>, py::arg("name"),
           "Sets the name of the object.")
      .def("geometry", [](const RigidObjectModel& s) { return Geometry3D{s.get().geometry, s.world, worldLock(s.world)}; },
           "Returns a reference to the object's collision geometry (in the object's local frame).")
      .def("appearance", [](const RigidObjectModel& s) { return Appearance{s.get().appearance, s.world, worldLock(s.world)}; },
           "Returns a reference to the object's appearance.")
      .def("getMass", &objectMass,
           "Returns a copy of the object's mass properties (Mass: mass in kg, center of mass and inertia in the "
           "object's local frame); edit it and call setMass to apply.")
      .def("setMass", &setObjectMass, py::arg("mass"),
           "Sets the object's mass properties from the Mass object mass (mass in kg, center of mass and inertia "
           "in the object's local frame).")
      .def("getContactParameters", [](const RigidObjectModel& s) { return s.get().contact; },
           "Returns a copy of the object's contact parameters (friction, restitution, stiffness, damping); edit "
           "it and call setContactParameters to apply.")
      .def("setContactParameters", [](RigidObjectModel& s, const klampt::ContactParameters& p) { s.get().contact = p; },
           py::arg("params"),
           "Sets the object's contact parameters from the ContactParameters object params.")
      .def("getTransform", &objectTransform,
           "Returns the object's transform (R,t) in world coordinates: R a column-major 9-list rotation matrix, t "
           "a 3-list in metres.")
      .def("setTransform",
           [](RigidObjectModel& s, FloatsArg R, FloatsArg t) {
             const klampt::RigidTransform T = toTransform(R, t);
             s.get().setTransform(T);
           },
           py::arg("R"), py::arg("t"),
           "Sets the object's transform in world coordinates: R a column-major 9-list rotation matrix, t a 3-list "
           "translation in metres.")
      .def("getVelocity",
           [](const RigidObjectModel& s) { return toListPair(s.get().angularVelocity, s.get().velocity); },
           "Returns the object's velocity (w,v) in world coordinates: angular velocity w (rad/s) and linear "
           "velocity v of its origin (m/s), each a 3-list.")
      .def("setVelocity",
           [](RigidObjectModel& s, FloatsArg w, FloatsArg v) {
             const Vector3 angular = toFiniteVector3(w, "angularVelocity"), linear = toFiniteVector3(v, "velocity");
             RigidObject& o = s.get();
             o.angularVelocity = angular;
             o.velocity = linear;
           },
           py::arg("angularVelocity"), py::arg("velocity"),
           "Sets the object's velocity in world coordinates: angularVelocity (3-list, rad/s) and velocity of its "
           "origin (3-list, m/s).")
      .def_property_readonly("world", [](const RigidObjectModel& s) { return s.world ? worldNumber(s.world.get()) : -1; },
          "Index of the element's world, or -1 for a standalone element.")
      .def_property_readonly("index", &RigidObjectModel::index,
          "Index of the element among its world's elements of its kind.")
      .def_property_readonly("id", &objectID, "The object's ID in its world (as getID()), -1 if standalone.")
      .def_property("name", &elementName<RigidObjectModel>, &setElementName<RigidObjectModel>,
                    "The object's name (as getName() / setName()).")
      .def_property("mass", &objectMass, &setObjectMass,
                    "A copy of the object's Mass (as getMass(); assign a Mass to change it, as setMass()).")
      .def_property_readonly("transform", &objectTransform,
                             "The object's transform (R, t) (as getTransform(); use setTransform to move it).")
      .def_property_readonly("object", [](const RigidObjectModel& s) { return (std::uintptr_t)s.object.get(); },
                             "Opaque address of the underlying C++ object.")
      .def("__repr__", [](const RigidObjectModel& s) {
        return nameToPython(s.object ? "<RigidObjectModel '" + s.object->name + "'>" : std::string("<RigidObjectModel (empty)>"));
      });

  py::class_<TerrainModel> terrainCls(m, "TerrainModel", "Static environment geometry.");
  addThisown(terrainCls);
  terrainCls.def(py::init([]() { return TerrainModel{nullptr, std::make_shared<Terrain>()}; }))
      .def("loadFile",
           [](TerrainModel& s, const std::string& fn) { return reload(s, fn, klampt::loadTerrainFile, klampt::replaceTerrain); },
           py::arg("fn"),
           "Loads the terrain from the file fn (an .env terrain file or any geometry file), replacing this "
           "terrain's data; returns True on success, False (with an error logged) on failure.")
      .def("saveFile",
           [](TerrainModel& s, const std::string& fn, OptionalStrArg geometryName) {
             return save(klampt::saveTerrainFile, s.get(), fn, geometryName);
           },
           py::arg("fn"), py::arg("geometryName") = py::none(),
           "Saves the terrain to the terrain file fn; if geometryName is given, the geometry is also saved to "
           "that file and referenced from fn. Returns True on success, False (with an error logged) on failure.")
      .def("getID", &terrainID,
           "Returns the ID of the terrain in its world, or -1 if it is not in a world.")
      .def("getName", &elementName<TerrainModel>,
           "Returns the name of the terrain.")
      .def("setName", &setElementName<TerrainModel>, py::arg("name"),
           "Sets the name of the terrain.")
      .def("geometry", [](const TerrainModel& s) { return Geometry3D{s.get().geometry, s.world, worldLock(s.world)}; },
           "Returns a reference to the terrain's collision geometry.")
      .def("appearance", [](const TerrainModel& s) { return Appearance{s.get().appearance, s.world, worldLock(s.world)}; },
           "Returns a reference to the terrain's appearance.")
      .def("setFriction",
           [](TerrainModel& s, double f) {
             toNonNegative(f, "friction");
             s.get().kFriction = f;
           },
           py::arg("friction"),
           "Sets the terrain's Coulomb friction coefficient (>= 0).")
      .def_property_readonly("world", [](const TerrainModel& s) { return s.world ? worldNumber(s.world.get()) : -1; },
          "Index of the element's world, or -1 for a standalone element.")
      .def_property_readonly("index", &TerrainModel::index,
          "Index of the element among its world's elements of its kind.")
      .def_property_readonly("id", &terrainID, "The terrain's ID in its world (as getID()), -1 if standalone.")
      .def_property("name", &elementName<TerrainModel>, &setElementName<TerrainModel>,
                    "The terrain's name (as getName() / setName()).")
      .def_property_readonly("terrain", [](const TerrainModel& s) { return (std::uintptr_t)s.terrain.get(); },
                             "Opaque address of the underlying C++ terrain.")
      .def("__repr__", [](const TerrainModel& s) {
        return nameToPython(s.terrain ? "<TerrainModel '" + s.terrain->name + "'>" : std::string("<TerrainModel (empty)>"));
      });
}

}  // namespace klampt_py
