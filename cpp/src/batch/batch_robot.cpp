// Per-thread robot copies of the batch queries (klampt/batch/batch_robot.h).
#include "klampt/batch/batch_robot.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include "klampt/model/world.h"

namespace klampt {

void checkConfigs(const double* configs, int N, int n) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < n; ++j)
      if (!std::isfinite(configs[(size_t)i * n + j]))
        throw std::invalid_argument("configuration " + std::to_string(i) + " contains NaN or infinity");
}

std::vector<int> linksWithAncestors(const Robot& robot, const std::vector<int>& links) {
  std::vector<char> needed(robot.numLinks(), 0);
  for (int l : links)
    for (int k = l; k >= 0 && !needed[k]; k = robot.links[k].parent) needed[k] = 1;
  std::vector<int> order;
  for (int k = 0; k < robot.numLinks(); ++k)
    if (needed[k]) order.push_back(k);
  return order;
}

Robot& RobotCopies::of(int worker) {
  std::shared_ptr<Robot>& c = copies_.at(worker);
  if (!c) c = copyRobot(robot_);
  return *c;
}

Robot& RobotCopies::at(int worker, const double* q) {
  Robot& r = of(worker);
  r.q = Eigen::Map<const VectorX>(q, r.numLinks());  // setConfig without a temporary vector
  r.updateFrames();
  return r;
}

Robot& RobotCopies::atLinks(int worker, const double* q, const std::vector<int>& frames, bool placeGeometry) {
  Robot& r = of(worker);
  r.q = Eigen::Map<const VectorX>(q, r.numLinks());
  r.placeLinkFrames(frames, placeGeometry);
  return r;
}

}  // namespace klampt
