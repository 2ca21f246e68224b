// IKSolver: Newton-Raphson IK on one robot (klampt::IKSolver).
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "ik_bindings.h"
#include "klampt/ik/ik_solver.h"
#include "klampt/ik/solver_settings.h"
#include "klampt/model/config_space.h"
#include "reentry.h"
#include "use_scope.h"

namespace klampt_py {

namespace {

struct PyIKSolver {
  RobotModel robot;
  klampt::IKSolver solver;
  /// The robot's structure the solver was made for: its objectives, limits
  /// and active DOFs index links of that structure.
  klampt::StructureStamp stamp = 0;

  /// The core solver pointed at `r` (this solver's robot, already waited for
  /// or held), raising RuntimeError if the robot's structure changed since
  /// the solver was made.
  klampt::IKSolver& on(klampt::Robot& r, const char* call = "an IKSolver method") {
    idle(call);
    if (r.structureStamp != stamp)
      throw std::runtime_error(
          "the robot's links changed (loadFile, reduce, mount or setParent) after this IKSolver was made: make a "
          "new IKSolver");
    solver.robot = &r;
    return solver;
  }
  klampt::IKSolver& get(const char* call = "an IKSolver method") { return on(robot.get(), call); }
  /// RuntimeError when called from the cost callbacks of this solver's minimize.
  void idle(const char* call) const { Reentry::check(this, "solve", call); }
};

/// Runs solve(k) on the solver's robot without the GIL, holding the robot's
/// use lock (other threads' calls on the robot wait meanwhile).
template <class Solve>
auto released(PyIKSolver& s, const char* call, Solve solve) {
  klampt::Robot& r = s.robot.get();
  UseScope use(r.useLock);
  klampt::IKSolver& k = s.on(r, call);  // checked once the lock is held: waiting for it let other threads run
  k.checkSolvable();
  py::gil_scoped_release release;
  return solve(k);
}

py::list goalList(const std::vector<klampt::IKGoal>& goals) {
  py::list l;
  for (const auto& g : goals) l.append(py::cast(g));
  return l;
}

void checkObjective(PyIKSolver& s, const klampt::IKGoal& g) {
  klampt::checkGoals(*s.get("IKSolver.add/set").robot, {g});
}

void setLimits(PyIKSolver& s, FloatsArg qmin, FloatsArg qmax) {
  const VectorX lo = toLimits(qmin, -1, "qmin"), hi = toLimits(qmax, -1, "qmax");
  s.get().setJointLimits(lo, hi);
}

ListPair getLimits(PyIKSolver& s) {
  VectorX lo, hi;
  s.get().jointLimits(lo, hi);
  return toListPair(lo, hi);
}

void setBias(PyIKSolver& s, FloatsArg bias) {
  const VectorX b = toLimits(bias, -1, "biasConfig");
  s.get().setBias(b);
}

bool solveReleased(PyIKSolver& s) {
  return released(s, "IKSolver.solve", [](klampt::IKSolver& k) { return k.solve(); });
}

bool minimize(PyIKSolver& s, py::args args) {
  if (args.size() == 0) return released(s, "IKSolver.minimize", [](klampt::IKSolver& k) { return k.minimize(); });
  if (args.size() != 2 || !PyCallable_Check(args[0].ptr()) || !PyCallable_Check(args[1].ptr()))
    throw py::type_error("minimize() takes no arguments or (secondary_objective, secondary_objective_grad) callables");
  // The callables run with the GIL, while the robot's use lock keeps other
  // threads' calls out; they may use the robot themselves, but a change of
  // its links ends the minimization.
  klampt::Robot& r = s.robot.get();
  UseScope use(r.useLock);
  klampt::IKSolver& k = s.on(r, "IKSolver.minimize");
  k.checkSolvable();
  Reentry running(&s, "solve", "IKSolver.minimize");
  py::object f = args[0], grad = args[1];
  auto unchanged = [&] {
    if (r.structureStamp != s.stamp) s.on(r);  // raises
  };
  std::function<double(const VectorX&)> cost = [&](const VectorX& q) {
    const double v = f(toList(q)).cast<double>();
    unchanged();
    return v;
  };
  std::function<void(const VectorX&, VectorX&)> costGrad = [&](const VectorX& q, VectorX& g) {
    readVector(grad(toList(q)), (int)q.size(), "secondary_objective_grad(q)", g);
    unchanged();
  };
  return k.minimize(&cost, &costGrad);
}

}  // namespace

void bindIKSolver(py::module_& m) {
  py::class_<PyIKSolver> cls(m, "IKSolver", py::dynamic_attr(),
                             "An inverse kinematics solver based on the Newton-Raphson technique, with damped\n"
                             "least squares, joint limits, a line search and an optional bias configuration.\n"
                             "Affine drivers (e.g. coupled gripper fingers) move together and weld joints stay\n"
                             "fixed, so solutions respect them.");
  addThisown(cls);
  cls.def(py::init([](const RobotModel& r) { return PyIKSolver{r, {}, r.get().structureStamp}; }),
          py::arg("robot"))
      .def(py::init([](const PyIKSolver& s) { return PyIKSolver(s); }), py::arg("solver"))
      .def("copy", [](const PyIKSolver& s) { return PyIKSolver(s); }, "Copy constructor.")
      .def("add",
           [](PyIKSolver& s, const klampt::IKGoal& g) {
             checkObjective(s, g);
             s.solver.goals.push_back(g);
           },
           py::arg("objective"), "Adds a new simultaneous objective.")
      .def("set",
           [](PyIKSolver& s, int i, const klampt::IKGoal& g) {
             checkObjective(s, g);
             checkIndex(i, (long)s.solver.goals.size(), "objective");
             s.solver.goals[i] = g;
           },
           py::arg("i"), py::arg("objective"), "Assigns an existing objective added by add.")
      .def("addSecondary",
           [](PyIKSolver& s, const klampt::IKGoal& g) {
             checkObjective(s, g);
             s.solver.secondary.push_back(g);
           },
           py::arg("objective"), "Adds a new objective to the secondary objectives list.")
      .def("setSecondary",
           [](PyIKSolver& s, int i, const klampt::IKGoal& g) {
             checkObjective(s, g);
             checkIndex(i, (long)s.solver.secondary.size(), "secondary objective");
             s.solver.secondary[i] = g;
           },
           py::arg("i"), py::arg("objective"), "Assigns an existing objective added by addSecondary.")
      .def("clear",
           [](PyIKSolver& s) {
             s.robot.get();
             s.idle("IKSolver.clear");
             s.solver.goals.clear();
             s.solver.secondary.clear();
             s.solver.activeDofs.clear();
           },
           "Clears the objectives, secondary objectives and explicit active DOFs.")
      .def("setMaxIters",
           [](PyIKSolver& s, int iters) {
             const int checked = klampt::checkedMaxIters(iters);
             s.robot.get();
             s.idle("IKSolver.setMaxIters");
             s.solver.maxIters = checked;
           },
           py::arg("iters"), "Sets the max # of iterations (default 100).")
      .def("getMaxIters", [](const PyIKSolver& s) { s.robot.get(); return s.solver.maxIters; },
           "Returns the maximum number of Newton-Raphson iterations a solve() may take.")
      .def("setTolerance",
           [](PyIKSolver& s, double tol) {
             const double checked = klampt::checkedTolerance(tol);
             s.robot.get();
             s.idle("IKSolver.setTolerance");
             s.solver.tol = checked;
           },
           py::arg("res"), "Sets the constraint solve tolerance (default 1e-3).")
      .def("getTolerance", [](const PyIKSolver& s) { s.robot.get(); return s.solver.tol; },
           "Returns the convergence tolerance: solve() succeeds when the largest objective error is at most this "
           "(metres for positions, radians for rotations).")
      .def("setActiveDofs",
           [](PyIKSolver& s, IntsArg active) {
             std::vector<int> dofs = toIntList(active, "active");
             checkIndices(dofs, s.get().robot->numLinks(), "active DOF");
             s.solver.activeDofs = std::move(dofs);
           },
           py::arg("active"), "Sets the active degrees of freedom (an empty list restores the default).")
      .def("getActiveDofs", [](PyIKSolver& s) { return s.get().getActiveDofs(); },
           "Returns the active degrees of freedom (by default the ancestors of the objectives' links).")
      .def("setJointLimits", &setLimits, py::arg("qmin"), py::arg("qmax"),
           "Sets limits on the robot's configuration. If empty, this turns off joint limits.")
      .def("getJointLimits", &getLimits,
           "Returns the limits on the robot's configuration (by default the robot's joint limits).")
      .def("setBiasConfig", &setBias, py::arg("biasConfig"),
           "Biases the solver to approach a given configuration. An empty vector clears the bias.")
      .def("getBiasConfig", [](const PyIKSolver& s) { s.robot.get(); return toList(s.solver.bias); },
           "Returns the bias configuration (one entry per link) that solve() moves toward in the null space of "
           "the objectives' Jacobian, or an empty list if none is set.")
      .def("isSolved", [](PyIKSolver& s) { return s.get().isSolved(); },
           "Returns True if the current configuration residual is less than tol.")
      .def("getResidual",
           [](PyIKSolver& s) {
             VectorX f;
             s.get().residual(f);
             return toList(f);
           },
           "Returns the vector describing the error of the objectives at the current configuration.")
      .def("getJacobian",
           [](PyIKSolver& s) {
             klampt::MatrixX J;
             s.get().jacobian(J);
             return matrixToArray(J);
           },
           "The derivative of getResidual() with respect to the active DOFs (columns in\n"
           "getActiveDofs() order), as an ndarray.")
      .def("getSecondaryResidual",
           [](PyIKSolver& s) {
             VectorX f;
             s.get().secondaryResidual(f);
             return toList(f);
           },
           "Returns the error of the secondary objectives at the current configuration.")
      .def("solve", &solveReleased,
           "Tries to find a configuration satisfying all primary and secondary objectives up to the\n"
           "tolerance, starting from the robot's configuration (clamped into the limits). Returns True\n"
           "if it converged; the robot is left at the final configuration.")
      .def("minimize", &minimize,
           "minimize() or minimize(secondary_objective, secondary_objective_grad): minimizes the\n"
           "residual (bounded Levenberg-Marquardt), then the secondary objectives (or f(q), whose\n"
           "gradient grad(q) has one entry per robot DOF) on the solution set. Returns True if the\n"
           "primary objectives are solved.")
      .def("lastSolveIters", [](const PyIKSolver& s) { s.robot.get(); return s.solver.lastIters; },
           "Returns the number of iterations the last solve() or minimize() took.")
      .def("sampleInitial", [](PyIKSolver& s) { s.get().sampleInitial(*klampt::SharedRandom()); },
           "Samples a random configuration of the active DOFs within the solver's limits.")
      .def("_solveGlobal",
           [](PyIKSolver& s, int numRestarts, bool startRandom) {
             // The restarts draw from a generator of their own, seeded from the
             // shared one while the GIL is held.
             std::mt19937_64 rng((*klampt::SharedRandom())());
             return released(s, "IKSolver._solveGlobal",
                             [&](klampt::IKSolver& k) { return k.solveGlobal(numRestarts, startRandom, rng); });
           },
           py::arg("numRestarts"), py::arg("startRandom") = false,
           "solve() with random restarts, run without the GIL (used by klampt.model.ik.solve_global).")
      // keep_alive is not needed: the handle holds the robot by shared ownership.
      .def_property_readonly("robot", [](const PyIKSolver& s) { return s.robot; },
          "The robot the solver moves.")
      .def_property(
          "objectives", [](const PyIKSolver& s) { s.robot.get(); return goalList(s.solver.goals); },
          [](PyIKSolver& s, std::vector<klampt::IKGoal> l) { s.robot.get(); s.solver.goals = std::move(l); },
          "The IKObjectives to satisfy (a copy; assigning a list replaces them).")
      .def_property(
          "secondary_objectives", [](const PyIKSolver& s) { s.robot.get(); return goalList(s.solver.secondary); },
          [](PyIKSolver& s, std::vector<klampt::IKGoal> l) { s.robot.get(); s.solver.secondary = std::move(l); },
          "IKObjectives minimized in the least-squares sense without disturbing the primary ones.")
      .def_property(
          "tol", [](const PyIKSolver& s) { s.robot.get(); return s.solver.tol; },
          [](PyIKSolver& s, double v) { s.robot.get(); s.solver.tol = v; },
          "Residual tolerance of solve(): the objectives are met when the residual's norm is below it.")
      .def_property(
          "maxIters", [](const PyIKSolver& s) { s.robot.get(); return s.solver.maxIters; },
          [](PyIKSolver& s, int v) { s.robot.get(); s.solver.maxIters = v; },
          "Maximum number of Newton-Raphson iterations of solve().")
      .def_property(
          "activeDofs", [](const PyIKSolver& s) { s.robot.get(); return s.solver.activeDofs; },
          [](PyIKSolver& s, std::vector<int> v) { s.robot.get(); s.solver.activeDofs = v; },
          "Indices of the links the solver may move (all links that affect the objectives by default).")
      .def_property(
          "useJointLimits", [](const PyIKSolver& s) { s.robot.get(); return s.solver.useJointLimits; },
          [](PyIKSolver& s, bool v) { s.robot.get(); s.solver.useJointLimits = v; },
          "Whether the solution is kept inside the joint limits (default True).")
      .def_property(
          "qmin", [](const PyIKSolver& s) { s.robot.get(); return toList(s.solver.qmin); },
          [](PyIKSolver& s, FloatsArg v) { s.robot.get(); s.solver.qmin = toVector(v, -1, "qmin"); },
          "Lower joint limits the solver uses (rad or m per link); empty means the robot's.")
      .def_property(
          "qmax", [](const PyIKSolver& s) { s.robot.get(); return toList(s.solver.qmax); },
          [](PyIKSolver& s, FloatsArg v) { s.robot.get(); s.solver.qmax = toVector(v, -1, "qmax"); },
          "Upper joint limits the solver uses (rad or m per link); empty means the robot's.")
      .def_property(
          "biasConfig", [](const PyIKSolver& s) { s.robot.get(); return toList(s.solver.bias); }, &setBias,
          "Configuration that the null-space motion is drawn toward; empty means none.")
      .def_property(
          "lastIters", [](const PyIKSolver& s) { s.robot.get(); return s.solver.lastIters; },
          [](PyIKSolver& s, int v) { s.robot.get(); s.solver.lastIters = v; },
          "Number of iterations of the last solve().");
}

}  // namespace klampt_py
