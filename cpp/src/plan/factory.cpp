#include "klampt/plan/factory.h"

#include <stdexcept>
#include "klampt/plan/planners/grid_search.h"
#include "klampt/plan/planners/modifiers.h"
#include "klampt/plan/planners/optimal_roadmap.h"
#include "klampt/plan/planners/point_to_set.h"
#include "klampt/plan/planners/prm.h"
#include "klampt/plan/planners/rrt.h"
#include "klampt/plan/planners/sbl.h"
#include "klampt/plan/planners/sblprt.h"

namespace klampt {
namespace plan {

namespace {

bool isMultiQueryType(const std::string& type) {
  return type == "prm" || type == "sblprt" || type == "rrt*" || type == "prm*" || type == "lazyprm*" ||
         type == "lazyrrg*";
}

std::unique_ptr<MotionPlanner> createBase(const std::shared_ptr<CSpace>& space, const PlannerSettings& s,
                                          const std::string& type, std::uint64_t seed) {
  if (type == "sbl" || type == "any") return std::make_unique<SBLPlanner>(space, seed, s);
  if (type == "rrt") return std::make_unique<RRTPlanner>(space, seed, s);
  if (type == "prm") return std::make_unique<PRMPlanner>(space, seed, s);
  if (type == "sblprt") return std::make_unique<SBLPRTPlanner>(space, seed, s);
  if (type == "prm*") return std::make_unique<OptimalRoadmapPlanner>(space, seed, s, false, false);
  if (type == "rrt*") return std::make_unique<OptimalRoadmapPlanner>(space, seed, s, true, false);
  if (type == "lazyprm*") return std::make_unique<OptimalRoadmapPlanner>(space, seed, s, false, true);
  if (type == "lazyrrg*") return std::make_unique<OptimalRoadmapPlanner>(space, seed, s, true, true);
  if (type == "fmm" || type == "fmm*") return std::make_unique<GridSearchPlanner>(space, seed, s, type == "fmm*");
  throw std::invalid_argument("Planner type \"" + type + "\" is not available");
}

/// Wraps `make`'s planners with the shortcut / restart modifiers asked for.
std::unique_ptr<MotionPlanner> withModifiers(PlannerMaker make, const PlannerSettings& s, const std::string& type,
                                             std::uint64_t seed, std::string* note) {
  if (!s.shortcut && !s.restart) return make(seed);
  if (isOptimizingType(type)) {
    if (note) *note = "MotionPlannerFactory: shortcut and restart are ignored for the optimizing planner " + type;
    return make(seed);
  }
  if (s.restart) {
    HaltingCondition round;
    if (!round.parse(s.restartTermCond))
      throw std::invalid_argument("Invalid restartTermCond \"" + s.restartTermCond + "\"");
    return std::make_unique<RestartPlanner>(std::move(make), round, s.shortcut, seed);
  }
  return std::make_unique<ShortcutPlanner>(make(seed), seed);
}

}  // namespace

bool isOptimizingType(const std::string& type) {
  return type == "rrt*" || type == "prm*" || type == "lazyprm*" || type == "lazyrrg*" || type == "fmm*";
}

std::unique_ptr<MotionPlanner> createPlanner(std::shared_ptr<CSpace> space, const PlannerSettings& settings,
                                             std::uint64_t seed, std::string* note) {
  const std::string type = canonicalPlannerType(settings.type);
  PlannerMaker make = [space, settings, type](std::uint64_t s) { return createBase(space, settings, type, s); };
  return withModifiers(std::move(make), settings, type, seed, note);
}

std::unique_ptr<MotionPlanner> createPointToSetPlanner(std::shared_ptr<CSpace> space,
                                                       const PlannerSettings& settings, std::uint64_t seed,
                                                       const Config& start, const GoalSet& goal, std::string* note) {
  std::string type = canonicalPlannerType(settings.type);
  if (type == "any") type = "sblprt";
  const bool multiQuery = isMultiQueryType(type);
  if (!multiQuery && note)
    *note = "MotionPlannerFactory: warning, motion planner " + type +
            " does not fully accept point-to-set problems, applying multi-query adaptor";
  PlannerMaker base = [space, settings, type](std::uint64_t s) { return createBase(space, settings, type, s); };
  PlannerMaker adaptor = [space, base, multiQuery, start, goal](std::uint64_t s) -> std::unique_ptr<MotionPlanner> {
    return std::make_unique<PointToSetPlanner>(space, base, multiQuery, start, goal, s);
  };
  std::string ignored;
  return withModifiers(std::move(adaptor), settings, type, seed, note && note->empty() ? note : &ignored);
}

}  // namespace plan
}  // namespace klampt
