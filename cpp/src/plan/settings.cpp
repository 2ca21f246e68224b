#include "klampt/plan/settings.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <stdexcept>
#include "klampt/plan/json_like.h"

namespace klampt {
namespace plan {

const std::vector<std::string>& plannerTypes() {
  static const std::vector<std::string> types = {"any",  "prm",      "rrt",      "sbl", "sblprt", "rrt*",
                                                 "prm*", "lazyprm*", "lazyrrg*", "fmm", "fmm*"};
  return types;
}

std::string canonicalPlannerType(const std::string& type) {
  std::string t = type;
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return (char)std::tolower(c); });
  const auto& known = plannerTypes();
  if (std::find(known.begin(), known.end(), t) != known.end()) return t;
  std::string list;
  for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
  std::string message = "Unknown planner type \"" + type + "\"; valid types are " + list;
  if (t.rfind("ompl:", 0) == 0) message += " (OMPL planners are not available in this build)";
  throw std::invalid_argument(message);
}

void PlannerSettings::setNumeric(const std::string& name, double value) {
  if (name == "knn")
    knn = (int)value;
  else if (name == "connectionThreshold")
    connectionThreshold = value;
  else if (name == "perturbationRadius")
    perturbationRadius = value;
  else if (name == "perturbationIters")
    perturbationIters = (int)value;
  else if (name == "bidirectional")
    bidirectional = value != 0;
  else if (name == "grid" || name == "useGrid")
    useGrid = value != 0;
  else if (name == "gridResolution")
    gridResolution = value;
  else if (name == "suboptimalityFactor")
    suboptimalityFactor = value;
  else if (name == "ignoreConnectedComponents")
    ignoreConnectedComponents = value != 0;
  else if (name == "randomizeFrequency")
    randomizeFrequency = (int)value;
  else if (name == "storeEdges")
    storeEdges = value != 0;
  else if (name == "shortcut")
    shortcut = value != 0;
  else if (name == "restart")
    restart = value != 0;
  else
    throw std::runtime_error("Invalid numeric setting \"" + name +
                             "\"\nValid keys are:\n  knn, connectionThreshold, perturbationRadius, bidirectional,\n"
                             "  grid, gridResolution, suboptimalityFactor, randomizeFrequency,\n  shortcut, restart\n");
}

void PlannerSettings::setString(const std::string& name, const std::string& value) {
  if (name == "pointLocation")
    pointLocation = value;
  else if (name == "restartTermCond")
    restartTermCond = value;
  else if (name == "type")
    type = value;
  else
    throw std::runtime_error("Invalid string-valued setting \"" + name +
                             "\"\nValid keys are:\n  pointLocation, restartTermCond\n");
}

std::string PlannerSettings::toJson() const {
  auto b = [](bool x) { return std::string(x ? "true" : "false"); };
  std::string s = "{";
  s += "\"perturbationRadius\":" + jsonNumber(perturbationRadius);
  s += ", \"connectionThreshold\":" + jsonNumber(connectionThreshold);
  s += ", \"ignoreConnectedComponents\":" + b(ignoreConnectedComponents);
  s += ", \"pointLocation\":" + jsonString(pointLocation);
  s += ", \"restartTermCond\":" + jsonString(restartTermCond);
  s += ", \"randomizeFrequency\":" + jsonNumber(randomizeFrequency);
  s += ", \"gridResolution\":" + jsonNumber(gridResolution);
  s += ", \"shortcut\":" + b(shortcut);
  s += ", \"bidirectional\":" + b(bidirectional);
  s += ", \"suboptimalityFactor\":" + jsonNumber(suboptimalityFactor);
  s += ", \"knn\":" + jsonNumber(knn);
  s += ", \"useGrid\":" + b(useGrid);
  s += ", \"storeEdges\":" + b(storeEdges);
  s += ", \"restart\":" + b(restart);
  s += ", \"type\":" + jsonString(type);
  s += ", \"perturbationIters\":" + jsonNumber(perturbationIters);
  return s + "}";
}

bool PlannerSettings::fromJson(const std::string& text) {
  std::map<std::string, JsonValue> fields;
  if (!parseJsonObject(text, fields)) return false;
  auto t = fields.find("type");
  if (t == fields.end() || t->second.kind != JsonValue::String) return false;
  PlannerSettings s = *this;
  try {
    for (const auto& [key, value] : fields) {
      double x;
      if (value.kind == JsonValue::String)
        s.setString(key, value.text);
      else if (value.asNumber(x))
        s.setNumeric(key, x);
    }
  } catch (const std::runtime_error&) {
    return false;
  }
  *this = s;
  return true;
}

bool HaltingCondition::parse(const std::string& text) {
  std::map<std::string, JsonValue> fields;
  if (!parseJsonObject(text, fields)) return false;
  HaltingCondition h;
  for (const auto& [key, value] : fields) {
    double x;
    if (!value.asNumber(x)) return false;
    if (key == "foundSolution")
      h.foundSolution = x != 0;
    else if (key == "maxIters")
      h.maxIters = x;
    else if (key == "timeLimit")
      h.timeLimit = x;
    else if (key == "costThreshold")
      h.costThreshold = x;
    else if (key == "costImprovementPeriod")
      h.costImprovementPeriod = x;
    else if (key == "costImprovementThreshold")
      h.costImprovementThreshold = x;
    else
      return false;
  }
  *this = h;
  return true;
}

}  // namespace plan
}  // namespace klampt
