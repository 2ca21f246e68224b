// motionplanning's module functions: the planning random seed, the global
// planner factory (set_plan_type, set_plan_setting, set/get_plan_json_string)
// and destroy().
#include "plan_bindings.h"

#include "klampt/plan/random.h"

namespace klampt_py {

void bindPlanModule(py::module_& mp) {
  mp.def("set_random_seed", [](long long seed) { klampt::plan::seedPlanning((std::uint64_t)seed); },
         py::arg("seed"),
         "Seeds the planners' random generator (each new planner draws its own seed from it, so\n"
         "seeded runs repeat). Python's random module, used by CSpace.sample, is separate.");
  mp.def("set_plan_type", [](const std::string& type) {
    klampt::plan::canonicalPlannerType(type);  // ValueError for an unknown type
    factorySettings().type = type;
  }, py::arg("type"),
         "Sets the type of the planners created next: prm, rrt, sbl, sblprt, rrt*, prm*, lazyprm*,\n"
         "lazyrrg*, fmm, fmm*, or any (sbl, or sblprt for goal sets); case-insensitive.\n"
         "ValueError for an unknown type.");
  mp.def("set_plan_setting", [](const std::string& name, double value) { factorySettings().setNumeric(name, value); },
         py::arg("setting"), py::arg("value"),
         "Sets a numeric setting of the planners created next: knn, connectionThreshold,\n"
         "perturbationRadius, bidirectional, grid, gridResolution, suboptimalityFactor,\n"
         "ignoreConnectedComponents, randomizeFrequency, shortcut, restart.");
  mp.def("set_plan_setting",
         [](const std::string& name, const std::string& value) { factorySettings().setString(name, value); },
         py::arg("setting"), py::arg("value"), "Sets a string setting: pointLocation or restartTermCond.");
  mp.def("set_plan_json_string", [](const std::string& text) {
    if (!factorySettings().fromJson(text)) throw std::runtime_error("Invalid JSON string");
  }, py::arg("string"), "Loads the factory settings from a JSON string (bare inf allowed; \"type\" required).");
  mp.def("get_plan_json_string", []() { return factorySettings().toJson(); },
         "The factory settings as the reference's JSON string (bare inf).");
  mp.def("destroy", &destroyAll, "Frees every space and planner; their handles then raise RuntimeError.");
}

}  // namespace klampt_py
