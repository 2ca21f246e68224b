// The OccupancyGrid class: cell values as a numpy view, bounds and the
// occupancy threshold.
#include <cmath>
#include <cstdint>
#include <pybind11/stl.h>
#include "convert.h"
#include "geometry_handle.h"
#include "handles.h"
#include "klampt/geometry/occupancy_grid.h"

namespace klampt_py {

namespace {

using klampt::OccupancyGrid;

void checkCell(const OccupancyGrid& g, long i, long j, long k) {
  checkIndex(i, g.dims[0], "cell i");
  checkIndex(j, g.dims[1], "cell j");
  checkIndex(k, g.dims[2], "cell k");
}

void resizeGrid(OccupancyGridHandle& s, long sx, long sy, long sz) {
  if (sx < 0 || sy < 0 || sz < 0) throw py::value_error("grid dimensions must be >= 0");
  if ((double)sx * sy * sz > double(1 << 28)) throw py::value_error("grid too large (more than 2^28 cells)");
  OccupancyGrid& g = s.resizable();
  g.dims = {(int)sx, (int)sy, (int)sz};
  g.values.assign((size_t)sx * sy * sz, 0.0);
}

void setBounds(OccupancyGrid& g, const Vector3& lo, const Vector3& hi) {
  if ((lo.array() > hi.array()).any()) throw py::value_error("bounds must have bmin <= bmax");
  g.bmin = lo;
  g.bmax = hi;
}

py::array valuesView(OccupancyGridHandle& s) {
  auto& g = *s.data;
  if (g.values.empty()) return py::array_t<double>({g.dims[0], g.dims[1], g.dims[2]});  // nothing to share
  return arrayView(s.data, g.values.data(), {g.dims[0], g.dims[1], g.dims[2]});
}

}  // namespace

void bindOccupancyGrid(py::module_& m) {
  py::class_<OccupancyGridHandle> cls(
      m, "OccupancyGrid",
      "An occupancy (or density) grid: cell (i, j, k) holds a value and spans [bmin + (i, j, k) * size, bmin + (i+1, "
      "j+1, k+1) * size) with size = (bmax - bmin) / dims. The queries treat the cells whose value exceeds "
      "occupancyThreshold (0.5 by default) as solid boxes.");
  addThisown(cls);
  cls.def(py::init<>(), "An empty grid (no cells).")
      .def(py::init([](const OccupancyGridHandle& o) {
             OccupancyGridHandle h;
             h.data = std::make_shared<OccupancyGrid>(*o.data);
             return h;
           }),
           py::arg("rhs"), "A copy of another grid.")
      .def("copy",
           [](const OccupancyGridHandle& s) {
             OccupancyGridHandle h;
             h.data = std::make_shared<OccupancyGrid>(*s.data);
             return h;
           },
           "A standalone copy.")
      .def("set", [](OccupancyGridHandle& s, const OccupancyGridHandle& o) { s.resizable() = OccupancyGrid(*o.data); },
           py::arg("arg2"), "Copies another grid into this one.")
      .def("set",
           [](OccupancyGridHandle& s, double v) {
             std::fill(s.data->values.begin(), s.data->values.end(), toFinite(v, "value"));
           },
           py::arg("value"), "Sets every cell to value.")
      .def("set",
           [](OccupancyGridHandle& s, long i, long j, long k, double v) {
             checkCell(*s.data, i, j, k);
             s.data->values[klampt::cellIndex(*s.data, i, j, k)] = toFinite(v, "value");
           },
           py::arg("i"), py::arg("j"), py::arg("k"), py::arg("value"), "Sets cell (i, j, k).")
      .def("get",
           [](const OccupancyGridHandle& s, long i, long j, long k) {
             checkCell(*s.data, i, j, k);
             return s.data->values[klampt::cellIndex(*s.data, i, j, k)];
           },
           py::arg("i"), py::arg("j"), py::arg("k"), "The value of cell (i, j, k).")
      .def_property_readonly("dataPtr", [](const OccupancyGridHandle& s) { return (std::uintptr_t)s.data.get(); },
                             "Address of the grid data (an integer identifying it).")
      .def_property_readonly("isStandalone", [](const OccupancyGridHandle&) { return true; },
                             "Always True: an OccupancyGrid owns its data (Geometry3D.getOccupancyGrid returns a copy).")
      .def("resize", &resizeGrid, py::arg("sx"), py::arg("sy"), py::arg("sz"), "Sets the dimensions; values become 0.")
      .def("scale", [](OccupancyGridHandle& s, double c) { for (double& v : s.data->values) v *= toFinite(c, "cv"); },
           py::arg("cv"), "Multiplies every value by cv.")
      .def("shift", [](OccupancyGridHandle& s, double dv) { for (double& v : s.data->values) v += toFinite(dv, "dv"); },
           py::arg("dv"), "Adds dv to every value.")
      .def("getValues", &valuesView, "A dims[0] x dims[1] x dims[2] numpy view of the values.")
      .def("setValues",
           [](OccupancyGridHandle& s, ArrayArg a) {
             auto arr = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(a);
             if (!arr || arr.ndim() != 3) throw py::value_error("np_array3 must be a 3D array");
             checkFinite(arr.data(), arr.size(), "np_array3");
             resizeGrid(s, arr.shape(0), arr.shape(1), arr.shape(2));
             std::copy(arr.data(), arr.data() + arr.size(), s.data->values.begin());
           },
           py::arg("np_array3"), "Sets the values and the dimensions from a 3D array.")
      .def_property_readonly("values", &valuesView, "A 3D numpy view of the values (writes change the grid).")
      .def("getBmin", [](const OccupancyGridHandle& s) { return toList(s.data->bmin); }, "The lower corner [x, y, z].")
      .def("getBmax", [](const OccupancyGridHandle& s) { return toList(s.data->bmax); }, "The upper corner [x, y, z].")
      .def("setBmin", [](OccupancyGridHandle& s, FloatsArg v) { s.data->bmin = toFiniteVector3(v, "bmin"); },
           py::arg("bmin"), "Sets the lower corner (bmin <= bmax is checked when the grid is used).")
      .def("setBmax", [](OccupancyGridHandle& s, FloatsArg v) { s.data->bmax = toFiniteVector3(v, "bmax"); },
           py::arg("bmax"), "Sets the upper corner (bmin <= bmax is checked when the grid is used).")
      .def_property(
          "bmin", [](const OccupancyGridHandle& s) { return toList(s.data->bmin); },
          [](OccupancyGridHandle& s, FloatsArg v) { s.data->bmin = toFiniteVector3(v, "bmin"); },
          "The lower corner [x, y, z] (a copy; assign to change).")
      .def_property(
          "bmax", [](const OccupancyGridHandle& s) { return toList(s.data->bmax); },
          [](OccupancyGridHandle& s, FloatsArg v) { s.data->bmax = toFiniteVector3(v, "bmax"); },
          "The upper corner [x, y, z] (a copy; assign to change).")
      .def("getBounds", [](const OccupancyGridHandle& s) { return toListPair(s.data->bmin, s.data->bmax); },
           "(bmin, bmax) (deprecated, kept for older code).")
      .def("setBounds",
           [](OccupancyGridHandle& s, py::tuple b) {
             if (b.size() != 2) throw py::value_error("bounds must be a pair (bmin, bmax)");
             setBounds(*s.data, toFiniteVector3(b[0], "bmin"), toFiniteVector3(b[1], "bmax"));
           },
           py::arg("bounds"), "Sets (bmin, bmax) (deprecated, kept for older code).")
      .def_property(
          "bounds", [](const OccupancyGridHandle& s) { return toListPair(s.data->bmin, s.data->bmax); },
          [](OccupancyGridHandle& s, py::tuple b) {
            if (b.size() != 2) throw py::value_error("bounds must be a pair (bmin, bmax)");
            setBounds(*s.data, toFiniteVector3(b[0], "bmin"), toFiniteVector3(b[1], "bmax"));
          },
          "(bmin, bmax) (deprecated, kept for older code).")
      .def("getOccupancyThreshold", [](const OccupancyGridHandle& s) { return s.data->occupancyThreshold; },
           "The value above which a cell is occupied for the queries.")
      .def("setOccupancyThreshold",
           [](OccupancyGridHandle& s, double t) { s.data->occupancyThreshold = toNotNaN(t, "threshold"); },
           py::arg("threshold"), "Sets the value above which a cell is occupied for the queries.")
      .def_property(
          "occupancyThreshold", [](const OccupancyGridHandle& s) { return s.data->occupancyThreshold; },
          [](OccupancyGridHandle& s, double t) { s.data->occupancyThreshold = toNotNaN(t, "occupancyThreshold"); },
          "The value above which a cell is occupied for the queries (0.5 by default).");
}

}  // namespace klampt_py
