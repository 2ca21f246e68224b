// klampt.batch's native functions (_batch_*): convert the arrays, copy the
// robot or world under the GIL, then run the core batch query
// (klampt/batch/) without it. The copies share shape data, so nothing the
// query reads can be edited by other threads while it runs.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "convert.h"
#include "handles.h"
#include "klampt/batch/batch_collision.h"
#include "klampt/batch/batch_ik.h"
#include "klampt/batch/batch_kinematics.h"
#include "klampt/batch/batch_sim.h"
#include "klampt/batch/thread_pool.h"

namespace klampt_py {

namespace {

using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

struct ObjectivesHint {
  static constexpr auto name = py::detail::const_name("collections.abc.Sequence[") +
                               py::detail::make_caster<klampt::IKGoal>::name +
                               py::detail::const_name(" | collections.abc.Sequence[") +
                               py::detail::make_caster<klampt::IKGoal>::name + py::detail::const_name("]]");
};
/// Per target, an IKObjective or a sequence of them.
using ObjectivesArg = TypedArg<ObjectivesHint>;

/// The rows of a (rows, width) array, or of a single (width,) row when
/// allowRow, as a copy.
std::vector<double> rowsOf(py::handle obj, int width, const char* name, int& rows, bool allowRow = false) {
  DoubleArray a = DoubleArray::ensure(obj);
  if (!a) throw py::type_error(std::string(name) + " must be an array of numbers");
  if (a.ndim() == 1 && allowRow) {
    checkSize(a.shape(0), width, name);
    rows = 1;
  } else {
    if (a.ndim() != 2 || a.shape(1) != width) {
      std::string shape;
      for (py::ssize_t k = 0; k < a.ndim(); ++k) shape += (k ? ", " : "") + std::to_string(a.shape(k));
      throw py::value_error(std::string(name) + " must have shape (N, " + std::to_string(width) + "), got (" +
                            shape + ")");
    }
    rows = (int)a.shape(0);
  }
  return std::vector<double>(a.data(), a.data() + a.size());
}

/// A standalone copy of the robot to compute on (its shapes stay shared).
std::shared_ptr<klampt::Robot> robotCopy(const RobotModel& robot) { return klampt::copyRobot(robot.get()); }

int links(const RobotModel& robot) { return robot.get().numLinks(); }

py::array_t<double> newArrayOf(std::vector<py::ssize_t> shape) { return py::array_t<double>(shape); }

/// The configurations argument, read before the robot is looked at again.
struct Configs {
  std::vector<double> data;
  int N = 0;
};

Configs configsOf(const RobotModel& robot, py::handle configs) {
  Configs c;
  c.data = rowsOf(configs, links(robot), "configs", c.N);
  return c;
}

std::vector<std::vector<klampt::IKGoal>> goalsOf(py::handle objectives) {
  std::vector<std::vector<klampt::IKGoal>> goals;
  for (py::handle o : objectives) {
    std::vector<klampt::IKGoal> g;
    if (py::isinstance<klampt::IKGoal>(o))
      g.push_back(o.cast<klampt::IKGoal>());
    else
      for (py::handle e : o) g.push_back(e.cast<klampt::IKGoal>());
    goals.push_back(std::move(g));
  }
  return goals;
}

py::tuple collisionResult(int N, bool pairs, const std::function<void(bool*, int*)>& run) {
  py::array_t<bool> hit(N);
  py::array_t<int> which(std::vector<py::ssize_t>{N, 2});
  bool* h = hit.mutable_data();
  int* p = pairs ? which.mutable_data() : nullptr;
  {
    py::gil_scoped_release release;
    run(h, p);
  }
  if (pairs) return py::tuple(py::make_tuple(hit, which));
  return py::tuple(py::make_tuple(hit));
}

}  // namespace

void bindBatch(py::module_& m) {
  m.def("_batch_threads", [](int requested, int n) { return klampt::batchThreadCount(requested, n); },
        py::arg("requested"), py::arg("n"), "The thread count a batch of n items uses (requested <= 0: every core).");
  m.def("_available_cores", &klampt::availableCores, "The cores this process may run on.");

  m.def("_batch_link_transforms",
        [](const RobotModel& robot, ArrayArg configs, std::vector<int> links, int threads) {
          Configs c = configsOf(robot, configs);
          auto r = robotCopy(robot);
          checkSize(c.data.size(), (Py_ssize_t)c.N * r->numLinks(), "configs");
          auto out = newArrayOf({c.N, (py::ssize_t)links.size(), 4, 4});
          double* o = out.mutable_data();
          py::gil_scoped_release release;
          klampt::batchLinkTransforms(*r, c.data.data(), c.N, links, o, threads);
          return out;
        },
        py::arg("robot"), py::arg("configs"), py::arg("links"), py::arg("num_threads"),
        "(N, len(links), 4, 4) link transforms at each configuration (klampt.batch.forward_kinematics).");

  m.def("_batch_link_jacobians",
        [](const RobotModel& robot, ArrayArg configs, int link, FloatsArg plocal, int threads) {
          Configs c = configsOf(robot, configs);
          const Vector3 p = toVector3(plocal, "local_point");
          auto r = robotCopy(robot);
          checkSize(c.data.size(), (Py_ssize_t)c.N * r->numLinks(), "configs");
          auto out = newArrayOf({c.N, 6, r->numLinks()});
          double* o = out.mutable_data();
          py::gil_scoped_release release;
          klampt::batchLinkJacobians(*r, c.data.data(), c.N, link, p, o, threads);
          return out;
        },
        py::arg("robot"), py::arg("configs"), py::arg("link"), py::arg("local_point"), py::arg("num_threads"),
        "(N, 6, n) Jacobians of a link point at each configuration (klampt.batch.jacobians).");

  m.def("_batch_self_collision",
        [](const RobotModel& robot, ArrayArg configs, bool pairs, int threads) {
          Configs c = configsOf(robot, configs);
          auto r = robotCopy(robot);
          checkSize(c.data.size(), (Py_ssize_t)c.N * r->numLinks(), "configs");
          return collisionResult(c.N, pairs, [&](bool* h, int* p) {
            klampt::batchSelfCollision(*r, c.data.data(), c.N, h, p, threads);
          });
        },
        py::arg("robot"), py::arg("configs"), py::arg("pairs"), py::arg("num_threads"),
        "(collides,) or (collides, first pairs) of self-collision at each configuration (klampt.batch.self_collides).");

  m.def("_batch_world_collision",
        [](const WorldModel& world, int robot, ArrayArg configs, bool pairs, int threads) {
          const klampt::World& w0 = world.get();
          checkIndex(robot, (long)w0.robots.size(), "robot");
          Configs c;
          c.data = rowsOf(configs, w0.robots[robot]->numLinks(), "configs", c.N);
          const klampt::World& w = world.get();  // as it is after the conversion
          checkIndex(robot, (long)w.robots.size(), "robot");
          auto r = klampt::copyRobot(*w.robots[robot]);
          checkSize(c.data.size(), (Py_ssize_t)c.N * r->numLinks(), "configs");
          std::vector<klampt::Obstacle> obstacles = klampt::worldObstacles(w, robot);
          return collisionResult(c.N, pairs, [&](bool* h, int* p) {
            klampt::batchWorldCollision(*r, obstacles, c.data.data(), c.N, h, p, threads);
          });
        },
        py::arg("world"), py::arg("robot"), py::arg("configs"), py::arg("pairs"), py::arg("num_threads"),
        "(collides,) or (collides, first pairs) of a robot against the rest of its world "
        "(klampt.batch.world_collides).");

  m.def("_batch_ik",
        [](const RobotModel& robot, ObjectivesArg objectives, ArrayArg initial, double tol, int maxIters, int restarts,
           bool startRandom, std::uint64_t seed, int threads) {
          auto goals = goalsOf(objectives);
          int rows = 0;
          std::vector<double> q0 = rowsOf(initial, links(robot), "initial", rows, true);
          auto r = robotCopy(robot);
          const int N = (int)goals.size(), n = r->numLinks();
          checkSize(q0.size(), (Py_ssize_t)rows * n, "initial");
          klampt::BatchIKSettings settings;
          settings.tol = tol;
          settings.maxIters = maxIters;
          settings.numRestarts = restarts;
          settings.startRandom = startRandom;
          settings.seed = seed;
          auto solutions = newArrayOf({N, n});
          py::array_t<bool> solved(N);
          double* qs = solutions.mutable_data();
          bool* ok = solved.mutable_data();
          {
            py::gil_scoped_release release;
            klampt::batchIK(*r, goals, q0.data(), rows, settings, qs, ok, threads);
          }
          return py::make_tuple(solutions, solved);
        },
        py::arg("robot"), py::arg("objectives"), py::arg("initial"), py::arg("tol"), py::arg("max_iters"),
        py::arg("restarts"), py::arg("start_random"), py::arg("seed"), py::arg("num_threads"),
        "(solutions, solved) of IK for each target (klampt.batch.solve_ik).");

  m.def("_batch_simulate",
        [](const WorldModel& world, int robot, double dt, int steps, int runs, OptionalArrayArg initialConfigs,
           OptionalArrayArg initialVelocities, OptionalArrayArg controls, const std::string& controlType, int threads) {
          const klampt::World& w0 = world.get();
          if (robot < -1 || robot >= (int)w0.robots.size()) checkIndex(robot, (long)w0.robots.size(), "robot");
          const int n = robot >= 0 ? w0.robots[robot]->numLinks() : 0;
          klampt::BatchSimRequest q;
          q.robot = robot;
          q.dt = dt;
          q.steps = steps;
          q.runs = runs;
          std::vector<double> qs, dqs, us;
          if (!initialConfigs.is_none()) {
            qs = rowsOf(initialConfigs, n, "initial_configs", q.initialConfigRows);
            q.initialConfigs = qs.data();
          }
          if (!initialVelocities.is_none()) {
            dqs = rowsOf(initialVelocities, n, "initial_velocities", q.initialVelocityRows);
            q.initialVelocities = dqs.data();
          }
          if (!controls.is_none()) {
            DoubleArray u = DoubleArray::ensure(controls);
            if (!u || u.ndim() != 3) throw py::value_error("controls must have shape (runs, steps, numDrivers() or numLinks())");
            us.assign(u.data(), u.data() + u.size());
            q.controlRuns = (int)u.shape(0);
            q.controlSteps = (int)u.shape(1);
            q.controlWidth = (int)u.shape(2);
            q.controls = us.data();
            q.control = klampt::batchControlNamed(controlType);
          }
          // A copy taken now, so that edits of other threads cannot reach the runs.
          std::shared_ptr<klampt::World> w = world.get().copy();
          if (robot >= 0 && w->robots[robot]->numLinks() != n)
            throw py::value_error("the robot changed while the arguments were read");
          klampt::BatchSimResult res;
          {
            py::gil_scoped_release release;
            res = klampt::batchSimulate(*w, q, threads);
          }
          const int samples = steps + 1, objects = (int)w->rigidObjects.size();
          auto arrayOf = [](const std::vector<double>& v, std::vector<py::ssize_t> shape) {
            py::array_t<double> a(shape);
            std::copy(v.begin(), v.end(), a.mutable_data());
            return a;
          };
          py::dict out;
          out["times"] = arrayOf(res.times, {samples});
          out["configs"] = arrayOf(res.configs, {runs, samples, n});
          out["velocities"] = arrayOf(res.velocities, {runs, samples, n});
          out["object_transforms"] = arrayOf(res.objectTransforms, {runs, samples, objects, 4, 4});
          out["status"] = py::array_t<int>(runs, res.status.data());
          return out;
        },
        py::arg("world"), py::arg("robot"), py::arg("dt"), py::arg("steps"), py::arg("runs"),
        py::arg("initial_configs"), py::arg("initial_velocities"), py::arg("controls"), py::arg("control_type"),
        py::arg("num_threads"), "Trajectories of independent simulations of the world (klampt.batch.simulate).");
}

}  // namespace klampt_py
