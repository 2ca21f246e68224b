#include "klampt/ik/solver_settings.h"

#include <stdexcept>

namespace klampt {

int checkedMaxIters(int iters) {
  if (iters < 0) throw std::invalid_argument("iters must be >= 0");
  return iters;
}

double checkedTolerance(double tol) {
  if (!(tol >= 0)) throw std::invalid_argument("tolerance must be >= 0");
  return tol;
}

}  // namespace klampt
