// IKObjective, IKSolver, GeneralizedIKObjective, GeneralizedIKSolver: the
// classes are bound in ik_objective.cpp, ik_solver.cpp and generalized_ik.cpp.
#include "ik_bindings.h"
#include "klampt/model/kinematics.h"

namespace klampt_py {

py::array_t<double> matrixToArray(const klampt::MatrixX& J) {
  auto out = newArray({J.rows(), J.cols()});
  klampt::RowMatrixMap(out.mutable_data(), J.rows(), J.cols()) = J;
  return out;
}

void bindIK(py::module_& m) {
  bindIKObjective(m);
  bindIKSolver(m);
  bindGeneralizedIK(m);
}

}  // namespace klampt_py
