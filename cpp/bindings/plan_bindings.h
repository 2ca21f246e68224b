// Binding hooks of klampt.plan.motionplanning (the submodule
// _robotsim.motionplanning), one per area.
#pragma once
#include <pybind11/pybind11.h>

namespace klampt_py {

namespace py = pybind11;

/// interpolate_*, brake_*, combine_nd_cubic.
void bindPlanTimeScaling(py::module_& mp);

}  // namespace klampt_py
