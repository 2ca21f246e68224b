#include "klampt/model/kinematics.h"

namespace klampt {

void jacobianColumn(const Robot& robot, int link, const Vector3& pworld, int j, Vector3& angular, Vector3& linear) {
  if (!robot.isAncestor(j, link)) {
    angular.setZero();
    linear.setZero();
    return;
  }
  const RigidTransform& Tj = robot.linkTransforms[j];
  Vector3 axis = Tj.R * robot.links[j].axis;
  if (robot.links[j].prismatic) {
    angular.setZero();
    linear = axis;
  } else {
    angular = axis;
    linear = axis.cross(pworld - Tj.t);
  }
}

void linkJacobian(const Robot& robot, int link, const Vector3& plocal, RowMatrixMap J) {
  J.setZero();
  const Vector3 p = robot.linkTransforms[link].apply(plocal);
  for (int j = link; j >= 0; j = robot.links[j].parent) {
    const RigidTransform& Tj = robot.linkTransforms[j];
    Vector3 axis = Tj.R * robot.links[j].axis;
    if (robot.links[j].prismatic) {
      J.block<3, 1>(3, j) = axis;
    } else {
      J.block<3, 1>(0, j) = axis;
      J.block<3, 1>(3, j) = axis.cross(p - Tj.t);
    }
  }
}

void positionJacobian(const Robot& robot, int link, const Vector3& plocal, RowMatrixMap J) {
  J.setZero();
  const Vector3 p = robot.linkTransforms[link].apply(plocal);
  for (int j = link; j >= 0; j = robot.links[j].parent) {
    const RigidTransform& Tj = robot.linkTransforms[j];
    Vector3 axis = Tj.R * robot.links[j].axis;
    J.col(j) = robot.links[j].prismatic ? axis : Vector3(axis.cross(p - Tj.t));
  }
}

void orientationJacobian(const Robot& robot, int link, RowMatrixMap J) {
  J.setZero();
  for (int j = link; j >= 0; j = robot.links[j].parent)
    if (!robot.links[j].prismatic) J.col(j) = robot.linkTransforms[j].R * robot.links[j].axis;
}

Vector3 pointVelocity(const Robot& robot, int link, const Vector3& plocal) {
  const Vector3 p = robot.linkTransforms[link].apply(plocal);
  Vector3 v = Vector3::Zero();
  for (int j = link; j >= 0; j = robot.links[j].parent) {
    const RigidTransform& Tj = robot.linkTransforms[j];
    Vector3 axis = Tj.R * robot.links[j].axis;
    if (robot.links[j].prismatic)
      v += axis * robot.dq[j];
    else
      v += axis.cross(p - Tj.t) * robot.dq[j];
  }
  return v;
}

Vector3 angularVelocity(const Robot& robot, int link) {
  Vector3 w = Vector3::Zero();
  for (int j = link; j >= 0; j = robot.links[j].parent)
    if (!robot.links[j].prismatic) w += robot.linkTransforms[j].R * robot.links[j].axis * robot.dq[j];
  return w;
}

Vector3 centerOfMass(const Robot& robot) {
  Vector3 c = Vector3::Zero();
  double m = 0;
  for (int i = 0; i < robot.numLinks(); ++i) {
    const Mass& mi = robot.links[i].mass;
    c += mi.mass * robot.linkTransforms[i].apply(mi.com);
    m += mi.mass;
  }
  return m > 0 ? Vector3(c / m) : Vector3::Zero();
}

// Accumulates sum_i m_i * d(com_i)/dq_j / M into column `col` for DOF j.
static Vector3 comJacobianColumn(const Robot& robot, int j, double totalMass) {
  Vector3 col = Vector3::Zero();
  const RigidTransform& Tj = robot.linkTransforms[j];
  const Vector3 axis = Tj.R * robot.links[j].axis;
  const bool prismatic = robot.links[j].prismatic;
  for (int i = j; i < robot.numLinks(); ++i) {
    if (!robot.isAncestor(j, i)) continue;
    const Mass& mi = robot.links[i].mass;
    if (mi.mass == 0) continue;
    Vector3 ci = robot.linkTransforms[i].apply(mi.com);
    col += mi.mass * (prismatic ? axis : Vector3(axis.cross(ci - Tj.t)));
  }
  return col / totalMass;
}

static double totalMass(const Robot& robot) {
  double m = 0;
  for (const Link& l : robot.links) m += l.mass.mass;
  return m;
}

void comJacobian(const Robot& robot, RowMatrixMap J) {
  J.setZero();
  const double M = totalMass(robot);
  if (M <= 0) return;
  // Accumulate mass-weighted COMs of subtrees bottom-up, then one column per DOF.
  const int n = robot.numLinks();
  std::vector<Vector3> subtreeMoment(n, Vector3::Zero());
  std::vector<double> subtreeMass(n, 0.0);
  for (int i = n - 1; i >= 0; --i) {
    const Mass& mi = robot.links[i].mass;
    subtreeMoment[i] += mi.mass * robot.linkTransforms[i].apply(mi.com);
    subtreeMass[i] += mi.mass;
    int p = robot.links[i].parent;
    if (p >= 0) {
      subtreeMoment[p] += subtreeMoment[i];
      subtreeMass[p] += subtreeMass[i];
    }
  }
  for (int j = 0; j < n; ++j) {
    const RigidTransform& Tj = robot.linkTransforms[j];
    const Vector3 axis = Tj.R * robot.links[j].axis;
    if (robot.links[j].prismatic)
      J.col(j) = axis * (subtreeMass[j] / M);
    else
      J.col(j) = axis.cross(subtreeMoment[j] - subtreeMass[j] * Tj.t) / M;
  }
}

void comJacobianCols(const Robot& robot, const std::vector<int>& links, RowMatrixMap J) {
  J.setZero();
  const double M = totalMass(robot);
  if (M <= 0) return;
  for (size_t k = 0; k < links.size(); ++k) J.col(k) = comJacobianColumn(robot, links[k], M);
}

}  // namespace klampt
