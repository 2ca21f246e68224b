// The Python-facing handle types. Each holds shared ownership of the element
// and of the world it was obtained from, so a handle stays valid after its
// WorldModel is dropped; an element removed from its world raises on use.
// Access goes through get(), which first waits for long calls of other
// threads that use the element (use_scope.h).
#pragma once
#include <memory>
#include <pybind11/pybind11.h>
#include <vector>
#include "klampt/model/world.h"

namespace klampt_py {

namespace py = pybind11;

/// Python-visible integer naming a world (the reference's `world` attribute).
int worldNumber(const klampt::World* w);

struct WorldModel {
  std::shared_ptr<klampt::World> world = std::make_shared<klampt::World>();
  /// The world, once no long call of another thread uses it or its robots.
  klampt::World& get() const;
};

/// Waits until no long call of another thread uses the world or its robots.
void awaitWorld(const klampt::World& w);
/// What a long call over a whole world holds: the world's lock and its robots'.
std::vector<klampt::UseLock*> worldLocks(klampt::World& w);

struct RobotModel {
  std::shared_ptr<klampt::World> world;  // null for a standalone robot
  std::shared_ptr<klampt::Robot> robot;

  /// The robot, raising RuntimeError for an empty or removed handle.
  klampt::Robot& get() const;
  /// The robot's use lock, as a pointer that keeps the robot alive.
  std::shared_ptr<const klampt::UseLock> lock() const;
  /// Index of the robot in its world (-1 if standalone).
  int index() const;
  int id() const;
};

struct RobotModelLink {
  RobotModel robot;
  int index = -1;
  klampt::Robot& r() const { return robot.get(); }
  klampt::Link& link() const;
};

struct RobotModelDriver {
  RobotModel robot;
  int index = -1;
  klampt::Robot& r() const { return robot.get(); }
  klampt::Driver& driver() const;
};

struct RigidObjectModel {
  std::shared_ptr<klampt::World> world;
  std::shared_ptr<klampt::RigidObject> object;
  klampt::RigidObject& get() const;
  int index() const;
};

struct TerrainModel {
  std::shared_ptr<klampt::World> world;
  std::shared_ptr<klampt::Terrain> terrain;
  klampt::Terrain& get() const;
  int index() const;
};

struct Geometry3D;

void bindWorld(py::module_& m);
void bindRobot(py::module_& m);
// Links and drivers are declared before RobotModel (whose methods return
// them) and get their methods after it, so every signature names its types.
py::class_<RobotModelLink> declareRobotLink(py::module_& m);
py::class_<RobotModelDriver> declareRobotDriver(py::module_& m);
void bindRobotLink(py::class_<RobotModelLink>& cls);
void bindRobotDriver(py::class_<RobotModelDriver>& cls);
void bindObjects(py::module_& m);
/// Klamp't 0.10's tuples and name mappings of links, drivers and world elements (after bindWorld).
void bindElementLists(py::module_& m);
void bindMass(py::module_& m);
void bindGeometry(py::module_& m);
void bindIK(py::module_& m);
// Methods defined in the files of their own areas, added to classes created
// above: dynamics (robot_dynamics.cpp), collision and geometry queries
// (geometry_queries.cpp).
void bindRobotDynamics(py::class_<RobotModel>& cls);
void bindLinkDynamics(py::class_<RobotModelLink>& cls);
void bindRobotCollision(py::class_<RobotModel>& cls);
void bindGeometryQueries(py::class_<Geometry3D>& cls);

/// The SWIG `thisown` flag of the reference. Memory here is managed by shared
/// ownership, so the flag reads True and assignments are accepted and ignored.
template <class Class>
void addThisown(Class& cls) {
  cls.def_property("thisown", [](py::object) { return true; }, [](py::object, bool) {},
                   "Always True: objects are reference counted (kept for compatibility with SWIG code).");
}


/// Emits loader warnings through Python's warnings module.
void emitWarnings(const std::vector<std::string>& warnings);
/// Reports a failed load through the "klampt" logger (the reference prints it).
void logError(const std::string& message);

}  // namespace klampt_py
