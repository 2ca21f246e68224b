// Shared declarations of the IK binding files (ik.cpp, ik_objective.cpp,
// ik_solver.cpp): registration functions and argument readers.
#pragma once
#include <vector>
#include "convert.h"
#include "handles.h"
#include "klampt/ik/ik_objective.h"

namespace klampt_py {

void bindIKObjective(py::module_& m);
void bindIKSolver(py::module_& m);
void bindGeneralizedIK(py::module_& m);

/// A finite 3-vector argument (ValueError for NaN / infinity).
Vector3 ikVector3(py::handle obj, const char* name);
/// A finite rotation argument (9 floats, column-major).
Matrix3 ikRotation(py::handle obj, const char* name);
/// A matrix as a new 2-D ndarray.
py::array_t<double> matrixToArray(const klampt::MatrixX& J);
/// A list of 3-vectors.
std::vector<Vector3> pointList(py::handle obj, const char* name);

}  // namespace klampt_py
