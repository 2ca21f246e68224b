#include "klampt/sim/sim_settings.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace klampt {

namespace {

std::string fmt(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

double parseNumber(const std::string& name, const std::string& value) {
  std::istringstream s(value);
  double x;
  std::string rest;
  if (!(s >> x) || (s >> rest)) throw std::invalid_argument("setting " + name + ": expected a number, got '" + value + "'");
  return x;
}

bool parseBool(const std::string& name, const std::string& value) {
  if (value == "true") return true;
  if (value == "false") return false;
  return parseNumber(name, value) != 0;
}

}  // namespace

const std::vector<std::string>& SimSettings::names() {
  static const std::vector<std::string> n = {"gravity",
                                             "autoDisable",
                                             "boundaryLayerCollisions",
                                             "rigidObjectCollisions",
                                             "robotSelfCollisions",
                                             "robotRobotCollisions",
                                             "adaptiveTimeStepping",
                                             "minimumAdaptiveTimeStep",
                                             "maxContacts",
                                             "clusterNormalScale",
                                             "errorReductionParameter",
                                             "dampedLeastSquaresParameter",
                                             "instabilityConstantEnergyThreshold",
                                             "instabilityLinearEnergyThreshold",
                                             "instabilityMaxEnergyThreshold",
                                             "instabilityPostCorrectionEnergy"};
  return n;
}

std::string SimSettings::get(const std::string& name) const {
  if (name == "gravity") return fmt(gravity[0]) + " " + fmt(gravity[1]) + " " + fmt(gravity[2]);
  if (name == "simStep") return fmt(simStep);
  if (name == "autoDisable") return autoDisable ? "1" : "0";
  if (name == "boundaryLayerCollisions") return boundaryLayerCollisions ? "1" : "0";
  if (name == "rigidObjectCollisions") return rigidObjectCollisions ? "1" : "0";
  if (name == "robotSelfCollisions") return robotSelfCollisions ? "1" : "0";
  if (name == "robotRobotCollisions") return robotRobotCollisions ? "1" : "0";
  if (name == "adaptiveTimeStepping") return adaptiveTimeStepping ? "1" : "0";
  if (name == "minimumAdaptiveTimeStep") return fmt(minimumAdaptiveTimeStep);
  if (name == "maxContacts") return fmt(maxContacts);
  if (name == "clusterNormalScale") return fmt(clusterNormalScale);
  if (name == "errorReductionParameter") return fmt(errorReductionParameter);
  if (name == "dampedLeastSquaresParameter") return fmt(dampedLeastSquaresParameter);
  if (name == "instabilityConstantEnergyThreshold") return fmt(instabilityConstantEnergyThreshold);
  if (name == "instabilityLinearEnergyThreshold") return fmt(instabilityLinearEnergyThreshold);
  if (name == "instabilityMaxEnergyThreshold") return fmt(instabilityMaxEnergyThreshold);
  if (name == "instabilityPostCorrectionEnergy") return fmt(instabilityPostCorrectionEnergy);
  throw std::invalid_argument("unknown simulation setting '" + name + "'");
}

void SimSettings::set(const std::string& name, const std::string& value) {
  if (name == "gravity") {
    std::istringstream s(value);
    Vector3 g;
    std::string rest;
    if (!(s >> g[0] >> g[1] >> g[2]) || (s >> rest) || !g.allFinite())
      throw std::invalid_argument("setting gravity: expected 3 numbers, got '" + value + "'");
    gravity = g;
    return;
  }
  if (name == "autoDisable") { autoDisable = parseBool(name, value); return; }
  if (name == "boundaryLayerCollisions") { boundaryLayerCollisions = parseBool(name, value); return; }
  if (name == "rigidObjectCollisions") { rigidObjectCollisions = parseBool(name, value); return; }
  if (name == "robotSelfCollisions") { robotSelfCollisions = parseBool(name, value); return; }
  if (name == "robotRobotCollisions") { robotRobotCollisions = parseBool(name, value); return; }
  if (name == "adaptiveTimeStepping") { adaptiveTimeStepping = parseBool(name, value); return; }
  double x = parseNumber(name, value);
  if (!std::isfinite(x)) throw std::invalid_argument("setting " + name + " must be finite");
  if (name == "simStep" || name == "minimumAdaptiveTimeStep") {
    if (x <= 0) throw std::invalid_argument("setting " + name + " must be > 0");
    (name == "simStep" ? simStep : minimumAdaptiveTimeStep) = x;
  } else if (name == "maxContacts") {
    if (x < 1 || x != std::floor(x)) throw std::invalid_argument("setting maxContacts must be a positive integer");
    maxContacts = (int)x;
  } else if (name == "clusterNormalScale") {
    clusterNormalScale = x;
  } else if (name == "errorReductionParameter") {
    errorReductionParameter = x;
  } else if (name == "dampedLeastSquaresParameter") {
    dampedLeastSquaresParameter = x;
  } else if (name == "instabilityConstantEnergyThreshold") {
    instabilityConstantEnergyThreshold = x;
  } else if (name == "instabilityLinearEnergyThreshold") {
    instabilityLinearEnergyThreshold = x;
  } else if (name == "instabilityMaxEnergyThreshold") {
    instabilityMaxEnergyThreshold = x;
  } else if (name == "instabilityPostCorrectionEnergy") {
    instabilityPostCorrectionEnergy = x;
  } else {
    throw std::invalid_argument("unknown simulation setting '" + name + "'");
  }
}

}  // namespace klampt
