// Collision, distance, contact and ray queries of Geometry3D, and robot self-collision.
#include "geometry_queries.h"
#include <pybind11/stl.h>
#include <cmath>
#include "convert.h"
#include "geometry_handle.h"
#include "handles.h"
#include "klampt/geometry/queries/queries.h"
#include "klampt/model/self_collision.h"

namespace klampt_py {

using klampt::ContactQueryResult;
using klampt::DistanceQueryResult;
using klampt::DistanceQuerySettings;

namespace {

/// query() run without the GIL, except on a primitive, whose queries are
/// shorter than giving up the GIL and taking it back.
template <class Query>
auto withoutGilUnlessPrimitive(const klampt::Geometry& g, Query query) {
  if (g.data->type == klampt::GeometryType::Primitive) return query();
  py::gil_scoped_release release;
  return query();
}

/// (element hit or -1, first hit point) of the ray from src along dir.
std::pair<int, Vector3> castRay(const Geometry3D& g, py::handle src, py::handle dir) {
  const Vector3 a = toFiniteVector3(src, "s"), d = toFiniteVector3(dir, "d");
  Vector3 pt = Vector3::Zero();
  const klampt::Geometry geom = g.snapshot();
  const int e = withoutGilUnlessPrimitive(geom, [&] { return klampt::rayCast(geom, a, d, pt); });
  return {e, pt};
}

py::list pointList(const std::vector<Vector3>& pts) {
  py::list out;
  for (const auto& p : pts) out.append(toList(p));
  return out;
}

/// Optional 3-vector attribute: an empty list when absent, as the reference's
/// cp/grad; assigning a vector sets it and its flag.
template <class Flag>
void vectorProperty(py::class_<DistanceQueryResult>& cls, const char* name, Vector3 DistanceQueryResult::*field,
                    Flag flag, const char* doc) {
  cls.def_property(
      name,
      [field, flag](const DistanceQueryResult& r) -> FloatList {
        if (!(r.*flag)) return FloatList();
        return toList(r.*field);
      },
      [field, flag, name](DistanceQueryResult& r, FloatsArg v) {
        r.*field = toVector3(v, name);
        r.*flag = true;
      },
      doc);
}

/// query() run without the GIL, except between two primitives, whose queries
/// are shorter than giving up the GIL and taking it back.
template <class Query>
auto withoutGilUnlessShort(const klampt::Geometry& a, const klampt::Geometry& b, Query query) {
  if (klampt::primitivePair(a, b)) return query();
  py::gil_scoped_release release;
  return query();
}

/// (elem1, elem2) lists of the element pairs within tol (see elementPairsWithin).
py::tuple elementPairs(const Geometry3D& s, const Geometry3D& o, double tol, int maxContacts) {
  toNotNaN(tol, "tol");
  if (maxContacts < 0) throw py::value_error("maxContacts must be >= 0");
  const klampt::Geometry a = s.snapshot(), b = o.snapshot();
  std::vector<std::pair<int, int>> pairs;
  {
    py::gil_scoped_release release;
    pairs = klampt::elementPairsWithin(a, b, tol, maxContacts);
  }
  py::list e1, e2;
  for (const auto& [i, j] : pairs) {
    e1.append(i);
    e2.append(j);
  }
  return py::make_tuple(e1, e2);
}

}  // namespace

void bindGeometryQueryTypes(py::module_& m) {
  py::class_<DistanceQuerySettings>(m, "DistanceQuerySettings",
                                    "Configures the _ext distance queries of Geometry3D: the result satisfies "
                                    "Dcalc <= D(1+relErr) + absErr unless D >= upperBound.")
      .def(py::init<>())
      .def_readwrite("relErr", &DistanceQuerySettings::relErr,
          "Relative error allowed in the distance: the result is within D*(1+relErr)+absErr of the true D (default 0).")
      .def_readwrite("absErr", &DistanceQuerySettings::absErr,
          "Absolute error allowed in the distance, in m (default 0).")
      .def_readwrite("upperBound", &DistanceQuerySettings::upperBound,
          "Distance in m beyond which the query may stop early and return upperBound (default infinity).")
      .def_property("thisown", [](py::handle) { return true; }, [](py::handle, bool) {},
          "Always True; kept for scripts written for the reference's SWIG objects (setting it does nothing).");

  py::class_<DistanceQueryResult> dqr(m, "DistanceQueryResult",
                                      "The result of a distance query of Geometry3D: distance d (negative when "
                                      "penetrating, for the pairs that allow it), closest points cp1/cp2 and "
                                      "gradients grad1/grad2 in world coordinates, element indices elem1/elem2.");
  dqr.def(py::init<>())
      .def_readwrite("d", &DistanceQueryResult::d,
          "The distance in m; negative when the geometries penetrate (the penetration depth), upperBound if the search stopped there.")
      .def_readwrite("hasClosestPoints", &DistanceQueryResult::hasClosestPoints,
          "Whether cp1 and cp2 hold the closest points.")
      .def_readwrite("hasGradients", &DistanceQueryResult::hasGradients,
          "Whether grad1 and grad2 hold the distance gradients.")
      .def_readwrite("elem1", &DistanceQueryResult::elem1,
          "Index of the element (triangle, point, cell) of the first geometry nearest to the second, or -1.")
      .def_readwrite("elem2", &DistanceQueryResult::elem2,
          "Index of the element (triangle, point, cell) of the second geometry nearest to the first, or -1.")
      .def_property("thisown", [](py::handle) { return true; }, [](py::handle, bool) {},
          "Always True; kept for scripts written for the reference's SWIG objects (setting it does nothing).");
  vectorProperty(dqr, "cp1", &DistanceQueryResult::cp1, &DistanceQueryResult::hasClosestPoints,
                 "The closest point [x, y, z] on the first geometry, in world coordinates (m); [] if not computed.");
  vectorProperty(dqr, "cp2", &DistanceQueryResult::cp2, &DistanceQueryResult::hasClosestPoints,
                 "The closest point [x, y, z] on the second geometry, in world coordinates (m); [] if not computed.");
  vectorProperty(dqr, "grad1", &DistanceQueryResult::grad1, &DistanceQueryResult::hasGradients,
                 "Gradient of the distance with respect to the first geometry's position (world frame); [] if not computed.");
  vectorProperty(dqr, "grad2", &DistanceQueryResult::grad2, &DistanceQueryResult::hasGradients,
                 "Gradient of the distance with respect to the second geometry's position (world frame); [] if not computed.");

  py::class_<ContactQueryResult>(m, "ContactQueryResult",
                                 "The contacts between two geometries: depths (>= 0, from the padded surfaces), "
                                 "points1/points2 on the padded surfaces, normals from self to other, elems1/elems2.")
      .def(py::init<>())
      .def_readwrite("depths", &ContactQueryResult::depths,
          "Penetration depth of each contact, in m (>= 0, measured between the padded surfaces).")
      .def_readwrite("elems1", &ContactQueryResult::elems1,
          "Element (triangle, point) of the first geometry at each contact, or -1.")
      .def_readwrite("elems2", &ContactQueryResult::elems2,
          "Element (triangle, point) of the second geometry at each contact, or -1.")
      .def_property(
          "points1", [](const ContactQueryResult& r) { return pointList(r.points1); },
          [](ContactQueryResult& r, PointsArg v) { r.points1 = toPointList(v, "points1"); },
          "Contact points on the first geometry's padded surface, in world coordinates (m), one [x, y, z] per contact.")
      .def_property(
          "points2", [](const ContactQueryResult& r) { return pointList(r.points2); },
          [](ContactQueryResult& r, PointsArg v) { r.points2 = toPointList(v, "points2"); },
          "Contact points on the second geometry's padded surface, in world coordinates (m), one [x, y, z] per contact.")
      .def_property(
          "normals", [](const ContactQueryResult& r) { return pointList(r.normals); },
          [](ContactQueryResult& r, PointsArg v) { r.normals = toPointList(v, "normals"); },
          "Unit contact normals pointing from the first geometry to the second, in world coordinates, one per contact.")
      .def_property("thisown", [](py::handle) { return true; }, [](py::handle, bool) {},
          "Always True; kept for scripts written for the reference's SWIG objects (setting it does nothing).");
}

void bindGeometryQueries(py::class_<Geometry3D>& cls) {
  using G = const Geometry3D&;
  using py::arg;
  // Each query runs without the GIL on snapshots of the geometries (see
  // Geometry3D::snapshot): edits made meanwhile do not touch what it reads.
  cls.def(
         "collides",
         [](G s, G o) {
           const klampt::Geometry a = s.snapshot(), b = o.snapshot();
           if (klampt::apartByBuiltBounds(a, b, 0.0)) return false;  // answered without giving up the GIL
           return withoutGilUnlessShort(a, b, [&] { return klampt::collides(a, b); });
         },
         arg("other"), "True if this geometry (grown by its margin) touches the other (grown by its margin).")
      .def(
          "withinDistance",
          [](G s, G o, double tol) {
            toNotNaN(tol, "tol");
            const klampt::Geometry a = s.snapshot(), b = o.snapshot();
            if (klampt::apartByBuiltBounds(a, b, tol)) return false;  // answered without giving up the GIL
            return withoutGilUnlessShort(a, b, [&] { return klampt::withinDistance(a, b, tol); });
          },
          arg("other"), arg("tol"),
           "Returns True if this geometry and the other are within distance tol (metres) of each other, collision "
           "margins included.")
      .def("collides_ext", [](G s, G o, int maxContacts) { return elementPairs(s, o, 0.0, maxContacts); },
           arg("other"), arg("maxContacts") = 0,
           "(elem1, elem2): the pairs of elements of this geometry and the other that collide (margins "
           "included, as collides), sorted by elem1 then elem2, each pair once; empty lists when they do not "
           "collide. Elements are mesh triangles, point cloud points and top-level group members as getElement "
           "numbers them, 0 for other shapes. maxContacts > 0 returns only the first that many pairs (Klamp't "
           "0.10.1 honours only 1); 0 returns all.")
      .def("withinDistance_ext",
           [](G s, G o, double tol, int maxContacts) { return elementPairs(s, o, tol, maxContacts); },
           arg("other"), arg("tol"), arg("maxContacts") = 0,
           "(elem1, elem2): the pairs of elements within distance tol of each other (margins included, as "
           "withinDistance), numbered and ordered as in collides_ext; maxContacts > 0 keeps the first that many.")
      .def(
          "contains_point",
          [](G s, FloatsArg pt) {
            const Vector3 p = toFiniteVector3(pt, "pt");
            const klampt::Geometry a = s.snapshot();
            if (a.empty()) throw py::value_error("the geometry is empty");
            py::gil_scoped_release release;
            return klampt::containsPoint(a, p);
          },
          arg("pt"),
          "True if the world point pt lies in this geometry's solid (the collision margin is not counted): "
          "inside or on a sphere, box or convex hull; a volume grid value <= 0; inside a closed triangle mesh "
          "(generalized winding number, exact for closed meshes, unlike Klamp't 0.10's approximation); a point "
          "of a point cloud or within its radius property; below a heightmap's surface; in an occupied cell of "
          "an occupancy grid; in any member of a group.")
      .def(
          "distance_simple",
          [](G s, G o, double relErr, double absErr) {
            DistanceQuerySettings set;
            set.relErr = toNotNaN(relErr, "relErr");
            set.absErr = toNotNaN(absErr, "absErr");
            const klampt::Geometry a = s.snapshot(), b = o.snapshot();
            py::gil_scoped_release release;
            return klampt::distance(a, b, set).d;
          },
          arg("other"), arg("relErr") = 0.0, arg("absErr") = 0.0, "The distance d of distance(other).")
      .def(
          "distance",
          [](G s, G o) {
            const klampt::Geometry a = s.snapshot(), b = o.snapshot();
            return withoutGilUnlessShort(a, b, [&] { return klampt::distance(a, b, {}); });
          },
          arg("other"),
          "Distance and closest points, minus both collision margins. Signed (negative = penetration depth) when "
          "either side is a sphere or a volume grid, or both are convex hulls; other penetrating pairs give 0 "
          "(meshes count as surfaces). Unlike Klamp't 0.9.2, every pair of primitives, meshes, hulls and point "
          "clouds is answered with the Euclidean distance (Segment, Triangle, AABB, Box against anything), and the "
          "sphere-point distance is signed in both orders.")
      .def(
          "distance_ext",
          [](G s, G o, const DistanceQuerySettings& set) {
            const klampt::Geometry a = s.snapshot(), b = o.snapshot();
            py::gil_scoped_release release;
            return klampt::distance(a, b, set);
          },
          arg("other"), arg("settings"),
           "Like distance(other), with the settings (DistanceQuerySettings: error tolerances, upper bound) "
           "controlling the computation; returns a DistanceQueryResult.")
      .def(
          "distance_point",
          [](G s, FloatsArg pt) {
            const Vector3 p = toFiniteVector3(pt, "pt");
            const klampt::Geometry a = s.snapshot();
            return withoutGilUnlessPrimitive(a, [&] { return klampt::distancePoint(a, p, {}); });
          },
          arg("pt"),
          "Distance from a world point, cp1 on this geometry and cp2 = pt. Signed for spheres, convex hulls, volume "
          "grids and point clouds with radii (Klamp't 0.9.2 returns 0 inside a sphere). Segments give the Euclidean "
          "distance (the reference's is wrong).")
      .def(
          "distance_point_ext",
          [](G s, FloatsArg pt, const DistanceQuerySettings& set) {
            const Vector3 p = toFiniteVector3(pt, "pt");
            const klampt::Geometry a = s.snapshot();
            py::gil_scoped_release release;
            return klampt::distancePoint(a, p, set);
          },
          arg("pt"), arg("settings"),
           "Like distance_point(pt) for the world point pt, with the settings (DistanceQuerySettings: error "
           "tolerances, upper bound) controlling the computation; returns a DistanceQueryResult.")
      .def(
          "rayCast",
          [](G s, FloatsArg src, FloatsArg dir) {
            auto [e, pt] = castRay(s, src, dir);
            return py::make_tuple(e >= 0, toList(pt));
          },
          arg("s"), arg("d"),
          "(hit, pt): whether the ray from s along d hits the geometry, and the first hit point. Points and "
          "segments are never hit; point clouds need radii or a margin.")
      .def(
          "rayCast_ext",
          [](G s, FloatsArg src, FloatsArg dir) {
            auto [e, pt] = castRay(s, src, dir);
            return py::make_tuple(e, toList(pt));
          },
          arg("s"), arg("d"), "(element, pt): the element hit (triangle, point, group element; 0 for primitives) or -1.")
      .def(
          "contacts",
          [](G s, G o, double padding1, double padding2, int maxContacts) {
            toNotNaN(padding1, "padding1");
            toNotNaN(padding2, "padding2");
            const klampt::Geometry a = s.snapshot(), b = o.snapshot();
            py::gil_scoped_release release;
            return klampt::contacts(a, b, padding1, padding2, maxContacts);
          },
          arg("other"), arg("padding1"), arg("padding2"), arg("maxContacts") = 0,
          "Contacts within padding1 + padding2 + both margins. maxContacts > 0 keeps at most that many: the contacts "
          "are clustered by k-means on their positions and normals (deterministic seeds: the deepest, then the "
          "farthest) and the deepest contact of each cluster is kept; Klamp't 0.9.2 returns every contact. Unlike "
          "Klamp't 0.9.2 every pair is answered (no abort for a point inside a sphere or box).")
      .def(
          "support",
          [](G s, FloatsArg dir) {
            const Vector3 d = toFiniteVector3(dir, "dir");
            return toList(klampt::support(s.get(), d));
          },
          arg("dir"), "The point of this geometry furthest along dir, in world coordinates.");
}

void bindRobotCollision(py::class_<RobotModel>& cls) {
  cls.def("selfCollides", [](const RobotModel& s) {
    klampt::Robot& r = s.get();
    UseScope use(r.useLock);  // link geometry edits of other threads wait for the query
    py::gil_scoped_release release;
    return !klampt::selfCollidingPairs(r, true).empty();
  }, "True if any enabled pair of link geometries collides at the current configuration.");
}

}  // namespace klampt_py
