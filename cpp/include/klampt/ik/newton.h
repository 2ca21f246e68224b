// The numerical core of IK: Newton-Raphson root finding with damped least
// squares, bounds handled by an active set and clamping (periodic variables,
// revolute joints, may instead wrap across the gap between their limits), a
// backtracking line search and a null-space bias; and bounded
// Levenberg-Marquardt minimization of the residual. Both work on any IKProblem
// (a robot, or several bodies).
#pragma once
#include <functional>
#include "klampt/math/types.h"

namespace klampt {

/// A residual f(x) over bounded variables x.
class IKProblem {
 public:
  virtual ~IKProblem() = default;
  virtual int numVars() const = 0;
  virtual int numResiduals() const = 0;
  virtual void getVars(VectorX& x) const = 0;
  /// Sets the variables and updates everything the residual depends on.
  virtual void setVars(const VectorX& x) = 0;
  virtual void residual(VectorX& f) const = 0;
  /// numResiduals() x numVars() derivative of residual().
  virtual void jacobian(MatrixX& J) const = 0;
  /// Per variable: the period of the residual in it (2 pi for a revolute
  /// joint), or 0 if it is not periodic.
  virtual void periods(VectorX& p) const { p.setZero(numVars()); }
};

struct IKRunResult {
  bool solved = false;
  int iters = 0;
};

/// Finds x in [bmin, bmax] with |f(x)|_inf <= tol, starting from the
/// problem's current variables (clamped into the bounds). If `bias` is
/// non-empty, steps also move toward it in the null space of the Jacobian.
/// A step that takes a periodic variable out of its bounds shifts it by whole
/// periods when that brings it back inside (otherwise it is clamped).
/// Leaves the problem at the final iterate.
IKRunResult newtonSolve(IKProblem& p, const VectorX& bmin, const VectorX& bmax, const VectorX& bias, double tol,
                        int maxIters);

/// Minimizes |f(x)|^2 over [bmin, bmax] by Levenberg-Marquardt (periodic
/// variables as in newtonSolve); `solved` reports whether |f|_inf <= tol at
/// the end.
IKRunResult minimizeResidual(IKProblem& p, const VectorX& bmin, const VectorX& bmax, double tol, int maxIters);

/// A secondary cost s(x) to minimize while keeping f(x) = 0: its value, and
/// its gradient with respect to the variables.
struct SecondaryCost {
  std::function<double(const VectorX& x)> value;
  std::function<void(const VectorX& x, VectorX& grad)> gradient;
  /// Optional: a residual f2 with s = |f2|^2 / 2 and its Jacobian, for
  /// Gauss-Newton steps (otherwise gradient steps are used).
  IKProblem* residualForm = nullptr;
};

/// Descends the secondary cost within the null space of the primary
/// residual, re-projecting onto f = 0 after each step. `solved` reports
/// whether the primary residual is within tol at the end.
IKRunResult minimizeSecondary(IKProblem& primary, const SecondaryCost& cost, const VectorX& bmin, const VectorX& bmax,
                              double tol, int maxIters);

}  // namespace klampt
