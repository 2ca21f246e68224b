#include "klampt/sim/simulation.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include "klampt/geometry/queries/queries.h"

namespace klampt {

namespace {

// ODE's default handlers print every solver message and abort on errors.
void ignoreMessage(int, const char*, va_list) {}
[[noreturn]] void raiseError(int num, const char* msg, va_list ap) {
  char text[512];
  std::vsnprintf(text, sizeof text, msg, ap);
  throw std::runtime_error("ODE error " + std::to_string(num) + ": " + text);
}

void initODE() {
  static std::once_flag once;
  std::call_once(once, [] {
    dInitODE2(0);
    dSetMessageHandler(ignoreMessage);
    dSetErrorHandler(raiseError);
    dSetDebugHandler(raiseError);
  });
}

constexpr double kMaxCorrectingVelocity = 0.2;  // m/s

}  // namespace

const char* Simulation::statusName(int status) {
  switch (status) {
    case Normal: return "normal";
    case AdaptiveTimeStepping: return "adaptive time stepping";
    case ContactUnreliable: return "contact unreliable";
    case Unstable: return "unstable";
    case Error: return "error";
    default: return "unknown";
  }
}

void Simulation::enterODE() {
  initODE();
  // ODE's per-thread data, set up once by every thread that uses ODE (and
  // released by ODE when the thread exits).
  static thread_local const bool allocated = dAllocateODEDataForThread(dAllocateMaskAll) != 0;
  if (!allocated) throw std::runtime_error("ODE could not allocate its data for this thread");
}

Simulation::Simulation(std::shared_ptr<World> w) : world(std::move(w)) {
  if (!world) throw std::invalid_argument("Simulator needs a world");
  enterODE();
  world_ = dWorldCreate();
  // Without an implementation of its own, every world steps on ODE's one
  // global job queue, which two threads stepping at once corrupt.
  threading_ = dThreadingAllocateSelfThreadedImplementation();
  if (!threading_) {
    dWorldDestroy(world_);
    throw std::runtime_error("ODE could not allocate a threading implementation");
  }
  dWorldSetStepThreadingImplementation(world_, dThreadingImplementationGetFunctions(threading_), threading_);
  // Boundary layers are a few millimetres deep: pushing a body out of one
  // at ERP * depth / dt would launch it (a ball with no restitution would
  // bounce). Capping the correcting velocity leaves bounces to restitution.
  dWorldSetContactMaxCorrectingVel(world_, kMaxCorrectingVelocity);
  contactGroup_ = dJointGroupCreate(0);
  try {
    build();
    for (const auto& r : world->robots) robotSensors.push_back(makeRobotSensors(*r));
    applySimulationXml();
  } catch (...) {
    dJointGroupDestroy(contactGroup_);
    dWorldDestroy(world_);
    dThreadingFreeImplementation(threading_);
    throw;
  }
  setGravity(settings.gravity);
  setSetting("errorReductionParameter", settings.get("errorReductionParameter"));
  computePairFilter();
  initialState = getState();
  builtStamp = world->structureStamp;
}

Simulation::~Simulation() {
  dJointGroupDestroy(contactGroup_);
  dWorldDestroy(world_);
  dThreadingFreeImplementation(threading_);
}

void Simulation::build() {
  bodyOfID.assign(world->numIDs(), -1);
  for (size_t i = 0; i < world->terrains.size(); ++i) {
    const Terrain& t = *world->terrains[i];
    SimBody b;
    b.objectID = world->terrainID((int)i);
    b.terrain = (int)i;
    b.geometry = *t.geometry;
    b.hasGeometry = !t.geometry->empty();
    b.padding = 0;
    b.surface.kFriction = t.kFriction;
    b.surface.kRestitution = 0.1;
    b.surface.kStiffness = 8e5;
    b.surface.kDamping = 2e5;
    b.dynamicsEnabled = false;
    bodyOfID[b.objectID] = (int)bodies.size();
    bodies.push_back(b);
  }
  for (size_t i = 0; i < world->rigidObjects.size(); ++i) {
    const RigidObject& o = *world->rigidObjects[i];
    SimBody b;
    b.objectID = world->rigidObjectID((int)i);
    b.rigidObject = (int)i;
    b.mass = o.mass.mass > 0 ? o.mass.mass : 1e-3;
    b.localCom = o.mass.com;
    b.inertia = positiveInertia(o.mass.inertia, 1e-8 * b.mass);
    const Matrix3& I = b.inertia;
    b.geometry = *o.geometry;
    b.hasGeometry = !o.geometry->empty();
    b.padding = 0.0025;
    b.surface = o.contact;
    b.body = dBodyCreate(world_);
    dMass m;
    dMassSetParameters(&m, b.mass, 0, 0, 0, I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2));
    dBodySetMass(b.body, &m);
    b.setObjectTransform(o.transform);
    b.setVelocity(o.angularVelocity, o.velocity);
    bodyOfID[b.objectID] = (int)bodies.size();
    bodies.push_back(b);
  }
  robots.resize(world->robots.size());
  controllers.resize(world->robots.size());
  nextControlTime.assign(world->robots.size(), 0.0);
  nextSenseTime.assign(world->robots.size(), 0.0);
  builtConfigs.clear();
  for (size_t r = 0; r < world->robots.size(); ++r) {
    Robot& robot = *world->robots[r];
    robot.setConfig(robot.q);
    builtConfigs.push_back(robot.q);
    if (robot.dq.size() != robot.q.size()) robot.dq = VectorX::Zero(robot.q.size());
    buildSimRobot(world_, robot, (int)r, world->linkID((int)r, 0), bodies, robots[r]);
    for (int i = 0; i < robot.numLinks(); ++i)
      if (robots[r].body[i] >= 0) bodyOfID[world->linkID((int)r, i)] = robots[r].body[i];
    controllers[r].init(robot);
  }
  // Collision trees are built here rather than in the first steps.
  for (const SimBody& b : bodies)
    if (b.hasGeometry) prepareContacts(b.geometry);
}

void Simulation::computePairFilter() {
  const int n = (int)bodies.size();
  pairAllowed_.assign((size_t)n * n, 0);
  for (int i = 0; i < n; ++i) {
    const SimBody& a = bodies[i];
    for (int j = i + 1; j < n; ++j) {
      const SimBody& b = bodies[j];
      bool ok;
      if (a.terrain >= 0 && b.terrain >= 0) {
        ok = false;
      } else if (a.robot >= 0 && b.robot >= 0) {
        if (a.robot == b.robot)
          ok = settings.robotSelfCollisions && world->robots[a.robot]->selfCollisionEnabled(a.link, b.link);
        else
          ok = settings.robotRobotCollisions;
      } else if (a.rigidObject >= 0 && b.rigidObject >= 0) {
        ok = settings.rigidObjectCollisions;
      } else {
        ok = true;
      }
      if (ok && a.body && b.body && dAreConnectedExcluding(a.body, b.body, dJointTypeContact)) ok = false;
      pairAllowed_[(size_t)i * n + j] = ok;
    }
  }
  contactsValid_ = false;
}

void Simulation::setGravity(const Vector3& g) {
  settings.gravity = g;
  dWorldSetGravity(world_, g[0], g[1], g[2]);
}

void Simulation::setSetting(const std::string& name, const std::string& value) {
  settings.set(name, value);
  dWorldSetGravity(world_, settings.gravity[0], settings.gravity[1], settings.gravity[2]);
  dWorldSetERP(world_, settings.errorReductionParameter);
  dWorldSetCFM(world_, settings.dampedLeastSquaresParameter);
  if (!settings.autoDisable)
    for (SimBody& b : bodies) b.wake();
  computePairFilter();
}

void Simulation::preshrink(int body, bool shrinkVisualization) {
  SimBody& b = bodies.at(body);
  b.preshrink = true;
  b.applyPreshrink();
  if (shrinkVisualization)
    if (auto g = world->elementGeometry(b.objectID)) g->data = b.geometry.data;
  contactsValid_ = false;
}

void Simulation::setPadding(int body, double padding) {
  SimBody& b = bodies.at(body);
  b.padding = padding;
  if (b.preshrink) b.applyPreshrink();
  b.boxCurrent = false;
  contactsValid_ = false;
}

void Simulation::updateWorld() {
  for (size_t r = 0; r < robots.size(); ++r) {
    Robot& robot = *world->robots[r];
    readSimRobotState(robot, robots[r], bodies, q_, dq_);
    robot.setConfig(q_);
    robot.dq = dq_;
  }
  for (const SimBody& b : bodies) {
    if (b.rigidObject < 0) continue;
    RigidObject& o = *world->rigidObjects[b.rigidObject];
    o.setTransform(b.objectTransform());
    b.velocity(o.angularVelocity, o.velocity);
  }
}

void Simulation::reset() { setState(initialState); }

void Simulation::actualState(int robot, VectorX& q, VectorX& dq) const {
  SimRobot sr = robots[robot];
  readSimRobotState(*world->robots[robot], sr, bodies, q, dq);
}

VectorX Simulation::actualTorques(int robot) const { return controllers[robot].appliedTorque; }

void Simulation::jointForces(int robot, int link, Vector3& f, Vector3& m) const {
  linkJointWrench(robots[robot], bodies, link, f, m);
  const int b = robots[robot].body[link];
  if (b >= 0) {
    const Matrix3 R = bodies[b].objectTransform().R;
    f = R.transpose() * f;
    m = R.transpose() * m;
  }
}

std::vector<std::pair<int, int>> Simulation::overlappingPairs() {
  for (SimBody& b : bodies) b.syncGeometry();
  std::vector<std::pair<int, int>> out;
  for (auto [i, j] : broadPhase(bodies, pairAllowed_)) {
    try {
      if (collides(bodies[i].geometry, bodies[j].geometry))
        out.emplace_back(bodies[i].objectID, bodies[j].objectID);
    } catch (const std::exception&) {
    }
  }
  return out;
}

void Simulation::checkUserJointBodies(int a, int b) const {
  if (b == a) throw std::invalid_argument("a joint needs two different bodies");
  if (!bodies[a].body) throw std::invalid_argument("the first body of a joint must be dynamic (not a terrain)");
}

std::shared_ptr<SimUserJoint> Simulation::addUserJoint(SimUserJoint::Type type, int a, int b, const Vector3& point,
                                                       const Vector3& axis) {
  checkUserJointBodies(a, b);
  enterODE();
  const dBodyID ba = bodies[a].body, bb = b >= 0 ? bodies[b].body : nullptr;
  auto j = std::make_shared<SimUserJoint>();
  j->type = type;
  j->a = a;
  j->b = b;
  const Vector3 u = axis.normalized();
  switch (type) {
    case SimUserJoint::Type::Hinge:
      j->joint = dJointCreateHinge(world_, nullptr);
      dJointAttach(j->joint, ba, bb);
      dJointSetHingeAnchor(j->joint, point[0], point[1], point[2]);
      dJointSetHingeAxis(j->joint, u[0], u[1], u[2]);
      break;
    case SimUserJoint::Type::Slider:
      j->joint = dJointCreateSlider(world_, nullptr);
      dJointAttach(j->joint, ba, bb);
      dJointSetSliderAxis(j->joint, u[0], u[1], u[2]);
      break;
    case SimUserJoint::Type::Fixed:
      j->joint = dJointCreateFixed(world_, nullptr);
      dJointAttach(j->joint, ba, bb);
      dJointSetFixed(j->joint);
      break;
    default:
      throw std::invalid_argument("unknown joint type");
  }
  userJoints.push_back(j);
  computePairFilter();
  return j;
}

void Simulation::destroyUserJoint(SimUserJoint& j) {
  if (j.joint) dJointDestroy(j.joint);
  j.joint = nullptr;
  j.type = SimUserJoint::Type::None;
  userJoints.erase(std::remove_if(userJoints.begin(), userJoints.end(),
                                  [&](const std::shared_ptr<SimUserJoint>& p) { return p.get() == &j; }),
                   userJoints.end());
  computePairFilter();
}

}  // namespace klampt
