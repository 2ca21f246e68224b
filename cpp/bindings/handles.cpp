#include "handles.h"

#include "use_scope.h"

namespace klampt_py {

int worldNumber(const klampt::World* w) { return w ? w->serial : -1; }

klampt::World& WorldModel::get() const {
  awaitWorld(*world);
  return *world;
}

void awaitWorld(const klampt::World& w) {
  // Waiting releases the GIL, during which robots may come and go and other
  // calls may start: repeat until one pass finds nothing held.
  auto busy = [](const klampt::UseLock& l) { return l.held() && !l.heldHere(); };
  for (;;) {
    const klampt::UseLock* held = busy(w.useLock) ? &w.useLock : nullptr;
    for (const auto& r : w.robots)
      if (!held && busy(r->useLock)) held = &r->useLock;
    if (!held) return;
    waitFree(*held);
  }
}

std::vector<klampt::UseLock*> worldLocks(klampt::World& w) {
  std::vector<klampt::UseLock*> locks{&w.useLock};
  for (const auto& r : w.robots) locks.push_back(&r->useLock);
  return locks;
}

klampt::Robot& RobotModel::get() const {
  if (!robot) throw std::runtime_error("RobotModel is empty (not loaded or not part of a world)");
  awaitFree(robot->useLock);
  if (world && robot->world != world.get())
    throw std::runtime_error("RobotModel '" + robot->name + "' has been removed from its world");
  return *robot;
}

std::shared_ptr<const klampt::UseLock> RobotModel::lock() const {
  if (!robot) return nullptr;
  return std::shared_ptr<const klampt::UseLock>(robot, &robot->useLock);
}

int RobotModel::index() const {
  if (!world || !robot) return -1;
  return world->robotIndex(robot.get());
}

int RobotModel::id() const {
  get();
  int i = index();
  return i < 0 ? -1 : world->robotID(i);
}

klampt::Link& RobotModelLink::link() const {
  klampt::Robot& rb = r();
  if (index < 0 || index >= rb.numLinks())
    throw std::runtime_error("RobotModelLink refers to a link that no longer exists");
  return rb.links[index];
}

klampt::Driver& RobotModelDriver::driver() const {
  klampt::Robot& rb = r();
  if (index < 0 || index >= (int)rb.drivers.size())
    throw std::runtime_error("RobotModelDriver refers to a driver that no longer exists");
  return rb.drivers[index];
}

klampt::RigidObject& RigidObjectModel::get() const {
  if (!object) throw std::runtime_error("RigidObjectModel is empty");
  if (world) awaitFree(world->useLock);
  if (world && object->world != world.get())
    throw std::runtime_error("RigidObjectModel '" + object->name + "' has been removed from its world");
  return *object;
}

int RigidObjectModel::index() const {
  if (!world || !object) return -1;
  return world->rigidObjectIndex(object.get());
}

klampt::Terrain& TerrainModel::get() const {
  if (!terrain) throw std::runtime_error("TerrainModel is empty");
  if (world) awaitFree(world->useLock);
  if (world && terrain->world != world.get())
    throw std::runtime_error("TerrainModel '" + terrain->name + "' has been removed from its world");
  return *terrain;
}

int TerrainModel::index() const {
  if (!world || !terrain) return -1;
  return world->terrainIndex(terrain.get());
}

void emitWarnings(const std::vector<std::string>& warnings) {
  if (warnings.empty()) return;
  py::object warn = py::module_::import("warnings").attr("warn");
  for (const std::string& w : warnings) warn(w, py::module_::import("builtins").attr("RuntimeWarning"), 2);
}

void logError(const std::string& message) {
  py::module_::import("logging").attr("getLogger")("klampt").attr("error")(message);
}

}  // namespace klampt_py
