#include "klampt/model/world.h"

#include <algorithm>
#include <atomic>
#include "klampt/geometry/shared_shapes.h"

namespace klampt {

static int newWorldSerial() {
  static std::atomic<int> next{0};
  return next++;
}

World::World() : serial(newWorldSerial()) {}

World::~World() {
  // Handles may outlive the world: detach the elements so they know (those
  // still in it: a loader's scratch world lists elements moved elsewhere).
  for (auto& r : robots)
    if (r->world == this) r->world = nullptr;
  for (auto& o : rigidObjects)
    if (o->world == this) o->world = nullptr;
  for (auto& t : terrains)
    if (t->world == this) t->world = nullptr;
  // Shapes loaded from files that only this world held go now, not at the next load.
  robots.clear();
  rigidObjects.clear();
  terrains.clear();
  releaseUnusedSharedShapes();
}

std::shared_ptr<Robot> copyRobot(const Robot& r) {
  auto c = std::make_shared<Robot>(r);
  // Geometry shape data stays shared; the per-element wrapper is new.
  for (Link& l : c->links) {
    l.geometry = std::make_shared<Geometry>(*l.geometry);
    l.appearance = std::make_shared<Appearance>(*l.appearance);
  }
  c->world = nullptr;
  return c;
}

std::shared_ptr<RigidObject> copyRigidObject(const RigidObject& o) {
  auto c = std::make_shared<RigidObject>(o);
  c->geometry = std::make_shared<Geometry>(*o.geometry);
  c->appearance = std::make_shared<Appearance>(*o.appearance);
  c->world = nullptr;
  return c;
}

std::shared_ptr<Terrain> copyTerrain(const Terrain& t) {
  auto c = std::make_shared<Terrain>(t);
  c->geometry = std::make_shared<Geometry>(*t.geometry);
  c->appearance = std::make_shared<Appearance>(*t.appearance);
  c->world = nullptr;
  return c;
}

std::shared_ptr<World> World::copy() const {
  auto w = std::make_shared<World>();
  for (const auto& t : terrains) w->add(copyTerrain(*t));
  for (const auto& o : rigidObjects) w->add(copyRigidObject(*o));
  for (const auto& r : robots) w->add(copyRobot(*r));
  w->simulationXml = simulationXml;
  w->loadGeometry = loadGeometry;
  return w;
}

int World::numIDs() const {
  int n = (int)(terrains.size() + rigidObjects.size());
  for (const auto& r : robots) n += 1 + r->numLinks();
  return n;
}

int World::robotID(int robotIndex) const {
  int id = (int)(terrains.size() + rigidObjects.size());
  for (int i = 0; i < robotIndex; ++i) id += 1 + robots[i]->numLinks();
  return id;
}

int World::linkID(int robotIndex, int link) const { return robotID(robotIndex) + 1 + link; }

ElementRef World::element(int id) const {
  ElementRef e;
  if (id < 0) return e;
  if (id < (int)terrains.size()) return {ElementRef::Terrain, id, -1};
  id -= (int)terrains.size();
  if (id < (int)rigidObjects.size()) return {ElementRef::RigidObject, id, -1};
  id -= (int)rigidObjects.size();
  for (int i = 0; i < (int)robots.size(); ++i) {
    if (id == 0) return {ElementRef::Robot, i, -1};
    if (id <= robots[i]->numLinks()) return {ElementRef::RobotLink, i, id - 1};
    id -= 1 + robots[i]->numLinks();
  }
  return e;
}

std::string World::elementName(int id) const {
  ElementRef e = element(id);
  switch (e.kind) {
    case ElementRef::Terrain: return terrains[e.index]->name;
    case ElementRef::RigidObject: return rigidObjects[e.index]->name;
    case ElementRef::Robot: return robots[e.index]->name;
    case ElementRef::RobotLink: return robots[e.index]->name + "[" + robots[e.index]->links[e.link].name + "]";
    default: return std::string();
  }
}

std::shared_ptr<Geometry> World::elementGeometry(int id) const {
  ElementRef e = element(id);
  switch (e.kind) {
    case ElementRef::Terrain: return terrains[e.index]->geometry;
    case ElementRef::RigidObject: return rigidObjects[e.index]->geometry;
    case ElementRef::RobotLink: return robots[e.index]->links[e.link].geometry;
    default: return nullptr;
  }
}

std::shared_ptr<Appearance> World::elementAppearance(int id) const {
  ElementRef e = element(id);
  switch (e.kind) {
    case ElementRef::Terrain: return terrains[e.index]->appearance;
    case ElementRef::RigidObject: return rigidObjects[e.index]->appearance;
    case ElementRef::RobotLink: return robots[e.index]->links[e.link].appearance;
    default: return nullptr;
  }
}

int World::idOfGeometry(const Geometry* g) const {
  if (!g) return -1;
  for (int id = 0; id < numIDs(); ++id)
    if (elementGeometry(id).get() == g) return id;
  return -1;
}

int World::idOfAppearance(const Appearance* a) const {
  if (!a) return -1;
  for (int id = 0; id < numIDs(); ++id)
    if (elementAppearance(id).get() == a) return id;
  return -1;
}

template <class T>
static int indexOf(const std::vector<std::shared_ptr<T>>& v, const T* p) {
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i].get() == p) return (int)i;
  return -1;
}

int World::robotIndex(const Robot* r) const { return indexOf(robots, r); }
int World::rigidObjectIndex(const RigidObject* o) const { return indexOf(rigidObjects, o); }
int World::terrainIndex(const Terrain* t) const { return indexOf(terrains, t); }

void World::add(std::shared_ptr<Robot> r) {
  r->world = this;
  robots.push_back(std::move(r));
  structureChanged();
}
void World::add(std::shared_ptr<RigidObject> o) {
  o->world = this;
  o->setTransform(o->transform);
  rigidObjects.push_back(std::move(o));
  structureChanged();
}
void World::add(std::shared_ptr<Terrain> t) {
  t->world = this;
  terrains.push_back(std::move(t));
  structureChanged();
}

void World::addAll(const World& loaded) {
  for (const auto& t : loaded.terrains) add(t);
  for (const auto& o : loaded.rigidObjects) add(o);
  for (const auto& r : loaded.robots) add(r);
  if (!loaded.simulationXml.empty()) simulationXml = loaded.simulationXml;
}

namespace {

template <class Element>
void replaceElement(Element& element, const Element& with) {
  World* world = element.world;
  element = with;
  element.world = world;
  if (world) world->structureChanged();
}

}  // namespace

void replaceRigidObject(RigidObject& object, const RigidObject& with) {
  replaceElement(object, with);
  object.setTransform(object.transform);  // places the new geometry
}

void replaceTerrain(Terrain& terrain, const Terrain& with) { replaceElement(terrain, with); }

template <class T>
static void removeFrom(World& w, std::vector<std::shared_ptr<T>>& v, const T* p) {
  auto it = std::find_if(v.begin(), v.end(), [p](const std::shared_ptr<T>& e) { return e.get() == p; });
  if (it == v.end()) return;
  (*it)->world = nullptr;
  v.erase(it);
  w.structureChanged();
}

void World::remove(const Robot* r) { removeFrom(*this, robots, r); }
void World::remove(const RigidObject* o) { removeFrom(*this, rigidObjects, o); }
void World::remove(const Terrain* t) { removeFrom(*this, terrains, t); }

}  // namespace klampt
