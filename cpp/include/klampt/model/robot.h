// The robot model: links (one scalar DOF each), joints grouping links, drivers
// mapping actuators to links, limits, and the current state (q, dq) with the
// link transforms forward kinematics derives from it.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>
#include "klampt/geometry/geometry.h"
#include "klampt/model/mass.h"
#include "klampt/model/structure_stamp.h"
#include "klampt/model/use_lock.h"

namespace klampt {

struct World;
struct RobotSensorSet;

/// Holds a robot's kinematic sensors (RobotModel.sensor), made from the
/// "sensors" property on first use. A copied robot starts without any.
struct RobotSensorSlot {
  std::shared_ptr<RobotSensorSet> sensors;
  RobotSensorSlot() = default;
  RobotSensorSlot(const RobotSensorSlot&) {}
  RobotSensorSlot& operator=(const RobotSensorSlot&) {
    sensors.reset();
    return *this;
  }
};

enum class JointType { Weld, Normal, Spin, Floating, FloatingPlanar, BallAndSocket };
enum class DriverType { Normal, Affine, Translation, Rotation };

const char* jointTypeName(JointType type);      // "weld", "normal", ...
const char* driverTypeName(DriverType type);    // "normal", "affine", ...

/// A joint groups the links that move together: one link for weld/normal/spin,
/// the chain from `baseIndex` (exclusive) to `linkIndex` for the others.
struct Joint {
  JointType type = JointType::Normal;
  int linkIndex = -1;
  int baseIndex = -1;
};

/// An actuator. Normal: drives linkIndices[0]. Affine: q[linkIndices[k]] =
/// affScaling[k] * value + affOffset[k]. Translation/Rotation: a force/torque on
/// linkIndices[0] acting along the free joint's axes ending at linkIndices[1].
struct Driver {
  std::string name;
  DriverType type = DriverType::Normal;
  std::vector<int> linkIndices;
  std::vector<double> affScaling, affOffset;
  double qmin = -INFINITY, qmax = INFINITY;
  double vmin = -INFINITY, vmax = INFINITY;
  double tmin = -INFINITY, tmax = INFINITY;
  double amin = -INFINITY, amax = INFINITY;
  double servoP = 0, servoI = 0, servoD = 0;
  double dryFriction = 0, viscousFriction = 0;
};

struct Link {
  std::string name;
  int parent = -1;
  bool prismatic = false;
  Vector3 axis = Vector3::UnitZ();
  /// Transform from this link's frame to its parent's at q = 0.
  RigidTransform parentTransform;
  Mass mass;
  std::shared_ptr<Geometry> geometry = std::make_shared<Geometry>();
  std::shared_ptr<Appearance> appearance = std::make_shared<Appearance>();
};

struct Robot {
  std::string name;
  std::vector<Link> links;
  std::vector<Joint> joints;
  std::vector<Driver> drivers;

  VectorX q, dq;
  /// The reference's `dirty_dynamics` flag, set by setConfig and setVelocity.
  /// No dynamics term is cached, so it changes no result; it is kept with the
  /// robot so every handle to it reads the same value.
  bool dynamicsDirty = true;
  VectorX qMin, qMax, velMin, velMax, accMax, torqueMax, powerMax;
  /// World transform of each link at q (kept current by setConfig).
  std::vector<RigidTransform> linkTransforms;

  /// selfCollision[i * n + j] (i < j): whether links i and j are checked.
  std::vector<char> selfCollision;
  /// Free-form properties from the file (`property name value`), in order;
  /// "sensors" and "controller" hold XML text.
  std::vector<std::pair<std::string, std::string>> properties;

  RobotSensorSlot kinematicSensors;

  /// The world holding this robot, or null once removed (non-owning).
  World* world = nullptr;

  /// Identifies the current links, joints and drivers (see structure_stamp.h);
  /// assigning another robot takes its stamp, which is new to this one.
  StructureStamp structureStamp = newStructureStamp();
  /// Call after editing links, joints or drivers in place: takes a new stamp
  /// for the robot and for its world.
  void structureChanged();
  /// Held by a long operation that uses the robot from another thread.
  UseLock useLock;

  int numLinks() const { return (int)links.size(); }

  /// Resizes every per-link array to n links with Klamp't's defaults.
  void resize(int n);
  /// Sets q and recomputes every link transform.
  void setConfig(const VectorX& config);
  /// Sets dq.
  void setVelocity(const VectorX& velocity);
  /// Recomputes link transforms from q (parents always precede children) and
  /// places each link's geometry at its link's transform.
  void updateFrames();
  /// Recomputes link i's transform from its parent's (already current).
  void updateLinkFrame(int i);
  /// updateLinkFrame without placing the link's geometry (for callers that
  /// read only linkTransforms).
  void placeLinkFrame(int i);
  /// placeLinkFrame given sin and cos of q[i] (which prismatic links ignore).
  void placeLinkFrame(int i, double sinQ, double cosQ);
  /// Places the frames of `frames` in order (each after its parent), with
  /// their sines and cosines computed together; with placeGeometry, their
  /// geometries too. The same transforms as placeLinkFrame on each, bit for bit.
  void placeLinkFrames(const std::vector<int>& frames, bool placeGeometry);
  /// Recomputes the transforms of `link` and its descendants only.
  void updateSubtree(int link);
  /// Transform contributed by link i's own DOF at value qi.
  RigidTransform jointMotion(int i, double qi) const;

  /// Index of the joint that link i belongs to.
  int jointOfLink(int i) const;
  /// True if `ancestor` is link i or one of its ancestors.
  bool isAncestor(int ancestor, int i) const;
  /// Link index by name, -1 if absent.
  int linkIndex(const std::string& name) const;
  int driverIndex(const std::string& name) const;

  /// Default self-collision pairs: every pair that is neither adjacent nor
  /// both geometry-less... (Klamp't: all non-adjacent pairs, parent/child off).
  void initDefaultSelfCollision();
  bool selfCollisionEnabled(int i, int j) const;
  void setSelfCollision(int i, int j, bool enabled);

  /// Default joints (normal; welded roots with zero velocity limits) and one
  /// normal driver per normal/spin joint, as the .rob loader builds them.
  void initDefaultJointsAndDrivers();

  /// Driver value from a configuration, and its inverse (see Driver).
  double driverValue(int d, const VectorX& config) const;
  double driverVelocity(int d, const VectorX& velocity) const;
  void setDriverValue(int d, double value, VectorX& config) const;
  void setDriverVelocity(int d, double value, VectorX& velocity) const;
  /// Copies the affected links' limits into a normal/translation/rotation driver.
  void setDriverLimitsFromLinks(int d);

  std::string property(const std::string& key) const;
  void setProperty(const std::string& key, const std::string& value);
};

}  // namespace klampt
