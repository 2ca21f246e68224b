// Many independent simulations of one world, on worker threads: run i copies
// the world, sets robot `robot` to its own initial configuration and
// velocity, and steps `steps` times by dt, sending before each step its own
// control (PID setpoints or torques). Every run follows, bit for bit, the
// trajectory a Simulator of a copy of the world follows when it is given the
// same initial state and commands one call at a time.
#pragma once
#include <memory>
#include <string>
#include <vector>
#include "klampt/model/world.h"

namespace klampt {

struct BatchSimRequest {
  enum class Control { None, PID, Torque };
  /// The robot whose state is set, controlled and recorded (-1: none).
  int robot = 0;
  double dt = 0.01;
  int steps = 0;
  int runs = 0;
  /// runs x n row-major, or null: the world's robot state.
  const double* initialConfigs = nullptr;
  const double* initialVelocities = nullptr;
  /// runs x steps x controlWidth: the PID setpoint (with zero velocity, as
  /// SimRobotController.setPIDCommand) or the torques (setTorque) sent before
  /// each step; controlWidth is numDrivers() or numLinks().
  Control control = Control::None;
  const double* controls = nullptr;
  int controlWidth = 0;
  /// The rows of initialConfigs and initialVelocities and the leading shape of
  /// controls as the caller passed them; checked against runs and steps.
  int initialConfigRows = 0;
  int initialVelocityRows = 0;
  int controlRuns = 0;
  int controlSteps = 0;
};

/// The control named "pid" or "torque" (klampt.batch.simulate's control_type);
/// throws std::invalid_argument for another name.
BatchSimRequest::Control batchControlNamed(const std::string& name);

/// Everything recorded at the start and after every step (steps + 1 samples).
struct BatchSimResult {
  std::vector<double> times;                  // steps + 1
  std::vector<double> configs, velocities;   // runs x (steps + 1) x n: the robot's actual state
  std::vector<double> objectTransforms;       // runs x (steps + 1) x objects x 4 x 4 (homogeneous)
  std::vector<int> status;                    // runs: the worst simulator status of the run
};

/// Throws std::invalid_argument for bad sizes, indices or non-finite values
/// before any run starts, std::runtime_error if a simulation cannot be built.
BatchSimResult batchSimulate(const World& world, const BatchSimRequest& request, int threads);

}  // namespace klampt
