#include "klampt/ik/ik_solver.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "klampt/ik/robot_vars.h"
#include "klampt/model/config_space.h"

namespace klampt {

namespace {

// The goals on a robot as a problem over the robot's IK variables.
class RobotProblem : public IKProblem {
 public:
  RobotProblem(Robot& robot, const std::vector<IKGoal>& goals, const std::vector<int>& dofs)
      : robot_(robot), goals_(goals), vars_(robot, dofs) {}

  /// From now on setVars updates only the frames the goals depend on (the
  /// goals' links and their ancestors); the caller updates the rest at the end.
  void updateGoalFramesOnly() {
    std::vector<char> needed(robot_.numLinks(), 0);
    for (const IKGoal& g : goals_)
      for (int l : {g.link, g.destLink})
        for (int j = l; j >= 0 && !needed[j]; j = robot_.links[j].parent) needed[j] = 1;
    goalFrames_.clear();
    for (int i = 0; i < robot_.numLinks(); ++i)
      if (needed[i]) goalFrames_.push_back(i);
    partialFrames_ = true;
  }

  int numVars() const override { return vars_.size(); }
  int numResiduals() const override { return totalDims(goals_); }

  void getVars(VectorX& x) const override { x = varsOf(robot_.q); }

  VectorX varsOf(const VectorX& q) const {
    VectorX x(numVars());
    vars_.get(robot_, q, x.data());
    return x;
  }

  void setVars(const VectorX& x) override {
    vars_.set(x.data(), robot_.q);
    if (!partialFrames_) {
      robot_.updateFrames();
      return;
    }
    robot_.placeLinkFrames(goalFrames_, true);  // ascending: parents first
  }

  void residual(VectorX& f) const override { goalsResidual(robot_, goals_, f); }

  void periods(VectorX& p) const override { vars_.periods(robot_, p); }

  void jacobian(MatrixX& J) const override {
    goalsJacobian(robot_, goals_, vars_.links(), raw_);
    J.setZero(raw_.rows(), numVars());
    vars_.reduceColumns(raw_, J, 0);
  }

  void reduceGradient(const VectorX& full, VectorX& g) const {
    g.resize(numVars());
    vars_.reduceGradient(full, g.data());
  }

  void bounds(const VectorX& qmin, const VectorX& qmax, VectorX& bmin, VectorX& bmax) const {
    bmin.resize(numVars());
    bmax.resize(numVars());
    vars_.bounds(qmin, qmax, bmin.data(), bmax.data());
  }

 private:
  Robot& robot_;
  const std::vector<IKGoal>& goals_;
  RobotVars vars_;
  std::vector<int> goalFrames_;
  bool partialFrames_ = false;
  mutable MatrixX raw_;
};

// Spin joints wrap around: report them in [0, 2 pi) as the reference does.
void normalizeSpinJoints(Robot& robot) {
  for (const Joint& j : robot.joints) {
    if (j.type != JointType::Spin) continue;
    double& a = robot.q[j.linkIndex];
    const double w = std::fmod(a, 2 * M_PI);
    a = w < 0 ? w + 2 * M_PI : w;
  }
}

}  // namespace

std::vector<int> IKSolver::getActiveDofs() const {
  if (!activeDofs.empty()) return activeDofs;
  std::vector<int> links;
  for (const auto* list : {&goals, &secondary})
    for (const IKGoal& g : *list) {
      links.push_back(g.link);
      links.push_back(g.destLink);
    }
  return ancestorDofs(*robot, links);
}

void IKSolver::validate() const {
  if (!robot) throw std::runtime_error("IKSolver has no robot");
  checkGoals(*robot, goals);
  checkGoals(*robot, secondary);
  const int n = robot->numLinks();
  for (int j : activeDofs)
    if (j < 0 || j >= n) throw std::out_of_range("active DOF " + std::to_string(j) + " out of range");
  if (qmin.size() != 0 && (qmin.size() != n || qmax.size() != n))
    throw std::invalid_argument("joint limits must have " + std::to_string(n) + " entries");
  if (bias.size() != 0 && bias.size() != n)
    throw std::invalid_argument("bias configuration must have " + std::to_string(n) + " entries");
  if (bias.array().isNaN().any()) throw std::invalid_argument("bias configuration contains NaN");
  if (!robot->q.allFinite()) throw std::invalid_argument("robot configuration is not finite");
}

void IKSolver::checkSolvable() const {
  validate();
  if (goals.empty() && secondary.empty()) throw std::invalid_argument("IKSolver has no objectives");
}

void IKSolver::setJointLimits(const VectorX& lo, const VectorX& hi) {
  if (lo.size() == 0 && hi.size() == 0) {
    useJointLimits = false;
    qmin.resize(0);
    qmax.resize(0);
    return;
  }
  const int n = robot->numLinks();
  if (lo.size() != n || hi.size() != n)
    throw std::invalid_argument("qmin and qmax must have " + std::to_string(n) + " entries (or both be empty)");
  useJointLimits = true;
  qmin = lo;
  qmax = hi;
}

void IKSolver::jointLimits(VectorX& lo, VectorX& hi) const {
  if (!useJointLimits) {
    lo.resize(0);
    hi.resize(0);
  } else if (qmin.size() == robot->numLinks()) {
    lo = qmin;
    hi = qmax;
  } else {
    lo = robot->qMin;
    hi = robot->qMax;
  }
}

void IKSolver::setBias(const VectorX& b) {
  const int n = robot->numLinks();
  if (b.size() != 0 && b.size() != n)
    throw std::invalid_argument("biasConfig must have " + std::to_string(n) + " entries (or be empty)");
  bias = b;
}

void IKSolver::residual(VectorX& f) const {
  checkGoals(*robot, goals);
  goalsResidual(*robot, goals, f);
}

void IKSolver::secondaryResidual(VectorX& f) const {
  checkGoals(*robot, secondary);
  goalsResidual(*robot, secondary, f);
}

void IKSolver::jacobian(MatrixX& J) const {
  validate();
  goalsJacobian(*robot, goals, getActiveDofs(), J);
}

bool IKSolver::isSolved() const {
  VectorX f;
  residual(f);
  return f.size() == 0 || f.lpNorm<Eigen::Infinity>() <= tol;
}

namespace {

// Bounds of the solver's variables from its settings.
void solverBounds(const IKSolver& s, const RobotProblem& p, VectorX& bmin, VectorX& bmax) {
  const Robot& r = *s.robot;
  if (!s.useJointLimits) {
    p.bounds(VectorX::Constant(r.numLinks(), -INFINITY), VectorX::Constant(r.numLinks(), INFINITY), bmin, bmax);
  } else if (s.qmin.size() == r.numLinks()) {
    p.bounds(s.qmin, s.qmax, bmin, bmax);
  } else {
    p.bounds(r.qMin, r.qMax, bmin, bmax);
  }
}

}  // namespace

bool IKSolver::solve() {
  validate();
  std::vector<IKGoal> all = goals;
  all.insert(all.end(), secondary.begin(), secondary.end());
  RobotProblem p(*robot, all, getActiveDofs());
  VectorX bmin, bmax, b;
  solverBounds(*this, p, bmin, bmax);
  if (bias.size()) b = p.varsOf(bias);
  p.updateGoalFramesOnly();
  IKRunResult r = newtonSolve(p, bmin, bmax, b, tol, maxIters);
  lastIters = r.iters;
  normalizeSpinJoints(*robot);
  robot->updateFrames();
  return r.solved;
}

bool IKSolver::minimize(const std::function<double(const VectorX&)>* cost,
                        const std::function<void(const VectorX&, VectorX&)>* costGrad) {
  validate();
  const std::vector<int> dofs = getActiveDofs();
  RobotProblem prim(*robot, goals, dofs);
  VectorX bmin, bmax;
  solverBounds(*this, prim, bmin, bmax);
  IKRunResult r = minimizeResidual(prim, bmin, bmax, tol, maxIters);
  if (cost || !secondary.empty()) {
    RobotProblem sec(*robot, secondary, dofs);
    SecondaryCost sc;
    Robot& rob = *robot;
    VectorX full;
    if (cost) {
      sc.value = [&](const VectorX&) { return (*cost)(rob.q); };
      sc.gradient = [&](const VectorX&, VectorX& g) {
        (*costGrad)(rob.q, full);
        if (full.size() != rob.numLinks())
          throw std::invalid_argument("secondary objective gradient must have one entry per robot DOF");
        prim.reduceGradient(full, g);
      };
    } else {
      VectorX f2;
      MatrixX J2;
      sc.value = [&](const VectorX&) {
        sec.residual(f2);
        return 0.5 * f2.squaredNorm();
      };
      sc.gradient = [&](const VectorX&, VectorX& g) {
        sec.residual(f2);
        sec.jacobian(J2);
        g.noalias() = J2.transpose() * f2;
      };
      sc.residualForm = &sec;
    }
    IKRunResult r2 = minimizeSecondary(prim, sc, bmin, bmax, tol, maxIters);
    r.solved = r2.solved;
    r.iters += r2.iters;
  }
  lastIters = r.iters;
  normalizeSpinJoints(*robot);
  robot->updateFrames();
  return r.solved;
}

void IKSolver::sampleInitial(std::mt19937_64& rng) {
  validate();
  RobotProblem p(*robot, goals.empty() ? secondary : goals, getActiveDofs());
  VectorX bmin, bmax, s;
  solverBounds(*this, p, bmin, bmax);
  sampleConfig(*robot, M_PI, rng, s);
  VectorX x = p.varsOf(s);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int k = 0; k < x.size(); ++k) {
    if (x[k] >= bmin[k] && x[k] <= bmax[k]) continue;
    // Outside the solver's own (narrower) limits: uniform within them.
    if (std::isfinite(bmin[k]) && std::isfinite(bmax[k]))
      x[k] = bmin[k] + (bmax[k] - bmin[k]) * unit(rng);
    else
      x[k] = std::min(std::max(x[k], bmin[k]), bmax[k]);
  }
  p.setVars(x);
}

bool IKSolver::solveGlobal(int numRestarts, bool startRandom, std::mt19937_64& rng) {
  validate();
  VectorX best, f;
  double bestErr = INFINITY;
  for (int attempt = 0; attempt <= std::max(numRestarts, 0); ++attempt) {
    if (attempt > 0 || startRandom) sampleInitial(rng);
    if (solve()) return true;
    residual(f);
    const double err = f.size() ? f.lpNorm<Eigen::Infinity>() : 0.0;
    if (err < bestErr || best.size() == 0) {
      bestErr = err;
      best = robot->q;
    }
  }
  robot->setConfig(best);
  return false;
}

}  // namespace klampt
