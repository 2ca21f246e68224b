// Klamp't archives: a portable byte format (little-endian integers, IEEE-754
// doubles stored bit for bit) of worlds, robots, geometries and IK goals, so
// that they can be pickled and sent between processes and machines. Loading
// an archive gives back every value exactly; no pointer is ever stored.
#pragma once
#include <memory>
#include <string>
#include "klampt/geometry/appearance.h"
#include "klampt/geometry/geometry.h"
#include "klampt/ik/ik_objective.h"
#include "klampt/model/world.h"

namespace klampt {

/// Every element of the world (robots, rigid objects, terrains with their
/// geometry, appearance, mass, state and properties) and its simulation XML.
std::string saveWorldArchive(const World& world);
/// A new world from saveWorldArchive's bytes. Throws std::invalid_argument
/// for bytes that are not such an archive (truncated, wrong kind or version).
std::shared_ptr<World> loadWorldArchive(const std::string& bytes);

std::string saveRobotArchive(const Robot& robot);
std::shared_ptr<Robot> loadRobotArchive(const std::string& bytes);

/// The shape, current transform, margin and source-file information.
std::string saveGeometryArchive(const Geometry& geometry);
Geometry loadGeometryArchive(const std::string& bytes);

std::string saveAppearanceArchive(const Appearance& appearance);
Appearance loadAppearanceArchive(const std::string& bytes);

std::string saveIKGoalArchive(const IKGoal& goal);
IKGoal loadIKGoalArchive(const std::string& bytes);

}  // namespace klampt
