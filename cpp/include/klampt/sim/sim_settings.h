// Global settings of the physics simulator, addressable by the reference's
// setting names (Simulator.settings / getSetting / setSetting).
#pragma once
#include <string>
#include <vector>
#include "klampt/math/types.h"

namespace klampt {

struct SimSettings {
  Vector3 gravity{0, 0, -9.8};
  double simStep = 0.001;
  bool autoDisable = false;
  bool boundaryLayerCollisions = true;
  bool rigidObjectCollisions = true;
  bool robotSelfCollisions = false;
  bool robotRobotCollisions = true;
  bool adaptiveTimeStepping = true;
  double minimumAdaptiveTimeStep = 1e-6;
  int maxContacts = 20;
  double clusterNormalScale = 0.1;
  double errorReductionParameter = 0.95;
  double dampedLeastSquaresParameter = 1e-6;
  double instabilityConstantEnergyThreshold = 1;
  double instabilityLinearEnergyThreshold = 1.5;
  double instabilityMaxEnergyThreshold = 100000;
  double instabilityPostCorrectionEnergy = 0.8;

  /// The setting names, in the reference's order.
  static const std::vector<std::string>& names();
  /// Throws std::invalid_argument for an unknown name.
  std::string get(const std::string& name) const;
  /// Throws std::invalid_argument for an unknown name or a malformed value.
  void set(const std::string& name, const std::string& value);
};

}  // namespace klampt
