// Stamps that identify the structure of a robot (links, joints, drivers) or of
// a world (its elements): every structural edit takes a stamp never used
// before in the process, so anything that derived arrays from a structure (a
// simulation, a sensor, an IK solver) can tell that they are stale.
#pragma once
#include <cstdint>

namespace klampt {

using StructureStamp = std::uint64_t;

/// A stamp no structure had before (thread-safe).
StructureStamp newStructureStamp();

}  // namespace klampt
