// Binding hooks and shared types of klampt.plan.motionplanning (the
// submodule _robotsim.motionplanning): the registry behind the reference's
// integer `index` attributes and motionplanning.destroy(), and Python
// callables wrapped as core callbacks.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <pybind11/pybind11.h>
#include <string>
#include <vector>
#include "klampt/plan/plan.h"
#include "klampt/plan/robot_cspace.h"
#include "klampt/plan/settings.h"
#include "klampt/plan/tested_space.h"
#include "klampt/plan/user_space.h"
#include "typed_args.h"

namespace klampt_py {

namespace py = pybind11;

/// A space made through CSpaceInterface and its number. Released by destroy().
struct SpaceEntry {
  int index = -1;
  klampt::plan::UserSpace space;
};

struct PlanEntry {
  int index = -1, spaceIndex = -1;
  std::shared_ptr<klampt::plan::Plan> plan;
};

/// The Python CSpaceInterface: its entry, empty once destroyed.
struct CSpaceHandle {
  std::shared_ptr<SpaceEntry> entry;
  int index() const { return entry ? entry->index : -1; }
  /// RuntimeError("Invalid cspace index") once destroyed.
  SpaceEntry& get() const;
  /// The space the queries use (RuntimeError once destroyed).
  klampt::plan::CSpace& space() const { return *get().space.space(); }
};

struct PlannerHandle {
  std::shared_ptr<PlanEntry> entry;
  int index() const { return entry ? entry->index : -1; }
  int spaceIndex() const { return entry ? entry->spaceIndex : -1; }
  /// RuntimeError("Invalid plan index") once destroyed.
  klampt::plan::Plan& get() const;
};

std::shared_ptr<SpaceEntry> registerSpace(klampt::plan::UserSpace space);
std::shared_ptr<PlanEntry> registerPlan(std::shared_ptr<klampt::plan::Plan> plan, int spaceIndex);
/// Frees every space and plan (handles then raise).
void destroyAll();
/// The module-global factory settings (set_plan_type, set_plan_setting, ...).
klampt::plan::PlannerSettings& factorySettings();

namespace hints {
KLAMPT_TYPE_HINT(ConfigTest, "collections.abc.Callable[[list[float]], bool]");
KLAMPT_TYPE_HINT(EdgeTest, "collections.abc.Callable[[list[float], list[float]], bool]");
KLAMPT_TYPE_HINT(Sampler, "collections.abc.Callable[[], collections.abc.Sequence[float]]");
KLAMPT_TYPE_HINT(OptionalSampler, "collections.abc.Callable[[], collections.abc.Sequence[float]] | None");
KLAMPT_TYPE_HINT(NeighborhoodSampler, "collections.abc.Callable[[list[float], float], collections.abc.Sequence[float]]");
KLAMPT_TYPE_HINT(Metric, "collections.abc.Callable[[list[float], list[float]], float]");
KLAMPT_TYPE_HINT(OptionalEdgeCost, "collections.abc.Callable[[list[float], list[float]], float] | None");
KLAMPT_TYPE_HINT(OptionalTerminalCost, "collections.abc.Callable[[list[float]], float] | None");
KLAMPT_TYPE_HINT(Interpolator, "collections.abc.Callable[[list[float], list[float], float], collections.abc.Sequence[float]]");
}  // namespace hints

// Python callables as the stubs name them; the bindings check them (and
// raise the reference's errors) themselves.
using ConfigTestArg = TypedArg<hints::ConfigTest>;
using EdgeTestArg = TypedArg<hints::EdgeTest>;
using SamplerArg = TypedArg<hints::Sampler>;
using OptionalSamplerArg = TypedArg<hints::OptionalSampler>;
using NeighborhoodSamplerArg = TypedArg<hints::NeighborhoodSampler>;
using MetricArg = TypedArg<hints::Metric>;
using InterpolatorArg = TypedArg<hints::Interpolator>;
using OptionalEdgeCostArg = TypedArg<hints::OptionalEdgeCost>;
using OptionalTerminalCostArg = TypedArg<hints::OptionalTerminalCost>;
/// One list of floats per dimension (combine_nd_cubic's times, positions, velocities).
using FloatRowsArg = TypedArg<hints::FloatRows>;
/// A path as the planners return it: its configurations, or None when there is none.
using OptionalPath = py::typing::Optional<py::typing::List<FloatList>>;

/// A Python object that can be dropped without the interpreter lock held
/// (the last reference may go away in a planning thread).
using PyRef = std::shared_ptr<py::object>;
PyRef keepCallable(py::handle f);

/// Waits for other threads' long calls on the space's world (simulation
/// steps, IK solves), then re-reads the other bodies' placements.
void syncRobotSpace(klampt::plan::RobotCSpace& space);

FloatList configToList(const klampt::plan::Config& q);
/// Statistics as the reference gives them: names to values, both strings.
using StatsDict = py::typing::Dict<py::str, py::str>;
StatsDict statsDict(const std::map<std::string, std::string>& stats);
/// A configuration from a Python sequence; `error` is the RuntimeError
/// message when it is not one.
klampt::plan::Config configFromPython(py::handle obj, const char* error);

// Core callbacks calling Python (each takes the interpreter lock for the call).
std::function<bool(const klampt::plan::Config&)> pyTest(PyRef f);
std::function<bool(const klampt::plan::Config&, const klampt::plan::Config&)> pyEdgeTest(PyRef f);
std::function<void(klampt::plan::Config&)> pySampler(PyRef f, const char* what);

void bindPlanTimeScaling(py::module_& mp);
void bindPlanCSpace(py::module_& mp);
void bindPlanner(py::module_& mp);
/// set_random_seed, set_plan_*, get_plan_json_string, destroy.
void bindPlanModule(py::module_& mp);

}  // namespace klampt_py
