// Forward kinematics and Jacobians of a robot over many configurations, on
// worker threads. Each result equals what setConfig followed by the single
// query computes, bit for bit, whatever the thread count.
#pragma once
#include <vector>
#include "klampt/model/robot.h"

namespace klampt {

/// out (N x links.size() x 4 x 4, row-major): the homogeneous world transform
/// of each listed link at each of the N configurations (N x n row-major).
/// Throws std::out_of_range for a bad link index, std::invalid_argument for a
/// non-finite configuration.
void batchLinkTransforms(const Robot& robot, const double* configs, int N, const std::vector<int>& links,
                         double* out, int threads);

/// out (N x 6 x n): the Jacobian of the point plocal of `link` at each
/// configuration (rows 0-2 angular, 3-5 linear, as linkJacobian).
void batchLinkJacobians(const Robot& robot, const double* configs, int N, int link, const Vector3& plocal,
                        double* out, int threads);

}  // namespace klampt
