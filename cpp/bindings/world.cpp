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
// `world` while holding it, so other threads never see a half-loaded world.
template <class Load>
bool loadInto(World& world, Load load) {
  World scratch;
  scratch.loadGeometry = world.loadGeometry;
  klampt::LoadContext ctx;
  ctx.loadGeometry = world.loadGeometry;
  try {
    py::gil_scoped_release release;
    load(scratch, ctx);
  } catch (const std::exception& e) {
    emitWarnings(ctx.warnings);
    logError(e.what());
    return false;
  }
  emitWarnings(ctx.warnings);
  for (auto& t : scratch.terrains) world.add(t);
  for (auto& o : scratch.rigidObjects) world.add(o);
  for (auto& r : scratch.robots) world.add(r);
  if (!scratch.simulationXml.empty()) world.simulationXml = scratch.simulationXml;
  scratch.terrains.clear();
  scratch.rigidObjects.clear();
  scratch.robots.clear();
  return true;
}

bool hasXmlExtension(const std::string& fn) {
  if (fn.size() < 4) return false;
  std::string ext = fn.substr(fn.size() - 4);
  for (char& c : ext) c = (char)std::tolower((unsigned char)c);
  return ext == ".xml";
}

// World XML files, or (as the reference allows) any single element file.
bool readWorldFile(World& world, const std::string& fn) {
  return loadInto(world, [&](World& w, klampt::LoadContext& ctx) {
    if (hasXmlExtension(fn))
      klampt::loadWorldXml(w, fn, ctx);
    else
      klampt::loadElement(w, fn, ctx);
  });
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

}  // namespace

void bindWorld(py::module_& m) {
  py::class_<WorldModel> cls(m, "WorldModel", "The main world class, containing robots, rigid objects, and static environment geometry.");
  addThisown(cls);
  cls.def(py::init<>())
      .def(py::init([](const WorldModel& other) { return WorldModel{other.world}; }), py::arg("w"),
           "A reference to the same world (use copy() for a copy).")
      .def(py::init([](const std::string& fn) {
             WorldModel w;
             if (!readWorldFile(*w.world, fn)) {
               PyErr_SetString(PyExc_IOError, ("could not load world file '" + fn + "'").c_str());
               throw py::error_already_set();
             }
             return w;
           }),
           py::arg("fn"), "Loads a world file; raises IOError on failure.")
      .def("copy", [](const WorldModel& s) { return WorldModel{s.world->copy()}; },
           "A copy of the world; geometries and appearances are shared, so this is quick.")
      .def("readFile", [](WorldModel& s, const std::string& fn) { return readWorldFile(*s.world, fn); }, py::arg("fn"))
      .def("loadFile", [](WorldModel& s, const std::string& fn) { return readWorldFile(*s.world, fn); }, py::arg("fn"))
      .def("saveFile",
           [](const WorldModel& s, const std::string& fn, py::object elementDir) {
             try {
               klampt::saveWorldXml(*s.world, fn, elementDir.is_none() ? "" : elementDir.cast<std::string>());
             } catch (const std::exception& e) {
               logError(e.what());
               return false;
             }
             return true;
           },
           py::arg("fn"), py::arg("elementDir") = py::none())
      .def("numRobots", [](const WorldModel& s) { return (int)s.world->robots.size(); })
      .def("numRobotLinks",
           [](const WorldModel& s, int r) {
             checkIndex(r, (long)s.world->robots.size(), "robot");
             return s.world->robots[r]->numLinks();
           },
           py::arg("robot"))
      .def("numRigidObjects", [](const WorldModel& s) { return (int)s.world->rigidObjects.size(); })
      .def("numTerrains", [](const WorldModel& s) { return (int)s.world->terrains.size(); })
      .def("numIDs", [](const WorldModel& s) { return s.world->numIDs(); })
      .def("robot",
           [](const WorldModel& s, py::object arg) {
             return RobotModel{s.world, s.world->robots[elementIndex(s.world->robots, arg, "robot")]};
           },
           py::arg("index"))
      .def("robotLink",
           [](const WorldModel& s, py::object robot, py::object link) {
             RobotModel r{s.world, s.world->robots[elementIndex(s.world->robots, robot, "robot")]};
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
           py::arg("robot"), py::arg("index"))
      .def("rigidObject",
           [](const WorldModel& s, py::object arg) {
             return RigidObjectModel{s.world, s.world->rigidObjects[elementIndex(s.world->rigidObjects, arg, "rigid object")]};
           },
           py::arg("index"))
      .def("terrain",
           [](const WorldModel& s, py::object arg) {
             return TerrainModel{s.world, s.world->terrains[elementIndex(s.world->terrains, arg, "terrain")]};
           },
           py::arg("index"))
      .def("makeRobot",
           [](WorldModel& s, const std::string& name) {
             auto r = std::make_shared<klampt::Robot>();
             r->name = name;
             s.world->add(r);
             return RobotModel{s.world, r};
           },
           py::arg("name"))
      .def("makeRigidObject",
           [](WorldModel& s, const std::string& name) {
             auto o = std::make_shared<klampt::RigidObject>();
             o->name = name;
             s.world->add(o);
             return RigidObjectModel{s.world, o};
           },
           py::arg("name"))
      .def("makeTerrain",
           [](WorldModel& s, const std::string& name) {
             auto t = std::make_shared<klampt::Terrain>();
             t->name = name;
             s.world->add(t);
             return TerrainModel{s.world, t};
           },
           py::arg("name"))
      .def("loadRobot",
           [](WorldModel& s, const std::string& fn) {
             size_t before = s.world->robots.size();
             bool ok = loadInto(*s.world, [&](World& w, klampt::LoadContext& ctx) { w.add(klampt::loadRobotFile(fn, ctx)); });
             return ok ? RobotModel{s.world, s.world->robots[before]} : RobotModel{};
           },
           py::arg("fn"), "Loads a .rob or .urdf robot; an empty RobotModel is returned on failure.")
      .def("loadRigidObject",
           [](WorldModel& s, const std::string& fn) {
             size_t before = s.world->rigidObjects.size();
             bool ok = loadInto(*s.world, [&](World& w, klampt::LoadContext& ctx) { w.add(klampt::loadRigidObjectFile(fn, ctx)); });
             return ok ? RigidObjectModel{s.world, s.world->rigidObjects[before]} : RigidObjectModel{};
           },
           py::arg("fn"))
      .def("loadTerrain",
           [](WorldModel& s, const std::string& fn) {
             size_t before = s.world->terrains.size();
             bool ok = loadInto(*s.world, [&](World& w, klampt::LoadContext& ctx) { w.add(klampt::loadTerrainFile(fn, ctx)); });
             return ok ? TerrainModel{s.world, s.world->terrains[before]} : TerrainModel{};
           },
           py::arg("fn"))
      .def("loadElement",
           [](WorldModel& s, const std::string& fn) {
             // Load into a scratch world, then find the new element's ID here.
             World& w = *s.world;
             size_t nt = w.terrains.size(), no = w.rigidObjects.size(), nr = w.robots.size();
             bool ok = loadInto(w, [&](World& scratch, klampt::LoadContext& ctx) { klampt::loadElement(scratch, fn, ctx); });
             if (!ok) return -1;
             if (w.terrains.size() > nt) return w.terrainID((int)nt);
             if (w.rigidObjects.size() > no) return w.rigidObjectID((int)no);
             if (w.robots.size() > nr) return w.robotID((int)nr);
             return -1;
           },
           py::arg("fn"), "Loads a robot, rigid object or terrain file (meshes become terrains); returns its ID or -1.")
      .def("add",
           [](WorldModel& s, const std::string& name, const RobotModel& r) {
             auto c = klampt::copyRobot(r.get());
             c->name = name;
             s.world->add(c);
             return RobotModel{s.world, c};
           },
           py::arg("name"), py::arg("robot"))
      .def("add",
           [](WorldModel& s, const std::string& name, const RigidObjectModel& o) {
             auto c = klampt::copyRigidObject(o.get());
             c->name = name;
             s.world->add(c);
             return RigidObjectModel{s.world, c};
           },
           py::arg("name"), py::arg("obj"))
      .def("add",
           [](WorldModel& s, const std::string& name, const TerrainModel& t) {
             auto c = klampt::copyTerrain(t.get());
             c->name = name;
             s.world->add(c);
             return TerrainModel{s.world, c};
           },
           py::arg("name"), py::arg("terrain"))
      .def("remove",
           [](WorldModel& s, const RobotModel& r) {
             if (s.world->robotIndex(r.robot.get()) < 0) throw py::value_error("the robot is not in this world");
             s.world->remove(r.robot.get());
           },
           py::arg("robot"))
      .def("remove",
           [](WorldModel& s, const RigidObjectModel& o) {
             if (s.world->rigidObjectIndex(o.object.get()) < 0) throw py::value_error("the rigid object is not in this world");
             s.world->remove(o.object.get());
           },
           py::arg("object"))
      .def("remove",
           [](WorldModel& s, const TerrainModel& t) {
             if (s.world->terrainIndex(t.terrain.get()) < 0) throw py::value_error("the terrain is not in this world");
             s.world->remove(t.terrain.get());
           },
           py::arg("terrain"))
      .def("getName",
           [](const WorldModel& s, int id) {
             checkID(*s.world, id);
             return nameToPython(s.world->elementName(id));
           },
           py::arg("id"))
      .def("geometry",
           [](const WorldModel& s, int id) {
             checkID(*s.world, id);
             auto g = s.world->elementGeometry(id);
             if (!g) throw py::value_error("world ID " + std::to_string(id) + " is a robot, which has no geometry");
             return elementGeometry(g, s.world);
           },
           py::arg("id"))
      .def("appearance",
           [](const WorldModel& s, int id) {
             checkID(*s.world, id);
             auto a = s.world->elementAppearance(id);
             if (!a) throw py::value_error("world ID " + std::to_string(id) + " is a robot, which has no appearance");
             return Appearance{a, s.world};
           },
           py::arg("id"))
      .def("enableGeometryLoading", [](WorldModel& s, bool enabled) { s.world->loadGeometry = enabled; },
           py::arg("enabled"))
      .def("enableInitCollisions", [](WorldModel&, bool) {}, py::arg("enabled"),
           "Accepted for compatibility: collision structures are always built lazily on first use.")
      .def_property_readonly("index", [](const WorldModel& s) { return worldNumber(s.world.get()); })
      .def("__repr__", [](const WorldModel& s) {
        const World& w = *s.world;
        return "<WorldModel with " + std::to_string(w.robots.size()) + " robots, " +
               std::to_string(w.rigidObjects.size()) + " rigid objects, " + std::to_string(w.terrains.size()) +
               " terrains>";
      });
}

}  // namespace klampt_py
