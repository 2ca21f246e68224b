// Incremental edge checking by bisection: the midpoints of ever finer
// subdivisions of an edge are tested one at a time, coarse to fine, so that a
// lazy planner can interleave the checks of many edges and stop at the first
// failure. Done when the subdivisions are no longer than the space's eps.
#pragma once
#include "klampt/plan/cspace.h"

namespace klampt {
namespace plan {

class BisectionEdge {
 public:
  BisectionEdge() = default;
  /// The edge from a to b (both assumed feasible), of length space.distance(a, b).
  BisectionEdge(CSpace& space, const Config& a, const Config& b);

  /// Tests the next point; false if it is infeasible (the edge then stays failed).
  bool step(CSpace& space, const Config& a, const Config& b);
  /// Steps until done or failed; true if the whole edge is free.
  bool checkAll(CSpace& space, const Config& a, const Config& b);
  /// Every subdivision is within eps (nothing left to test).
  bool done(const CSpace& space) const;
  bool failed() const { return failed_; }
  /// Length of the current subdivisions: how much is still unchecked.
  double priority() const;
  double length() const { return length_; }

 private:
  double length_ = 0;
  int depth_ = 0;       // subdivisions at this depth have length length_ / 2^depth_
  long index_ = 0;      // next midpoint to test at this depth
  bool failed_ = false;
};

/// Whole-edge bisection check of a -> b at the space's eps, coarse to fine.
bool bisectionVisible(CSpace& space, const Config& a, const Config& b);

}  // namespace plan
}  // namespace klampt
