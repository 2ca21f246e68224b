// Handles of the simulator's bodies and joints, and the per-class binding
// hooks that bindSimulation (sim_simulator.cpp) calls.
#pragma once
#include <memory>
#include "handles.h"
#include "sim_handles.h"

namespace klampt_py {

struct SimBodyHandle {
  std::shared_ptr<klampt::Simulation> sim;
  int objectID = -1;
  /// The body, raising RuntimeError if the element has no simulated body.
  klampt::SimBody& get() const;
};

struct SimJointHandle {
  std::shared_ptr<klampt::Simulation> sim;
  std::shared_ptr<klampt::SimUserJoint> joint;
};

/// Raises IndexError unless `robot` indexes a robot of the simulation.
void checkRobotIndex(const klampt::Simulation& sim, long robot);

void bindSimBody(py::module_& m);
void bindSimJoint(py::module_& m);
py::class_<SimRobotControllerHandle> bindSimRobotController(py::module_& m);

}  // namespace klampt_py
