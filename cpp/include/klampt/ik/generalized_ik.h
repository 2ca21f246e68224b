// Generalized IK: goals between links of several robots and rigid objects.
// The variables are the IK variables of every robot involved (see RobotVars)
// and a pose perturbation (translation, rotation vector) of every object.
#pragma once
#include <memory>
#include <random>
#include <vector>
#include "klampt/ik/ik_objective.h"
#include "klampt/model/world.h"

namespace klampt {

/// A robot link, a rigid object, or (both empty) the world frame.
struct IKBody {
  std::shared_ptr<Robot> robot;
  int link = -1;
  /// The robot's structure when `link` was chosen: `link` indexes that structure.
  StructureStamp robotStamp = 0;
  std::shared_ptr<RigidObject> object;

  /// Link `link` of `robot`, in the robot's current structure.
  static IKBody ofLink(std::shared_ptr<Robot> robot, int link);
  static IKBody ofObject(std::shared_ptr<RigidObject> object);

  bool isWorld() const { return !robot && !object; }
  RigidTransform transform() const;
};

/// `goal` constrains body1 relative to body2; its link / destLink are unused.
struct GeneralizedIKGoal {
  IKBody body1, body2;
  IKGoal goal;
};

class GeneralizedIKSolver {
 public:
  std::vector<GeneralizedIKGoal> goals;
  double tol = 1e-3;
  int maxIters = 100;
  bool useJointLimits = true;
  int lastIters = 0;

  /// Throws std::runtime_error if a link's robot changed structure since the
  /// body was chosen, std::out_of_range / std::invalid_argument for bad links
  /// or NaNs.
  void validate() const;
  /// Throws std::invalid_argument if there is no objective, then validate().
  void checkSolvable() const;
  void residual(VectorX& f) const;
  /// Columns: each robot's variables (robots in order of first use), then
  /// 6 per rigid object (translation, then rotation in the world frame).
  void jacobian(MatrixX& J) const;
  bool solve();
  /// Random configurations of the robots' variables; objects keep their poses.
  void sampleInitial(std::mt19937_64& rng);
};

}  // namespace klampt
