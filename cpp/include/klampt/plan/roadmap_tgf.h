// A planner's roadmap written in Trivial Graph Format (PlannerInterface.dump).
#pragma once
#include <string>
#include <vector>
#include "klampt/plan/planner.h"

namespace klampt {
namespace plan {

/// Writes one line per node (its index, then its configuration), a "#" line,
/// then one line per edge ("i j"). Returns false if the file cannot be
/// opened for writing.
bool writeRoadmapTGF(const std::string& path, const std::vector<Config>& vertices, const std::vector<Edge>& edges);

}  // namespace plan
}  // namespace klampt
