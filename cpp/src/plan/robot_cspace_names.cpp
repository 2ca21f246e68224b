#include "klampt/plan/robot_cspace_names.h"

#include <algorithm>
#include <stdexcept>

namespace klampt {
namespace plan {

RobotCSpaceOptions::BodyPair::Kind bodyPairKindNamed(const std::string& kind) {
  using BP = RobotCSpaceOptions::BodyPair;
  if (kind == "terrain") return BP::Terrain;
  if (kind == "object") return BP::Object;
  if (kind == "robot") return BP::Robot;
  throw std::invalid_argument("pair kind must be 'terrain', 'object' or 'robot', got '" + kind + "'");
}

bool conservativeEdgesNamed(const std::string& edgeCheck) {
  if (edgeCheck == "conservative") return true;
  if (edgeCheck == "bisection") return false;
  throw std::invalid_argument("edgeCheck must be 'bisection' or 'conservative', got '" + edgeCheck + "'");
}

int coordinatesOfTerms(const std::vector<RobotCSpaceOptions::Term>& terms) {
  int dim = 0;
  for (const auto& t : terms) dim = std::max(dim, t.coordinate + 1);
  return dim;
}

}  // namespace plan
}  // namespace klampt
