// The IK variables of a robot: one per free active DOF and one per affine
// driver touching an active DOF (moving all its links together); weld joints
// get none. Shared by the single-robot and the generalized solvers.
#pragma once
#include <vector>
#include "klampt/model/robot.h"

namespace klampt {

class RobotVars {
 public:
  struct Var {
    int driver = -1;  // affine driver, or -1 for a single DOF
    std::vector<int> links;
    std::vector<double> scale, offset;
  };

  RobotVars(const Robot& robot, const std::vector<int>& dofs);

  int size() const { return (int)vars_.size(); }
  const std::vector<Var>& vars() const { return vars_; }
  /// Every link moved by a variable, variable by variable (Jacobian columns).
  const std::vector<int>& links() const { return links_; }

  /// Variable values of configuration q, written at x[offset...].
  void get(const Robot& robot, const VectorX& q, double* x) const;
  /// Writes the variables into q (links of affine drivers stay consistent).
  void set(const double* x, VectorX& q) const;
  /// out[:, offset + k] += sum of scale * raw[:, column of each link of var k],
  /// where raw has one column per entry of links().
  void reduceColumns(const MatrixX& raw, MatrixX& out, int offset) const;
  /// Chain rule from a gradient over all robot DOFs to the variables.
  void reduceGradient(const VectorX& full, double* g) const;
  /// Per variable: 2 pi for a single revolute DOF (the kinematics repeat
  /// with that period), 0 otherwise.
  void periods(const Robot& robot, VectorX& p) const;
  /// Variable bounds: the intersection of the limits of each variable's links.
  void bounds(const VectorX& qmin, const VectorX& qmax, double* bmin, double* bmax) const;

 private:
  std::vector<Var> vars_;
  std::vector<int> links_;
};

/// Non-weld DOFs with a nonzero range that move any of the given links
/// (their ancestors), ascending.
std::vector<int> ancestorDofs(const Robot& robot, const std::vector<int>& links);

}  // namespace klampt
