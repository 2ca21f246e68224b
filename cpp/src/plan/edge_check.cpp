#include "klampt/plan/edge_check.h"

#include <cmath>

namespace klampt {
namespace plan {

BisectionEdge::BisectionEdge(CSpace& space, const Config& a, const Config& b) : length_(space.distance(a, b)) {}

bool BisectionEdge::done(const CSpace& space) const {
  // Past 2^50 subdivisions the eps is below the rounding of the length.
  return failed_ || priority() <= space.eps() || depth_ > 50;
}

double BisectionEdge::priority() const { return std::ldexp(length_, -depth_); }

bool BisectionEdge::step(CSpace& space, const Config& a, const Config& b) {
  if (failed_) return false;
  if (done(space)) return true;
  // Midpoint index_ of the 2^depth_ subdivisions: u = (2 index_ + 1) / 2^(depth_+1).
  const double u = std::ldexp(2.0 * (double)index_ + 1.0, -(depth_ + 1));
  thread_local Config x;
  space.interpolate(a, b, u, x);
  if (!space.isFeasible(x)) {
    failed_ = true;
    return false;
  }
  if (++index_ == (1L << depth_)) {
    ++depth_;
    index_ = 0;
  }
  return true;
}

bool BisectionEdge::checkAll(CSpace& space, const Config& a, const Config& b) {
  while (!done(space))
    if (!step(space, a, b)) return false;
  return !failed_;
}

bool bisectionVisible(CSpace& space, const Config& a, const Config& b) {
  BisectionEdge e(space, a, b);
  return e.checkAll(space, a, b);
}

}  // namespace plan
}  // namespace klampt
