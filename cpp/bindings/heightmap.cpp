// The Heightmap class: heights, colours and properties as numpy arrays (views
// that write through), its viewport as a klampt.Viewport, and its projections.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <pybind11/stl.h>
#include "convert.h"
#include "geometry_handle.h"
#include "handles.h"
#include "klampt/geometry/heightmap.h"

namespace klampt_py {

namespace {

using klampt::FloatGrid;
using klampt::Heightmap;
using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;
using ByteArray = py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>;

void checkSample(const Heightmap& hm, long i, long j) {
  checkIndex(i, hm.viewport.w, "i");
  checkIndex(j, hm.viewport.h, "j");
}

/// A w x h float array from any numeric array (transposed from an h x w image if `image`).
FloatGrid readGrid(const Heightmap& hm, py::handle obj, bool image, double scale, const char* name) {
  auto arr = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(obj);
  if (!arr || arr.ndim() != 2) throw py::value_error(std::string(name) + " must be a 2D array");
  const long w = hm.viewport.w, h = hm.viewport.h;
  const long rows = image ? h : w, cols = image ? w : h;
  if (arr.shape(0) != rows || arr.shape(1) != cols)
    throw py::value_error(std::string(name) + " must have shape (" + std::to_string(rows) + ", " + std::to_string(cols) +
                          "), the heightmap's " + (image ? "(h, w)" : "(w, h)") + "; resize it first");
  FloatGrid out(w, h);
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c) {
      const double v = arr.at(r, c) * scale;
      if (std::isinf(v) && !std::isinf(arr.at(r, c))) throw py::value_error(std::string(name) + " overflows a float");
      (image ? out(c, r) : out(r, c)) = (float)v;
    }
  return out;
}

py::array gridView(HeightmapHandle& s, FloatGrid& g) {
  if (g.size() == 0) return py::array_t<float>({g.rows(), g.cols()});  // nothing to share
  return arrayView(s.data, g.data(), {g.rows(), g.cols()});
}

py::array heightsView(HeightmapHandle& s) { return gridView(s, s.data->heights); }

/// An h x w image of a w x h grid.
py::array_t<float> imageOf(const FloatGrid& g) {
  py::array_t<float> out({g.cols(), g.rows()});
  auto o = out.mutable_unchecked<2>();
  for (Eigen::Index i = 0; i < g.rows(); ++i)
    for (Eigen::Index j = 0; j < g.cols(); ++j) o(j, i) = g(i, j);
  return out;
}

/// The heights as an h x w integer image scaled by 1 / scale, and the scale
/// (the largest height; 1 when none is positive).
template <class Int>
py::tuple quantizedImage(const Heightmap& hm) {
  double top = 0;
  for (Eigen::Index k = 0; k < hm.heights.size(); ++k)
    if (std::isfinite(hm.heights.data()[k])) top = std::max(top, (double)hm.heights.data()[k]);
  const double scale = top > 0 ? top : 1.0, full = (double)std::numeric_limits<Int>::max();
  py::array_t<Int> out({hm.heights.cols(), hm.heights.rows()});
  auto o = out.template mutable_unchecked<2>();
  for (Eigen::Index i = 0; i < hm.heights.rows(); ++i)
    for (Eigen::Index j = 0; j < hm.heights.cols(); ++j) {
      const double v = hm.heights(i, j);
      o(j, i) = std::isfinite(v) ? (Int)std::clamp(std::floor(v / scale * full), 0.0, full) : 0;
    }
  return py::make_tuple(out, py::float_((float)scale));
}

py::array colorView(HeightmapHandle& s) {
  const Heightmap& hm = *s.data;
  if (hm.colors.empty()) return py::array_t<std::uint8_t>({hm.viewport.h, hm.viewport.w, hm.colorChannels});
  return arrayView(s.data, s.data->colors.data(), {hm.viewport.h, hm.viewport.w, hm.colorChannels});
}

/// Sets the colour image from h x w (grey), h x w x 1, 3 or 4 values:
/// uint8 as is, floats in [0, 1], uint32 packed 0xAARRGGBB (h x w).
void setColors(Heightmap& hm, py::handle obj) {
  auto arr = py::array::ensure(obj);
  if (!arr) throw py::type_error("the colour image must be a numpy array");
  const long w = hm.viewport.w, h = hm.viewport.h;
  if (arr.ndim() < 2 || arr.ndim() > 3 || arr.shape(0) != h || arr.shape(1) != w)
    throw py::value_error("the colour image must have shape (h, w), (h, w, 1), (h, w, 3) or (h, w, 4) with (h, w) = (" +
                          std::to_string(h) + ", " + std::to_string(w) + ")");
  const int c = arr.ndim() == 2 ? 1 : (int)arr.shape(2);
  if (c != 1 && c != 3 && c != 4) throw py::value_error("the colour image must have 1, 3 or 4 channels");
  const char kind = arr.dtype().kind();
  std::vector<std::uint8_t> colors;
  int channels = c;
  if (arr.ndim() == 2 && (arr.dtype().is(py::dtype::of<std::uint32_t>()))) {
    auto a = py::array_t<std::uint32_t, py::array::c_style>::ensure(arr);
    channels = 4;
    colors.resize((size_t)w * h * 4);
    for (long k = 0; k < w * h; ++k) {
      const std::uint32_t v = a.data()[k];
      colors[4 * k] = (v >> 16) & 255;
      colors[4 * k + 1] = (v >> 8) & 255;
      colors[4 * k + 2] = v & 255;
      colors[4 * k + 3] = (v >> 24) & 255;
    }
  } else if (kind == 'f') {
    auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(arr);
    colors.resize((size_t)a.size());
    for (py::ssize_t k = 0; k < a.size(); ++k) {
      const double v = a.data()[k];
      if (!std::isfinite(v)) throw py::value_error("colour values must be finite");
      colors[k] = (std::uint8_t)std::lround(255 * std::clamp(v, 0.0, 1.0));
    }
  } else if (kind == 'u' || kind == 'i' || kind == 'b') {
    auto a = py::array_t<long long, py::array::c_style | py::array::forcecast>::ensure(arr);
    colors.resize((size_t)a.size());
    for (py::ssize_t k = 0; k < a.size(); ++k) {
      if (a.data()[k] < 0 || a.data()[k] > 255) throw py::value_error("8-bit colour values must be in [0, 255]");
      colors[k] = (std::uint8_t)a.data()[k];
    }
  } else {
    throw py::type_error("the colour image must hold floats or integers");
  }
  hm.colorChannels = channels;
  hm.colors = std::move(colors);
}

py::array_t<std::uint32_t> packedColors(const Heightmap& hm) {
  const long w = hm.viewport.w, h = hm.viewport.h;
  py::array_t<std::uint32_t> out({h, w});
  auto* o = out.mutable_data();
  const int c = hm.colorChannels;
  for (long k = 0; k < w * h; ++k) {
    if (c == 0) {
      o[k] = 0;
      continue;
    }
    const std::uint8_t* px = &hm.colors[(size_t)k * c];
    const std::uint32_t r = px[0], g = c >= 3 ? px[1] : px[0], b = c >= 3 ? px[2] : px[0], a = c == 4 ? px[3] : 0;
    o[k] = (a << 24) | (r << 16) | (g << 8) | b;
  }
  return out;
}

ViewportArg toViewport(const klampt::HeightmapViewport& vp) {
  py::object out = py::module_::import("klampt.robotsim").attr("Viewport")();
  out.attr("w") = vp.w;
  out.attr("h") = vp.h;
  out.attr("perspective") = vp.perspective;
  out.attr("fx") = vp.fx;
  out.attr("fy") = vp.fy;
  out.attr("cx") = vp.cx;
  out.attr("cy") = vp.cy;
  const char* setter = py::hasattr(out, "setPose") ? "setPose" : "setRigidTransform";
  out.attr(setter)(rotationToList(vp.pose.R), toList(vp.pose.t));
  return ViewportArg(std::move(out));
}

klampt::HeightmapViewport fromViewport(py::handle v) {
  klampt::HeightmapViewport vp;
  for (const char* name : {"w", "h", "perspective", "fx", "fy", "cx", "cy"})
    if (!py::hasattr(v, name)) throw py::type_error(std::string("the viewport has no attribute ") + name);
  vp.w = py::cast<int>(v.attr("w"));
  vp.h = py::cast<int>(v.attr("h"));
  vp.perspective = py::cast<bool>(v.attr("perspective"));
  vp.fx = py::cast<double>(v.attr("fx"));
  vp.fy = py::cast<double>(v.attr("fy"));
  vp.cx = py::cast<double>(v.attr("cx"));
  vp.cy = py::cast<double>(v.attr("cy"));
  py::tuple pose = v.attr(py::hasattr(v, "getPose") ? "getPose" : "getRigidTransform")();
  vp.pose.R = toFiniteRotation(pose[0], "viewport pose R");
  vp.pose.t = toFiniteVector3(pose[1], "viewport pose t");
  return vp;
}

void setViewport(HeightmapHandle& s, const ViewportArg& v) {
  const klampt::HeightmapViewport vp = fromViewport(v);
  if (vp.w < 0 || vp.h < 0) throw py::value_error("viewport size must be >= 0");
  Heightmap next = *s.data;
  if (vp.w != next.viewport.w || vp.h != next.viewport.h) klampt::resizeHeightmap(next, vp.w, vp.h);
  next.viewport = vp;
  klampt::validateHeightmap(next);
  s.resizable() = std::move(next);
}

std::array<double, 4> toRGBA(py::handle obj) {
  const VectorX v = toFiniteVector(obj, 4, "rgba");
  return {v[0], v[1], v[2], v[3]};
}

int checkedProperty(const Heightmap& hm, long p) {
  checkIndex(p, (long)hm.properties.size(), "property index");
  return (int)p;
}

void bindMembers(py::class_<HeightmapHandle>& cls) {
  cls.def(py::init<>(), "An empty heightmap (1 x 1 viewport, no samples).")
      .def(py::init([](const HeightmapHandle& o) {
             HeightmapHandle h;
             h.data = std::make_shared<Heightmap>(*o.data);
             return h;
           }),
           py::arg("rhs"), "A copy of another heightmap.")
      .def("copy",
           [](const HeightmapHandle& s) {
             HeightmapHandle h;
             h.data = std::make_shared<Heightmap>(*s.data);
             return h;
           },
           "A standalone copy.")
      .def("set", [](HeightmapHandle& s, const HeightmapHandle& o) { s.resizable() = Heightmap(*o.data); }, py::arg("arg2"),
           "Copies another heightmap into this one.")
      .def("set",
           [](HeightmapHandle& s, double v) { s.data->heights.setConstant((float)toNotNaN(v, "value")); },
           py::arg("value"), "Sets every height to value.")
      .def("set",
           [](HeightmapHandle& s, long i, long j, double v) {
             checkSample(*s.data, i, j);
             s.data->heights(i, j) = (float)v;
           },
           py::arg("i"), py::arg("j"), py::arg("value"),
           "Sets the height of vertex (i, j) (x then y index; NaN marks a missing sample).")
      .def("get",
           [](const HeightmapHandle& s, long i, long j) {
             checkSample(*s.data, i, j);
             return (double)s.data->heights(i, j);
           },
           py::arg("i"), py::arg("j"), "The height of vertex (i, j) (x then y index, reversed from image order).")
      .def_property_readonly("dataPtr", [](const HeightmapHandle& s) { return (std::uintptr_t)s.data.get(); },
                             "Address of the heightmap data (an integer identifying it).")
      .def_property_readonly("isStandalone", [](const HeightmapHandle&) { return true; },
                             "Always True: a Heightmap owns its data (Geometry3D.getHeightmap returns a copy).")
      .def("resize", [](HeightmapHandle& s, int w, int h) { klampt::resizeHeightmap(s.resizable(), w, h); },
           py::arg("w"), py::arg("h"),
           "Resizes to w x h samples, keeping the heights that remain; the intrinsics scale with the size.")
      .def("setSize",
           [](HeightmapHandle& s, double width, double height) { klampt::setHeightmapSize(*s.data, width, height); },
           py::arg("width"), py::arg("height"),
           "Orthographic (elevation map) projection spanning width x height, centred (height <= 0: square cells).")
      .def("setFOV", [](HeightmapHandle& s, double fovx, double fovy) { klampt::setHeightmapFOV(*s.data, fovx, fovy); },
           py::arg("fovx"), py::arg("fovy") = -1.0,
           "Perspective (depth map) projection with fields of view in radians, centred (fovy <= 0: square pixels).")
      .def("setIntrinsics",
           [](HeightmapHandle& s, double fx, double fy, double cx, double cy) {
             klampt::setHeightmapIntrinsics(*s.data, fx, fy, cx, cy);
           },
           py::arg("fx"), py::arg("fy"), py::arg("cx") = -1.0, py::arg("cy") = -1.0,
           "Perspective (depth map) projection with intrinsics fx, fy, cx, cy (cx, cy < 0: the image centre).")
      .def("isOrthographic", [](const HeightmapHandle& s) { return !s.data->viewport.perspective; },
           "True in orthographic (elevation map) mode.")
      .def("isPerspective", [](const HeightmapHandle& s) { return s.data->viewport.perspective; },
           "True in perspective (depth map) mode.")
      .def("getViewport", [](const HeightmapHandle& s) { return toViewport(s.data->viewport); },
           "A klampt.Viewport copy of the size, projection, intrinsics and pose.")
      .def("setViewport", &setViewport, py::arg("viewport"),
           "Sets size, projection, intrinsics and pose from a klampt.Viewport (a new size resizes the arrays).")
      .def_property("viewport", [](const HeightmapHandle& s) { return toViewport(s.data->viewport); }, &setViewport,
                    "The viewport (a copy: change it, then assign it back).")
      .def("scale", [](HeightmapHandle& s, double c) { s.data->heights *= (float)toFinite(c, "c"); }, py::arg("c"),
           "Multiplies every height by c.")
      .def("shift", [](HeightmapHandle& s, double dh) { s.data->heights.array() += (float)toFinite(dh, "dh"); },
           py::arg("dh"), "Adds dh to every height.");
}

void bindHeights(py::class_<HeightmapHandle>& cls) {
  cls.def("getHeights", &heightsView, "A (w, h) float32 numpy view of the heights (writes change the heightmap).")
      .def_property("heights", &heightsView,
                    [](HeightmapHandle& s, ArrayArg a) { s.data->heights = readGrid(*s.data, a, false, 1.0, "heights"); },
                    "(w, h) float32 numpy view of the heights; assigning a (w, h) array copies it in.")
      .def("setHeights", [](HeightmapHandle& s, ArrayArg a) { s.data->heights = readGrid(*s.data, a, false, 1.0, "arr"); },
           py::arg("arr"), "Copies a (w, h) array (x then y index) into the heights.")
      .def("setHeights_f",
           [](HeightmapHandle& s, ArrayArg a) { s.data->heights = readGrid(*s.data, a, false, 1.0, "np_array2"); },
           py::arg("np_array2"), "Copies a (w, h) float array into the heights.")
      .def("setHeightImage",
           [](HeightmapHandle& s, ArrayArg img, double scale) {
             // As Klamp't 0.10: an image of another size resizes the map to it.
             auto arr = py::array::ensure(img);
             if (!arr || arr.ndim() != 2) throw py::value_error("img must be a 2D array");
             if (arr.shape(0) != s.data->viewport.h || arr.shape(1) != s.data->viewport.w)
               klampt::resizeHeightmap(s.resizable(), (int)arr.shape(1), (int)arr.shape(0));
             s.data->heights = readGrid(*s.data, arr, true, toFinite(scale, "height_scale"), "img");
           },
           py::arg("img"), py::arg("height_scale") = 1.0,
           "Sets the heights from an (h, w) image, rows top to bottom, times height_scale; an image of another "
           "size resizes the map to w x h first.")
      .def("getHeightImage", [](const HeightmapHandle& s) { return imageOf(s.data->heights); },
           "The heights as an (h, w) float32 image, rows top to bottom.")
      .def("getHeightImage_b", [](const HeightmapHandle& s) { return quantizedImage<std::uint8_t>(*s.data); },
           "(image, scale): the heights as an (h, w) uint8 image (height / scale * 255, truncated) and the scale.")
      .def("getHeightImage_s", [](const HeightmapHandle& s) { return quantizedImage<std::uint16_t>(*s.data); },
           "(image, scale): the heights as an (h, w) uint16 image (height / scale * 65535, truncated) and the scale.");
}

void bindColors(py::class_<HeightmapHandle>& cls) {
  cls.def("hasColors", [](const HeightmapHandle& s) { return s.data->colorChannels > 0; }, "True if colours are present.")
      .def("clearColors",
           [](HeightmapHandle& s) {
             s.resizable().colors.clear();
             s.data->colorChannels = 0;
           },
           "Removes the colours.")
      .def("getColor",
           [](const HeightmapHandle& s, long i, long j) {
             checkSample(*s.data, i, j);
             return klampt::heightmapColor(*s.data, i, j);
           },
           py::arg("i"), py::arg("j"), "RGBA in [0, 1] of vertex (i, j) (white without colours).")
      .def("setColor",
           [](HeightmapHandle& s, double v) {
             Heightmap& hm = s.resizable();
             hm.colorChannels = 3;
             hm.colors.assign((size_t)hm.viewport.w * hm.viewport.h * 3,
                              (std::uint8_t)std::lround(255 * std::clamp(toFinite(v, "intensity"), 0.0, 1.0)));
           },
           py::arg("intensity"), "Colours every vertex grey with the intensity in [0, 1] (an RGB image).")
      .def("setColor",
           [](HeightmapHandle& s, FloatsArg rgba) {
             const auto c = toRGBA(rgba);
             Heightmap& hm = s.resizable();
             hm.colorChannels = 0;
             hm.colors.clear();
             for (int i = 0; i < hm.viewport.w; ++i)
               for (int j = 0; j < hm.viewport.h; ++j) klampt::setHeightmapColor(hm, i, j, c);
           },
           py::arg("rgba"), "Colours every vertex with rgba in [0, 1] (an RGBA image).")
      .def("setColor",
           [](HeightmapHandle& s, long i, long j, double v) {
             checkSample(*s.data, i, j);
             const double c = toFinite(v, "intensity");
             klampt::setHeightmapColor(s.resizable(), i, j, {c, c, c, 1.0});
           },
           py::arg("i"), py::arg("j"), py::arg("intensity"), "Colours vertex (i, j) grey.")
      .def("setColor",
           [](HeightmapHandle& s, long i, long j, FloatsArg rgba) {
             checkSample(*s.data, i, j);
             klampt::setHeightmapColor(s.resizable(), i, j, toRGBA(rgba));
           },
           py::arg("i"), py::arg("j"), py::arg("rgba"),
           "Colours vertex (i, j) with rgba in [0, 1] (adds a white RGBA image if there are no colours).")
      .def_property("colorImage", &colorView, [](HeightmapHandle& s, ArrayArg a) { setColors(s.resizable(), a); },
                    "(h, w, channels) uint8 numpy view of the colours, rows top to bottom; assigning sets them.")
      .def("getColorImage", &colorView, "(h, w, channels) uint8 numpy view of the colours, rows top to bottom.")
      .def("getColorImage_d",
           [](const HeightmapHandle& s) {
             const Heightmap& hm = *s.data;
             py::array_t<double> out({hm.viewport.h, hm.viewport.w, hm.colorChannels});
             for (size_t k = 0; k < hm.colors.size(); ++k) out.mutable_data()[k] = hm.colors[k] / 255.0;
             return out;
           },
           "The colours as an (h, w, channels) float image in [0, 1].")
      .def("getColorImage_i", [](const HeightmapHandle& s) { return packedColors(*s.data); },
           "The colours as an (h, w) uint32 image packed 0xAARRGGBB (alpha 0 without an alpha channel).")
      .def("setColorImage", [](HeightmapHandle& s, ArrayArg a) { setColors(s.resizable(), a); }, py::arg("img"),
           "Sets the colours from an (h, w), (h, w, 1/3/4) uint8 or float ([0, 1]) image, or (h, w) uint32 0xAARRGGBB.")
      .def("setColorImage_b", [](HeightmapHandle& s, ArrayArg a) { setColors(s.resizable(), ByteArray::ensure(a)); },
           py::arg("np_array3"), "Sets the colours from an (h, w, 1/3/4) uint8 image, rows top to bottom.")
      .def("setColorImage_i",
           [](HeightmapHandle& s, ArrayArg a) {
             setColors(s.resizable(), py::array_t<std::uint32_t, py::array::c_style | py::array::forcecast>::ensure(a));
           },
           py::arg("np_array2"), "Sets the colours from an (h, w) uint32 image packed 0xAARRGGBB.");
}

void bindProperties(py::class_<HeightmapHandle>& cls) {
  cls.def("numProperties", [](const HeightmapHandle& s) { return (int)s.data->properties.size(); },
          "The number of property channels.")
      .def("propertyIndex",
           [](const HeightmapHandle& s, const std::string& name) {
             const auto& names = s.data->propertyNames;
             const auto it = std::find(names.begin(), names.end(), name);
             return it == names.end() ? -1 : (int)(it - names.begin());
           },
           py::arg("pname"), "Index of the named property channel, -1 if there is none.")
      .def("addProperty",
           [](HeightmapHandle& s, const std::string& name, const OptionalArrayArg& values) {
             Heightmap& hm = s.resizable();
             FloatGrid grid = values.is_none() ? FloatGrid(FloatGrid::Zero(hm.viewport.w, hm.viewport.h))
                                               : readGrid(hm, values, false, 1.0, "np_array2");
             hm.propertyNames.push_back(name);
             hm.properties.push_back(std::move(grid));
             return (int)hm.properties.size() - 1;
           },
           py::arg("pname"), py::arg("np_array2") = py::none(),
           "Adds a property channel (zeros, or a (w, h) array); returns its index.")
      .def("getProperties",
           [](HeightmapHandle& s, long p) {
             return gridView(s, s.data->properties[checkedProperty(*s.data, p)]);
           },
           py::arg("pindex"), "A (w, h) float32 numpy view of property channel pindex.")
      .def("setProperties",
           [](HeightmapHandle& s, long p, ArrayArg a) {
             s.data->properties[checkedProperty(*s.data, p)] = readGrid(*s.data, a, false, 1.0, "np_array2");
           },
           py::arg("pindex"), py::arg("np_array2"), "Copies a (w, h) array into property channel pindex.")
      .def("setPropertyImage",
           [](HeightmapHandle& s, long p, ArrayArg a) {
             s.data->properties[checkedProperty(*s.data, p)] = readGrid(*s.data, a, true, 1.0, "img");
           },
           py::arg("pindex"), py::arg("img"), "Sets property channel pindex from an (h, w) image, rows top to bottom.")
      .def("getProperty",
           [](const HeightmapHandle& s, long i, long j) {
             checkSample(*s.data, i, j);
             std::vector<double> out;
             for (const auto& g : s.data->properties) out.push_back(g(i, j));
             return py::array_t<double>(out.size(), out.data());
           },
           py::arg("i"), py::arg("j"), "The property values of vertex (i, j), one per channel.")
      .def("setProperty",
           [](HeightmapHandle& s, long i, long j, FloatsArg values) {
             checkSample(*s.data, i, j);
             const VectorX v = toVector(values, (int)s.data->properties.size(), "np_array");
             for (size_t k = 0; k < s.data->properties.size(); ++k) s.data->properties[k](i, j) = (float)v[k];
           },
           py::arg("i"), py::arg("j"), py::arg("np_array"), "Sets the property values of vertex (i, j), one per channel.");
}

}  // namespace

void bindHeightmap(py::module_& m) {
  py::class_<HeightmapHandle> cls(
      m, "Heightmap",
      "A height (elevation) map or a depth map: values at the vertices of a w x h grid. In elevation-map form "
      "(viewport.perspective False) vertex (i, j) is ((i+0.5-cx)/fx, (h-1-j+0.5-cy)/fy, heights[i, j]) (y flipped so "
      "that images read top-down); in depth-map form it is (d(i+0.5-cx)/fx, d(j+0.5-cy)/fy, d) with d = heights[i, j], "
      "both placed by viewport's pose. NaN (and 0 for depth maps) marks a missing sample. Space below an elevation "
      "map, or behind a depth map, is solid for contains_point; the other queries see the surface.");
  addThisown(cls);
  bindMembers(cls);
  bindHeights(cls);
  bindColors(cls);
  bindProperties(cls);
}

}  // namespace klampt_py
