#include "klampt/ik/newton.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

namespace klampt {

namespace {

constexpr double kDamping = 1e-4;       // initial lambda^2 of the damped least squares
constexpr double kMinDamping = 1e-8, kMaxDamping = 1.0;
constexpr double kSufficientDecrease = 1e-4;
constexpr double kStepMax = 10.0;       // step length limit, relative to max(|x|, n)
constexpr int kMaxBacktracks = 20;
constexpr double kStallDecrease = 1e-4;  // relative merit decrease counted as progress
constexpr int kStallIters = 5;           // iterations without progress before giving up

// Applies the damped pseudo-inverse J^T (J J^T + l I)^-1, factoring whichever
// Gram matrix is smaller.
class DampedPinv {
 public:
  void compute(const MatrixX& J, double damping = kDamping) {
    J_ = &J;
    wide_ = J.rows() <= J.cols();
    if (wide_) {
      G_.noalias() = J * J.transpose();
    } else {
      G_.noalias() = J.transpose() * J;
    }
    G_.diagonal().array() += damping;
    llt_.compute(G_);
  }
  void apply(const VectorX& b, VectorX& out) {
    if (wide_) {
      tmp_ = llt_.solve(b);
      out.noalias() = J_->transpose() * tmp_;
    } else {
      tmp_.noalias() = J_->transpose() * b;
      out = llt_.solve(tmp_);
    }
  }

 private:
  const MatrixX* J_ = nullptr;
  bool wide_ = true;
  MatrixX G_;
  Eigen::LDLT<MatrixX> llt_;
  VectorX tmp_;
};

void clampInto(VectorX& x, const VectorX& bmin, const VectorX& bmax) {
  x = x.cwiseMax(bmin).cwiseMin(bmax);
}

// The value of a periodic variable shifted by whole periods into [lo, hi], if
// one exists (the residual is the same there).
bool wrapInside(double x, double lo, double hi, double period, double& wrapped) {
  if (!(period > 0) || !std::isfinite(lo) || !std::isfinite(hi) || !std::isfinite(x)) return false;
  double y = lo + std::fmod(x - lo, period);
  if (y < lo) y += period;
  if (y > hi) return false;
  wrapped = y;
  return true;
}

// Clamps into the bounds, except that a periodic variable (a revolute joint)
// that left them is moved by whole turns when that brings it inside: a step
// may cross the gap between the limits (small for limits like +-179 degrees)
// instead of leaving the solver stuck on one side of it.
void boundInto(VectorX& x, const VectorX& bmin, const VectorX& bmax, const VectorX& period) {
  for (int i = 0; i < x.size(); ++i) {
    if (x[i] >= bmin[i] && x[i] <= bmax[i]) continue;
    if (!wrapInside(x[i], bmin[i], bmax[i], period[i], x[i])) x[i] = std::min(std::max(x[i], bmin[i]), bmax[i]);
  }
}

// Whether a step may carry the variable across the gap between its limits.
bool canWrap(double lo, double hi, double period) { return period > 0 && std::isfinite(lo) && std::isfinite(hi); }

// A variable is held at its bound when it sits there and `dir` pushes outward.
bool pushesOut(double x, double lo, double hi, double dir) {
  return (x <= lo && dir < 0) || (x >= hi && dir > 0);
}

double maxAbs(const VectorX& f) { return f.size() ? f.lpNorm<Eigen::Infinity>() : 0.0; }

// Zeroes the Jacobian columns of the held variables.
void maskColumns(MatrixX& J, const std::vector<char>& held) {
  for (int i = 0; i < (int)held.size(); ++i)
    if (held[i]) J.col(i).setZero();
}

// The damped Newton step from x with the held variables fixed, plus the
// null-space motion toward `bias` if given. Variables the step pushes out
// through a bound are held too and the step recomputed, except periodic
// variables the step carries across the gap between their limits: those are
// flagged in `jumps`.
void newtonStep(const MatrixX& J, const VectorX& f, const VectorX& x, const VectorX& bmin, const VectorX& bmax,
                const VectorX& period, const VectorX& bias, double damping, std::vector<char>& held,
                std::vector<char>& jumps, DampedPinv& pinv, MatrixX& Jm, VectorX& dx) {
  const int n = (int)x.size();
  VectorX d, Jd, tmp;
  for (int pass = 0; pass < 4; ++pass) {
    Jm = J;
    maskColumns(Jm, held);
    pinv.compute(Jm, damping);
    pinv.apply(f, dx);
    dx = -dx;
    if (bias.size() == n) {
      // Null-space motion toward the bias: (I - J+ J)(bias - x).
      d = bias - x;
      for (int i = 0; i < n; ++i)
        if (held[i]) d[i] = 0;
      Jd.noalias() = Jm * d;
      pinv.apply(Jd, tmp);
      dx += d - tmp;
    }
    bool changed = false;
    for (int i = 0; i < n; ++i) {
      jumps[i] = 0;
      double wrapped;
      if (held[i]) {
        dx[i] = 0;
      } else if (pushesOut(x[i], bmin[i], bmax[i], dx[i])) {
        if (wrapInside(x[i] + dx[i], bmin[i], bmax[i], period[i], wrapped)) {
          jumps[i] = 1;
        } else {
          held[i] = 1;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
}

}  // namespace

IKRunResult newtonSolve(IKProblem& p, const VectorX& bmin, const VectorX& bmax, const VectorX& bias, double tol,
                        int maxIters) {
  const int n = p.numVars();
  VectorX x, xt, f, ft, g, dx, period;
  MatrixX J, Jm;
  DampedPinv pinv;
  p.periods(period);
  p.getVars(x);
  clampInto(x, bmin, bmax);
  p.setVars(x);
  p.residual(f);
  IKRunResult res;
  if (n == 0) {
    res.solved = maxAbs(f) <= tol;
    return res;
  }
  std::vector<char> held(n), jumps(n);
  // Levenberg-style: damping grows when full steps overshoot (near
  // singularities) and shrinks while they are accepted.
  double damping = kDamping;
  int stalled = 0;
  for (res.iters = 0; res.iters < maxIters; ++res.iters) {
    if (maxAbs(f) <= tol || !f.allFinite()) break;
    p.jacobian(J);
    if (!J.allFinite()) break;
    g.noalias() = J.transpose() * f;
    // Active set: variables on a bound that the descent direction -g leaves
    // through are held, unless they are periodic and the step may jump the gap.
    for (int i = 0; i < n; ++i)
      held[i] = pushesOut(x[i], bmin[i], bmax[i], -g[i]) && !canWrap(bmin[i], bmax[i], period[i]);
    const double phi0 = 0.5 * f.squaredNorm();
    double t = 1.0;
    bool accepted = false, usable = true;
    for (int attempt = 0; attempt < 2 && !accepted && usable; ++attempt) {
      if (attempt == 1) {
        // A jump across a gap that does not pay off at full length is no
        // use shorter (the variable would land in the gap): hold it instead.
        bool any = false;
        for (int i = 0; i < n; ++i)
          if (jumps[i]) held[i] = any = true;
        if (!any) break;
      }
      newtonStep(J, f, x, bmin, bmax, period, bias, damping, held, jumps, pinv, Jm, dx);
      const double stepMax = kStepMax * std::max(x.norm(), double(n));
      const double len = dx.norm();
      if (!(len > 0) || !std::isfinite(len)) {
        usable = false;
        break;
      }
      if (len > stepMax) dx *= stepMax / len;
      // Backtracking line search on phi = |f|^2 / 2.
      const double slope = g.dot(dx);
      const bool jumping = std::find(jumps.begin(), jumps.end(), 1) != jumps.end();
      t = 1.0;
      for (int k = 0; k < kMaxBacktracks; ++k) {
        xt = x + t * dx;
        boundInto(xt, bmin, bmax, period);
        p.setVars(xt);
        p.residual(ft);
        const double phi = 0.5 * ft.squaredNorm();
        const double need = slope < 0 ? phi0 + kSufficientDecrease * t * slope : phi0;
        if (std::isfinite(phi) && (phi <= need || (phi < phi0 && maxAbs(ft) <= tol))) {
          accepted = true;
          break;
        }
        if (jumping && attempt == 0) break;
        // Minimizer of the quadratic through phi0, slope and phi, kept in [0.1t, 0.5t].
        double tq = 0.5 * t;
        if (std::isfinite(phi) && slope < 0) {
          const double denom = 2.0 * (phi - phi0 - slope * t);
          if (denom > 0) tq = std::clamp(-slope * t * t / denom, 0.1 * t, 0.5 * t);
        }
        t = tq;
      }
    }
    if (!accepted) {  // no decrease along the step: a local minimum
      p.setVars(x);
      break;
    }
    damping = t == 1.0 ? std::max(damping * 0.25, kMinDamping) : std::min(damping * 4.0, kMaxDamping);
    const double moved = (xt - x).cwiseAbs().cwiseQuotient(x.cwiseAbs().cwiseMax(1.0)).maxCoeff();
    x.swap(xt);
    f.swap(ft);
    // A local minimum: converged in x, or the merit has stopped decreasing.
    stalled = 0.5 * f.squaredNorm() > (1.0 - kStallDecrease) * phi0 ? stalled + 1 : 0;
    if ((moved < 1e-2 * tol || stalled >= kStallIters) && maxAbs(f) > tol) {
      ++res.iters;
      break;
    }
  }
  res.solved = maxAbs(f) <= tol && f.allFinite();
  return res;
}

IKRunResult minimizeResidual(IKProblem& p, const VectorX& bmin, const VectorX& bmax, double tol, int maxIters) {
  const int n = p.numVars();
  VectorX x, xt, f, ft, g, dx, period;
  MatrixX J, H;
  p.periods(period);
  p.getVars(x);
  clampInto(x, bmin, bmax);
  p.setVars(x);
  p.residual(f);
  IKRunResult res;
  double mu = 1e-2;
  std::vector<char> held(n);
  for (res.iters = 0; res.iters < maxIters && n > 0; ++res.iters) {
    if (maxAbs(f) <= tol || !f.allFinite()) break;
    p.jacobian(J);
    if (!J.allFinite()) break;
    g.noalias() = J.transpose() * f;
    for (int i = 0; i < n; ++i) held[i] = pushesOut(x[i], bmin[i], bmax[i], -g[i]);
    double gfree = 0;
    for (int i = 0; i < n; ++i)
      if (!held[i]) gfree = std::max(gfree, std::abs(g[i]));
    if (gfree < 1e-12) break;  // stationary on the feasible box
    maskColumns(J, held);
    H.noalias() = J.transpose() * J;
    const double phi0 = f.squaredNorm();
    bool improved = false;
    while (mu < 1e12) {
      MatrixX A = H;
      A.diagonal().array() += mu;
      dx = -A.ldlt().solve(g);
      for (int i = 0; i < n; ++i)
        if (held[i]) dx[i] = 0;
      xt = x + dx;
      boundInto(xt, bmin, bmax, period);
      p.setVars(xt);
      p.residual(ft);
      if (ft.allFinite() && ft.squaredNorm() < phi0) {
        improved = true;
        mu = std::max(mu * 0.3, 1e-9);
        break;
      }
      mu *= 10;
    }
    if (!improved) {
      p.setVars(x);
      break;
    }
    x.swap(xt);
    f.swap(ft);
  }
  res.solved = maxAbs(f) <= tol && f.allFinite();
  return res;
}

IKRunResult minimizeSecondary(IKProblem& primary, const SecondaryCost& cost, const VectorX& bmin, const VectorX& bmax,
                              double tol, int maxIters) {
  const int n = primary.numVars();
  VectorX x, xt, f1, g2, dir, tmp, f2;
  MatrixX J1, J2;
  DampedPinv pinv, pinv2;
  IKRunResult first = newtonSolve(primary, bmin, bmax, VectorX(), tol, maxIters);
  IKRunResult res = first;
  if (!first.solved || n == 0) return res;
  primary.getVars(x);
  double s = cost.value(x);
  std::vector<char> held(n);
  for (int it = 0; it < maxIters && std::isfinite(s); ++it) {
    primary.jacobian(J1);
    cost.gradient(x, g2);
    if (!g2.allFinite()) break;
    for (int i = 0; i < n; ++i) held[i] = pushesOut(x[i], bmin[i], bmax[i], -g2[i]);
    maskColumns(J1, held);
    pinv.compute(J1);
    if (cost.residualForm) {
      // Gauss-Newton in the null space N of J1: dir = N (J2 N)+ (-f2).
      cost.residualForm->residual(f2);
      cost.residualForm->jacobian(J2);
      maskColumns(J2, held);
      MatrixX J2N = J2;  // J2 (I - J1+ J1), column by column
      for (int c = 0; c < n; ++c) {
        VectorX e = VectorX::Zero(n);
        e[c] = 1;
        VectorX Je = J1 * e;
        pinv.apply(Je, tmp);
        e -= tmp;
        J2N.col(c) = J2 * e;
      }
      pinv2.compute(J2N);
      pinv2.apply(-f2, dir);
      VectorX Jdir = J1 * dir;
      pinv.apply(Jdir, tmp);
      dir -= tmp;
    } else {
      for (int i = 0; i < n; ++i)
        if (held[i]) g2[i] = 0;
      VectorX Jg = J1 * g2;
      pinv.apply(Jg, tmp);
      dir = -(g2 - tmp);
    }
    if (!(dir.norm() > 1e-12)) break;
    bool accepted = false;
    double t = 1.0;
    for (int k = 0; k < kMaxBacktracks; ++k, t *= 0.5) {
      xt = x + t * dir;
      clampInto(xt, bmin, bmax);
      primary.setVars(xt);
      // Back onto the constraint manifold.
      if (!newtonSolve(primary, bmin, bmax, VectorX(), tol, 20).solved) continue;
      primary.getVars(xt);
      const double st = cost.value(xt);
      if (st < s - 1e-12 * std::max(1.0, std::abs(s))) {
        accepted = true;
        s = st;
        break;
      }
    }
    res.iters = first.iters + it + 1;
    if (!accepted) break;
    x.swap(xt);
  }
  primary.setVars(x);
  primary.residual(f1);
  res.solved = maxAbs(f1) <= tol;
  return res;
}

}  // namespace klampt
