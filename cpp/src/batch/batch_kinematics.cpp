// Batch forward kinematics and Jacobians (klampt/batch/batch_kinematics.h).
#include "klampt/batch/batch_kinematics.h"

#include <stdexcept>
#include <string>
#include "klampt/batch/batch_robot.h"
#include "klampt/batch/thread_pool.h"
#include "klampt/model/kinematics.h"

namespace klampt {

namespace {

void checkLink(const Robot& robot, int link) {
  if (link < 0 || link >= robot.numLinks())
    throw std::out_of_range("link index " + std::to_string(link) + " out of range [0, " +
                            std::to_string(robot.numLinks()) + ")");
}

}  // namespace

void batchLinkTransforms(const Robot& robot, const double* configs, int N, const std::vector<int>& links,
                         double* out, int threads) {
  const int n = robot.numLinks();
  for (int l : links) checkLink(robot, l);
  checkConfigs(configs, N, n);
  const int L = (int)links.size();
  // Only the listed links and their ancestors are placed.
  const std::vector<int> frames = linksWithAncestors(robot, links);
  threads = batchThreadCount(threads, N);
  RobotCopies copies(robot, threads);
  parallelFor(N, threads, [&](int w, int i) {
    const Robot& r = copies.atLinks(w, configs + (size_t)i * n, frames, false);
    double* o = out + (size_t)i * L * 16;
    for (int k = 0; k < L; ++k, o += 16) {
      const RigidTransform& T = r.linkTransforms[links[k]];
      for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) o[a * 4 + b] = T.R(a, b);
        o[a * 4 + 3] = T.t[a];
      }
      o[12] = o[13] = o[14] = 0.0;
      o[15] = 1.0;
    }
  });
}

void batchLinkJacobians(const Robot& robot, const double* configs, int N, int link, const Vector3& plocal,
                        double* out, int threads) {
  const int n = robot.numLinks();
  checkLink(robot, link);
  checkConfigs(configs, N, n);
  threads = batchThreadCount(threads, N);
  RobotCopies copies(robot, threads);
  parallelFor(N, threads, [&](int w, int i) {
    const Robot& r = copies.at(w, configs + (size_t)i * n);
    linkJacobian(r, link, plocal, RowMatrixMap(out + (size_t)i * 6 * n, 6, n));
  });
}

}  // namespace klampt
