// The planner factory's settings (the reference's MotionPlannerFactory
// fields): what motionplanning.set_plan_type / set_plan_setting /
// set_plan_json_string edit and every new planner is built from.
#pragma once
#include <cmath>
#include <string>
#include <vector>

namespace klampt {
namespace plan {

struct PlannerSettings {
  std::string type = "any";
  int knn = 10;
  double connectionThreshold = INFINITY;
  bool ignoreConnectedComponents = false;
  double perturbationRadius = 0.1;
  int perturbationIters = 5;
  bool bidirectional = true;
  bool useGrid = true;
  double gridResolution = 0;
  double suboptimalityFactor = 0;
  int randomizeFrequency = 50;
  std::string pointLocation;
  bool storeEdges = true;
  bool shortcut = false, restart = false;
  std::string restartTermCond = "{foundSolution:1,maxIters:1000}";

  /// Sets a numeric setting by the reference's name; throws
  /// std::runtime_error with the reference's message for an unknown name.
  void setNumeric(const std::string& name, double value);
  void setString(const std::string& name, const std::string& value);
  /// All fields as the reference's JSON-like string (bare inf).
  std::string toJson() const;
  /// Loads the fields a JSON-like string names ("type" is required); false
  /// (settings unchanged) if the string is invalid.
  bool fromJson(const std::string& text);
};

/// The lower-cased planner type; throws std::invalid_argument for an unknown one.
std::string canonicalPlannerType(const std::string& type);
/// Every planner type the factory makes.
const std::vector<std::string>& plannerTypes();

/// When a restarting planner ends a round (restartTermCond).
struct HaltingCondition {
  bool foundSolution = true;
  double maxIters = 1000, timeLimit = INFINITY, costThreshold = 0;
  double costImprovementPeriod = INFINITY, costImprovementThreshold = 0;
  /// Parses restartTermCond; false if invalid.
  bool parse(const std::string& text);
};

}  // namespace plan
}  // namespace klampt
