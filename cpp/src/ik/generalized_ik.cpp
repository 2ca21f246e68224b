#include "klampt/ik/generalized_ik.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "klampt/ik/newton.h"
#include "klampt/ik/robot_vars.h"
#include "klampt/model/config_space.h"

namespace klampt {

IKBody IKBody::ofLink(std::shared_ptr<Robot> robot, int link) {
  IKBody b;
  b.robotStamp = robot->structureStamp;
  b.robot = std::move(robot);
  b.link = link;
  return b;
}

IKBody IKBody::ofObject(std::shared_ptr<RigidObject> object) {
  IKBody b;
  b.object = std::move(object);
  return b;
}

RigidTransform IKBody::transform() const {
  if (robot) return robot->linkTransforms[link];
  if (object) return object->transform;
  return RigidTransform::identity();
}

namespace {

Matrix3 cross(const Vector3& v) {
  Matrix3 m;
  m << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return m;
}

// Left Jacobian of SO(3): d/dt exp(w) = [J(w) dw/dt]x exp(w).
Matrix3 leftJacobian(const Vector3& w) {
  const double th = w.norm();
  const Matrix3 K = cross(w);
  if (th < 1e-6) return Matrix3::Identity() + 0.5 * K + K * K / 6.0;
  return Matrix3::Identity() + (1 - std::cos(th)) / (th * th) * K + (th - std::sin(th)) / (th * th * th) * K * K;
}

class GeneralizedProblem : public IKProblem {
 public:
  GeneralizedProblem(const std::vector<GeneralizedIKGoal>& goals) : goals_(goals) {
    std::vector<std::vector<int>> robotLinks;
    for (const GeneralizedIKGoal& g : goals)
      for (const IKBody* b : {&g.body1, &g.body2}) {
        if (b->robot) {
          const int r = robotIndex(b->robot.get(), true);
          robotLinks.resize(robots_.size());
          robotLinks[r].push_back(b->link);
        } else if (b->object) {
          objectIndex(b->object.get(), true);
        }
      }
    int offset = 0;
    for (size_t r = 0; r < robots_.size(); ++r) {
      vars_.emplace_back(*robots_[r], ancestorDofs(*robots_[r], robotLinks[r]));
      robotOffset_.push_back(offset);
      offset += vars_.back().size();
      std::vector<int> col(robots_[r]->numLinks(), -1);
      for (size_t c = 0; c < vars_.back().links().size(); ++c) col[vars_.back().links()[c]] = (int)c;
      columnOf_.push_back(std::move(col));
    }
    objectOffset_ = offset;
    for (RigidObject* o : objects_) base_.push_back(o->transform);
    objectX_.setZero(6 * objects_.size());
    numResiduals_ = 0;
    for (const GeneralizedIKGoal& g : goals) numResiduals_ += g.goal.numDims();
  }

  int numVars() const override { return objectOffset_ + 6 * (int)objects_.size(); }
  int numResiduals() const override { return numResiduals_; }

  void getVars(VectorX& x) const override {
    x.resize(numVars());
    for (size_t r = 0; r < robots_.size(); ++r) vars_[r].get(*robots_[r], robots_[r]->q, x.data() + robotOffset_[r]);
    x.tail(objectX_.size()) = objectX_;
  }

  void setVars(const VectorX& x) override {
    for (size_t r = 0; r < robots_.size(); ++r) {
      vars_[r].set(x.data() + robotOffset_[r], robots_[r]->q);
      robots_[r]->updateFrames();
    }
    objectX_ = x.tail(objectX_.size());
    for (size_t o = 0; o < objects_.size(); ++o) {
      const Vector3 dt = objectX_.segment<3>(6 * o), w = objectX_.segment<3>(6 * o + 3);
      objects_[o]->setTransform({momentRotation(w) * base_[o].R, base_[o].t + dt});
    }
  }

  void periods(VectorX& p) const override {
    p.setZero(numVars());
    VectorX pr;
    for (size_t r = 0; r < robots_.size(); ++r) {
      vars_[r].periods(*robots_[r], pr);
      p.segment(robotOffset_[r], pr.size()) = pr;
    }
  }

  void residual(VectorX& f) const override {
    f.resize(numResiduals_);
    int row = 0;
    for (const GeneralizedIKGoal& g : goals_) {
      g.goal.residual(g.body2.transform().inverse() * g.body1.transform(), f.data() + row);
      row += g.goal.numDims();
    }
  }

  void jacobian(MatrixX& J) const override {
    J.setZero(numResiduals_, numVars());
    raw_.resize(robots_.size());
    for (size_t r = 0; r < robots_.size(); ++r) raw_[r].setZero(numResiduals_, (Eigen::Index)vars_[r].links().size());
    Eigen::Matrix<double, 6, 3> P, Q;
    int row = 0;
    for (const GeneralizedIKGoal& g : goals_) {
      const int k = g.goal.numDims();
      if (k == 0) continue;
      const RigidTransform T1 = g.body1.transform(), T2 = g.body2.transform();
      g.goal.linearize(T2.inverse() * T1, P, Q);
      const Eigen::MatrixXd Pw = P.topRows(k) * T2.R.transpose(), Qw = Q.topRows(k) * T2.R.transpose();
      const Vector3 p = T1.apply(g.goal.localPosition);
      for (int side = 0; side < 2; ++side) {
        const IKBody& b = side == 0 ? g.body1 : g.body2;
        const double sign = side == 0 ? 1.0 : -1.0;
        if (b.robot) {
          const int r = robotIndex(b.robot.get(), false);
          const Robot& rob = *b.robot;
          for (int j = b.link; j >= 0; j = rob.links[j].parent) {
            const int c = columnOf_[r][j];
            if (c < 0) continue;
            const Vector3 axis = rob.linkTransforms[j].R * rob.links[j].axis;
            if (rob.links[j].prismatic)
              raw_[r].block(row, c, k, 1) += sign * (Pw * axis);
            else
              raw_[r].block(row, c, k, 1) += sign * (Pw * axis.cross(p - rob.linkTransforms[j].t) + Qw * axis);
          }
        } else if (b.object) {
          const int o = objectIndex(b.object.get(), false);
          const int c = objectOffset_ + 6 * o;
          const Matrix3 Jl = leftJacobian(objectX_.segment<3>(6 * o + 3));
          const Vector3 rel = p - b.object->transform.t;
          for (int i = 0; i < 3; ++i) {
            J.block(row, c + i, k, 1) += sign * Pw.col(i);
            const Vector3 a = Jl.col(i);
            J.block(row, c + 3 + i, k, 1) += sign * (Pw * a.cross(rel) + Qw * a);
          }
        }
      }
      row += k;
    }
    for (size_t r = 0; r < robots_.size(); ++r) vars_[r].reduceColumns(raw_[r], J, robotOffset_[r]);
  }

  void bounds(bool useLimits, VectorX& bmin, VectorX& bmax) const {
    bmin.setConstant(numVars(), -INFINITY);
    bmax.setConstant(numVars(), INFINITY);
    if (!useLimits) return;
    for (size_t r = 0; r < robots_.size(); ++r)
      vars_[r].bounds(robots_[r]->qMin, robots_[r]->qMax, bmin.data() + robotOffset_[r], bmax.data() + robotOffset_[r]);
  }

  void sampleRobots(std::mt19937_64& rng) {
    VectorX s;
    for (size_t r = 0; r < robots_.size(); ++r) {
      sampleConfig(*robots_[r], M_PI, rng, s);
      VectorX x(vars_[r].size());
      vars_[r].get(*robots_[r], s, x.data());
      vars_[r].set(x.data(), robots_[r]->q);
      robots_[r]->updateFrames();
    }
  }

 private:
  int robotIndex(Robot* r, bool add) {
    auto it = std::find(robots_.begin(), robots_.end(), r);
    if (it != robots_.end() || !add) return int(it - robots_.begin());
    robots_.push_back(r);
    return (int)robots_.size() - 1;
  }
  int robotIndex(Robot* r, bool) const { return int(std::find(robots_.begin(), robots_.end(), r) - robots_.begin()); }
  int objectIndex(RigidObject* o, bool add) {
    auto it = std::find(objects_.begin(), objects_.end(), o);
    if (it != objects_.end() || !add) return int(it - objects_.begin());
    objects_.push_back(o);
    return (int)objects_.size() - 1;
  }
  int objectIndex(RigidObject* o, bool) const {
    return int(std::find(objects_.begin(), objects_.end(), o) - objects_.begin());
  }

  const std::vector<GeneralizedIKGoal>& goals_;
  std::vector<Robot*> robots_;
  std::vector<RobotVars> vars_;
  std::vector<int> robotOffset_;
  std::vector<std::vector<int>> columnOf_;
  std::vector<RigidObject*> objects_;
  std::vector<RigidTransform> base_;
  VectorX objectX_;
  int objectOffset_ = 0, numResiduals_ = 0;
  mutable std::vector<MatrixX> raw_;
};

}  // namespace

void GeneralizedIKSolver::checkSolvable() const {
  if (goals.empty()) throw std::invalid_argument("GeneralizedIKSolver has no objectives");
  validate();
}

void GeneralizedIKSolver::validate() const {
  for (const GeneralizedIKGoal& g : goals) {
    for (const IKBody* b : {&g.body1, &g.body2}) {
      if (b->robot && b->robot->structureStamp != b->robotStamp)
        throw std::runtime_error("the links of a robot of this GeneralizedIKObjective changed (loadFile, reduce, "
                                 "mount or setParent) after it was made: make a new objective");
      if (b->robot && (b->link < 0 || b->link >= b->robot->numLinks()))
        throw std::out_of_range("link index " + std::to_string(b->link) + " out of range for robot '" +
                                b->robot->name + "'");
    }
    if (g.body1.isWorld()) throw std::invalid_argument("the constrained body of an objective must be a link or object");
    const IKGoal& k = g.goal;
    if (!k.localPosition.allFinite() || !k.endPosition.allFinite() || !k.direction.allFinite() ||
        !k.localAxis.allFinite() || !k.endAxis.allFinite() || !k.endRotation.allFinite())
      throw std::invalid_argument("IK objective contains NaN or infinite values");
  }
}

void GeneralizedIKSolver::residual(VectorX& f) const {
  validate();
  GeneralizedProblem(goals).residual(f);
}

void GeneralizedIKSolver::jacobian(MatrixX& J) const {
  validate();
  GeneralizedProblem(goals).jacobian(J);
}

bool GeneralizedIKSolver::solve() {
  validate();
  GeneralizedProblem p(goals);
  VectorX bmin, bmax;
  p.bounds(useJointLimits, bmin, bmax);
  IKRunResult r = newtonSolve(p, bmin, bmax, VectorX(), tol, maxIters);
  lastIters = r.iters;
  return r.solved;
}

void GeneralizedIKSolver::sampleInitial(std::mt19937_64& rng) {
  validate();
  GeneralizedProblem(goals).sampleRobots(rng);
}

}  // namespace klampt
