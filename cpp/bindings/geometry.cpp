// Geometry3D and Appearance: the parts the modelling classes hand out
// (type, transform, margin, bounding boxes, files, color).
#include "convert.h"
#include "geometry_handle.h"
#include "handles.h"
#include "klampt/io/geometry_files.h"

namespace klampt_py {

using klampt::Geometry;

namespace {

py::tuple boxTuple(const Geometry& g) {
  if (g.empty()) throw py::value_error("the geometry is empty");
  Vector3 lo, hi;
  klampt::tightBoundingBox(*g.data, g.currentTransform, lo, hi);
  return py::make_tuple(toList(lo), toList(hi));
}

}  // namespace

void bindGeometry(py::module_& m) {
  py::class_<Geometry3D>(m, "Geometry3D", "The three-D geometry container used throughout Klampt.")
      .def(py::init<>())
      .def(py::init([](const Geometry3D& other) {
             Geometry3D g;
             *g.geom = *other.geom;  // shape data stays shared until edited
             return g;
           }),
           py::arg("geom"))
      .def("clone",
           [](const Geometry3D& s) {
             Geometry3D g;
             *g.geom = *s.geom;
             return g;
           },
           "A standalone copy (shape data shared until either is edited).")
      .def("set", [](Geometry3D& s, const Geometry3D& other) { *s.geom = *other.geom; }, py::arg("arg2"))
      .def("type", [](const Geometry3D& s) { return std::string(klampt::geometryTypeName(s.geom->data->type)); })
      .def("empty", [](const Geometry3D& s) { return s.geom->empty(); })
      .def("getCurrentTransform", [](const Geometry3D& s) { return transformToTuple(s.geom->currentTransform); })
      .def("setCurrentTransform",
           [](Geometry3D& s, py::handle R, py::handle t) {
             s.geom->currentTransform = {toRotation(R, "R"), toVector3(t, "t")};
           },
           py::arg("R"), py::arg("t"))
      .def("getCollisionMargin", [](const Geometry3D& s) { return s.geom->margin; })
      .def("setCollisionMargin",
           [](Geometry3D& s, double margin) {
             if (!(margin >= 0)) throw py::value_error("the collision margin must be >= 0");
             s.geom->margin = margin;
           },
           py::arg("margin"))
      .def("getBB", [](const Geometry3D& s) { return boxTuple(*s.geom); },
           "Axis-aligned bounding box ([xmin,ymin,zmin],[xmax,ymax,zmax]) in world coordinates.")
      .def("getBBTight", [](const Geometry3D& s) { return boxTuple(*s.geom); },
           "The tightest axis-aligned bounding box in world coordinates.")
      .def("loadFile",
           [](Geometry3D& s, const std::string& fn) {
             auto data = std::make_shared<klampt::GeometryData>();
             try {
               py::gil_scoped_release release;
               klampt::loadGeometryFile(fn, *data);
             } catch (const std::exception& e) {
               logError(e.what());
               return false;
             }
             s.geom->data = data;
             s.geom->sourceFile = fn;
             return true;
           },
           py::arg("fn"))
      .def("saveFile",
           [](const Geometry3D& s, const std::string& fn) {
             try {
               klampt::saveGeometryFile(*s.geom->data, fn);
             } catch (const std::exception& e) {
               logError(e.what());
               return false;
             }
             return true;
           },
           py::arg("fn"));

  py::class_<Appearance>(m, "Appearance", "Geometry appearance information.")
      .def(py::init<>())
      .def("setColor",
           [](Appearance& s, float r, float g, float b, float a) { s.app->color = {r, g, b, a}; },
           py::arg("r"), py::arg("g"), py::arg("b"), py::arg("a") = 1.0f)
      .def("getColor", [](const Appearance& s) {
        const auto& c = s.app->color;
        return py::make_tuple(c[0], c[1], c[2], c[3]);
      });
}

}  // namespace klampt_py
