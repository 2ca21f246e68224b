// GeneralizedIKObjective and GeneralizedIKSolver: IK between robot links and
// rigid objects (klampt::GeneralizedIKSolver).
#include <optional>
#include <variant>
#include <pybind11/stl.h>

#include "ik_bindings.h"
#include "klampt/ik/generalized_ik.h"
#include "klampt/ik/solver_settings.h"
#include "klampt/model/config_space.h"
#include "use_scope.h"

namespace klampt_py {

namespace {

// The Python objective keeps the handles (shared ownership of the bodies).
struct PyGenObjective {
  std::optional<RobotModelLink> link1, link2;
  std::optional<RigidObjectModel> obj1, obj2;
  /// The bodies, fixed when the objective is made, and the goal between them.
  klampt::GeneralizedIKGoal target;

  /// The core goal, once no long call of another thread uses the bodies.
  const klampt::GeneralizedIKGoal& core() const {
    for (const auto* l : {&link1, &link2})
      if (*l) (*l)->r();
    for (const auto* o : {&obj1, &obj2})
      if (*o) (*o)->get();
    return target;
  }

  /// The use locks of the bodies: their robots', and their worlds' for objects.
  void addLocks(std::vector<klampt::UseLock*>& locks) const {
    for (const auto* l : {&link1, &link2})
      if (*l && (*l)->robot.robot) locks.push_back(&(*l)->robot.robot->useLock);
    for (const auto* o : {&obj1, &obj2})
      if (*o && (*o)->world) locks.push_back(&(*o)->world->useLock);
  }
};

struct WorldOrNumberHint {
  static constexpr auto name = py::detail::make_caster<WorldModel>::name + py::detail::const_name(" | int");
};
/// A WorldModel, or the reference's world number.
using WorldOrNumber = TypedArg<WorldOrNumberHint>;

struct PyGenSolver {
  WorldOrNumber world;  // the world it was made for
  std::vector<PyGenObjective> objectives;
  klampt::GeneralizedIKSolver solver;

  klampt::GeneralizedIKSolver& get() {
    solver.goals.clear();
    for (const auto& o : objectives) solver.goals.push_back(o.core());
    return solver;
  }
};

using BodyArg = std::variant<RobotModelLink, RigidObjectModel>;

/// The body a BodyArg names, kept in `link` or `obj` for the Python accessors.
klampt::IKBody body(const BodyArg& arg, std::optional<RobotModelLink>& link, std::optional<RigidObjectModel>& obj) {
  if (const auto* l = std::get_if<RobotModelLink>(&arg)) {
    link = *l;
    l->r();
    return klampt::IKBody::ofLink(l->robot.robot, l->index);
  }
  obj = std::get<RigidObjectModel>(arg);
  return klampt::IKBody::ofObject(obj->object);
}

PyGenObjective makeObjective(const BodyArg& a, const std::optional<BodyArg>& b) {
  PyGenObjective o;
  o.target.body1 = body(a, o.link1, o.obj1);
  if (b) o.target.body2 = body(*b, o.link2, o.obj2);
  return o;
}

}  // namespace

void bindGeneralizedIK(py::module_& m) {
  py::class_<PyGenObjective> obj(m, "GeneralizedIKObjective", py::dynamic_attr(),
                                 "An IK target matching points or frames between links of any robots and rigid\n"
                                 "objects: GeneralizedIKObjective(a) constrains a in the world frame,\n"
                                 "GeneralizedIKObjective(a, b) relative to b. Then call setPoint, setPoints or\n"
                                 "setTransform.");
  addThisown(obj);
  obj.def(py::init([](const PyGenObjective& o) { return o; }), py::arg("obj"))
      .def(py::init([](const BodyArg& a) { return makeObjective(a, std::nullopt); }), py::arg("link"))
      .def(py::init(&makeObjective), py::arg("link"), py::arg("link2"))
      .def("setPoint",
           [](PyGenObjective& o, FloatsArg p1, FloatsArg p2) {
             Vector3 a = toFiniteVector3(p1, "p1"), b = toFiniteVector3(p2, "p2");
             o.target.goal.setFromPoints({a}, {b});
           },
           py::arg("p1"), py::arg("p2"), "Matches point p1 on the first body to p2 on the second (or the world).")
      .def("setPoints",
           [](PyGenObjective& o, PointsArg p1s, PointsArg p2s) {
             std::vector<Vector3> a = toPointList(p1s, "p1s"), b = toPointList(p2s, "p2s");
             if (a.size() != b.size() || a.empty())
               throw py::value_error("p1s and p2s must be non-empty lists of the same length");
             o.target.goal.setFromPoints(a, b);
           },
           py::arg("p1s"), py::arg("p2s"), "Matches several points (2 also fix an axis, 3 or more the rotation).")
      .def("setTransform",
           [](PyGenObjective& o, FloatsArg R, FloatsArg t) {
             o.target.goal.setFixedTransform(toTransform(R, t));
           },
           py::arg("R"), py::arg("t"), "Fixes the transform of the first body relative to the second to (R,t).")
      .def("sampleTransform",
           [](const PyGenObjective& o) {
             return transformToTuple(o.target.goal.sampleTransform(*klampt::SharedRandom()));
           },
           "A random transform (R,t) of the first body relative to the second satisfying the objective.")
      .def_property_readonly("link1", [](const PyGenObjective& o) { return o.link1; },
          "The first body's robot link, or None.")
      .def_property_readonly("link2", [](const PyGenObjective& o) { return o.link2; },
          "The second body's robot link, or None (with obj2 None: the world).")
      .def_property_readonly("obj1", [](const PyGenObjective& o) { return o.obj1; },
          "The first body's rigid object, or None.")
      .def_property_readonly("obj2", [](const PyGenObjective& o) { return o.obj2; },
          "The second body's rigid object, or None.")
      .def_property_readonly("isObj1", [](const PyGenObjective& o) { return o.obj1.has_value(); },
          "True if the first body is a rigid object.")
      .def_property_readonly("isObj2", [](const PyGenObjective& o) { return o.obj2.has_value(); },
          "True if the second body is a rigid object.")
      .def_property(
          "goal", [](const PyGenObjective& o) { return o.target.goal; },
          [](PyGenObjective& o, const klampt::IKGoal& g) { o.target.goal = g; },
          "The constraint as an IKObjective (its link indices are not used).");

  py::class_<PyGenSolver> sol(m, "GeneralizedIKSolver",
                              "An inverse kinematics solver between multiple robots and/or rigid objects. Robot\n"
                              "DOFs (respecting joint limits, affine drivers and welds) and object poses move.");
  addThisown(sol);
  sol.def(py::init([](WorldOrNumber w) {
            if (!py::isinstance<WorldModel>(w) && !py::isinstance<py::int_>(w))
              throw py::type_error("GeneralizedIKSolver(world): world must be a WorldModel or a world number");
            return PyGenSolver{w, {}, {}};
          }),
          py::arg("world"))
      .def("add", [](PyGenSolver& s, const PyGenObjective& o) { s.objectives.push_back(o); }, py::arg("objective"),
           "Adds a new simultaneous objective.")
      .def("setMaxIters",
           [](PyGenSolver& s, int iters) { s.solver.maxIters = klampt::checkedMaxIters(iters); },
           py::arg("iters"),
           "Sets the maximum number of Newton-Raphson iterations a solve() may take (iters >= 1).")
      .def("setTolerance",
           [](PyGenSolver& s, double tol) { s.solver.tol = klampt::checkedTolerance(tol); },
           py::arg("res"),
           "Sets the convergence tolerance res: solve() succeeds when the largest objective error is at most this "
           "(metres for positions, radians for rotations).")
      .def("getResidual",
           [](PyGenSolver& s) {
             VectorX f;
             s.get().residual(f);
             return toList(f);
           },
           "Returns a vector describing the error of the objectives.")
      .def("getJacobian",
           [](PyGenSolver& s) {
             klampt::MatrixX J;
             s.get().jacobian(J);
             return matrixToArray(J);
           },
           "Derivative of the residual: columns are each robot's active DOFs, then 6 per rigid object\n"
           "(translation, rotation).")
      .def("solve",
           [](PyGenSolver& s) {
             s.get();
             std::vector<klampt::UseLock*> locks;
             for (const auto& o : s.objectives) o.addLocks(locks);
             UseScope use(std::move(locks));
             klampt::GeneralizedIKSolver& k = s.get();  // again once the bodies are held: waiting let others run
             k.checkSolvable();
             bool ok;
             {
               py::gil_scoped_release release;
               ok = k.solve();
             }
             return py::make_tuple(ok, k.lastIters);
           },
           "Tries to satisfy all objectives; returns (res, iters).")
      .def("sampleInitial", [](PyGenSolver& s) { s.get().sampleInitial(*klampt::SharedRandom()); },
           "Samples random configurations for the robots involved (objects keep their poses).")
      .def_property_readonly("world", [](const PyGenSolver& s) { return s.world; },
          "The world whose robots and objects the solver moves.")
      .def_property_readonly("objectives", [](const PyGenSolver& s) { return s.objectives; },
          "The GeneralizedIKObjectives of the solver.")
      .def_property(
          "tol", [](const PyGenSolver& s) { return s.solver.tol; }, [](PyGenSolver& s, double v) { s.solver.tol = v; },
          "Residual tolerance: the objectives are met when the residual's norm is below it.")
      .def_property(
          "maxIters", [](const PyGenSolver& s) { return s.solver.maxIters; },
          [](PyGenSolver& s, int v) { s.solver.maxIters = v; },
          "Maximum number of Newton-Raphson iterations.")
      .def_property(
          "useJointLimits", [](const PyGenSolver& s) { return s.solver.useJointLimits; },
          [](PyGenSolver& s, bool v) { s.solver.useJointLimits = v; },
          "Whether robots are kept inside their joint limits (default True).");
}

}  // namespace klampt_py
