// Self-collision and collision with the environment of a robot over many
// configurations, on worker threads, each with its own copy of the robot.
// Each answer equals the single query's at that configuration.
#pragma once
#include <vector>
#include "klampt/geometry/geometry.h"
#include "klampt/model/robot.h"
#include "klampt/model/world.h"

namespace klampt {

/// collides[i]: whether the robot self-collides (RobotModel.selfCollides) at
/// configuration i. pairs, if not null (N x 2): the first colliding enabled
/// link pair in index order, (-1, -1) when free.
void batchSelfCollision(const Robot& robot, const double* configs, int N, bool* collides, int* pairs, int threads);

/// A placed geometry of the environment and the world ID it is reported as.
struct Obstacle {
  Geometry geometry;  // a snapshot: shared shape, pose, margin
  int id = -1;
};

/// Snapshots of the world's elements other than robot `robot`, in world ID
/// order: terrains, rigid objects, then the links of the other robots.
std::vector<Obstacle> worldObstacles(const World& world, int robot);

/// collides[i]: whether any link geometry of the robot at configuration i
/// collides with any obstacle (Geometry3D.collides of each pair). pairs, if
/// not null (N x 2): the first colliding (link index, obstacle id), links in
/// index order and obstacles in the given order, (-1, -1) when free. Empty
/// geometries are skipped.
void batchWorldCollision(const Robot& robot, const std::vector<Obstacle>& obstacles, const double* configs, int N,
                         bool* collides, int* pairs, int threads);

}  // namespace klampt
