// A simulation as bytes (the archive format of klampt/io/archive.h): its
// world, global settings, per-body padding and surface, contact feedback
// requests, the full state (Simulation::getState) and the contact state a
// step leaves for the next (contacts, the contact selections the queries
// reuse, feedback summaries), so that a simulation pickled mid-run
// continues, once loaded, exactly as the original would.
#pragma once
#include <memory>
#include <string>
#include "klampt/sim/simulation.h"

namespace klampt {

/// Throws std::invalid_argument for a simulation with user joints (hinges,
/// sliders, ... made with Simulator.addJoint), which are not archived.
std::string saveSimulationArchive(const Simulation& sim);
/// A new simulation of a new world. Throws std::invalid_argument for bytes
/// that are not such an archive.
std::shared_ptr<Simulation> loadSimulationArchive(const std::string& bytes);

}  // namespace klampt
