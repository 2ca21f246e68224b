// Shared declarations of the IK binding files (ik.cpp, ik_objective.cpp,
// ik_solver.cpp): registration functions and the matrix converter.
#pragma once
#include <vector>
#include "convert.h"
#include "handles.h"
#include "klampt/ik/ik_objective.h"

namespace klampt_py {

void bindIKObjective(py::module_& m);
void bindIKSolver(py::module_& m);
void bindGeneralizedIK(py::module_& m);

/// A matrix as a new 2-D ndarray.
py::array_t<double> matrixToArray(const klampt::MatrixX& J);

}  // namespace klampt_py
