// IKObjective: a goal on a robot link (klampt::IKGoal).
#include <pybind11/stl.h>

#include "ik_bindings.h"
#include "klampt/model/config_space.h"

namespace klampt_py {

using klampt::IKGoal;
using klampt::IKPosType;
using klampt::IKRotType;

Vector3 ikVector3(py::handle obj, const char* name) {
  Vector3 v = toVector3(obj, name);
  if (!v.allFinite()) throw py::value_error(std::string(name) + " must be finite (got NaN or infinity)");
  return v;
}

Matrix3 ikRotation(py::handle obj, const char* name) {
  Matrix3 R = toRotation(obj, name);
  if (!R.allFinite()) throw py::value_error(std::string(name) + " must be finite (got NaN or infinity)");
  return R;
}

std::vector<Vector3> pointList(py::handle obj, const char* name) {
  std::vector<Vector3> pts;
  for (py::handle p : obj) pts.push_back(ikVector3(p, name));
  return pts;
}

namespace {

int linkIndexArg(int link, const char* name) {
  if (link < 0) throw py::index_error(std::string(name) + " must be a non-negative link index");
  return link;
}

RigidTransform transformArg(py::handle R, py::handle t) {
  return {ikRotation(R, "R"), ikVector3(t, "t")};
}

void setLinks(IKGoal& g, int link, int dest) {
  linkIndexArg(link, "link");
  if (dest < -1) throw py::index_error("link2 must be a link index or -1 (world)");
  if (dest == link) throw py::value_error("link and link2 must differ");
  g.link = linkIndexArg(link, "link");
  g.destLink = dest;
}

void setPoints(IKGoal& g, int link, int dest, py::handle locals, py::handle worlds) {
  std::vector<Vector3> l = pointList(locals, "plocals"), w = pointList(worlds, "pworlds");
  if (l.size() != w.size()) throw py::value_error("the local and world point lists must have the same length");
  if (l.empty()) throw py::value_error("at least one point is needed");
  setLinks(g, link, dest);
  g.setFromPoints(l, w);
}

void setPoint(IKGoal& g, int link, int dest, py::handle plocal, py::handle pworld) {
  Vector3 l = ikVector3(plocal, "plocal"), w = ikVector3(pworld, "pworld");
  setLinks(g, link, dest);
  g.posType = IKPosType::Fixed;
  g.localPosition = l;
  g.endPosition = w;
  g.rotType = IKRotType::Free;
}

void setTransform(IKGoal& g, int link, int dest, py::handle R, py::handle t) {
  RigidTransform T = transformArg(R, t);
  setLinks(g, link, dest);
  g.setFixedTransform(T);
}

py::object copyObjective(py::object self) {
  py::object c = py::cast(self.cast<IKGoal>());
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
           [](IKGoal& g, int link, py::handle pl, py::handle pw) { setPoint(g, link, -1, pl, pw); },
           py::arg("link"), py::arg("plocal"), py::arg("pworld"), "Sets a fixed-point constraint.")
      .def("setFixedPoints",
           [](IKGoal& g, int link, py::handle pl, py::handle pw) { setPoints(g, link, -1, pl, pw); },
           py::arg("link"), py::arg("plocals"), py::arg("pworlds"),
           "Sets a multiple fixed-point constraint: 2 points also fix an axis, 3 or more non-collinear\n"
           "points the rotation (least-squares fit).")
      .def("setFixedTransform",
           [](IKGoal& g, int link, py::handle R, py::handle t) { setTransform(g, link, -1, R, t); },
           py::arg("link"), py::arg("R"), py::arg("t"), "Sets a fixed-transform constraint (R,t).")
      .def("setRelativePoint",
           [](IKGoal& g, int l1, int l2, py::handle p1, py::handle p2) { setPoint(g, l1, l2, p1, p2); },
           py::arg("link1"), py::arg("link2"), py::arg("p1"), py::arg("p2"),
           "Sets a fixed-point constraint relative to link2.")
      .def("setRelativePoints",
           [](IKGoal& g, int l1, int l2, py::handle p1, py::handle p2) { setPoints(g, l1, l2, p1, p2); },
           py::arg("link1"), py::arg("link2"), py::arg("p1s"), py::arg("p2s"),
           "Sets a multiple fixed-point constraint relative to link2.")
      .def("setRelativeTransform",
           [](IKGoal& g, int link, int tgt, py::handle R, py::handle t) { setTransform(g, link, tgt, R, t); },
           py::arg("link"), py::arg("linkTgt"), py::arg("R"), py::arg("t"),
           "Sets a fixed-transform constraint (R,t) relative to linkTgt.")
      .def("setLinks", [](IKGoal& g, int link, int link2) { setLinks(g, link, link2); }, py::arg("link"),
           py::arg("link2") = -1, "Manual construction: sets the constrained and destination links.")
      .def("setFreePosition", [](IKGoal& g) { g.posType = IKPosType::Free; },
           "Deprecated: use setFreePosConstraint.")
      .def("setFreePosConstraint", [](IKGoal& g) { g.posType = IKPosType::Free; },
           "Manual: Sets a free position constraint.")
      .def("setFixedPosConstraint",
           [](IKGoal& g, py::handle tl, py::handle tw) {
             Vector3 l = ikVector3(tl, "tlocal"), w = ikVector3(tw, "tworld");
             g.posType = IKPosType::Fixed;
             g.localPosition = l;
             g.endPosition = w;
           },
           py::arg("tlocal"), py::arg("tworld"), "Manual: Sets a fixed position constraint.")
      .def("setPlanarPosConstraint",
           [](IKGoal& g, py::handle tl, py::handle n, double o) {
             if (!std::isfinite(o)) throw py::value_error("oworld must be finite");
             g.setPlanar(ikVector3(tl, "tlocal"), ikVector3(n, "nworld"), o);
           },
           py::arg("tlocal"), py::arg("nworld"), py::arg("oworld"),
           "Manual: Sets a planar position constraint nworld . (T(link)*tlocal) = oworld.\n"
           "This is what the reference computes (its docstring writes '+ oworld = 0', which its\n"
           "residual and klampt.io do not follow); getPosition()[1] is the plane point nearest 0.")
      .def("setLinearPosConstraint",
           [](IKGoal& g, py::handle tl, py::handle s, py::handle d) {
             Vector3 l = ikVector3(tl, "tlocal"), sw = ikVector3(s, "sworld"), dw = ikVector3(d, "dworld");
             if (!(dw.norm() > 0)) throw py::value_error("dworld must be nonzero");
             g.posType = IKPosType::Linear;
             g.localPosition = l;
             g.endPosition = sw;
             g.direction = dw;
           },
           py::arg("tlocal"), py::arg("sworld"), py::arg("dworld"),
           "Manual: Sets a linear position constraint T(link)*tlocal = sworld + u*dworld for some u.")
      .def("setFreeRotConstraint", [](IKGoal& g) { g.rotType = IKRotType::Free; },
           "Manual: Sets a free rotation constraint.")
      .def("setFixedRotConstraint",
           [](IKGoal& g, py::handle R) {
             g.endRotation = ikRotation(R, "R");
             g.rotType = IKRotType::Fixed;
           },
           py::arg("R"), "Manual: Sets a fixed rotation constraint.")
      .def("setAxialRotConstraint",
           [](IKGoal& g, py::handle al, py::handle aw) {
             Vector3 l = ikVector3(al, "alocal"), w = ikVector3(aw, "aworld");
             if (!(l.norm() > 0) || !(w.norm() > 0)) throw py::value_error("rotation axes must be nonzero");
             g.rotType = IKRotType::Axis;
             g.localAxis = l;
             g.endAxis = w;
           },
           py::arg("alocal"), py::arg("aworld"),
           "Manual: Sets an axial rotation constraint: the link's alocal points along aworld.")
      .def("getPosition", [](const IKGoal& g) { return py::make_tuple(toList(g.localPosition), toList(g.endPosition)); },
           "Returns the local and global position of the position constraint.")
      .def("getPositionDirection", [](const IKGoal& g) { return toList(g.direction); },
           "For linear and planar constraints, returns the direction.")
      .def("getRotation",
           [](const IKGoal& g) {
             if (g.rotType != IKRotType::Fixed) throw py::value_error("getRotation: the rotation constraint is not fixed");
             return rotationToList(g.endRotation);
           },
           "For fixed rotation constraints, returns the orientation.")
      .def("getRotationAxis", [](const IKGoal& g) { return py::make_tuple(toList(g.localAxis), toList(g.endAxis)); },
           "For axis rotation constraints, returns the local and global axes.")
      .def("getTransform",
           [](const IKGoal& g) {
             if (g.rotType != IKRotType::Fixed || g.posType != IKPosType::Fixed)
               throw py::value_error("getTransform: the objective is not a fixed-transform constraint");
             return transformToTuple({g.endRotation, g.endPosition - g.endRotation * g.localPosition});
           },
           "For fixed-transform constraints, returns the transform (R,t).")
      .def("transform", [](IKGoal& g, py::handle R, py::handle t) { g.transform(transformArg(R, t)); }, py::arg("R"),
           py::arg("t"), "Transforms the target position/rotation of this IK constraint by (R,t).")
      .def("transformLocal", [](IKGoal& g, py::handle R, py::handle t) { g.transformLocal(transformArg(R, t)); },
           py::arg("R"), py::arg("t"),
           "Transforms the local position/rotation by (R,t): the constraint then applies to the frame\n"
           "link*(R,t) with unchanged targets (the reference composes the rotation target in the\n"
           "other order, which is inconsistent with its axis and point updates).")
      .def("matchDestination", [](IKGoal& g, py::handle R, py::handle t) { g.matchDestination(transformArg(R, t)); },
           py::arg("R"), py::arg("t"),
           "Sets the destination coordinates so that the link at (R,t) has zero error, keeping the\n"
           "constraint types.")
      .def("closestMatch",
           [](const IKGoal& g, py::handle R, py::handle t) { return transformToTuple(g.closestMatch(transformArg(R, t))); },
           py::arg("R"), py::arg("t"), "The transform nearest to (R,t) that satisfies the constraints.")
      .def("sampleTransform",
           [](const IKGoal& g) { return transformToTuple(g.sampleTransform(*klampt::SharedRandom())); },
           "A random transform (R,t) of link relative to link2 satisfying the objective.")
      .def("loadString", [](IKGoal& g, const std::string& s) { return g.load(s); }, py::arg("str"),
           "Loads the objective from Klamp't's text format; False (unchanged) if it does not parse.")
      .def("saveString", &IKGoal::save, "Saves the objective in Klamp't's text format.")
      .def_property_readonly("goal", [](py::object self) { return self; },
                             "The underlying goal (this object: it holds the goal itself).")
      .def_readwrite("positionScale", &IKGoal::positionScale,
          "Weight of the position error relative to the rotation error in the solver's residual (default 1).")
      .def_readwrite("rotationScale", &IKGoal::rotationScale,
          "Weight of the rotation error relative to the position error in the solver's residual (default 1).")
      .def("__repr__", [](const IKGoal& g) { return "IKObjective(" + g.save() + ")"; });
}

}  // namespace klampt_py
