// The world: terrains, rigid objects and robots, and the ID scheme that numbers
// them (terrains first, then rigid objects, then each robot followed by its links).
#pragma once
#include <memory>
#include <string>
#include <vector>
#include "klampt/model/robot.h"

namespace klampt {

struct RigidObject {
  std::string name;
  std::shared_ptr<Geometry> geometry = std::make_shared<Geometry>();
  std::shared_ptr<Appearance> appearance = std::make_shared<Appearance>();
  Mass mass;
  ContactParameters contact;
  RigidTransform transform;
  Vector3 angularVelocity = Vector3::Zero(), velocity = Vector3::Zero();
  World* world = nullptr;

  /// Moves the object and its geometry.
  void setTransform(const RigidTransform& T) {
    transform = T;
    geometry->currentTransform = T;
  }
};

struct Terrain {
  std::string name;
  std::shared_ptr<Geometry> geometry = std::make_shared<Geometry>();
  std::shared_ptr<Appearance> appearance = std::make_shared<Appearance>();
  double kFriction = 0.5;
  World* world = nullptr;
};

/// What a world ID refers to.
struct ElementRef {
  enum Kind { None, Terrain, RigidObject, Robot, RobotLink } kind = None;
  int index = -1;  // terrain / object / robot index
  int link = -1;   // link index for RobotLink
};

struct World {
  std::vector<std::shared_ptr<Robot>> robots;
  std::vector<std::shared_ptr<RigidObject>> rigidObjects;
  std::vector<std::shared_ptr<Terrain>> terrains;
  /// The world file's <simulation> element, kept verbatim for the simulator.
  std::string simulationXml;
  bool loadGeometry = true;
  /// A number unique to this world in the process (the reference's `world` index).
  const int serial;
  /// Identifies the current list of elements and their structure: it changes
  /// when an element is added, removed or reloaded, or a robot's structure
  /// changes (see structure_stamp.h).
  StructureStamp structureStamp = newStructureStamp();
  /// Call after replacing an element's contents (loading a file into it).
  void structureChanged() { structureStamp = newStructureStamp(); }
  /// Held by a long operation that uses the world from another thread (it
  /// holds the locks of all the world's robots too).
  UseLock useLock;

  World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;
  ~World();

  /// A copy whose elements are new but share geometry data with this one.
  std::shared_ptr<World> copy() const;

  int numIDs() const;
  int robotID(int robotIndex) const;
  int linkID(int robotIndex, int link) const;
  int rigidObjectID(int index) const { return (int)terrains.size() + index; }
  int terrainID(int index) const { return index; }
  ElementRef element(int id) const;
  /// Name of an element; links are "robot[link]". Empty for an invalid id.
  std::string elementName(int id) const;
  /// Geometry of an element, null for robots and invalid ids.
  std::shared_ptr<Geometry> elementGeometry(int id) const;
  std::shared_ptr<Appearance> elementAppearance(int id) const;
  /// ID of the element whose geometry (appearance) this is, or -1.
  int idOfGeometry(const Geometry* g) const;
  int idOfAppearance(const Appearance* a) const;

  int robotIndex(const Robot* r) const;
  int rigidObjectIndex(const RigidObject* o) const;
  int terrainIndex(const Terrain* t) const;

  void add(std::shared_ptr<Robot> r);
  /// Adds the object, placing its geometry at its transform.
  void add(std::shared_ptr<RigidObject> o);
  void add(std::shared_ptr<Terrain> t);
  /// Adds a loaded world's terrains, rigid objects and robots (shared, not
  /// copied: they move to this world, the other world still lists them) and
  /// takes its <simulation> settings if it has any.
  void addAll(const World& loaded);
  /// Removes the element; it keeps its data but no longer belongs to a world.
  void remove(const Robot* r);
  void remove(const RigidObject* o);
  void remove(const Terrain* t);
};

/// Makes `object` (`terrain`) a copy of a loaded one that stays in its
/// world, at the same index: a structural change of that world.
void replaceRigidObject(RigidObject& object, const RigidObject& with);
void replaceTerrain(Terrain& terrain, const Terrain& with);

/// Deep copies of elements that share geometry and appearance data.
std::shared_ptr<Robot> copyRobot(const Robot& r);
std::shared_ptr<RigidObject> copyRigidObject(const RigidObject& o);
std::shared_ptr<Terrain> copyTerrain(const Terrain& t);

}  // namespace klampt
