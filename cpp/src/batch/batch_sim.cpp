// Batch simulation (klampt/batch/batch_sim.h).
#include "klampt/batch/batch_sim.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include "klampt/batch/batch_robot.h"
#include "klampt/batch/thread_pool.h"
#include "klampt/sim/simulation.h"

namespace klampt {

namespace {

void checkRequest(const World& world, const BatchSimRequest& q) {
  if (q.runs < 0 || q.steps < 0) throw std::invalid_argument("runs and steps must be >= 0");
  if (!(q.dt > 0) || !std::isfinite(q.dt)) throw std::invalid_argument("dt must be positive and finite");
  const bool needsRobot = q.initialConfigs || q.initialVelocities || q.control != BatchSimRequest::Control::None;
  if (q.robot < -1 || q.robot >= (int)world.robots.size() || (needsRobot && q.robot < 0))
    throw std::out_of_range("robot index " + std::to_string(q.robot) + " out of range [0, " +
                            std::to_string(world.robots.size()) + ")");
  if (q.robot < 0) return;
  const Robot& r = *world.robots[q.robot];
  const int n = r.numLinks(), nd = (int)r.drivers.size();
  auto checkRows = [&](const double* rows, int count, const char* name) {
    if (!rows) return;
    if (count != q.runs)
      throw std::invalid_argument(std::string(name) + " must have one row per run (" + std::to_string(q.runs) +
                                  "), got " + std::to_string(count));
    checkConfigs(rows, q.runs, n);
  };
  checkRows(q.initialConfigs, q.initialConfigRows, "initial_configs");
  checkRows(q.initialVelocities, q.initialVelocityRows, "initial_velocities");
  if (q.control != BatchSimRequest::Control::None) {
    if (!q.controls) throw std::invalid_argument("controls are missing");
    if (q.controlRuns != q.runs || q.controlSteps != q.steps)
      throw std::invalid_argument("controls must have shape (runs, steps, numDrivers() or numLinks())");
    if (q.controlWidth != n && q.controlWidth != nd)
      throw std::invalid_argument("controls must have numDrivers() (" + std::to_string(nd) + ") or numLinks() (" +
                                  std::to_string(n) + ") entries per step");
    checkConfigs(q.controls, q.runs * q.steps, q.controlWidth);
  }
}

void recordObjects(const World& w, double* out) {
  for (const auto& o : w.rigidObjects) {
    const RigidTransform& T = o->transform;
    for (int a = 0; a < 3; ++a) {
      for (int b = 0; b < 3; ++b) out[a * 4 + b] = T.R(a, b);
      out[a * 4 + 3] = T.t[a];
    }
    out[12] = out[13] = out[14] = 0.0;
    out[15] = 1.0;
    out += 16;
  }
}

}  // namespace

BatchSimRequest::Control batchControlNamed(const std::string& name) {
  if (name == "pid") return BatchSimRequest::Control::PID;
  if (name == "torque") return BatchSimRequest::Control::Torque;
  throw std::invalid_argument("control_type must be 'pid' or 'torque'");
}

BatchSimResult batchSimulate(const World& world, const BatchSimRequest& q, int threads) {
  checkRequest(world, q);
  const int n = q.robot >= 0 ? world.robots[q.robot]->numLinks() : 0;
  const int objects = (int)world.rigidObjects.size(), samples = q.steps + 1;
  BatchSimResult res;
  res.times.resize(samples);
  res.configs.assign((size_t)q.runs * samples * n, 0.0);
  res.velocities.assign(res.configs.size(), 0.0);
  res.objectTransforms.assign((size_t)q.runs * samples * objects * 16, 0.0);
  res.status.assign(q.runs, 0);
  std::vector<double> times(samples);
  parallelFor(q.runs, batchThreadCount(threads, q.runs), [&](int, int i) {
    std::shared_ptr<World> w = world.copy();
    if (q.robot >= 0) {
      Robot& r = *w->robots[q.robot];
      if (q.initialConfigs) r.setConfig(Eigen::Map<const VectorX>(q.initialConfigs + (size_t)i * n, n));
      if (q.initialVelocities) r.dq = Eigen::Map<const VectorX>(q.initialVelocities + (size_t)i * n, n);
    }
    Simulation sim(w);
    VectorX qa, dqa;
    const VectorX zero = VectorX::Zero(q.controlWidth);
    auto record = [&](int s) {
      if (i == 0) times[s] = sim.time;
      if (q.robot >= 0) {
        sim.actualState(q.robot, qa, dqa);
        const size_t at = ((size_t)i * samples + s) * n;
        std::copy(qa.data(), qa.data() + n, res.configs.data() + at);
        std::copy(dqa.data(), dqa.data() + n, res.velocities.data() + at);
      }
      recordObjects(*w, res.objectTransforms.data() + ((size_t)i * samples + s) * objects * 16);
    };
    record(0);
    int worst = 0;
    for (int s = 0; s < q.steps; ++s) {
      if (q.control != BatchSimRequest::Control::None) {
        const Eigen::Map<const VectorX> u(q.controls + ((size_t)i * q.steps + s) * q.controlWidth, q.controlWidth);
        const Robot& model = *w->robots[q.robot];
        if (q.control == BatchSimRequest::Control::PID)
          sim.controllers[q.robot].setPID(model, u, zero, nullptr);
        else
          sim.controllers[q.robot].setTorque(model, u);
      }
      sim.simulate(q.dt);
      worst = std::max(worst, sim.status);
      record(s + 1);
    }
    res.status[i] = worst;
  });
  if (q.runs == 0)
    for (int s = 0; s < samples; ++s) times[s] = s * q.dt;
  res.times = std::move(times);
  return res;
}

}  // namespace klampt
