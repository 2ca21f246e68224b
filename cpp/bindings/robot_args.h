// Arguments sized by a robot, read with the robot's size as it is after the
// conversion (converting an element may run Python code that edits it).
#pragma once
#include <pybind11/pybind11.h>
#include "convert.h"
#include "handles.h"

namespace klampt_py {

/// Reads one finite value per link into `out` (or none, when allowEmpty),
/// then checks the size against the robot as it is now, which it returns.
klampt::Robot& readLinkVector(const RobotModel& robot, pybind11::handle obj, const char* name, VectorX& out,
                              bool allowEmpty = false);

}  // namespace klampt_py
