// Builds planners from PlannerSettings: the base algorithm of `type`, then
// the shortcut / restart modifiers, or the point-to-set adaptor for goal sets.
#pragma once
#include <memory>
#include <string>
#include "klampt/plan/planner.h"
#include "klampt/plan/settings.h"

namespace klampt {
namespace plan {

/// The planner for settings.type (validated: std::invalid_argument for an
/// unknown type) with its modifiers. `note` receives a one-line remark when a
/// modifier is ignored.
std::unique_ptr<MotionPlanner> createPlanner(std::shared_ptr<CSpace> space, const PlannerSettings& settings,
                                             std::uint64_t seed, std::string* note = nullptr);
/// A planner from `start` to the goal set. `note` receives the reference's
/// warning when a point-to-point planner is adapted.
std::unique_ptr<MotionPlanner> createPointToSetPlanner(std::shared_ptr<CSpace> space,
                                                       const PlannerSettings& settings, std::uint64_t seed,
                                                       const Config& start, const GoalSet& goal,
                                                       std::string* note = nullptr);
/// Whether the type's planner keeps improving its path by itself.
bool isOptimizingType(const std::string& type);

}  // namespace plan
}  // namespace klampt
