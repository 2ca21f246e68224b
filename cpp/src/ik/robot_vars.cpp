#include "klampt/ik/robot_vars.h"

#include <algorithm>
#include <cmath>

namespace klampt {

namespace {

std::vector<char> weldMask(const Robot& robot) {
  const int n = robot.numLinks();
  std::vector<char> welded(n, 0);
  for (const Joint& j : robot.joints)
    if (j.type == JointType::Weld && j.linkIndex >= 0 && j.linkIndex < n) welded[j.linkIndex] = 1;
  return welded;
}

}  // namespace

RobotVars::RobotVars(const Robot& robot, const std::vector<int>& dofs) {
  const int n = robot.numLinks();
  const std::vector<char> welded = weldMask(robot);
  std::vector<int> affineOf(n, -1);
  for (int d = 0; d < (int)robot.drivers.size(); ++d)
    if (robot.drivers[d].type == DriverType::Affine)
      for (int l : robot.drivers[d].linkIndices) affineOf[l] = d;
  std::vector<char> used(n, 0), driverUsed(robot.drivers.size(), 0);
  for (int j : dofs) {
    if (j < 0 || j >= n || welded[j] || used[j]) continue;
    Var v;
    const int d = affineOf[j];
    if (d >= 0) {
      if (driverUsed[d]) continue;
      driverUsed[d] = 1;
      const Driver& dr = robot.drivers[d];
      v.driver = d;
      for (size_t k = 0; k < dr.linkIndices.size(); ++k) {
        const int l = dr.linkIndices[k];
        if (used[l]) continue;
        used[l] = 1;
        v.links.push_back(l);
        v.scale.push_back(dr.affScaling[k]);
        v.offset.push_back(dr.affOffset[k]);
      }
    } else {
      used[j] = 1;
      v.links = {j};
      v.scale = {1.0};
      v.offset = {0.0};
    }
    for (int l : v.links) links_.push_back(l);
    vars_.push_back(std::move(v));
  }
}

void RobotVars::get(const Robot& robot, const VectorX& q, double* x) const {
  for (int k = 0; k < size(); ++k)
    x[k] = vars_[k].driver >= 0 ? robot.driverValue(vars_[k].driver, q) : q[vars_[k].links[0]];
}

void RobotVars::set(const double* x, VectorX& q) const {
  for (int k = 0; k < size(); ++k) {
    const Var& v = vars_[k];
    for (size_t i = 0; i < v.links.size(); ++i) q[v.links[i]] = v.scale[i] * x[k] + v.offset[i];
  }
}

void RobotVars::reduceColumns(const MatrixX& raw, MatrixX& out, int offset) const {
  int c = 0;
  for (int k = 0; k < size(); ++k)
    for (double s : vars_[k].scale) out.col(offset + k) += s * raw.col(c++);
}

void RobotVars::reduceGradient(const VectorX& full, double* g) const {
  for (int k = 0; k < size(); ++k) {
    g[k] = 0;
    for (size_t i = 0; i < vars_[k].links.size(); ++i) g[k] += vars_[k].scale[i] * full[vars_[k].links[i]];
  }
}

void RobotVars::periods(const Robot& robot, VectorX& p) const {
  p.setZero(size());
  for (int k = 0; k < size(); ++k) {
    const Var& v = vars_[k];
    if (v.driver < 0 && !robot.links[v.links[0]].prismatic) p[k] = 2 * M_PI;
  }
}

void RobotVars::bounds(const VectorX& qmin, const VectorX& qmax, double* bmin, double* bmax) const {
  for (int k = 0; k < size(); ++k) {
    const Var& v = vars_[k];
    bmin[k] = -INFINITY;
    bmax[k] = INFINITY;
    for (size_t i = 0; i < v.links.size(); ++i) {
      const double s = v.scale[i];
      if (s == 0) continue;
      double lo = (qmin[v.links[i]] - v.offset[i]) / s, hi = (qmax[v.links[i]] - v.offset[i]) / s;
      if (s < 0) std::swap(lo, hi);
      bmin[k] = std::max(bmin[k], lo);
      bmax[k] = std::min(bmax[k], hi);
    }
    if (bmin[k] > bmax[k]) bmin[k] = bmax[k] = 0.5 * (bmin[k] + bmax[k]);
  }
}

std::vector<int> ancestorDofs(const Robot& robot, const std::vector<int>& links) {
  const int n = robot.numLinks();
  std::vector<char> mark(n, 0);
  for (int link : links)
    for (int j = link; j >= 0 && j < n; j = robot.links[j].parent) mark[j] = 1;
  const std::vector<char> welded = weldMask(robot);
  std::vector<int> dofs;
  for (int i = 0; i < n; ++i)
    if (mark[i] && !welded[i] && robot.qMin[i] != robot.qMax[i]) dofs.push_back(i);
  return dofs;
}

}  // namespace klampt
