// Solving with the mass matrix through its tree-structured factorization
// B = L^T D L (Featherstone's LTDL): L is unit lower triangular with L(i,j)
// nonzero only when j is an ancestor of i, so factoring costs O(n depth^2) and
// each solve O(n depth), with no fill-in.
//
// Singular B (links that carry no mass or inertia) is handled as a
// least-squares problem: a DOF whose whole subtree is massless has an exactly
// zero row and column in B; its pivot is dropped and it gets zero acceleration,
// which is the minimum-norm least-squares solution. Any other (numerically)
// singular pivot, e.g. a floating base at gimbal lock, makes the factorization
// report failure and callers fall back to a dense minimum-norm least-squares
// solve.
#pragma once
#include "klampt/dynamics/workspace.h"
#include "klampt/model/robot.h"

namespace klampt {

/// A pivot at or below this fraction of its diagonal entry counts as singular.
constexpr double kSingularPivot = 1e-12;

/// Factors B in place (lower triangle holds L below a diagonal of D, the upper
/// triangle is left unspecified); invD receives 1/D (0 for dropped DOFs).
/// Returns false if a pivot is singular but its row of B is not zero.
bool factorMassMatrix(const Robot& robot, RowMatrixMap B, double* invD);

/// x <- B^+ x with a factorization from factorMassMatrix.
void solveFactored(const Robot& robot, const RowMatrixMap& L, const double* invD, double* x);

/// Writes B^+ (B^-1 when B is regular) from a factorization into out (n x n,
/// distinct from L); x is scratch of n values.
void invertFactored(const Robot& robot, const RowMatrixMap& L, const double* invD, double* x, RowMatrixMap out);

/// Dense minimum-norm least-squares fallbacks for a singular B: x <- B^+ x,
/// and out = B^+ (they allocate).
void solveLeastSquares(const RowMatrixMap& B, double* x);
void pseudoInverse(const RowMatrixMap& B, RowMatrixMap out);

}  // namespace klampt
