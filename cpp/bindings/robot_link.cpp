// RobotModelLink: a link's static data (parent, axis, mass, geometry) and its
// kinematics at the robot's current configuration.
#include "convert.h"
#include "fast_call.h"
#include "geometry_handle.h"
#include "handles.h"
#include "klampt/model/kinematics.h"
#include "klampt/model/robot_edit.h"
#include "mass_value.h"

namespace klampt_py {

using klampt::Link;
using klampt::Robot;
using klampt::RowMatrixMap;

namespace {

struct LinkOrIndexHint {
  static constexpr auto name =
      py::detail::make_caster<RobotModelLink>::name + py::detail::const_name(" | typing.SupportsIndex");
};
/// A link of the same robot, or a link index.
using LinkOrIndexArg = TypedArg<LinkOrIndexHint>;

// Converting an argument may run Python code that edits the robot: every
// method below converts its arguments first, then checks the link.

// Jacobian restricted to the given DOFs, built from the full one.
py::array_t<double> selectColumns(const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>& full,
                                  const std::vector<int>& cols) {
  auto J = newArray({full.rows(), (py::ssize_t)cols.size()});
  RowMatrixMap out(J.mutable_data(), full.rows(), (Eigen::Index)cols.size());
  for (size_t k = 0; k < cols.size(); ++k) out.col(k) = full.col(cols[k]);
  return J;
}

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The per-call hot paths, as fast methods (fast_call.h).

py::object getTransform(RobotModelLink& s) {
  s.link();
  return transformToTuple(s.r().linkTransforms[s.index]);
}

py::object getJacobian(RobotModelLink& s, const FastArgs& a) {
  auto [p] = a.get("getJacobian", {"plocal"});
  const Vector3 pl = toVector3(p, "plocal");
  s.link();
  const Robot& r = s.r();
  auto J = newArray({6, r.numLinks()});
  klampt::linkJacobian(r, s.index, pl, RowMatrixMap(J.mutable_data(), 6, r.numLinks()));
  return std::move(J);
}

py::object getPositionJacobian(RobotModelLink& s, const FastArgs& a) {
  auto [p] = a.get("getPositionJacobian", {"plocal"});
  const Vector3 pl = toVector3(p, "plocal");
  s.link();
  const Robot& r = s.r();
  auto J = newArray({3, r.numLinks()});
  klampt::positionJacobian(r, s.index, pl, RowMatrixMap(J.mutable_data(), 3, r.numLinks()));
  return std::move(J);
}

py::object getOrientationJacobian(RobotModelLink& s) {
  s.link();
  const Robot& r = s.r();
  auto J = newArray({3, r.numLinks()});
  klampt::orientationJacobian(r, s.index, RowMatrixMap(J.mutable_data(), 3, r.numLinks()));
  return std::move(J);
}

PyMethodDef linkFastMethods[] = {
    fastDef<RobotModelLink, getTransform>("getTransform",
                                          "getTransform($self)\n--\n\ngetTransform(self) -> tuple[list[float], list[float]]\n\nThe link's world transform (R, t)."),
    fastDef<RobotModelLink, getJacobian>(
        "getJacobian",
        "getJacobian($self, plocal)\n--\n\ngetJacobian(self, plocal: collections.abc.Sequence[float] | numpy.ndarray) -> numpy.typing.NDArray[numpy.float64]\n\n6 x n Jacobian of a point on the link: angular rows first (ndarray)."),
    fastDef<RobotModelLink, getPositionJacobian>(
        "getPositionJacobian",
        "getPositionJacobian($self, plocal)\n--\n\ngetPositionJacobian(self, plocal: collections.abc.Sequence[float] | numpy.ndarray) -> numpy.typing.NDArray[numpy.float64]\n\n3 x n Jacobian of the world position of the point plocal "
        "(ndarray)."),
    fastDef<RobotModelLink, getOrientationJacobian>(
        "getOrientationJacobian",
        "getOrientationJacobian($self)\n--\n\ngetOrientationJacobian(self) -> numpy.typing.NDArray[numpy.float64]\n\n3 x n Jacobian of the link's angular velocity (ndarray)."),
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

py::class_<RobotModelLink> declareRobotLink(py::module_& m) {
  return py::class_<RobotModelLink>(m, "RobotModelLink", "A reference to a link of a RobotModel.");
}

void bindRobotLink(py::class_<RobotModelLink>& cls) {
  addThisown(cls);
  cls.def(py::init<>())
      .def("getID",
           [](const RobotModelLink& s) {
             s.link();
             int ri = s.robot.index();
             return ri < 0 ? -1 : s.robot.world->linkID(ri, s.index);
           },
           "Returns the ID of the link in its world, or -1 if the robot is not in a world.")
      .def("getName", [](const RobotModelLink& s) { return nameToPython(s.link().name); },
           "Returns the name of the link.")
      .def("setName", [](RobotModelLink& s, const std::string& n) { s.link().name = n; }, py::arg("name"),
           "Sets the name of the link.")
      .def("robot", [](const RobotModelLink& s) { return s.robot; },
           "Returns the RobotModel this link belongs to.")
      .def("getIndex", [](const RobotModelLink& s) { return s.index; },
           "Returns the index of the link in its robot.")
      .def("getParent", [](const RobotModelLink& s) { return s.link().parent; },
           "Returns the index of the parent link, or -1 for a root link.")
      .def("setParent",
           [](RobotModelLink& s, LinkOrIndexArg p) {
             int parent;
             if (py::isinstance<RobotModelLink>(p)) {
               const RobotModelLink& other = p.cast<const RobotModelLink&>();
               if (other.robot.robot != s.robot.robot) throw py::value_error("the parent link must be on the same robot");
               parent = other.index;
             } else {
               parent = (int)toIndex(p, "p");
             }
             s.link();
             klampt::setLinkParent(s.r(), s.index, parent);
           },
           py::arg("p"),
           "Sets the parent link, given as a RobotModelLink of the same robot or an index (-1 for none); the "
           "parent index must be lower than this link's. The frames are updated.")
      .def("getParentIndex", [](const RobotModelLink& s) { return s.link().parent; },
           "Returns the index of the link's parent (on its robot); -1 indicates no parent.")
      .def("setParentIndex",
           [](RobotModelLink& s, long p) {
             s.link();
             klampt::setLinkParent(s.r(), s.index, (int)p);
           },
           py::arg("p"),
           "Sets the index of the link's parent (-1 for none); the parent must come before the link. The robot's "
           "link frames are updated.")
      .def("getParentLink", [](const RobotModelLink& s) { return RobotModelLink{s.robot, s.link().parent}; },
           "Returns the link's parent, or a null link (index -1, whose other methods raise) if it has none.")
      .def("setParentLink",
           [](RobotModelLink& s, const RobotModelLink& other) {
             if (other.robot.robot != s.robot.robot) throw py::value_error("the parent link must be on the same robot");
             s.link();
             klampt::setLinkParent(s.r(), s.index, other.index);
           },
           py::arg("l"), "Sets the link's parent (a link of the same robot; a null link for none).")
      .def("geometry", [](const RobotModelLink& s) { return Geometry3D{s.link().geometry, s.robot.world, s.robot.lock()}; },
           "Returns a reference to the link's collision geometry (in the link's local frame).")
      .def("appearance", [](const RobotModelLink& s) { return Appearance{s.link().appearance, s.robot.world, s.robot.lock()}; },
           "Returns a reference to the link's appearance.")
      .def("getMass", [](const RobotModelLink& s) { return MassValue::from(s.link().mass); },
           "Returns a copy of the link's mass properties (Mass: mass in kg, center of mass and inertia in the "
           "link's local frame); edit it and call setMass to apply.")
      .def("setMass", [](RobotModelLink& s, const MassValue& mv) { s.link().mass = mv.toCore(); }, py::arg("mass"),
           "Sets the link's mass properties from the Mass object mass (mass in kg, center of mass and inertia in "
           "the link's local frame).")
      .def("getParentTransform", [](const RobotModelLink& s) { return transformToTuple(s.link().parentTransform); },
           "Returns the transform (R,t) of the link's frame relative to its parent's frame at a zero joint "
           "position: R a column-major 9-list rotation matrix, t a 3-list in metres.")
      .def("setParentTransform",
           [](RobotModelLink& s, FloatsArg R, FloatsArg t) {
             const klampt::RigidTransform T = toTransform(R, t);
             s.link().parentTransform = T;
             s.r().updateFrames();
           },
           py::arg("R"), py::arg("t"),
           "Sets the transform (R,t) of the link's frame relative to its parent's frame at a zero joint position: "
           "R a column-major 9-list rotation matrix, t a 3-list in metres. The frames are updated.")
      .def("getAxis", [](const RobotModelLink& s) { return toList(s.link().axis); },
           "Returns the joint axis (a unit 3-list in the link's local frame): the rotation axis of a revolute "
           "link, the translation direction of a prismatic one.")
      .def("setAxis",
           [](RobotModelLink& s, FloatsArg axis) {
             const Vector3 a = toAxis(axis, "axis");
             s.link().axis = a.normalized();
             s.r().updateFrames();
           },
           py::arg("axis"),
           "Sets the joint axis (a 3-list in the link's local frame, normalized); the frames are updated.")
      .def("isPrismatic", [](const RobotModelLink& s) { return s.link().prismatic; },
           "Returns True if the link's joint is prismatic (translates along the axis).")
      .def("isRevolute", [](const RobotModelLink& s) { return !s.link().prismatic; },
           "Returns True if the link's joint is revolute (rotates about the axis).")
      .def("setPrismatic",
           [](RobotModelLink& s, bool p) {
             s.link().prismatic = p;
             s.r().updateFrames();
           },
           py::arg("prismatic"),
           "Makes the link's joint prismatic (True) or revolute (False); the frames are updated.")
      .def("getWorldPosition",
           [](const RobotModelLink& s, FloatsArg p) {
             const Vector3 v = toVector3(p, "plocal");
             s.link();
             return toList(s.r().linkTransforms[s.index].apply(v));
           },
           py::arg("plocal"),
           "Converts the point plocal (3-list in the link's local frame, metres) to world coordinates at the "
           "current configuration.")
      .def("getWorldDirection",
           [](const RobotModelLink& s, FloatsArg v) {
             const Vector3 d = toVector3(v, "vlocal");
             s.link();
             return toList(Vector3(s.r().linkTransforms[s.index].R * d));
           },
           py::arg("vlocal"),
           "Converts the direction vlocal (3-list in the link's local frame) to world coordinates (rotation "
           "only).")
      .def("getLocalPosition",
           [](const RobotModelLink& s, FloatsArg p) {
             const Vector3 v = toVector3(p, "pworld");
             s.link();
             const klampt::RigidTransform& T = s.r().linkTransforms[s.index];
             return toList(Vector3(T.R.transpose() * (v - T.t)));
           },
           py::arg("pworld"),
           "Converts the point pworld (3-list in world coordinates, metres) to the link's local frame.")
      .def("getLocalDirection",
           [](const RobotModelLink& s, FloatsArg v) {
             const Vector3 d = toVector3(v, "vworld");
             s.link();
             return toList(Vector3(s.r().linkTransforms[s.index].R.transpose() * d));
           },
           py::arg("vworld"),
           "Converts the direction vworld (3-list in world coordinates) to the link's local frame (rotation "
           "only).")
      .def("setTransform",
           [](RobotModelLink& s, FloatsArg R, FloatsArg t) {
             const klampt::RigidTransform T = toTransform(R, t);
             s.link();
             s.r().linkTransforms[s.index] = T;
           },
           py::arg("R"), py::arg("t"),
           "Overwrites the link's world transform (no IK; setConfig recomputes it).")
      .def("getVelocity",
           [](const RobotModelLink& s) {
             s.link();
             return toList(klampt::pointVelocity(s.r(), s.index, Vector3::Zero()));
           },
           "Returns the velocity of the link's origin in world coordinates (3-list, m/s), from the robot's "
           "current configuration and velocity.")
      .def("getAngularVelocity",
           [](const RobotModelLink& s) {
             s.link();
             return toList(klampt::angularVelocity(s.r(), s.index));
           },
           "Returns the angular velocity of the link in world coordinates (3-list, rad/s), from the robot's "
           "current configuration and velocity.")
      .def("getPointVelocity",
           [](const RobotModelLink& s, FloatsArg p) {
             const Vector3 v = toVector3(p, "plocal");
             s.link();
             return toList(klampt::pointVelocity(s.r(), s.index, v));
           },
           py::arg("plocal"),
           "Returns the world-coordinates velocity (3-list, m/s) of the point plocal (in the link's local frame), "
           "from the robot's current configuration and velocity.")
      .def("getJacobianCols",
           [](const RobotModelLink& s, FloatsArg p, IntsArg links) {
             const Vector3 pl = toVector3(p, "plocal");
             const std::vector<int> cols = toIntList(links, "links");
             s.link();
             const Robot& r = s.r();
             checkIndices(cols, r.numLinks(), "link");
             RowMatrix full(6, r.numLinks());
             klampt::linkJacobian(r, s.index, pl, RowMatrixMap(full.data(), 6, r.numLinks()));
             return selectColumns(full, cols);
           },
           py::arg("plocal"), py::arg("links"),
           "Returns the 6 x len(links) Jacobian of the point plocal (link's local frame) with respect to the "
           "given DOFs (link indices): rows 0-2 angular velocity, rows 3-5 linear velocity, in world coordinates.")
      .def("getPositionJacobianCols",
           [](const RobotModelLink& s, FloatsArg p, IntsArg links) {
             const Vector3 pl = toVector3(p, "plocal");
             const std::vector<int> cols = toIntList(links, "links");
             s.link();
             const Robot& r = s.r();
             checkIndices(cols, r.numLinks(), "link");
             RowMatrix full(3, r.numLinks());
             klampt::positionJacobian(r, s.index, pl, RowMatrixMap(full.data(), 3, r.numLinks()));
             return selectColumns(full, cols);
           },
           py::arg("plocal"), py::arg("links"),
           "Returns the 3 x len(links) Jacobian of the world position of the point plocal (link's local frame) "
           "with respect to the given DOFs (link indices).")
      .def("getOrientationJacobianCols",
           [](const RobotModelLink& s, IntsArg links) {
             const std::vector<int> cols = toIntList(links, "links");
             s.link();
             const Robot& r = s.r();
             checkIndices(cols, r.numLinks(), "link");
             RowMatrix full(3, r.numLinks());
             klampt::orientationJacobian(r, s.index, RowMatrixMap(full.data(), 3, r.numLinks()));
             return selectColumns(full, cols);
           },
           py::arg("links"),
           "Returns the 3 x len(links) Jacobian of the link's angular velocity (world coordinates) with respect "
           "to the given DOFs (link indices).")
      .def_property_readonly("world", [](const RobotModelLink& s) { return s.robot.world ? worldNumber(s.robot.world.get()) : -1; },
          "Index of the robot's world, or -1.")
      .def_property_readonly("robotIndex", [](const RobotModelLink& s) { return s.robot.index(); },
          "Index of the link's robot within its world.")
      .def_property_readonly("robotPtr", [](const RobotModelLink& s) { return (std::uintptr_t)s.robot.robot.get(); },
                             "Opaque address of the underlying C++ robot.")
      .def_property_readonly("index", [](const RobotModelLink& s) { return s.index; },
          "Index of the link within its robot.")
      .def_property("name", [](const RobotModelLink& s) { return nameToPython(s.link().name); },
                    [](RobotModelLink& s, const std::string& n) { s.link().name = n; },
          "The link's name.")
      .def_property_readonly("parent", [](const RobotModelLink& s) { return s.link().parent; },
          "Index of the parent link, or -1 for a root link.")
      .def_property("mass", [](const RobotModelLink& s) { return MassValue::from(s.link().mass); },
                    [](RobotModelLink& s, const MassValue& mv) { s.link().mass = mv.toCore(); },
          "The link's Mass (kg, center of mass in the link frame, inertia); assigning a Mass sets it.")
      .def_property_readonly("parentTransform", [](const RobotModelLink& s) { return transformToTuple(s.link().parentTransform); },
          "The link's frame relative to its parent's at zero joint value, as (R, t) (R column-major, t in m).")
      .def_property_readonly("axis", [](const RobotModelLink& s) { return toList(s.link().axis); },
          "The joint axis [x, y, z] in the link's frame: rotation axis of a revolute joint, direction of a prismatic one.")
      .def_property_readonly("prismatic", [](const RobotModelLink& s) { return s.link().prismatic; },
          "True if the joint is prismatic (translates along axis), False if revolute.")
      .def_property_readonly("transform", [](const RobotModelLink& s) {
        s.link();
        return transformToTuple(s.r().linkTransforms[s.index]);
      },
          "The link's current world transform (R, t) (R column-major, t in m), as getTransform().")
      .def("__repr__", [](const RobotModelLink& s) {
        if (!s.robot.robot || s.index < 0) return nameToPython("<RobotModelLink (empty)>");
        return nameToPython("<RobotModelLink " + std::to_string(s.index) + " of robot '" + s.robot.robot->name + "'>");
      });
  addFastMethods(cls, linkFastMethods);
  bindLinkDynamics(cls);
}

}  // namespace klampt_py
