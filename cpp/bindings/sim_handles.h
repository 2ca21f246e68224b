// Python handles of the simulator's objects. Each holds the Simulation (and
// through it the world) so it stays valid while Python references it.
#pragma once
#include <memory>
#include <pybind11/pybind11.h>
#include "klampt/sim/simulation.h"

namespace klampt_py {

namespace py = pybind11;

/// `sim`, once no long call of another thread uses its world or the world's
/// robots; raises RuntimeError if the world changed structure since the
/// simulation was built (its arrays would be stale). Every method of the
/// simulation's classes goes through it.
klampt::Simulation& live(klampt::Simulation& sim);
const klampt::Simulation& live(const klampt::Simulation& sim);

/// The controller of robot `robotIndex` in a simulation.
struct SimRobotControllerHandle {
  std::shared_ptr<klampt::Simulation> sim;
  int robotIndex = -1;
};

/// Adds the Simulator, SimBody, SimJoint and SimRobotController classes
/// (sim_*.cpp).
void bindSimulation(py::module_& m);
/// Adds SimRobotSensor and RobotModel.sensor/addSensor (sim_sensor.cpp);
/// module.cpp calls it once RobotModel, RobotModelLink and WorldModel exist.
void bindRobotSensors(py::module_& m);
/// Adds the controller's sensor methods (sim_sensor.cpp). Called by
/// bindSimulation once the SimRobotController class exists.
void bindSensors(py::module_& m, py::class_<SimRobotControllerHandle>& controllerCls);

}  // namespace klampt_py
