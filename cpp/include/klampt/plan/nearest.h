// Nearest-neighbour queries over a planner's milestones by the space's
// distance (exact search, any metric). The reference's pointLocation
// settings ("kdtree", "balltree", "random", ...) are accepted and all give
// the exact nearest neighbours.
#pragma once
#include <vector>
#include "klampt/plan/cspace.h"

namespace klampt {
namespace plan {

class NearestNeighbors {
 public:
  explicit NearestNeighbors(CSpace& space) : space_(&space) {}
  void add(int id, const Config& q);
  void remove(int id);
  void clear();
  int size() const { return (int)ids_.size(); }
  /// The nearest point's id (-1 if empty) and its distance.
  int nearest(const Config& q, double* dist = nullptr) const;
  /// Up to k nearest ids, nearest first.
  std::vector<int> kNearest(const Config& q, int k) const;
  /// Ids within distance r, nearest first.
  std::vector<int> within(const Config& q, double r) const;

 private:
  CSpace* space_;
  std::vector<int> ids_;
  std::vector<Config> points_;
};

}  // namespace plan
}  // namespace klampt
