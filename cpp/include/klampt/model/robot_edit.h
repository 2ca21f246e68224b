// Structural edits of a robot model: mounting a sub-robot or geometry onto a
// link, reducing away fixed DOFs, and replacing the whole model.
#pragma once
#include <string>
#include <vector>
#include "klampt/model/robot.h"

namespace klampt {

/// Appends `sub`'s links under `link` (-1: the world) with its roots placed at
/// T relative to that link. Link and driver names get `prefix` + ":" unless
/// prefix is empty. Self-collision pairs inside `sub` are kept; pairs between
/// the new links and the old ones are enabled except for `link` and the new
/// roots. Sensors/properties of `sub` are not merged.
void mountRobot(Robot& robot, int link, const Robot& sub, const RigidTransform& T, const std::string& prefix);

/// Merges geometry into a link's geometry (the geometry placed at T in the link frame).
void mountGeometry(Robot& robot, int link, const GeometryData& geom, const RigidTransform& T);

/// Builds a copy of `robot` without its fixed DOFs (qmin == qmax) and returns,
/// for each original link, its index in the reduced robot (-1 if removed).
std::vector<int> reduceRobot(const Robot& robot, Robot& reduced);

/// Makes `parent` (-1: the world) the parent of `link`, which must come after
/// it: throws std::out_of_range for a parent that is not a link,
/// std::invalid_argument for parent >= link. The structure changes and the
/// frames are updated.
void setLinkParent(Robot& robot, int link, int parent);

/// Makes `robot` a copy of `with` (a loaded file, a reduced robot) that stays
/// in `robot`'s world: its links, joints and drivers are new (structureChanged).
void replaceRobot(Robot& robot, const Robot& with);

}  // namespace klampt
