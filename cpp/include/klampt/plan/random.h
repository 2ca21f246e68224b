// The planning random generator: motionplanning.set_random_seed seeds it;
// each planner draws its own seed from it when created, so that runs repeat
// exactly on one thread and planners on different threads share nothing.
#pragma once
#include <cstdint>
#include "klampt/plan/cspace.h"

namespace klampt {
namespace plan {

void seedPlanning(std::uint64_t seed);
/// A seed for a new planner (or for a one-off sample), from the global generator.
std::uint64_t drawSeed();

}  // namespace plan
}  // namespace klampt
