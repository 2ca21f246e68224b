// motionplanning.PlannerInterface: a plan (plan/plan.h) built from the
// factory settings when it is created. Calls that can run long release the
// interpreter lock; Python callbacks take it back for each call.
#include "convert.h"
#include "plan_bindings.h"
#include "klampt/plan/roadmap_tgf.h"
#include "reentry.h"

#include <pybind11/stl.h>

namespace klampt_py {

namespace {

using klampt::plan::Config;
using klampt::plan::Path;
using klampt::plan::Plan;

/// Runs f on the plan without the interpreter lock, one call per plan at a
/// time (the lock is released first so a callback in another call can run).
/// `call` names the method; a callback of the plan calling it raises.
template <class F>
auto onPlan(const PlannerHandle& h, const char* call, F&& f) {
  std::shared_ptr<Plan> plan = h.entry ? h.entry->plan : nullptr;
  if (!plan) throw std::runtime_error("Invalid plan index");
  Reentry running(plan.get(), "plan", call);
  py::gil_scoped_release release;
  std::lock_guard<std::mutex> lock(plan->mutex());
  return f(*plan);
}

/// Runs f on the plan holding the interpreter lock, for spaces of Python
/// callbacks: each of their queries needs it, and re-entering a held lock
/// costs far less than taking it back. Other threads still run between the
/// callbacks' bytecodes. Waiting for another call on the plan, the lock is
/// let go (that call's callbacks need it).
template <class F>
auto onPlanHoldingGil(const PlannerHandle& h, const char* call, F&& f) {
  std::shared_ptr<Plan> plan = h.entry ? h.entry->plan : nullptr;
  if (!plan) throw std::runtime_error("Invalid plan index");
  Reentry running(plan.get(), "plan", call);
  std::unique_lock<std::mutex> lock(plan->mutex(), std::try_to_lock);
  if (!lock.owns_lock()) {
    py::gil_scoped_release release;
    lock.lock();
  }
  return f(*plan);
}

OptionalPath pathToPython(bool found, const Path& path) {
  if (!found) return py::reinterpret_borrow<OptionalPath>(py::none());
  py::list out;
  for (const Config& q : path) out.append(configToList(q));
  return py::reinterpret_steal<OptionalPath>(out.release());
}

Config endpoint(py::handle obj, const char* error) { return configFromPython(obj, error); }

}  // namespace

void bindPlanner(py::module_& mp) {
  py::class_<PlannerHandle> cls(mp, "PlannerInterface",
                                "A motion planner on a CSpaceInterface, of the type and settings the module's\n"
                                "factory holds when it is created (set_plan_type, set_plan_setting).\n"
                                "klampt.plan.cspace.MotionPlan is easier to use.");
  cls.def(py::init([](const CSpaceHandle& space) {
            SpaceEntry& e = space.get();
            auto plan = std::make_shared<Plan>(e.space.space(), factorySettings());
            return PlannerHandle{registerPlan(plan, e.index)};
          }),
          py::arg("cspace"), "Raises ValueError for an unknown planner type.");
  cls.def_property_readonly("index", &PlannerHandle::index, "The plan's number (-1 once destroyed).");
  cls.def_property_readonly("spaceIndex", &PlannerHandle::spaceIndex, "The index of its space.");
  cls.def("destroy", [](PlannerHandle& h) {
    if (h.entry) h.entry->plan.reset();
  }, "Frees the planner; later calls raise RuntimeError.");
  cls.def("setEndpoints", [](PlannerHandle& h, FloatsArg start, FloatsArg goal) {
    const Config s = endpoint(start, "Invalid start endpoint"), g = endpoint(goal, "Invalid goal endpoint");
    if (auto robot = h.entry && h.entry->plan ? std::dynamic_pointer_cast<klampt::plan::RobotCSpace>(h.get().space())
                                              : nullptr)
      syncRobotSpace(*robot);
    onPlan(h, "PlannerInterface.setEndpoints", [&](Plan& p) {
      p.setEndpoints(s, g);
      return 0;
    });
    return true;
  }, py::arg("start"), py::arg("goal"),
          "Point-to-point endpoints (milestones 0 and 1). RuntimeError if either is infeasible\n"
          "(naming the failed tests) or endpoints were already set.");
  cls.def("setEndpointSet", [](PlannerHandle& h, FloatsArg start, ConfigTestArg goal, OptionalSamplerArg goalSample) {
    if (!PyCallable_Check(goal.ptr())) throw std::runtime_error("Goal test is not callable");
    klampt::plan::GoalSet set;
    set.test = pyTest(keepCallable(goal));
    if (!goalSample.is_none()) {
      if (!PyCallable_Check(goalSample.ptr())) throw std::runtime_error("Goal sampler is not callable");
      set.sampler = pySampler(keepCallable(goalSample), "goal sample");
    }
    const Config s = endpoint(start, "Invalid start endpoint");
    const std::string note = onPlan(h, "PlannerInterface.setEndpointSet", [&](Plan& p) { return p.setEndpointSet(s, set); });
    if (!note.empty()) py::print(note);
    return true;
  }, py::arg("start"), py::arg("goal"), py::arg("goalSample") = py::none(),
          "A start and a goal set: goal(q) -> bool tests membership, goalSample() -> q draws\n"
          "candidates (else the space's sampler is used).");
  cls.def("setCostFunction", [](PlannerHandle& h, OptionalEdgeCostArg edgeCost, OptionalTerminalCostArg terminalCost) {
    klampt::plan::Objective o;
    if (!edgeCost.is_none()) {
      PyRef f = keepCallable(edgeCost);
      o.edgeCost = [f](const Config& a, const Config& b) {
        py::gil_scoped_acquire gil;
        return (*f)(configToList(a), configToList(b)).cast<double>();
      };
    }
    if (!terminalCost.is_none()) {
      PyRef f = keepCallable(terminalCost);
      o.terminalCost = [f](const Config& q) {
        py::gil_scoped_acquire gil;
        return (*f)(configToList(q)).cast<double>();
      };
    }
    onPlan(h, "PlannerInterface.setCostFunction", [&](Plan& p) {
      p.setObjective(o);
      return 0;
    });
  }, py::arg("edgeCost") = py::none(), py::arg("terminalCost") = py::none(),
          "Path cost: sum of edgeCost(a, b) (default: distance) plus terminalCost(last).");
  cls.def("addMilestone", [](PlannerHandle& h, FloatsArg q) {
    const Config x = endpoint(q, "Invalid milestone");
    return onPlan(h, "PlannerInterface.addMilestone", [&](Plan& p) { return p.addMilestone(x); });
  }, py::arg("milestone"), "Adds a milestone; its index, or -1 if infeasible.");
  cls.def("getClosestMilestone", [](PlannerHandle& h, FloatsArg q) {
    const Config x = endpoint(q, "Invalid configuration");
    return onPlan(h, "PlannerInterface.getClosestMilestone", [&](Plan& p) { return p.closestMilestone(x); });
  }, py::arg("config"), "Index of the milestone nearest to config.");
  cls.def("getMilestone", [](PlannerHandle& h, int i) {
    const Config q = onPlan(h, "PlannerInterface.getMilestone", [&](Plan& p) { return p.milestone(i); });
    return configToList(q);
  }, py::arg("arg2"), "The configuration of milestone i.");
  cls.def("planMore", [](PlannerHandle& h, int iterations) {
    auto plan = [&](Plan& p) {
      p.planMore(iterations);
      return 0;
    };
    if (auto robot = std::dynamic_pointer_cast<klampt::plan::RobotCSpace>(h.get().space())) {
      syncRobotSpace(*robot);
      onPlan(h, "PlannerInterface.planMore", plan);
    } else {
      onPlanHoldingGil(h, "PlannerInterface.planMore", plan);
    }
  }, py::arg("iterations"),
          "Runs that many iterations (on a native robot space without the interpreter lock; an\n"
          "exception raised in a Python callback stops planning and is raised here).");
  cls.def("getSolutionPath", [](PlannerHandle& h) {
    Path path;
    const bool found = onPlan(h, "PlannerInterface.getSolutionPath", [&](Plan& p) { return p.solutionPath(path); });
    return pathToPython(found, path);
  }, "The solution path (list of configurations), or None until solved.");
  cls.def("getPath", [](PlannerHandle& h, int a, int b) {
    Path path;
    const bool found = onPlan(h, "PlannerInterface.getPath", [&](Plan& p) { return p.path(a, b, path); });
    return pathToPython(found, path);
  }, py::arg("milestone1"), py::arg("milestone2"), "The path between two milestones, or None if not connected.");
  cls.def("getPath", [](PlannerHandle& h, int a, const std::vector<int>& goals) {
    Path path;
    const bool found = onPlan(h, "PlannerInterface.getPath", [&](Plan& p) { return p.pathToAny(a, goals, path); });
    return pathToPython(found, path);
  }, py::arg("milestone1"), py::arg("goalMilestones"), "The cheapest path to any of the goal milestones, or None.");
  cls.def("getData", [](PlannerHandle& h, const std::string& name) {
    return onPlan(h, "PlannerInterface.getData", [&](Plan& p) { return p.data(name); });
  }, py::arg("setting"), "\"iterations\", \"milestones\" or \"components\".");
  cls.def("getStats", [](PlannerHandle& h) {
    return statsDict(onPlan(h, "PlannerInterface.getStats", [](Plan& p) { return p.stats(); }));
  }, "Planner statistics (values are strings): numIters, numMilestones, numComponents, ...");
  cls.def("getRoadmap", [](PlannerHandle& h) {
    std::vector<Config> vertices;
    std::vector<klampt::plan::Edge> edges;
    onPlan(h, "PlannerInterface.getRoadmap", [&](Plan& p) {
      p.roadmap(vertices, edges);
      return 0;
    });
    py::typing::List<FloatList> V;
    py::typing::List<py::typing::Tuple<int, int>> E;
    for (const Config& q : vertices) V.append(configToList(q));
    for (const auto& e : edges) E.append(py::make_tuple(e.first, e.second));
    return py::typing::Tuple<decltype(V), decltype(E)>(py::make_tuple(V, E));
  }, "(V, E): the roadmap's configurations and (i, j) edges.");
  cls.def("isSolved", [](PlannerHandle& h) { return onPlan(h, "PlannerInterface.isSolved", [](Plan& p) { return p.isSolved(); }); },
          "Whether a solution was found.");
  cls.def("dump", [](PlannerHandle& h, const std::string& fn) {
    std::vector<Config> vertices;
    std::vector<klampt::plan::Edge> edges;
    onPlan(h, "PlannerInterface.dump", [&](Plan& p) {
      p.roadmap(vertices, edges);
      return 0;
    });
    if (!klampt::plan::writeRoadmapTGF(fn, vertices, edges)) {
      PyErr_SetString(PyExc_IOError, ("cannot write '" + fn + "'").c_str());
      throw py::error_already_set();
    }
  }, py::arg("fn"), "Saves the roadmap in Trivial Graph Format (node labels are configurations).");
}

}  // namespace klampt_py
