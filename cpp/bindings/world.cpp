// WorldModel: loading, saving, element access by index, name and ID.
#include "convert.h"
#include "geometry_handle.h"
#include "handles.h"
#include "klampt/io/robot_files.h"
#include "klampt/io/world_files.h"

namespace klampt_py {

using klampt::World;

namespace {

// Loads into a scratch world without the GIL, then moves the elements into
// `w`'s world while holding it, so other threads never see a half-loaded
// world. Returns the scratch world, whose lists name the elements added
// (empty on failure).
template <class Load>
std::unique_ptr<World> loadInto(const WorldModel& w, Load load) {
  auto scratch = std::make_unique<World>();
  scratch->loadGeometry = w.get().loadGeometry;
  klampt::LoadContext ctx;
  ctx.loadGeometry = scratch->loadGeometry;
  try {
    py::gil_scoped_release release;
    load(*scratch, ctx);
  } catch (const std::exception& e) {
    emitWarnings(ctx.warnings);
    logError(e.what());
    return nullptr;
  }
  emitWarnings(ctx.warnings);
  World& world = w.get();  // other threads ran meanwhile: wait for their long calls again
  world.addAll(*scratch);
  return scratch;
}

bool readWorldFile(const WorldModel& w, const std::string& fn) {
  return loadInto(w, [&](World& scratch, klampt::LoadContext& ctx) { klampt::loadWorldFile(scratch, fn, ctx); }) !=
         nullptr;
}

template <class Vec>
int elementIndex(const Vec& elements, py::handle arg, const char* what) {
  if (py::isinstance<py::str>(arg)) {
    std::string name = arg.cast<std::string>();
    for (size_t i = 0; i < elements.size(); ++i)
      if (elements[i]->name == name) return (int)i;
    throw py::key_error(std::string("no ") + what + " named '" + name + "'");
  }
  long i = arg.cast<long>();
  checkIndex(i, (long)elements.size(), what);
  return (int)i;
}

void checkID(const World& w, int id) {
  if (w.element(id).kind == klampt::ElementRef::None)
    throw py::index_error("world ID " + std::to_string(id) + " out of range [0, " + std::to_string(w.numIDs()) + ")");
}

// The use lock guarding element `id`'s geometry and appearance: its robot's
// for a link, the world's otherwise.
std::shared_ptr<const klampt::UseLock> elementLock(const WorldModel& s, int id) {
  const klampt::ElementRef e = s.get().element(id);
  if (e.kind == klampt::ElementRef::RobotLink) return RobotModel{s.world, s.get().robots[e.index]}.lock();
  return worldLock(s.world);
}

}  // namespace

void bindWorld(py::module_& m) {
  py::class_<WorldModel> cls(m, "WorldModel", "The main world class, containing robots, rigid objects, and static environment geometry.");
  addThisown(cls);
  cls.def(py::init<>())
      .def(py::init([](const WorldModel& other) { return WorldModel{other.world}; }), py::arg("w"),
           "A reference to the same world (use copy() for a copy).")
      .def(py::init([](const std::string& fn) {
             WorldModel w;
             if (!readWorldFile(w, fn)) {
               PyErr_SetString(PyExc_IOError, ("could not load world file '" + fn + "'").c_str());
               throw py::error_already_set();
             }
             return w;
           }),
           py::arg("fn"), "Loads a world file; raises IOError on failure.")
      .def("copy", [](const WorldModel& s) { return WorldModel{s.get().copy()}; },
           "A copy of the world; geometries and appearances are shared, so this is quick.")
      .def("readFile", [](WorldModel& s, const std::string& fn) { return readWorldFile(s, fn); }, py::arg("fn"),
           "Reads a world XML file, or a single robot, rigid object or terrain file, adding its elements to this "
           "world; returns True on success, False (with an error logged) on failure.")
      .def("loadFile", [](WorldModel& s, const std::string& fn) { return readWorldFile(s, fn); }, py::arg("fn"),
           "Same as readFile: adds the elements of a world XML file or a single element file to this world; "
           "returns True on success, False (with an error logged) on failure.")
      .def("saveFile",
           [](const WorldModel& s, const std::string& fn, OptionalStrArg elementDir) {
             try {
               klampt::saveWorldXml(s.get(), fn, elementDir.is_none() ? "" : elementDir.cast<std::string>());
             } catch (const std::exception& e) {
               logError(e.what());
               return false;
             }
             return true;
           },
           py::arg("fn"), py::arg("elementDir") = py::none(),
           "Saves the world to the XML file fn, saving the robots, objects and terrains into the folder "
           "elementDir (default: fn without its .xml extension); returns True on success, False (with an error "
           "logged) on failure.")
      .def("numRobots", [](const WorldModel& s) { return (int)s.get().robots.size(); },
           "Returns the number of robots.")
      .def("numRobotLinks",
           [](const WorldModel& s, int r) {
             checkIndex(r, (long)s.get().robots.size(), "robot");
             return s.get().robots[r]->numLinks();
           },
           py::arg("robot"),
           "Returns the number of links of the robot with index robot.")
      .def("numRigidObjects", [](const WorldModel& s) { return (int)s.get().rigidObjects.size(); },
           "Returns the number of rigid objects.")
      .def("numTerrains", [](const WorldModel& s) { return (int)s.get().terrains.size(); },
           "Returns the number of terrains.")
      .def("numIDs", [](const WorldModel& s) { return s.get().numIDs(); },
           "Returns the number of IDs in the world: robots, robot links, rigid objects and terrains each have "
           "one.")
      .def("robot",
           [](const WorldModel& s, IndexOrNameArg arg) {
             return RobotModel{s.world, s.get().robots[elementIndex(s.get().robots, arg, "robot")]};
           },
           py::arg("index"),
           "Returns a reference to the robot given by index or name; IndexError or KeyError if there is none.")
      .def("robotLink",
           [](const WorldModel& s, IndexOrNameArg robot, IndexOrNameArg link) {
             RobotModel r{s.world, s.get().robots[elementIndex(s.get().robots, robot, "robot")]};
             int li;
             if (py::isinstance<py::str>(link)) {
               li = r.robot->linkIndex(link.cast<std::string>());
               if (li < 0) throw py::key_error("no link named '" + link.cast<std::string>() + "'");
             } else {
               li = link.cast<int>();
               checkIndex(li, r.robot->numLinks(), "link");
             }
             return RobotModelLink{r, li};
           },
           py::arg("robot"), py::arg("index"),
           "Returns a reference to a link of a robot, each given by index or name; IndexError or KeyError if "
           "there is none.")
      .def("rigidObject",
           [](const WorldModel& s, IndexOrNameArg arg) {
             return RigidObjectModel{s.world, s.get().rigidObjects[elementIndex(s.get().rigidObjects, arg, "rigid object")]};
           },
           py::arg("index"),
           "Returns a reference to the rigid object given by index or name; IndexError or KeyError if there is "
           "none.")
      .def("terrain",
           [](const WorldModel& s, IndexOrNameArg arg) {
             return TerrainModel{s.world, s.get().terrains[elementIndex(s.get().terrains, arg, "terrain")]};
           },
           py::arg("index"),
           "Returns a reference to the terrain given by index or name; IndexError or KeyError if there is none.")
      .def("makeRobot",
           [](WorldModel& s, const std::string& name) {
             auto r = std::make_shared<klampt::Robot>();
             r->name = name;
             s.get().add(r);
             return RobotModel{s.world, r};
           },
           py::arg("name"),
           "Adds a new empty robot with the given name to the world and returns it.")
      .def("makeRigidObject",
           [](WorldModel& s, const std::string& name) {
             auto o = std::make_shared<klampt::RigidObject>();
             o->name = name;
             s.get().add(o);
             return RigidObjectModel{s.world, o};
           },
           py::arg("name"),
           "Adds a new empty rigid object with the given name to the world and returns it.")
      .def("makeTerrain",
           [](WorldModel& s, const std::string& name) {
             auto t = std::make_shared<klampt::Terrain>();
             t->name = name;
             s.get().add(t);
             return TerrainModel{s.world, t};
           },
           py::arg("name"),
           "Adds a new empty terrain with the given name to the world and returns it.")
      .def("loadRobot",
           [](WorldModel& s, const std::string& fn) {
             auto added = loadInto(s, [&](World& w, klampt::LoadContext& ctx) { w.add(klampt::loadRobotFile(fn, ctx)); });
             return added ? RobotModel{s.world, added->robots[0]} : RobotModel{};
           },
           py::arg("fn"), "Loads a .rob or .urdf robot; an empty RobotModel is returned on failure.")
      .def("loadRigidObject",
           [](WorldModel& s, const std::string& fn) {
             auto added = loadInto(s, [&](World& w, klampt::LoadContext& ctx) { w.add(klampt::loadRigidObjectFile(fn, ctx)); });
             return added ? RigidObjectModel{s.world, added->rigidObjects[0]} : RigidObjectModel{};
           },
           py::arg("fn"),
           "Loads a rigid object from the file fn (a .obj object file or any geometry file) into the world and "
           "returns it; returns an invalid RigidObjectModel (with an error logged) on failure.")
      .def("loadTerrain",
           [](WorldModel& s, const std::string& fn) {
             auto added = loadInto(s, [&](World& w, klampt::LoadContext& ctx) { w.add(klampt::loadTerrainFile(fn, ctx)); });
             return added ? TerrainModel{s.world, added->terrains[0]} : TerrainModel{};
           },
           py::arg("fn"),
           "Loads a terrain from the file fn (an .env terrain file or any geometry file) into the world and "
           "returns it; returns an invalid TerrainModel (with an error logged) on failure.")
      .def("loadElement",
           [](WorldModel& s, const std::string& fn) {
             auto added = loadInto(s, [&](World& scratch, klampt::LoadContext& ctx) { klampt::loadElement(scratch, fn, ctx); });
             if (!added) return -1;
             const World& w = s.get();
             if (!added->terrains.empty()) return w.terrainID(w.terrainIndex(added->terrains[0].get()));
             if (!added->rigidObjects.empty()) return w.rigidObjectID(w.rigidObjectIndex(added->rigidObjects[0].get()));
             if (!added->robots.empty()) return w.robotID(w.robotIndex(added->robots[0].get()));
             return -1;
           },
           py::arg("fn"), "Loads a robot, rigid object or terrain file (meshes become terrains); returns its ID or -1.")
      .def("add",
           [](WorldModel& s, const std::string& name, const RobotModel& r) {
             auto c = klampt::copyRobot(r.get());
             c->name = name;
             s.get().add(c);
             return RobotModel{s.world, c};
           },
           py::arg("name"), py::arg("robot"),
           "Adds a copy of the robot (from any world) under the given name and returns the copy.")
      .def("add",
           [](WorldModel& s, const std::string& name, const RigidObjectModel& o) {
             auto c = klampt::copyRigidObject(o.get());
             c->name = name;
             s.get().add(c);
             return RigidObjectModel{s.world, c};
           },
           py::arg("name"), py::arg("obj"),
           "Adds a copy of the rigid object obj (from any world) under the given name and returns the copy.")
      .def("add",
           [](WorldModel& s, const std::string& name, const TerrainModel& t) {
             auto c = klampt::copyTerrain(t.get());
             c->name = name;
             s.get().add(c);
             return TerrainModel{s.world, c};
           },
           py::arg("name"), py::arg("terrain"),
           "Adds a copy of the terrain (from any world) under the given name and returns the copy.")
      .def("remove",
           [](WorldModel& s, const RobotModel& r) {
             if (s.get().robotIndex(r.robot.get()) < 0) throw py::value_error("the robot is not in this world");
             s.get().remove(r.robot.get());
           },
           py::arg("robot"),
           "Removes the robot from this world (ValueError if it is not in it).")
      .def("remove",
           [](WorldModel& s, const RigidObjectModel& o) {
             if (s.get().rigidObjectIndex(o.object.get()) < 0) throw py::value_error("the rigid object is not in this world");
             s.get().remove(o.object.get());
           },
           py::arg("object"),
           "Removes the rigid object from this world (ValueError if it is not in it).")
      .def("remove",
           [](WorldModel& s, const TerrainModel& t) {
             if (s.get().terrainIndex(t.terrain.get()) < 0) throw py::value_error("the terrain is not in this world");
             s.get().remove(t.terrain.get());
           },
           py::arg("terrain"),
           "Removes the terrain from this world (ValueError if it is not in it).")
      .def("getName",
           [](const WorldModel& s, int id) {
             checkID(s.get(), id);
             return nameToPython(s.get().elementName(id));
           },
           py::arg("id"),
           "Returns the name of the element with the given world ID.")
      .def("geometry",
           [](const WorldModel& s, int id) {
             checkID(s.get(), id);
             auto g = s.get().elementGeometry(id);
             if (!g) throw py::value_error("world ID " + std::to_string(id) + " is a robot, which has no geometry");
             return Geometry3D{g, s.world, elementLock(s, id)};
           },
           py::arg("id"),
           "Returns a reference to the geometry of the element with the given world ID (a robot link, rigid "
           "object or terrain); ValueError for a robot.")
      .def("appearance",
           [](const WorldModel& s, int id) {
             checkID(s.get(), id);
             auto a = s.get().elementAppearance(id);
             if (!a) throw py::value_error("world ID " + std::to_string(id) + " is a robot, which has no appearance");
             return Appearance{a, s.world, elementLock(s, id)};
           },
           py::arg("id"),
           "Returns a reference to the appearance of the element with the given world ID (a robot link, rigid "
           "object or terrain); ValueError for a robot.")
      .def("structureStamp", [](const WorldModel& s) { return s.get().structureStamp; },
           "A number that changes whenever an element is added, removed or reloaded, or a robot's links change, "
           "never to a value it had before: whatever derived data from the world's structure (simulators, "
           "klampt.model.collide.WorldCollider) compares it to tell that its data are stale.")
      .def("enableGeometryLoading", [](WorldModel& s, bool enabled) { s.get().loadGeometry = enabled; },
           py::arg("enabled"),
           "Turns loading of geometries on or off for later file loads: when off, elements are loaded without "
           "their geometries.")
      .def("enableInitCollisions", [](WorldModel&, bool) {}, py::arg("enabled"),
           "Accepted for compatibility: collision structures are always built lazily on first use.")
      .def_property_readonly("index", [](const WorldModel& s) { return worldNumber(s.world.get()); },
          "The world's number, which element handles report as their world.")
      .def("__repr__", [](const WorldModel& s) {
        const World& w = s.get();
        return "<WorldModel with " + std::to_string(w.robots.size()) + " robots, " +
               std::to_string(w.rigidObjects.size()) + " rigid objects, " + std::to_string(w.terrains.size()) +
               " terrains>";
      });
}

}  // namespace klampt_py
