// IK on one robot: the goals' residual and Jacobian over the robot's DOFs, and
// the solver settings of Klamp't's IKSolver (tolerance, iterations, active
// DOFs, joint limits, bias). Affine drivers move their links together and weld
// joints stay fixed, so every solution respects them.
#pragma once
#include <functional>
#include <random>
#include <vector>
#include "klampt/ik/ik_objective.h"
#include "klampt/ik/newton.h"
#include "klampt/model/robot.h"

namespace klampt {

/// Residual (stacked goal residuals) and Jacobian of goals on a robot.
/// Raises std::out_of_range / std::invalid_argument for bad link indices or
/// non-finite targets.
void checkGoals(const Robot& robot, const std::vector<IKGoal>& goals);
int totalDims(const std::vector<IKGoal>& goals);
void goalsResidual(const Robot& robot, const std::vector<IKGoal>& goals, VectorX& f);
/// Columns for the listed DOFs (any order).
void goalsJacobian(const Robot& robot, const std::vector<IKGoal>& goals, const std::vector<int>& dofs, MatrixX& J);

class IKSolver {
 public:
  Robot* robot = nullptr;  // not owned
  std::vector<IKGoal> goals, secondary;
  double tol = 1e-3;
  int maxIters = 100;
  std::vector<int> activeDofs;  // empty: ancestors of the goals' links
  bool useJointLimits = true;
  VectorX qmin, qmax;  // empty: the robot's limits
  VectorX bias;        // empty: none
  int lastIters = 0;

  /// The explicit active DOFs, or the default: every non-weld ancestor with a
  /// nonzero range of the (primary and secondary) goals' links and
  /// destination links.
  std::vector<int> getActiveDofs() const;
  /// Checks goals, DOF indices and vector sizes (throws as checkGoals).
  void validate() const;
  /// validate(), then throws std::invalid_argument if there is no objective.
  void checkSolvable() const;

  /// qmin and qmax with one entry per robot link, or both empty to turn the
  /// joint limits off; throws std::invalid_argument for other sizes.
  void setJointLimits(const VectorX& lo, const VectorX& hi);
  /// The limits solve() keeps to: the solver's, the robot's, or (both empty)
  /// none when useJointLimits is off.
  void jointLimits(VectorX& lo, VectorX& hi) const;
  /// One entry per robot link, or empty for no bias; throws
  /// std::invalid_argument for another size.
  void setBias(const VectorX& b);

  void residual(VectorX& f) const;
  void secondaryResidual(VectorX& f) const;
  void jacobian(MatrixX& J) const;  // rows: residual(), columns: getActiveDofs()
  bool isSolved() const;

  /// Newton-Raphson on the primary and secondary goals together.
  bool solve();
  /// Minimizes the primary residual; then, if `cost` is given or there are
  /// secondary goals, minimizes that on the primary solution set. `cost`
  /// takes and returns full robot configurations / gradients.
  bool minimize(const std::function<double(const VectorX&)>* cost = nullptr,
                const std::function<void(const VectorX&, VectorX&)>* costGrad = nullptr);
  /// Random configuration of the active DOFs (others unchanged), within the
  /// solver's limits.
  void sampleInitial(std::mt19937_64& rng);
  /// solve() from the current configuration (or a random one) and then from
  /// up to numRestarts random ones. On failure the robot is left at the
  /// attempt with the smallest residual.
  bool solveGlobal(int numRestarts, bool startRandom, std::mt19937_64& rng);
};

}  // namespace klampt
