// Kinematic quantities of a robot at its current configuration (Robot::q,
// Robot::dq, Robot::linkTransforms): Jacobians, velocities, center of mass.
// Matrices are written into caller-provided row-major buffers so the bindings
// can fill numpy arrays without copies.
#pragma once
#include <vector>
#include "klampt/model/robot.h"

namespace klampt {

using RowMatrixMap = Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

/// 6 x n Jacobian of the point `plocal` of `link`: rows 0-2 angular, 3-5 linear.
void linkJacobian(const Robot& robot, int link, const Vector3& plocal, RowMatrixMap J);
/// 3 x n position Jacobian of the point `plocal` of `link`.
void positionJacobian(const Robot& robot, int link, const Vector3& plocal, RowMatrixMap J);
/// 3 x n orientation Jacobian of `link`.
void orientationJacobian(const Robot& robot, int link, RowMatrixMap J);

/// Column of the 6-row Jacobian of `link` at world point p for DOF j (zero if
/// j does not move `link`).
void jacobianColumn(const Robot& robot, int link, const Vector3& pworld, int j, Vector3& angular, Vector3& linear);

/// World velocity of the point `plocal` of `link` and the link's angular velocity.
Vector3 pointVelocity(const Robot& robot, int link, const Vector3& plocal);
Vector3 angularVelocity(const Robot& robot, int link);

/// Center of mass in world coordinates, and its 3 x n Jacobian.
Vector3 centerOfMass(const Robot& robot);
void comJacobian(const Robot& robot, RowMatrixMap J);
/// 3 x links.size() Jacobian of the COM w.r.t. the given DOFs.
void comJacobianCols(const Robot& robot, const std::vector<int>& links, RowMatrixMap J);

}  // namespace klampt
