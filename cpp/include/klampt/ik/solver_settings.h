// The rules on the iteration count and tolerance both IK solvers take.
#pragma once

namespace klampt {

/// Throws std::invalid_argument("iters must be >= 0") for a negative count.
int checkedMaxIters(int iters);
/// Throws std::invalid_argument("tolerance must be >= 0") for a negative or NaN tolerance.
double checkedTolerance(double tol);

}  // namespace klampt
