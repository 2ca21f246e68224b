// RobotCSpace options given by name or as a term list, as
// motionplanning.robot_cspace takes them.
#pragma once
#include <string>
#include <vector>
#include "klampt/plan/robot_cspace.h"

namespace klampt {
namespace plan {

/// "terrain", "object" or "robot"; throws std::invalid_argument for another name.
RobotCSpaceOptions::BodyPair::Kind bodyPairKindNamed(const std::string& kind);
/// Whether the edge check "conservative" (true) or "bisection" (false) is
/// named; throws std::invalid_argument for another name.
bool conservativeEdgesNamed(const std::string& edgeCheck);
/// The number of coordinates the terms map: the largest coordinate + 1 (0 for none).
int coordinatesOfTerms(const std::vector<RobotCSpaceOptions::Term>& terms);

}  // namespace plan
}  // namespace klampt
