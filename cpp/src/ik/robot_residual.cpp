// Residual and Jacobian of IK goals on one robot at its current configuration.
#include <cmath>
#include <stdexcept>
#include <string>

#include "klampt/ik/ik_solver.h"

namespace klampt {

namespace {

bool finite(const Vector3& v) { return v.allFinite(); }

RigidTransform destTransform(const Robot& robot, int dest) {
  return dest >= 0 ? robot.linkTransforms[dest] : RigidTransform::identity();
}

}  // namespace

void checkGoals(const Robot& robot, const std::vector<IKGoal>& goals) {
  const int n = robot.numLinks();
  for (const IKGoal& g : goals) {
    if (g.link < 0 || g.link >= n)
      throw std::out_of_range("IK objective link " + std::to_string(g.link) + " out of range for robot '" +
                              robot.name + "' with " + std::to_string(n) + " links");
    if (g.destLink < -1 || g.destLink >= n)
      throw std::out_of_range("IK objective destination link " + std::to_string(g.destLink) +
                              " out of range for robot '" + robot.name + "'");
    if (g.destLink == g.link) throw std::invalid_argument("IK objective constrains a link relative to itself");
    if (!finite(g.localPosition) || !finite(g.endPosition) || !finite(g.direction) || !finite(g.localAxis) ||
        !finite(g.endAxis) || !g.endRotation.allFinite() || !std::isfinite(g.positionScale) ||
        !std::isfinite(g.rotationScale))
      throw std::invalid_argument("IK objective contains NaN or infinite values");
  }
}

int totalDims(const std::vector<IKGoal>& goals) {
  int r = 0;
  for (const IKGoal& g : goals) r += g.numDims();
  return r;
}

void goalsResidual(const Robot& robot, const std::vector<IKGoal>& goals, VectorX& f) {
  f.resize(totalDims(goals));
  int row = 0;
  for (const IKGoal& g : goals) {
    const RigidTransform Trel = destTransform(robot, g.destLink).inverse() * robot.linkTransforms[g.link];
    g.residual(Trel, f.data() + row);
    row += g.numDims();
  }
}

void goalsJacobian(const Robot& robot, const std::vector<IKGoal>& goals, const std::vector<int>& dofs, MatrixX& J) {
  const int n = robot.numLinks();
  J.setZero(totalDims(goals), (Eigen::Index)dofs.size());
  std::vector<int> colOf(n, -1);
  for (size_t c = 0; c < dofs.size(); ++c) colOf[dofs[c]] = (int)c;
  Eigen::Matrix<double, 6, 3> P, Q;
  int row = 0;
  for (const IKGoal& g : goals) {
    const int k = g.numDims();
    if (k == 0) continue;
    const RigidTransform Td = destTransform(robot, g.destLink);
    const RigidTransform& Tl = robot.linkTransforms[g.link];
    g.linearize(Td.inverse() * Tl, P, Q);
    // Relative velocities are world velocities rotated into the destination frame.
    const Eigen::Matrix<double, 6, 3> Pw = P * Td.R.transpose(), Qw = Q * Td.R.transpose();
    const Vector3 p = Tl.apply(g.localPosition);
    // The link's chain adds its motion; the destination's chain subtracts its own.
    for (int side = 0; side < 2; ++side) {
      const double sign = side == 0 ? 1.0 : -1.0;
      for (int j = side == 0 ? g.link : g.destLink; j >= 0; j = robot.links[j].parent) {
        const int c = colOf[j];
        if (c < 0) continue;
        const RigidTransform& Tj = robot.linkTransforms[j];
        const Vector3 axis = Tj.R * robot.links[j].axis;
        if (robot.links[j].prismatic) {
          J.block(row, c, k, 1) += sign * (Pw.topRows(k) * axis);
        } else {
          const Vector3 lin = axis.cross(p - Tj.t);
          J.block(row, c, k, 1) += sign * (Pw.topRows(k) * lin + Qw.topRows(k) * axis);
        }
      }
    }
    row += k;
  }
}

}  // namespace klampt
