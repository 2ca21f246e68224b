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

Robot& RobotCopies::of(int worker) {
  std::shared_ptr<Robot>& c = copies_.at(worker);
  if (!c) c = copyRobot(robot_);
  return *c;
}

Robot& RobotCopies::at(int worker, const double* q) {
  Robot& r = of(worker);
  r.setConfig(Eigen::Map<const VectorX>(q, r.numLinks()));
  return r;
}

}  // namespace klampt
