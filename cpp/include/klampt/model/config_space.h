// Configuration-space geometry of a robot that honours its joint types: spin
// joints wrap at ±pi and the rotations of floating / ball-and-socket joints
// interpolate along geodesics of SO(3).
#pragma once
#include <mutex>
#include <random>
#include "klampt/model/robot.h"

namespace klampt {

/// The configuration u of the way from a to b (out may alias neither).
void interpolateConfig(const Robot& robot, const VectorX& a, const VectorX& b, double u, VectorX& out);
/// Euclidean distance summed over joints; floating joints add translation
/// distance and rotation angle.
double configDistance(const Robot& robot, const VectorX& a, const VectorX& b);
/// d/du interpolateConfig(a, b, u) at u = 0.
void interpolateDerivative(const Robot& robot, const VectorX& a, const VectorX& b, VectorX& out);
/// Samples a configuration: uniform within finite limits, a Laplacian of scale
/// `unboundedScale` around 0 on infinite ones, uniform rotations for floating
/// joints; affine drivers are made consistent.
void sampleConfig(const Robot& robot, double unboundedScale, std::mt19937_64& rng, VectorX& out);

/// The generator shared by every sampling routine (klampt.set_random_seed),
/// held for as long as this object lives: draws from several threads (sensor
/// noise of simulations stepping in parallel) never interleave inside it.
/// Use it as a temporary, e.g. sampleConfig(robot, 1, *SharedRandom(), q).
class SharedRandom {
 public:
  SharedRandom();
  std::mt19937_64& operator*() const { return *rng_; }

 private:
  std::unique_lock<std::mutex> lock_;
  std::mt19937_64* rng_;
};

}  // namespace klampt
