// IKObjective: a goal on a robot link (klampt::IKGoal).
#include <pybind11/stl.h>

#include "ik_bindings.h"
#include "klampt/model/config_space.h"

namespace klampt_py {

using klampt::IKGoal;
using klampt::IKPosType;
using klampt::IKRotType;

namespace {

void setPoints(IKGoal& g, int link, int dest, py::handle locals, py::handle worlds) {
  const std::vector<Vector3> l = toPointList(locals, "plocals"), w = toPointList(worlds, "pworlds");
  g.setFixedPoints(link, dest, l, w);
}

void setPoint(IKGoal& g, int link, int dest, py::handle plocal, py::handle pworld) {
  const Vector3 l = toFiniteVector3(plocal, "plocal"), w = toFiniteVector3(pworld, "pworld");
  g.setFixedPoint(link, dest, l, w);
}

void setTransform(IKGoal& g, int link, int dest, py::handle R, py::handle t) {
  g.setFixedTransform(link, dest, toTransform(R, t));
}

InstanceOf<IKGoal> copyObjective(py::object self) {
  auto c = py::reinterpret_steal<InstanceOf<IKGoal>>(py::cast(self.cast<IKGoal>()).release());
  // Python attributes such as the `robot` that klampt.model.ik attaches.
  if (py::hasattr(self, "__dict__")) c.attr("__dict__").attr("update")(self.attr("__dict__"));
  return c;
}

}  // namespace

void bindIKObjective(py::module_& m) {
  py::class_<IKGoal> cls(m, "IKObjective", py::dynamic_attr(),
                         "A target for a robot link: a position constraint (free, planar, linear, fixed) and a\n"
                         "rotation constraint (free, axial, fixed), in the world frame or relative to another link.\n"
                         "positionScale and rotationScale weight the solver's residual (both 1 by default).");
  addThisown(cls);
  cls.def(py::init<>())
      .def(py::init<const IKGoal&>(), py::arg("arg2"))
      .def("copy", &copyObjective, "Returns a copy (with any Python attributes such as `robot`).")
      .def("link", [](const IKGoal& g) { return g.link; }, "The index of the robot link that is constrained.")
      .def("destLink", [](const IKGoal& g) { return g.destLink; },
           "The index of the destination link, or -1 if fixed to the world.")
      .def("numPosDims", &IKGoal::numPosDims, "The number of position dimensions constrained (0-3).")
      .def("numRotDims", &IKGoal::numRotDims, "The number of rotation dimensions constrained (0-3).")
      .def("setFixedPoint",
           [](IKGoal& g, int link, FloatsArg pl, FloatsArg pw) { setPoint(g, link, -1, pl, pw); },
           py::arg("link"), py::arg("plocal"), py::arg("pworld"), "Sets a fixed-point constraint.")
      .def("setFixedPoints",
           [](IKGoal& g, int link, PointsArg pl, PointsArg pw) { setPoints(g, link, -1, pl, pw); },
           py::arg("link"), py::arg("plocals"), py::arg("pworlds"),
           "Sets a multiple fixed-point constraint: 2 points also fix an axis, 3 or more non-collinear\n"
           "points the rotation (least-squares fit).")
      .def("setFixedTransform",
           [](IKGoal& g, int link, FloatsArg R, FloatsArg t) { setTransform(g, link, -1, R, t); },
           py::arg("link"), py::arg("R"), py::arg("t"), "Sets a fixed-transform constraint (R,t).")
      .def("setRelativePoint",
           [](IKGoal& g, int l1, int l2, FloatsArg p1, FloatsArg p2) { setPoint(g, l1, l2, p1, p2); },
           py::arg("link1"), py::arg("link2"), py::arg("p1"), py::arg("p2"),
           "Sets a fixed-point constraint relative to link2.")
      .def("setRelativePoints",
           [](IKGoal& g, int l1, int l2, PointsArg p1, PointsArg p2) { setPoints(g, l1, l2, p1, p2); },
           py::arg("link1"), py::arg("link2"), py::arg("p1s"), py::arg("p2s"),
           "Sets a multiple fixed-point constraint relative to link2.")
      .def("setRelativeTransform",
           [](IKGoal& g, int link, int tgt, FloatsArg R, FloatsArg t) { setTransform(g, link, tgt, R, t); },
           py::arg("link"), py::arg("linkTgt"), py::arg("R"), py::arg("t"),
           "Sets a fixed-transform constraint (R,t) relative to linkTgt.")
      .def("setLinks", [](IKGoal& g, int link, int link2) { g.setLinks(link, link2); }, py::arg("link"),
           py::arg("link2") = -1, "Manual construction: sets the constrained and destination links.")
      .def("setFreePosition", [](IKGoal& g) { g.posType = IKPosType::Free; },
           "Deprecated: use setFreePosConstraint.")
      .def("setFreePosConstraint", [](IKGoal& g) { g.posType = IKPosType::Free; },
           "Manual: Sets a free position constraint.")
      .def("setFixedPosConstraint",
           [](IKGoal& g, FloatsArg tl, FloatsArg tw) {
             Vector3 l = toFiniteVector3(tl, "tlocal"), w = toFiniteVector3(tw, "tworld");
             g.posType = IKPosType::Fixed;
             g.localPosition = l;
             g.endPosition = w;
           },
           py::arg("tlocal"), py::arg("tworld"), "Manual: Sets a fixed position constraint.")
      .def("setPlanarPosConstraint",
           [](IKGoal& g, FloatsArg tl, FloatsArg n, double o) {
             toFinite(o, "oworld");
             g.setPlanar(toFiniteVector3(tl, "tlocal"), toFiniteVector3(n, "nworld"), o);
           },
           py::arg("tlocal"), py::arg("nworld"), py::arg("oworld"),
           "Manual: Sets a planar position constraint nworld . (T(link)*tlocal) = oworld.\n"
           "This is what the reference computes (its docstring writes '+ oworld = 0', which its\n"
           "residual and klampt.io do not follow); getPosition()[1] is the plane point nearest 0.")
      .def("setLinearPosConstraint",
           [](IKGoal& g, FloatsArg tl, FloatsArg s, FloatsArg d) {
             Vector3 l = toFiniteVector3(tl, "tlocal"), sw = toFiniteVector3(s, "sworld"), dw = toFiniteVector3(d, "dworld");
             g.setLinear(l, sw, dw);
           },
           py::arg("tlocal"), py::arg("sworld"), py::arg("dworld"),
           "Manual: Sets a linear position constraint T(link)*tlocal = sworld + u*dworld for some u.")
      .def("setFreeRotConstraint", [](IKGoal& g) { g.rotType = IKRotType::Free; },
           "Manual: Sets a free rotation constraint.")
      .def("setFixedRotConstraint",
           [](IKGoal& g, FloatsArg R) {
             g.endRotation = toFiniteRotation(R, "R");
             g.rotType = IKRotType::Fixed;
           },
           py::arg("R"), "Manual: Sets a fixed rotation constraint.")
      .def("setAxialRotConstraint",
           [](IKGoal& g, FloatsArg al, FloatsArg aw) {
             Vector3 l = toFiniteVector3(al, "alocal"), w = toFiniteVector3(aw, "aworld");
             g.setAxial(l, w);
           },
           py::arg("alocal"), py::arg("aworld"),
           "Manual: Sets an axial rotation constraint: the link's alocal points along aworld.")
      .def("getPosition", [](const IKGoal& g) { return toListPair(g.localPosition, g.endPosition); },
           "Returns the local and global position of the position constraint.")
      .def("getPositionDirection", [](const IKGoal& g) { return toList(g.direction); },
           "For linear and planar constraints, returns the direction.")
      .def("getRotation",
           [](const IKGoal& g) {
             if (g.rotType != IKRotType::Fixed) throw py::value_error("getRotation: the rotation constraint is not fixed");
             return rotationToList(g.endRotation);
           },
           "For fixed rotation constraints, returns the orientation.")
      .def("getRotationAxis", [](const IKGoal& g) { return toListPair(g.localAxis, g.endAxis); },
           "For axis rotation constraints, returns the local and global axes.")
      .def("getTransform",
           [](const IKGoal& g) {
             if (g.rotType != IKRotType::Fixed || g.posType != IKPosType::Fixed)
               throw py::value_error("getTransform: the objective is not a fixed-transform constraint");
             return transformToTuple({g.endRotation, g.endPosition - g.endRotation * g.localPosition});
           },
           "For fixed-transform constraints, returns the transform (R,t).")
      .def("transform", [](IKGoal& g, FloatsArg R, FloatsArg t) { g.transform(toTransform(R, t)); }, py::arg("R"),
           py::arg("t"), "Transforms the target position/rotation of this IK constraint by (R,t).")
      .def("transformLocal", [](IKGoal& g, FloatsArg R, FloatsArg t) { g.transformLocal(toTransform(R, t)); },
           py::arg("R"), py::arg("t"),
           "Transforms the local position/rotation by (R,t): the constraint then applies to the frame\n"
           "link*(R,t) with unchanged targets (the reference composes the rotation target in the\n"
           "other order, which is inconsistent with its axis and point updates).")
      .def("matchDestination", [](IKGoal& g, FloatsArg R, FloatsArg t) { g.matchDestination(toTransform(R, t)); },
           py::arg("R"), py::arg("t"),
           "Sets the destination coordinates so that the link at (R,t) has zero error, keeping the\n"
           "constraint types.")
      .def("closestMatch",
           [](const IKGoal& g, FloatsArg R, FloatsArg t) { return transformToTuple(g.closestMatch(toTransform(R, t))); },
           py::arg("R"), py::arg("t"), "The transform nearest to (R,t) that satisfies the constraints.")
      .def("sampleTransform",
           [](const IKGoal& g) { return transformToTuple(g.sampleTransform(*klampt::SharedRandom())); },
           "A random transform (R,t) of link relative to link2 satisfying the objective.")
      .def("loadString", [](IKGoal& g, const std::string& s) { return g.load(s); }, py::arg("str"),
           "Loads the objective from Klamp't's text format; False (unchanged) if it does not parse.")
      .def("saveString", &IKGoal::save, "Saves the objective in Klamp't's text format.")
      .def_property_readonly("goal", [](IKGoal& self) -> IKGoal& { return self; }, py::return_value_policy::reference,
                             "The underlying goal (this object: it holds the goal itself).")
      .def_readwrite("positionScale", &IKGoal::positionScale,
          "Weight of the position error relative to the rotation error in the solver's residual (default 1).")
      .def_readwrite("rotationScale", &IKGoal::rotationScale,
          "Weight of the rotation error relative to the position error in the solver's residual (default 1).")
      .def("__repr__", [](const IKGoal& g) { return "IKObjective(" + g.save() + ")"; });
}

}  // namespace klampt_py
