#include "klampt/dynamics/mass_matrix_factor.h"

#include <Eigen/QR>

namespace klampt {

bool factorMassMatrix(const Robot& robot, RowMatrixMap H, double* invD) {
  const int n = robot.numLinks();
  const auto& links = robot.links;
  for (int k = 0; k < n; ++k) invD[k] = H(k, k);  // keep the diagonal of B to judge pivots
  for (int k = n - 1; k >= 0; --k) {
    const double d = H(k, k), diag = invD[k];
    if (!(d > kSingularPivot * diag)) {
      if (diag != 0) return false;
      // The whole row is zero: drop the DOF.
      for (int i = links[k].parent; i >= 0; i = links[i].parent) H(k, i) = 0;
      invD[k] = 0;
      continue;
    }
    invD[k] = 1.0 / d;
    for (int i = links[k].parent; i >= 0; i = links[i].parent) {
      const double a = H(k, i) / d;
      for (int j = i; j >= 0; j = links[j].parent) H(i, j) -= a * H(k, j);
      H(k, i) = a;
    }
  }
  return true;
}

void solveFactored(const Robot& robot, const RowMatrixMap& L, const double* invD, double* x) {
  const int n = robot.numLinks();
  const auto& links = robot.links;
  for (int i = n - 1; i >= 0; --i)  // x <- L^-T x
    for (int j = links[i].parent; j >= 0; j = links[j].parent) x[j] -= L(i, j) * x[i];
  for (int i = 0; i < n; ++i) x[i] *= invD[i];
  for (int i = 0; i < n; ++i)  // x <- L^-1 x
    for (int j = links[i].parent; j >= 0; j = links[j].parent) x[i] -= L(i, j) * x[j];
}

void invertFactored(const Robot& robot, const RowMatrixMap& L, const double* invD, double* x, RowMatrixMap out) {
  // Column k of B^-1 is x = L^-1 y with y = D^-1 L^-T e_k, whose entries are
  // zero below k and invD[k] at k. Entries x_j, j < k, are already known by
  // symmetry (row j), so only x_k.. x_{n-1} are computed, each from its
  // ancestors: O(n^2 depth / 2) in all. Column k is stored in row k.
  const int n = robot.numLinks();
  const auto& links = robot.links;
  for (int k = 0; k < n; ++k) {
    for (int j = 0; j < k; ++j) x[j] = out(j, k);
    for (int i = k; i < n; ++i) {
      double xi = (i == k) ? invD[k] : 0.0;
      for (int j = links[i].parent; j >= 0; j = links[j].parent) xi -= L(i, j) * x[j];
      x[i] = xi;
      out(k, i) = xi;
    }
  }
  for (int k = 0; k < n; ++k)
    for (int i = k + 1; i < n; ++i) out(i, k) = out(k, i);
}

void solveLeastSquares(const RowMatrixMap& B, double* x) {
  Eigen::CompleteOrthogonalDecomposition<MatrixX> cod(B);
  cod.setThreshold(kSingularPivot);
  Eigen::Map<VectorX> v(x, B.rows());
  v = cod.solve(VectorX(v));
}

void pseudoInverse(const RowMatrixMap& B, RowMatrixMap out) {
  Eigen::CompleteOrthogonalDecomposition<MatrixX> cod(B);
  cod.setThreshold(kSingularPivot);
  const MatrixX P = cod.pseudoInverse();
  out = 0.5 * (P + P.transpose());  // exactly symmetric, as B is
}

}  // namespace klampt
