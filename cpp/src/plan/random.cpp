#include "klampt/plan/random.h"

#include <mutex>

namespace klampt {
namespace plan {

namespace {

std::mutex& generatorMutex() {
  static std::mutex m;
  return m;
}

Rng& generator() {
  static Rng rng(0);
  return rng;
}

}  // namespace

void seedPlanning(std::uint64_t seed) {
  std::lock_guard<std::mutex> lock(generatorMutex());
  generator().seed(seed);
}

std::uint64_t drawSeed() {
  std::lock_guard<std::mutex> lock(generatorMutex());
  return generator()();
}

}  // namespace plan
}  // namespace klampt
