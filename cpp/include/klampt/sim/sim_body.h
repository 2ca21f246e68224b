// One simulated body: an ODE body (none for terrains) with the element's
// geometry placed at its current pose, its collision padding and surface.
#pragma once
#include <array>
#include <ode/ode.h>
#include "klampt/geometry/geometry.h"
#include "klampt/model/mass.h"

namespace klampt {

/// The symmetric part of I with eigenvalues raised to at least `floor`
/// (ODE needs a positive definite inertia).
Matrix3 positiveInertia(const Matrix3& I, double floor);

struct SimBody {
  int objectID = -1;
  /// Which element: a terrain, a rigid object or a robot link.
  int terrain = -1, rigidObject = -1, robot = -1, link = -1;
  /// Null for terrains (static) and for links merged into another body.
  dBodyID body = nullptr;
  double mass = 0;
  /// The center of mass in the element's frame; the ODE body sits there.
  Vector3 localCom = Vector3::Zero();
  /// Inertia about the COM in the element's frame.
  Matrix3 inertia = Matrix3::Identity();
  /// A copy of the element's geometry (shared shape) at the body's pose.
  Geometry geometry;
  bool hasGeometry = false;
  double padding = 0;
  /// Contacts use the shape shrunk by the padding (setCollisionPreshrink).
  bool preshrink = false;
  /// The element's own shape, kept while the geometry holds a shrunk one.
  std::shared_ptr<const GeometryData> originalShape;
  ContactParameters surface;
  bool enabled = true;
  bool dynamicsEnabled = true;
  /// Robot links welded to the world never move.
  bool alwaysKinematic = false;
  /// Wrench (world frame, about the COM) applied over the next simulate call.
  Vector3 pendingForce = Vector3::Zero(), pendingTorque = Vector3::Zero();
  /// Kinetic energy after the last accepted step (instability detection).
  double lastKineticEnergy = 0;
  /// Auto-disable (setting autoDisable): a rigid object idle for long
  /// enough sleeps (its ODE body disabled, velocity zero) until something
  /// touches it, a force is applied, or it is moved.
  bool asleep = false;
  int idleSteps = 0;
  /// Padded world bounding box (static bodies keep theirs).
  Vector3 boxMin = Vector3::Zero(), boxMax = Vector3::Zero();
  bool boxCurrent = false;

  /// The element frame's pose (terrains: their geometry pose).
  RigidTransform objectTransform() const;
  /// The COM-centred body frame's pose.
  RigidTransform comTransform() const;
  void setComTransform(const RigidTransform& T);
  void setObjectTransform(const RigidTransform& T) {
    setComTransform({T.R, T.apply(localCom)});
  }
  /// Angular and linear (COM) velocity, world frame.
  void velocity(Vector3& w, Vector3& v) const;
  void setVelocity(const Vector3& w, const Vector3& v);
  double kineticEnergy() const;
  /// Applies enabled / dynamicsEnabled / asleep to the ODE body.
  void applyFlags();
  /// Puts the original or the preshrunk shape in the geometry, per preshrink
  /// and the current padding.
  void applyPreshrink();
  /// Ends a sleep (no-op when awake).
  void wake();
  /// Whether ODE integrates the body (dynamic, enabled and awake).
  bool active() const;
  /// The body's rotation is always dBodySetQuaternion(rawQuaternion): ODE
  /// renormalizes on every set, so storing the quaternion before that
  /// renormalization is what lets a saved state restore bit for bit.
  std::array<dReal, 4> rawQuaternion{1, 0, 0, 0};
  /// Re-sets the body's quaternion through dBodySetQuaternion (after a step
  /// or an external change) and records it as the raw quaternion.
  void canonicalizeRotation();
  void setRawQuaternion(const dReal* q);
  /// Places the geometry copy at the body's current pose.
  void syncGeometry();
};

}  // namespace klampt
