// An inverse-kinematics goal (Klamp't's IKGoal): a position constraint (free,
// planar, linear, fixed) and a rotation constraint (free, axial, fixed) on a
// link, relative to the world or to a destination link. Also its residual and
// the exact derivative of that residual, its text format and transform helpers.
#pragma once
#include <random>
#include <string>
#include <vector>
#include "klampt/math/types.h"

namespace klampt {

enum class IKPosType { Free, Planar, Linear, Fixed };
enum class IKRotType { Free, Axis, Fixed };

struct IKGoal {
  int link = 0;
  int destLink = -1;  // -1: the world frame
  IKPosType posType = IKPosType::Free;
  /// Point on the link; target point (a point on the plane / line); plane
  /// normal or line direction. All target quantities are in the destination frame.
  Vector3 localPosition = Vector3::Zero(), endPosition = Vector3::Zero(), direction = Vector3::Zero();
  IKRotType rotType = IKRotType::Free;
  /// Axial: the link's localAxis must point along endAxis.
  Vector3 localAxis = Vector3::Zero(), endAxis = Vector3::Zero();
  /// Fixed: the link's rotation relative to the destination.
  Matrix3 endRotation = Matrix3::Identity();
  double positionScale = 1.0, rotationScale = 1.0;

  int numPosDims() const;
  int numRotDims() const;
  int numDims() const { return numPosDims() + numRotDims(); }

  /// Fixed position and rotation: the link's frame at T (local point = origin).
  void setFixedTransform(const RigidTransform& T);
  /// Throws std::invalid_argument unless the point lists have the same, nonzero length.
  static void checkPointLists(const std::vector<Vector3>& local, const std::vector<Vector3>& target);
  /// Matches local points to target points: one point fixes a position, two
  /// add an axial rotation, three or more non-collinear points a fixed
  /// rotation (least-squares fit of the point sets). Checks the lists first.
  void setFromPoints(const std::vector<Vector3>& local, const std::vector<Vector3>& target);

  // Whole constraints on `link` relative to `dest` (-1: the world), each
  // checked before it changes anything (ik_objective_setters.cpp).

  /// Throws std::out_of_range for link < 0 or dest < -1, std::invalid_argument for dest == link.
  void setLinks(int link, int dest);
  /// The link's point `local` at `target`, the rotation free.
  void setFixedPoint(int link, int dest, const Vector3& local, const Vector3& target);
  /// setFromPoints between the links.
  void setFixedPoints(int link, int dest, const std::vector<Vector3>& local, const std::vector<Vector3>& target);
  /// setFixedTransform between the links.
  void setFixedTransform(int link, int dest, const RigidTransform& T);

  /// The link's point `local` on the line point + u direction; throws
  /// std::invalid_argument for a zero direction.
  void setLinear(const Vector3& local, const Vector3& point, const Vector3& direction);
  /// The link's axis `local` along `target`; throws std::invalid_argument for a zero axis.
  void setAxial(const Vector3& local, const Vector3& target);
  /// Plane n.p = offset (see the Python docstring for the sign convention).
  void setPlanar(const Vector3& plocal, const Vector3& normal, double offset);

  /// Applies T to the target quantities (goal expressed in another frame).
  void transform(const RigidTransform& T);
  /// Applies T to the local quantities (the link's points and axes move by T).
  void transformLocal(const RigidTransform& T);
  /// Sets the targets so that a link at Trel (relative to the destination) has zero error.
  void matchDestination(const RigidTransform& Trel);
  /// The transform satisfying the goal nearest to T0.
  RigidTransform closestMatch(const RigidTransform& T0) const;
  /// A random transform satisfying the goal (free components: uniform
  /// rotation, standard normal translation).
  RigidTransform sampleTransform(std::mt19937_64& rng) const;

  /// Klamp't's text format: "link dest\n<pos>\n<rot>\n".
  std::string save() const;
  /// Parses save()'s format; returns false (leaving *this unchanged) on errors.
  bool load(const std::string& text);

  /// Writes the numDims() scaled residual entries for a link at Trel.
  void residual(const RigidTransform& Trel, double* out) const;
  /// Derivative of the residual: d(residual) = P v + Q w, where v is the
  /// velocity of the point Trel*localPosition and w the angular velocity of
  /// the link, both relative to the destination and in its frame. Rows
  /// 0..numDims()-1 of P and Q are written.
  void linearize(const RigidTransform& Trel, Eigen::Matrix<double, 6, 3>& P, Eigen::Matrix<double, 6, 3>& Q) const;
};

/// Rotation vector of R (log map), and the inverse of the left Jacobian of
/// SO(3) at m: d log(R)/dt = leftJacobianInverse(log R) w when dR/dt = [w]x R.
Vector3 rotationLog(const Matrix3& R);
Matrix3 leftJacobianInverse(const Vector3& m);

}  // namespace klampt
