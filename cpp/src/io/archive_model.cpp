// Archives of robots, worlds and IK goals (klampt/io/archive.h).
#include "archive_parts.h"
#include "klampt/io/archive.h"

namespace klampt {

namespace {

using archive::Reader;
using archive::Writer;

const std::uint64_t kModelVersion = 1;

void writeRobot(Writer& w, const Robot& r) {
  w.str(r.name);
  const int n = r.numLinks();
  w.u64(n);
  for (const Link& l : r.links) {
    w.str(l.name);
    w.i64(l.parent);
    w.boolean(l.prismatic);
    w.v3(l.axis);
    w.transform(l.parentTransform);
    archive::writeMass(w, l.mass);
    archive::writeGeometry(w, *l.geometry);
    archive::writeAppearance(w, *l.appearance);
  }
  w.u64(r.joints.size());
  for (const Joint& j : r.joints) {
    w.i64((int)j.type);
    w.i64(j.linkIndex);
    w.i64(j.baseIndex);
  }
  w.u64(r.drivers.size());
  for (const Driver& d : r.drivers) {
    w.str(d.name);
    w.i64((int)d.type);
    w.u64(d.linkIndices.size());
    for (int k : d.linkIndices) w.i64(k);
    w.u64(d.affScaling.size());
    w.doubles(d.affScaling.data(), d.affScaling.size());
    w.u64(d.affOffset.size());
    w.doubles(d.affOffset.data(), d.affOffset.size());
    for (double x : {d.qmin, d.qmax, d.vmin, d.vmax, d.tmin, d.tmax, d.amin, d.amax, d.servoP, d.servoI, d.servoD,
                     d.dryFriction, d.viscousFriction})
      w.f64(x);
  }
  for (const VectorX* v : {&r.q, &r.dq, &r.qMin, &r.qMax, &r.velMin, &r.velMax, &r.accMax, &r.torqueMax, &r.powerMax})
    w.vec(*v);
  for (const RigidTransform& T : r.linkTransforms) w.transform(T);
  w.str(std::string(r.selfCollision.begin(), r.selfCollision.end()));
  w.u64(r.properties.size());
  for (const auto& [k, v] : r.properties) {
    w.str(k);
    w.str(v);
  }
}

std::shared_ptr<Robot> readRobot(Reader& r) {
  auto robot = std::make_shared<Robot>();
  robot->name = r.str();
  const int n = (int)r.count(8);
  robot->resize(n);
  for (int i = 0; i < n; ++i) {
    Link& l = robot->links[i];
    l.name = r.str();
    l.parent = r.index(-1, i - 1);  // parents precede their children
    l.prismatic = r.boolean();
    l.axis = r.v3();
    l.parentTransform = r.transform();
    l.mass = archive::readMass(r);
    l.geometry = std::make_shared<Geometry>(archive::readGeometry(r));
    l.appearance = std::make_shared<Appearance>(archive::readAppearance(r));
  }
  robot->joints.resize(r.count(24));
  for (Joint& j : robot->joints) {
    j.type = (JointType)r.index(0, (int)JointType::BallAndSocket);
    j.linkIndex = r.index(-1, n - 1);
    j.baseIndex = r.index(-1, n - 1);
  }
  robot->drivers.resize(r.count(8));
  for (Driver& d : robot->drivers) {
    d.name = r.str();
    d.type = (DriverType)r.index(0, (int)DriverType::Rotation);
    d.linkIndices.resize(r.count(8));
    for (int& k : d.linkIndices) k = r.index(0, n - 1);
    d.affScaling.resize(r.count(8));
    for (double& x : d.affScaling) x = r.finite();
    d.affOffset.resize(r.count(8));
    for (double& x : d.affOffset) x = r.finite();
    for (double* x : {&d.qmin, &d.qmax, &d.vmin, &d.vmax, &d.tmin, &d.tmax, &d.amin, &d.amax, &d.servoP, &d.servoI,
                      &d.servoD, &d.dryFriction, &d.viscousFriction})
      *x = r.f64();
  }
  for (VectorX* v : {&robot->q, &robot->dq, &robot->qMin, &robot->qMax, &robot->velMin, &robot->velMax,
                     &robot->accMax, &robot->torqueMax, &robot->powerMax}) {
    *v = r.vec();
    if (v->size() != n) Reader::fail("a robot vector does not have one entry per link");
  }
  if (!robot->q.allFinite() || !robot->dq.allFinite()) Reader::fail("a configuration or velocity is not finite");
  for (RigidTransform& T : robot->linkTransforms) T = r.transform();
  const std::string pairs = r.str();
  if (pairs.size() != (std::size_t)n * n) Reader::fail("the self-collision table does not match the links");
  robot->selfCollision.assign(pairs.begin(), pairs.end());
  const std::size_t np = r.count(16);
  for (std::size_t k = 0; k < np; ++k) {
    std::string key = r.str();
    robot->properties.emplace_back(std::move(key), r.str());
  }
  return robot;
}

void writeContact(Writer& w, const ContactParameters& c) {
  for (double x : {c.kFriction, c.kRestitution, c.kStiffness, c.kDamping}) w.f64(x);
}

ContactParameters readContact(Reader& r) {
  ContactParameters c;
  for (double* x : {&c.kFriction, &c.kRestitution, &c.kStiffness, &c.kDamping}) *x = r.f64();
  return c;
}

void writeWorld(Writer& w, const World& world) {
  w.u64(world.terrains.size());
  for (const auto& t : world.terrains) {
    w.str(t->name);
    archive::writeGeometry(w, *t->geometry);
    archive::writeAppearance(w, *t->appearance);
    w.f64(t->kFriction);
  }
  w.u64(world.rigidObjects.size());
  for (const auto& o : world.rigidObjects) {
    w.str(o->name);
    archive::writeGeometry(w, *o->geometry);
    archive::writeAppearance(w, *o->appearance);
    archive::writeMass(w, o->mass);
    writeContact(w, o->contact);
    w.transform(o->transform);
    w.v3(o->angularVelocity);
    w.v3(o->velocity);
  }
  w.u64(world.robots.size());
  for (const auto& r : world.robots) writeRobot(w, *r);
  w.str(world.simulationXml);
  w.boolean(world.loadGeometry);
}

std::shared_ptr<World> readWorld(Reader& r) {
  auto world = std::make_shared<World>();
  const std::size_t nt = r.count(8);
  for (std::size_t k = 0; k < nt; ++k) {
    auto t = std::make_shared<Terrain>();
    t->name = r.str();
    t->geometry = std::make_shared<Geometry>(archive::readGeometry(r));
    t->appearance = std::make_shared<Appearance>(archive::readAppearance(r));
    t->kFriction = r.f64();
    world->add(t);
  }
  const std::size_t no = r.count(8);
  for (std::size_t k = 0; k < no; ++k) {
    auto o = std::make_shared<RigidObject>();
    o->name = r.str();
    o->geometry = std::make_shared<Geometry>(archive::readGeometry(r));
    o->appearance = std::make_shared<Appearance>(archive::readAppearance(r));
    o->mass = archive::readMass(r);
    o->contact = readContact(r);
    o->transform = r.transform();
    o->angularVelocity = r.v3();
    o->velocity = r.v3();
    // add() places the geometry at the object's transform; the stored
    // geometry transform is kept as it was saved.
    const RigidTransform geometryPose = o->geometry->currentTransform;
    world->add(o);
    o->geometry->currentTransform = geometryPose;
  }
  const std::size_t nr = r.count(8);
  for (std::size_t k = 0; k < nr; ++k) world->add(readRobot(r));
  world->simulationXml = r.str();
  world->loadGeometry = r.boolean();
  return world;
}

void writeGoal(Writer& w, const IKGoal& g) {
  w.i64(g.link);
  w.i64(g.destLink);
  w.i64((int)g.posType);
  w.v3(g.localPosition);
  w.v3(g.endPosition);
  w.v3(g.direction);
  w.i64((int)g.rotType);
  w.v3(g.localAxis);
  w.v3(g.endAxis);
  w.m3(g.endRotation);
  w.f64(g.positionScale);
  w.f64(g.rotationScale);
}

IKGoal readGoal(Reader& r) {
  IKGoal g;
  g.link = r.index(INT32_MIN, INT32_MAX);
  g.destLink = r.index(INT32_MIN, INT32_MAX);
  g.posType = (IKPosType)r.index(0, (int)IKPosType::Fixed);
  g.localPosition = r.v3();
  g.endPosition = r.v3();
  g.direction = r.v3();
  g.rotType = (IKRotType)r.index(0, (int)IKRotType::Fixed);
  g.localAxis = r.v3();
  g.endAxis = r.v3();
  g.endRotation = r.m3();
  g.positionScale = r.f64();
  g.rotationScale = r.f64();
  return g;
}

}  // namespace

std::string saveWorldArchive(const World& world) {
  Writer w;
  w.header("world", kModelVersion);
  writeWorld(w, world);
  return std::move(w.bytes);
}

std::shared_ptr<World> loadWorldArchive(const std::string& bytes) {
  Reader r(bytes);
  r.header("world", kModelVersion);
  auto world = readWorld(r);
  r.finish();
  return world;
}

std::string saveRobotArchive(const Robot& robot) {
  Writer w;
  w.header("robot", kModelVersion);
  writeRobot(w, robot);
  return std::move(w.bytes);
}

std::shared_ptr<Robot> loadRobotArchive(const std::string& bytes) {
  Reader r(bytes);
  r.header("robot", kModelVersion);
  auto robot = readRobot(r);
  r.finish();
  return robot;
}

std::string saveIKGoalArchive(const IKGoal& goal) {
  Writer w;
  w.header("ikgoal", kModelVersion);
  writeGoal(w, goal);
  return std::move(w.bytes);
}

IKGoal loadIKGoalArchive(const std::string& bytes) {
  Reader r(bytes);
  r.header("ikgoal", kModelVersion);
  IKGoal g = readGoal(r);
  r.finish();
  return g;
}

}  // namespace klampt
