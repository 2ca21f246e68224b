// The physics simulation of a World on ODE: bodies, robots, controllers,
// contacts and user joints, stepped with adaptive time stepping and
// instability correction.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>
#include "klampt/dynamics/workspace.h"
#include "klampt/model/world.h"
#include "klampt/sim/robot_controller.h"
#include "klampt/sim/robot_sensors.h"
#include "klampt/sim/sim_body.h"
#include "klampt/sim/sim_contacts.h"
#include "klampt/sim/sim_robot.h"
#include "klampt/sim/sim_settings.h"
#include "klampt/sim/sim_user_joint.h"

namespace klampt {

/// Where the methods are defined: construction, building, settings, user
/// joints, padding and the state queries in simulation.cpp; stepping
/// (simulate, fakeSimulate and every private step helper) in sim_step.cpp;
/// contact feedback (lastContacts, lastContactWrench, feedbackEnabled,
/// summary) in sim_feedback.cpp; auto-disable (updateSleep,
/// keepSleepingContacts) in sim_sleep.cpp; getState/setState in sim_state.cpp,
/// with the contact state's archive in sim_archive.cpp; the world file's
/// <simulation> section (applySimulationXml) in sim_xml.cpp.
struct Simulation {
  enum Status { Normal = 0, AdaptiveTimeStepping = 1, ContactUnreliable = 2, Unstable = 3, Error = 4 };
  static const char* statusName(int status);

  std::shared_ptr<World> world;
  /// The simulated sensors of each robot (index = robot index in the world).
  std::vector<std::shared_ptr<RobotSensorSet>> robotSensors;

  SimSettings settings;
  std::vector<SimBody> bodies;
  /// Body index of each world ID (-1: none).
  std::vector<int> bodyOfID;
  std::vector<SimRobot> robots;
  std::vector<RobotController> controllers;
  std::vector<std::shared_ptr<SimUserJoint>> userJoints;

  double time = 0;
  /// Each robot's configuration when the simulation was built: its ODE
  /// joints measure their angles from the link poses they were made at.
  std::vector<VectorX> builtConfigs;
  /// Per robot, the next period boundaries of its controller and sensors.
  /// Sensors are read in the step that starts at a boundary; the controller
  /// runs in the step that ends at one, as the reference schedules them.
  std::vector<double> nextControlTime, nextSenseTime;
  int status = Normal;
  std::string initialState;
  /// The world's structure stamp when the simulation was built: its bodies,
  /// robots, controllers and sensors follow that structure.
  StructureStamp builtStamp = 0;
  /// Whether the world still has that structure (no element added, removed or
  /// reloaded, no robot's links changed).
  bool worldUnchanged() const { return world->structureStamp == builtStamp; }

  /// Contact feedback: enabled pairs of world IDs (a < b), or all.
  bool feedbackAll = false;
  std::map<std::pair<int, int>, bool> feedbackPairs;
  /// Per pair of world IDs (a < b): what the last simulate() call saw.
  std::map<std::pair<int, int>, ContactSummary> summaries;

  /// Throws std::runtime_error on a bad <simulation> section or sensor XML.
  explicit Simulation(std::shared_ptr<World> world);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  /// Advances by t (sub-stepping at settings.simStep, controllers at their
  /// rates) and updates the world.
  void simulate(double t);
  /// Advances time with every robot following its commanded motion
  /// kinematically (no dynamics), and updates the world.
  void fakeSimulate(double t);
  void updateWorld();
  void reset();
  void setGravity(const Vector3& g);
  void setSetting(const std::string& name, const std::string& value);

  void actualState(int robot, VectorX& q, VectorX& dq) const;
  /// Torque applied by each driver during the last step.
  VectorX actualTorques(int robot) const;
  /// (fx, fy, fz, mx, my, mz) in the link frame, moment about the origin.
  void jointForces(int robot, int link, Vector3& f, Vector3& m) const;
  std::vector<std::pair<int, int>> overlappingPairs();

  /// Contacts of the last step between world IDs a and b (normals into a,
  /// forces on a). b = -1: against anything.
  std::vector<PairContacts> lastContacts(int a, int b) const;
  /// Total force f on a from those contacts, and their torque t about a's
  /// origin (the world origin if a has no body), in the world frame.
  void lastContactWrench(int a, int b, Vector3& f, Vector3& t) const;
  bool feedbackEnabled(int a, int b) const;
  ContactSummary summary(int a, int b) const;

  std::string getState() const;
  /// Returns false on malformed data (the state is then unchanged).
  bool setState(const std::string& data);

  /// Throws std::invalid_argument unless a user joint can join bodies a and b
  /// (b = -1: the world): two different bodies, the first one dynamic.
  void checkUserJointBodies(int a, int b) const;
  /// Adds a user joint between bodies (b = -1: the world), checked by
  /// checkUserJointBodies.
  std::shared_ptr<SimUserJoint> addUserJoint(SimUserJoint::Type type, int a, int b, const Vector3& point,
                                             const Vector3& axis);
  void destroyUserJoint(SimUserJoint& j);

  /// Contacts of a body use its shape shrunk by its padding; with
  /// shrinkVisualization the world element's geometry is shrunk too.
  void preshrink(int body, bool shrinkVisualization);
  /// Sets a body's collision padding (re-shrinking a preshrunk shape).
  void setPadding(int body, double padding);

  /// Call after moving bodies or changing what collides.
  void invalidateContacts() { contactsValid_ = false; }

 private:
  /// Reads and restores the contact state below (sim/sim_archive.cpp).
  friend struct SimulationArchive;
  dWorldID world_ = nullptr;
  /// The world's own (single-threaded) job queue for stepping.
  dThreadingImplementationID threading_ = nullptr;
  dJointGroupID contactGroup_ = nullptr;
  std::vector<PairContacts> contacts_;
  ContactCaches contactCaches_;
  /// The contacts used by the last accepted step, with their forces.
  std::vector<PairContacts> lastStepContacts_;
  bool contactsValid_ = false;
  /// One entry per contact joint of the current step.
  std::vector<dJointFeedback> feedback_;
  std::vector<char> pairAllowed_;
  DynamicsWorkspace ws_;
  VectorX q_, dq_, tau_, linkEffort_;

  struct BodyState {
    dReal pos[3], quat[4], lin[3], ang[3];
  };
  std::vector<BodyState> saved_;

  /// Initialises ODE, and its per-thread data on the calling thread; called
  /// by every method that creates ODE objects or steps.
  static void enterODE();
  void build();
  void applySimulationXml();
  void computePairFilter();
  void refreshContacts();
  /// Robot r's model set to its simulated configuration and velocity.
  Robot& loadActualState(int robot);
  void controlUpdate(int robot);
  void senseUpdate(int robot);
  /// Robot r's control (and sensing) period.
  double controlPeriod(int robot) const;
  void applyEfforts(double dt);
  /// One step of at most h (less after a rollback); returns its length.
  double advance(double h);
  /// Whether the pair closes in fast enough to cross its boundary layer.
  bool approachingFast(const PairContacts& pc, double dt) const;
  void saveBodies();
  void restoreBodies();
  bool bodiesFinite() const;
  /// One ODE step; false when ODE raised an error during it (sim_step.cpp).
  bool stepODE(double dt);
  void correctInstability();
  void recordContacts(double dt);
  /// Auto-disable: puts idle rigid objects to sleep, notes the woken ones.
  void updateSleep();
  /// Auto-disable: the last contacts of pairs that now both sleep (or are
  /// static) stay in the contact records, frozen, without contact joints.
  void keepSleepingContacts();
  void runSensors(int robot, double dt);
};

}  // namespace klampt
