// What the batch queries of one robot share: checking a batch of
// configurations, and the per-thread copies of the robot they move (each
// worker thread sets its own copy's configuration; the shapes, and their
// collision structures, stay shared).
#pragma once
#include <memory>
#include <vector>
#include "klampt/model/robot.h"

namespace klampt {

/// Throws std::invalid_argument naming the first row of the N x n row-major
/// array with a NaN or infinite entry.
void checkConfigs(const double* configs, int N, int n);

/// The listed links and all their ancestors, ascending (parents before
/// children): the frames that placing the listed links needs.
std::vector<int> linksWithAncestors(const Robot& robot, const std::vector<int>& links);

/// Lazily made copies of a robot, one per worker thread.
class RobotCopies {
 public:
  RobotCopies(const Robot& robot, int threads) : robot_(robot), copies_(threads) {}
  /// Worker w's copy at configuration q (n doubles).
  Robot& at(int worker, const double* q);
  /// Worker w's copy with configuration q, of which only the frames of
  /// `frames` (from linksWithAncestors) are placed, each as setConfig places
  /// it; the other links keep stale frames. Their geometries are placed
  /// too unless placeGeometry is false (only linkTransforms are read).
  /// Allocates nothing after the first call.
  Robot& atLinks(int worker, const double* q, const std::vector<int>& frames, bool placeGeometry = true);
  /// Worker w's copy, at whatever configuration it was last set to.
  Robot& of(int worker);

 private:
  const Robot& robot_;
  std::vector<std::shared_ptr<Robot>> copies_;
};

}  // namespace klampt
