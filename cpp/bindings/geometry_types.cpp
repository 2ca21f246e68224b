// The geometry data classes: TriangleMesh, PointCloud, GeometricPrimitive,
// ConvexHull and VolumeGrid, with numpy views that write through.
#include <cctype>
#include <cmath>
#include <pybind11/stl.h>
#include "convert.h"
#include "geometry_handle.h"
#include "handles.h"
#include "klampt/geometry/mesh_normals.h"
#include "klampt/geometry/point_cloud.h"
#include "klampt/geometry/primitive.h"
#include "klampt/geometry/volume_grid.h"

namespace klampt_py {

using klampt::PointCloud;
using Points = PointArray;

namespace {

// Flat sequences (the SWIG vector attributes) of a given multiple.
Points readFlatPoints(py::handle obj, const char* name) {
  VectorX v = toFiniteVector(obj, -1, name);
  if (v.size() % 3 != 0) throw py::value_error(std::string(name) + " must have a multiple of 3 entries");
  return Eigen::Map<const Points>(v.data(), v.size() / 3, 3);
}

Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor> readIndices(py::handle obj, bool flat) {
  using Indices = Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor>;
  auto arr = py::array_t<long long, py::array::c_style | py::array::forcecast>::ensure(obj);
  if (!arr) throw py::type_error("indices must be an array of integers");
  auto src = py::array::ensure(obj);
  if (src && src.dtype().kind() == 'f') throw py::type_error("indices must be integers");
  py::ssize_t n = arr.size();
  if (flat ? (arr.ndim() != 1 || n % 3 != 0) : !((arr.ndim() == 2 && arr.shape(1) == 3) || n == 0))
    throw py::value_error(flat ? "indices must be a flat list of 3m integers" : "indices must be an m x 3 array");
  Indices out(n / 3, 3);
  for (py::ssize_t i = 0; i < n; ++i) {
    long long v = arr.data()[i];
    if (v < 0 || v > INT32_MAX) throw py::value_error("triangle indices must be in [0, 2^31)");
    out.data()[i] = (int)v;
  }
  return out;
}

py::list pointList(const Points& p, Eigen::Index i) { return toList(Vector3(p.row(i).transpose())); }

py::array_t<double> rowsToArray(const klampt::NormalArray& rows) {
  auto out = newArray({rows.rows(), 3});
  std::copy(rows.data(), rows.data() + rows.size(), out.mutable_data());
  return out;
}

/// Klamp't 0.10's members of every geometry data class: copy, set, dataPtr and
/// isStandalone.
template <class T>
void addDataMembers(py::class_<DataHandle<T>>& cls) {
  using Handle = DataHandle<T>;
  cls.def("copy",
          [](const Handle& s) {
            Handle h;
            h.data = std::make_shared<T>(*s.data);
            return h;
          },
          "Creates a standalone object that is a copy of this (editing either leaves the other unchanged).")
      .def("set",
           [](Handle& s, const Handle& other) {
             T copy = *other.data;  // other may be s
             s.resizable() = std::move(copy);
           },
           py::arg("arg2"), "Copies the data of the argument into this.")
      .def_property_readonly("dataPtr", [](const Handle& s) { return (std::uintptr_t)s.data.get(); },
                             "Address of the native data (an opaque integer; it changes when the data is resized "
                             "while numpy views of it exist).")
      .def_property_readonly("isStandalone", [](const Handle&) { return true; },
                             "True: a data object owns its data here (Geometry3D's getters return copies).");
}

// ------------------------------------------------------------------ meshes

void bindTriangleMesh(py::module_& m) {
  py::class_<TriangleMeshHandle> cls(m, "TriangleMesh", "A 3D indexed triangle mesh class.");
  addThisown(cls);
  cls.def(py::init<>())
      .def("getVertices",
           [](TriangleMeshHandle& s) {
             return arrayView(s.data, s.data->vertices.data(), {s.data->vertices.rows(), 3});
           },
           "An n x 3 numpy view of the vertices: writing to it changes the mesh.")
      .def("setVertices", [](TriangleMeshHandle& s, ArrayArg a) { s.resizable().vertices = readPointArray(a, "np_array2"); },
           py::arg("np_array2"),
           "Sets the vertices from an n x 3 array of floats (local coordinates, metres).")
      .def("getIndices",
           [](TriangleMeshHandle& s) { return arrayView(s.data, s.data->indices.data(), {s.data->indices.rows(), 3}); },
           "An m x 3 int32 numpy view of the triangles: writing to it changes the mesh.")
      .def("setIndices", [](TriangleMeshHandle& s, ArrayArg a) { s.resizable().indices = readIndices(a, false); },
           py::arg("np_array2"),
           "Sets the triangles from an m x 3 array of ints, each row the indices of a triangle's three vertices "
           "(counterclockwise seen from outside).")
      .def("translate", [](TriangleMeshHandle& s, FloatsArg t) { s.data->vertices.rowwise() += toFiniteVector3(t, "t").transpose(); },
           py::arg("t"),
           "Translates all the vertices by t (3-list, metres).")
      .def("transform", [](TriangleMeshHandle& s, FloatsArg R, FloatsArg t) { klampt::transformPoints(s.data->vertices, toTransform(R, t)); },
           py::arg("R"), py::arg("t"),
           "Transforms all the vertices by the rigid transform (R,t): R a column-major 9-list rotation matrix, t "
           "a 3-list in metres.")
      .def_property(
          "vertices",
          [](TriangleMeshHandle& s) { return arrayView(s.data, s.data->vertices.data(), {s.data->vertices.size()}); },
          [](TriangleMeshHandle& s, FloatsArg v) { s.resizable().vertices = readFlatPoints(v, "vertices"); },
          "Flat view [x1, y1, z1, x2, ...] of the vertices (assigning a sequence replaces them).")
      .def_property(
          "indices",
          [](TriangleMeshHandle& s) { return arrayView(s.data, s.data->indices.data(), {s.data->indices.size()}); },
          [](TriangleMeshHandle& s, IntsArg v) { s.resizable().indices = readIndices(v, true); },
          "Flat int32 view [a1, b1, c1, a2, ...] of the triangles (assigning a sequence replaces them).")
      .def("addVertex",
           [](TriangleMeshHandle& s, FloatsArg p) {
             const Vector3 v = toFiniteVector3(p, "p");
             auto& verts = s.resizable().vertices;
             verts.conservativeResize(verts.rows() + 1, 3);
             verts.row(verts.rows() - 1) = v.transpose();
           },
           py::arg("p"), "Adds a new vertex [x, y, z].")
      .def("addTriangleIndices",
           [](TriangleMeshHandle& s, IntsArg t) {
             const auto tri = readIndices(t, true);
             if (tri.rows() != 1) throw py::value_error("t must have 3 vertex indices");
             auto& idx = s.resizable().indices;
             idx.conservativeResize(idx.rows() + 1, 3);
             idx.row(idx.rows() - 1) = tri.row(0);
           },
           py::arg("t"), "Adds a new triangle given by the indices [a, b, c] of its vertices.")
      .def("triangle",
           [](const TriangleMeshHandle& s, long i) {
             const auto& m = *s.data;
             const long n = (long)m.indices.rows();
             if (i < 0) i += n;
             checkIndex(i, n, "triangle");
             py::tuple out(3);
             for (int k = 0; k < 3; ++k) {
               const int v = m.indices(i, k);
               checkIndex(v, (long)m.vertices.rows(), "vertex");
               auto a = newArray({3});
               for (int c = 0; c < 3; ++c) a.mutable_data()[c] = m.vertices(v, c);
               out[k] = a;
             }
             return out;
           },
           py::arg("i"),
           "Returns the i'th triangle (negative i counts from the end) as a tuple of its 3 vertices (arrays).")
      .def("triangleNormals", [](const TriangleMeshHandle& s) { return rowsToArray(klampt::triangleNormals(*s.data)); },
           "Computes outward triangle normals: an N x 3 array of unit normals (b - a) x (c - a) of the N triangles "
           "(zero for a degenerate triangle).")
      .def("triangleNoormals", [](const TriangleMeshHandle& s) { return rowsToArray(klampt::triangleNormals(*s.data)); },
           "The same as triangleNormals (the name Klamp't 0.10.1 gives it).")
      .def("vertexNormals",
           [](const TriangleMeshHandle& s, bool areaWeighted) {
             return rowsToArray(klampt::vertexNormals(*s.data, areaWeighted));
           },
           py::arg("area_weighted") = true,
           "Computes outward vertex normals: an N x 3 array with, for each of the N vertices, the normalized sum of "
           "the normals of its triangles, area-weighted or a simple average.");
  addDataMembers(cls);
}

// ------------------------------------------------------------ point clouds

int checkedProperty(const PointCloud& pc, const std::string& name) {
  int j = klampt::propertyIndex(pc, name);
  if (j < 0) throw py::key_error("point cloud has no property \"" + name + "\"");
  return j;
}


std::array<double, 4> readIntrinsics(py::handle obj) {
  VectorX k = toVector(obj, 4, "intrinsics");
  return {k[0], k[1], k[2], k[3]};
}

// Depth image as float64 h x w (any numeric dtype).
py::array_t<double, py::array::c_style | py::array::forcecast> readDepth(py::handle obj) {
  auto d = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(obj);
  if (!d || d.ndim() != 2) throw py::value_error("depth must be an h x w array");
  return d;
}

// Color image as packed 0xrrggbb: h x w uint32, h x w x 3 uint8 (0..255) or
// h x w x 3 floats (0..1).
std::vector<std::uint32_t> readColor(py::handle obj, py::ssize_t h, py::ssize_t w) {
  auto arr = py::array::ensure(obj);
  if (!arr) throw py::type_error("color must be a numpy array");
  std::vector<std::uint32_t> out((std::size_t)(h * w));
  if (arr.ndim() == 2) {
    if (arr.shape(0) != h || arr.shape(1) != w) throw py::value_error("color and depth images must have the same size");
    auto c = py::array_t<std::uint32_t, py::array::c_style | py::array::forcecast>::ensure(arr);
    std::copy(c.data(), c.data() + out.size(), out.begin());
    return out;
  }
  if (arr.ndim() != 3 || arr.shape(2) != 3 || arr.shape(0) != h || arr.shape(1) != w)
    throw py::value_error("color must be h x w (packed 0xrrggbb) or h x w x 3, the size of the depth image");
  auto c = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(arr);
  return klampt::packRGB(c.data(), out.size(), arr.dtype().kind() == 'f' ? 255.0 : 1.0);
}

KLAMPT_TYPE_HINT(ColorFormat, "str | tuple[str, ...]");
KLAMPT_TYPE_HINT(CloudColors, "numpy.ndarray | tuple[numpy.ndarray, ...] | None");

void setImages(PointCloudHandle& s, FloatsArg intrinsics, ArrayArg color, ArrayArg depth, double scale) {
  auto K = readIntrinsics(intrinsics);
  auto d = readDepth(depth);
  std::vector<std::uint32_t> rgb;
  if (!color.is_none()) rgb = readColor(color, d.shape(0), d.shape(1));
  PointCloud pc;
  klampt::setDepthImage(pc, K, d.data(), (int)d.shape(0), (int)d.shape(1), scale, rgb.empty() ? nullptr : rgb.data());
  s.resizable() = std::move(pc);
}

void bindPointCloud(py::module_& m) {
  py::class_<PointCloudHandle> cls(m, "PointCloud", "A 3D point cloud class with named per-point properties.");
  addThisown(cls);
  cls.def(py::init<>())
      .def("numPoints", [](const PointCloudHandle& s) { return (int)s.data->points.rows(); },
           "Returns the number of points.")
      .def("numProperties", [](const PointCloudHandle& s) { return (int)s.data->propertyNames.size(); },
           "Returns the number of per-point properties.")
      .def("getPoints", [](PointCloudHandle& s) { return arrayView(s.data, s.data->points.data(), {s.data->points.rows(), 3}); },
           "An n x 3 numpy view of the points: writing to it changes the cloud.")
      .def("setPoints",
           [](PointCloudHandle& s, ArrayArg a) {
             klampt::setPoints(s.resizable(), readPointArray(a, "np_array2"));
           },
           py::arg("np_array2"),
           "Sets the points from an n x 3 array of floats (local coordinates, metres); the properties of the "
           "remaining points are kept, those of added points are 0.")
      .def("setPointsAndProperties",
           [](PointCloudHandle& s, ArrayArg a) {
             const RowMatrix m = readMatrix(a, -1, "np_array2");
             klampt::setPointsAndProperties(s.resizable(), m);
           },
           py::arg("np_array2"),
           "Sets the points and properties from an n x (3 + numProperties()) array: the x, y, z columns followed "
           "by one column per property.")
      .def("addPoint", [](PointCloudHandle& s, FloatsArg p) { return klampt::addPoint(s.resizable(), toFiniteVector3(p, "p")); },
           py::arg("p"),
           "Appends the point p (3-list, metres) with all its properties 0; returns its index.")
      .def("setPoint",
           [](PointCloudHandle& s, long i, FloatsArg p) {
             checkIndex(i, s.data->points.rows(), "point");
             s.data->points.row(i) = toFiniteVector3(p, "p").transpose();
           },
           py::arg("index"), py::arg("p"),
           "Sets the position of the point with the given index to p (3-list, metres).")
      .def("getPoint",
           [](const PointCloudHandle& s, long i) {
             checkIndex(i, s.data->points.rows(), "point");
             return pointList(s.data->points, i);
           },
           py::arg("index"),
           "Returns the position of the point with the given index as a 3-list.")
      .def("addProperty",
           [](PointCloudHandle& s, const std::string& name) {
             klampt::addProperty(s.resizable(), name, VectorX::Zero(s.data->points.rows()));
           },
           py::arg("pname"),
           "Adds a property named pname, 0 for every point.")
      .def("addProperty",
           [](PointCloudHandle& s, const std::string& name, FloatsArg values) {
             klampt::addProperty(s.resizable(), name, toFiniteVector(values, (int)s.data->points.rows(), "np_array"));
           },
           py::arg("pname"), py::arg("np_array"),
           "Adds a property named pname with the per-point values np_array (length numPoints()).")
      .def("setProperties",
           [](PointCloudHandle& s, ArrayArg a) {
             const RowMatrix m = readMatrix(a, (int)s.data->propertyNames.size(), "np_array2");
             klampt::setProperties(s.resizable(), m);
           },
           py::arg("np_array2"),
           "Sets all the properties from an n x numProperties() array, one row per point.")
      .def("setProperties",
           [](PointCloudHandle& s, long j, FloatsArg values) {
             checkIndex(j, (long)s.data->propertyNames.size(), "property");
             s.data->properties.col(j) = toFiniteVector(values, (int)s.data->points.rows(), "np_array");
           },
           py::arg("pindex"), py::arg("np_array"),
           "Sets the property with index pindex of every point from np_array (length numPoints()).")
      .def("setProperty",
           [](PointCloudHandle& s, long i, long j, double v) {
             checkIndex(i, s.data->points.rows(), "point");
             checkIndex(j, (long)s.data->propertyNames.size(), "property");
             s.data->properties(i, j) = toFinite(v, "value");
           },
           py::arg("index"), py::arg("pindex"), py::arg("value"),
           "Sets the property with index pindex of the point with the given index to value.")
      .def("setProperty",
           [](PointCloudHandle& s, long i, const std::string& name, double v) {
             checkIndex(i, s.data->points.rows(), "point");
             s.data->properties(i, checkedProperty(*s.data, name)) = toFinite(v, "value");
           },
           py::arg("index"), py::arg("pname"), py::arg("value"),
           "Sets the property named pname of the point with the given index to value.")
      .def("getProperty",
           [](const PointCloudHandle& s, long i, long j) {
             checkIndex(i, s.data->points.rows(), "point");
             checkIndex(j, (long)s.data->propertyNames.size(), "property");
             return s.data->properties(i, j);
           },
           py::arg("index"), py::arg("pindex"),
           "Returns the property with index pindex of the point with the given index.")
      .def("getProperty",
           [](const PointCloudHandle& s, long i, const std::string& name) {
             checkIndex(i, s.data->points.rows(), "point");
             return s.data->properties(i, checkedProperty(*s.data, name));
           },
           py::arg("index"), py::arg("pname"),
           "Returns the property named pname of the point with the given index.")
      .def("getProperties",
           [](const PointCloudHandle& s, long j) {
             checkIndex(j, (long)s.data->propertyNames.size(), "property");
             auto out = newArray({s.data->points.rows()});
             Eigen::Map<VectorX>(out.mutable_data(), out.size()) = s.data->properties.col(j);
             return out;
           },
           py::arg("pindex"), "A copy of one property of every point.")
      .def("getProperties",
           [](const PointCloudHandle& s, const std::string& name) {
             int j = checkedProperty(*s.data, name);
             auto out = newArray({s.data->points.rows()});
             Eigen::Map<VectorX>(out.mutable_data(), out.size()) = s.data->properties.col(j);
             return out;
           },
           py::arg("pname"))
      .def("getAllProperties",
           [](PointCloudHandle& s) {
             return arrayView(s.data, s.data->properties.data(),
                              {s.data->points.rows(), (py::ssize_t)s.data->propertyNames.size()});
           },
           "An n x k numpy view of the properties: writing to it changes the cloud.")
      .def("translate", [](PointCloudHandle& s, FloatsArg t) { s.data->points.rowwise() += toFiniteVector3(t, "t").transpose(); },
           py::arg("t"),
           "Translates all the points by t (3-list, metres).")
      .def("transform", [](PointCloudHandle& s, FloatsArg R, FloatsArg t) { klampt::transformPointCloud(*s.data, toTransform(R, t)); },
           py::arg("R"), py::arg("t"), "Moves the points and rotates the normal_x/y/z properties.")
      .def("join", [](PointCloudHandle& s, const PointCloudHandle& o) { klampt::joinPointClouds(s.resizable(), *o.data); },
           py::arg("pc"),
           "Appends the points of the point cloud pc to this one; both must have the same property names.")
      .def("setSetting", [](PointCloudHandle& s, const std::string& k, const std::string& v) { s.data->settings[k] = v; },
           py::arg("key"), py::arg("value"),
           "Sets the setting key (a string such as 'width', 'height' or 'viewpoint') to value.")
      .def("getSetting",
           [](const PointCloudHandle& s, const std::string& k) {
             auto it = s.data->settings.find(k);
             if (it == s.data->settings.end()) throw py::key_error("point cloud has no setting \"" + k + "\"");
             return it->second;
           },
           py::arg("key"),
           "Returns the value of the setting key; KeyError if it is not set.")
      .def_property(
          "vertices", [](PointCloudHandle& s) { return arrayView(s.data, s.data->points.data(), {s.data->points.size()}); },
          [](PointCloudHandle& s, FloatsArg v) {
            Points p = readFlatPoints(v, "vertices");
            if (p.rows() != s.data->points.rows() && !s.data->propertyNames.empty())
              throw py::value_error("assigning vertices cannot change the number of points of a cloud with properties");
            s.resizable().points = p;
            s.data->properties.resize(p.rows(), s.data->propertyNames.size());
          },
          "Flat view [x1, y1, z1, ...] of the points.")
      .def_property(
          "properties",
          [](PointCloudHandle& s) { return arrayView(s.data, s.data->properties.data(), {s.data->properties.size()}); },
          [](PointCloudHandle& s, ArrayArg v) {
            auto arr = py::array::ensure(v);
            if (arr && arr.ndim() == 2) {
              const RowMatrix m = readMatrix(v, (int)s.data->propertyNames.size(), "properties");
              klampt::setProperties(s.resizable(), m);
              return;
            }
            VectorX flat = toFiniteVector(v, (int)s.data->properties.size(), "properties");
            Eigen::Map<VectorX>(s.data->properties.data(), flat.size()) = flat;
          },
          "Flat view [p11, ..., pk1, p12, ...] of the properties, point by point (as in Klamp't 0.9; "
          "getProperties() is the n x k view). Assign a flat sequence, or an n x k array as setProperties does.")
      .def_property(
          "points", [](PointCloudHandle& s) { return arrayView(s.data, s.data->points.data(), {s.data->points.rows(), 3}); },
          [](PointCloudHandle& s, ArrayArg a) { klampt::setPoints(s.resizable(), readPointArray(a, "points")); },
          "An n x 3 numpy view of the points (as getPoints(); assigning sets them, as setPoints()).")
      .def("getProperties",
           [](PointCloudHandle& s) {
             return arrayView(s.data, s.data->properties.data(),
                              {s.data->points.rows(), (py::ssize_t)s.data->propertyNames.size()});
           },
           "With no argument: an n x k numpy view of all the properties (as getAllProperties()).")
      .def("propertyIndex",
           [](const PointCloudHandle& s, const std::string& name) { return klampt::propertyIndex(*s.data, name); },
           py::arg("pname"), "Returns the index of a named property or -1 if it does not exist.")
      .def("getPropertyName",
           [](const PointCloudHandle& s, long j) {
             checkIndex(j, (long)s.data->propertyNames.size(), "property");
             return nameToPython(s.data->propertyNames[j]);
           },
           py::arg("pindex"), "Returns the name of a given property.")
      .def("setPropertyName",
           [](PointCloudHandle& s, long j, const std::string& name) {
             checkIndex(j, (long)s.data->propertyNames.size(), "property");
             s.data->propertyNames[j] = name;
           },
           py::arg("pindex"), py::arg("pname"), "Sets the name of a given property.")
      .def("getPropertyNames", [](const PointCloudHandle& s) { return s.data->propertyNames; },
           "Returns the names of the properties (a list copy).")
      .def("getColors",
           [](PointCloudHandle& s, TypedArg<ColorFormat> format) {
             py::object self = py::cast(&s, py::return_value_policy::reference);
             return TypedArg<CloudColors>(
                 py::module_::import("klampt.model.geometry").attr("point_cloud_colors")(self, format));
           },
           py::arg("format") = "rgb",
           "Returns the colors of the points in the given format, or None if the cloud has no color properties "
           "(see klampt.model.geometry.point_cloud_colors for the formats: 'rgb', 'bgr', 'rgba', ..., "
           "('r','g','b'), 'channels', 'opacity').")
      .def("setColors",
           [](PointCloudHandle& s, ArrayArg colors, TypedArg<ColorFormat> format, const std::string& property) {
             py::object self = py::cast(&s, py::return_value_policy::reference);
             py::module_::import("klampt.model.geometry").attr("point_cloud_set_colors")(self, colors, format, property);
           },
           py::arg("colors"), py::arg("color_format") = "rgb", py::arg("pc_property") = "auto",
           "Sets the colors of the points (see klampt.model.geometry.point_cloud_set_colors for the formats and "
           "the properties written).")
      .def_property(
          "propertyNames", [](const PointCloudHandle& s) { return s.data->propertyNames; },
          [](PointCloudHandle& s, const std::vector<std::string>& names) {
            klampt::setPropertyNames(s.resizable(), names);
          },
          "The property names (a copy; assigning adds zero columns or drops trailing ones).")
      .def_property(
          "settings", [](const PointCloudHandle& s) { return s.data->settings; },
          [](PointCloudHandle& s, const std::map<std::string, std::string>& v) { s.data->settings = v; },
          "The settings (a copy of the string map; assign to replace it).")
      .def("setDepthImage",
           [](PointCloudHandle& s, FloatsArg K, ArrayArg depth, double scale) { setImages(s, K, py::none(), depth, scale); },
           py::arg("intrinsics"), py::arg("depth"), py::arg("depth_scale") = 1.0,
           "Structured cloud from an h x w depth image and intrinsics [fx, fy, cx, cy].")
      .def("setRGBDImages", &setImages, py::arg("intrinsics"), py::arg("color"), py::arg("depth"),
           py::arg("depth_scale") = 1.0, "Structured cloud with an rgb property from a color and a depth image.");
  for (const char* suffix : {"d", "f", "s"}) {
    cls.def((std::string("setDepthImage_") + suffix).c_str(),
            [](PointCloudHandle& s, FloatsArg K, ArrayArg depth, double scale) { setImages(s, K, py::none(), depth, scale); },
            py::arg("intrinsics"), py::arg("np_array2"), py::arg("depth_scale"),
            "Makes this a structured cloud from an h x w depth image np_array2 and the camera intrinsics "
            "[fx, fy, cx, cy] (pixels): pixel (u,v) of depth d*depth_scale (metres) becomes the point "
            "((u-cx)d/fx, (v-cy)d/fy, d) in the camera frame (x right, y down, z forward); pixels without depth "
            "become (0,0,0).");
    for (const char* color : {"i", "b"})
      cls.def((std::string("setRGBDImages_") + color + "_" + suffix).c_str(), &setImages, py::arg("intrinsics"),
              py::arg(color[0] == 'i' ? "np_array2" : "np_array3"), py::arg("np_depth2"), py::arg("depth_scale"),
              "Like setDepthImage for the depth image np_depth2, plus an 'rgb' property from the color image of "
              "the same size: h x w packed 0xrrggbb ints, or an h x w x 3 array of bytes (0-255) or floats (0-1).");
  }
  addDataMembers(cls);
}

// -------------------------------------------------------------- primitives

void setPrimitive(PrimitiveHandle& s, klampt::GeometricPrimitive p) {
  try {
    klampt::validatePrimitive(p);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(e.what());
  }
  *s.data = std::move(p);
}

void bindPrimitive(py::module_& m) {
  py::class_<PrimitiveHandle> cls(m, "GeometricPrimitive",
                                  "A geometric primitive: Point, Sphere, Segment, Triangle, Polygon, AABB or Box.");
  addThisown(cls);
  cls.def(py::init<>())
      .def("setPoint", [](PrimitiveHandle& s, FloatsArg p) { setPrimitive(s, klampt::makePointPrimitive(toFiniteVector3(p, "pt"))); },
           py::arg("pt"),
           "Makes this a Point primitive at pt (3-list, metres).")
      .def("setSphere",
           [](PrimitiveHandle& s, FloatsArg c, double r) { setPrimitive(s, klampt::makeSpherePrimitive(toFiniteVector3(c, "c"), r)); },
           py::arg("c"), py::arg("r"),
           "Makes this a Sphere primitive with center c (3-list, metres) and radius r (metres).")
      .def("setSegment",
           [](PrimitiveHandle& s, FloatsArg a, FloatsArg b) {
             setPrimitive(s, klampt::makeSegmentPrimitive(toFiniteVector3(a, "a"), toFiniteVector3(b, "b")));
           },
           py::arg("a"), py::arg("b"),
           "Makes this a Segment primitive from point a to point b (3-lists, metres).")
      .def("setTriangle",
           [](PrimitiveHandle& s, FloatsArg a, FloatsArg b, FloatsArg c) {
             setPrimitive(s, klampt::makeTrianglePrimitive(toFiniteVector3(a, "a"), toFiniteVector3(b, "b"), toFiniteVector3(c, "c")));
           },
           py::arg("a"), py::arg("b"), py::arg("c"),
           "Makes this a Triangle primitive with vertices a, b and c (3-lists, metres).")
      .def("setPolygon",
           [](PrimitiveHandle& s, FloatsArg verts) {
             setPrimitive(s, klampt::makePolygonPrimitive(toDoubleVector(verts, -1, "verts")));
           },
           py::arg("verts"),
           "Makes this a Polygon primitive from the flat list verts = [x1,y1,z1,x2,y2,z2,...] of at least 3 "
           "points (metres).")
      .def("setAABB",
           [](PrimitiveHandle& s, FloatsArg lo, FloatsArg hi) {
             setPrimitive(s, klampt::makeAABBPrimitive(toFiniteVector3(lo, "bmin"), toFiniteVector3(hi, "bmax")));
           },
           py::arg("bmin"), py::arg("bmax"),
           "Makes this an axis-aligned box (AABB) primitive with lower corner bmin and upper corner bmax "
           "(3-lists, metres).")
      .def("setBox",
           [](PrimitiveHandle& s, FloatsArg ori, FloatsArg R, FloatsArg dims) {
             setPrimitive(s, klampt::makeBoxPrimitive(toFiniteVector3(ori, "ori"), toFiniteRotation(R, "R"), toFiniteVector3(dims, "dims")));
           },
           py::arg("ori"), py::arg("R"), py::arg("dims"), "The box ori + R [0, dims].")
      .def("loadString",
           [](PrimitiveHandle& s, const std::string& text) {
             try {
               *s.data = klampt::primitiveFromString(text);
             } catch (const std::invalid_argument& e) {
               logError(std::string("GeometricPrimitive.loadString: ") + e.what());
               return false;
             }
             return true;
           },
           py::arg("str"),
           "Sets the primitive from the text saveString writes ('<Type> p1 p2 ...'); returns True on success, "
           "False (with an error logged) on bad text.")
      .def("saveString", [](const PrimitiveHandle& s) { return klampt::primitiveToString(*s.data); },
           "Returns the primitive as text: its type followed by its parameters, e.g. 'Sphere 0 0 0 1'.")
      .def("isValid", [](const PrimitiveHandle& s) { return klampt::isValidPrimitive(*s.data); },
           "True if the type is known and the parameters fit it.")
      .def_property(
          "type", [](const PrimitiveHandle& s) { return s.data->type; },
          [](PrimitiveHandle& s, const std::string& t) { s.data->type = t; },
          "The primitive's type name: 'Point', 'Sphere', 'Segment', 'Triangle', 'Polygon', 'AABB', 'Box' or ''.")
      .def_property(
          "properties", [](const PrimitiveHandle& s) { return toList(s.data->properties); },
          [](PrimitiveHandle& s, FloatsArg v) {
            VectorX p = toFiniteVector(v, -1, "properties");
            s.data->properties.assign(p.data(), p.data() + p.size());
          },
          "The parameters (a list copy; assign to replace them).")
      .def("getType",
           [](const PrimitiveHandle& s) {
             std::string t = s.data->type.empty() ? "empty" : s.data->type;
             for (char& c : t) c = (char)std::tolower((unsigned char)c);
             return t;
           },
           "The type in Klamp't 0.10's lower-case spelling: 'point', 'sphere', 'segment', 'triangle', 'polygon', "
           "'aabb', 'box', or 'empty' (the type property keeps 0.9's 'Sphere', ...).")
      .def("getProperties",
           [](const PrimitiveHandle& s) {
             auto out = newArray({(py::ssize_t)s.data->properties.size()});
             std::copy(s.data->properties.begin(), s.data->properties.end(), out.mutable_data());
             return out;
           },
           "The parameters as a numpy array (a copy).")
      .def("setProperties",
           [](PrimitiveHandle& s, FloatsArg v) {
             const VectorX p = toFiniteVector(v, -1, "np_array");
             klampt::GeometricPrimitive prim = *s.data;
             prim.properties.assign(p.data(), p.data() + p.size());
             setPrimitive(s, std::move(prim));
           },
           py::arg("np_array"), "Sets the parameters; ValueError if their number does not fit the type.")
      .def("__repr__", [](const PrimitiveHandle& s) { return "GeometricPrimitive(" + klampt::primitiveToString(*s.data) + ")"; });
  addDataMembers(cls);
}

// ---------------------------------------------------------- convex hulls

void bindConvexHull(py::module_& m) {
  py::class_<ConvexHullHandle> cls(m, "ConvexHull", "A set of points whose convex hull is the geometry.");
  addThisown(cls);
  cls.def(py::init<>())
      .def("numPoints", [](const ConvexHullHandle& s) { return (int)s.data->points.rows(); },
           "Returns the number of points.")
      .def("getPoints", [](ConvexHullHandle& s) { return arrayView(s.data, s.data->points.data(), {s.data->points.rows(), 3}); },
           "An n x 3 numpy view of the points: writing to it changes the hull.")
      .def("setPoints", [](ConvexHullHandle& s, ArrayArg a) { s.resizable().points = readPointArray(a, "np_array2"); },
           py::arg("np_array2"),
           "Sets the points from an n x 3 array of floats (local coordinates, metres).")
      .def("addPoint",
           [](ConvexHullHandle& s, FloatsArg p) {
             Vector3 v = toFiniteVector3(p, "pt");
             auto& pts = s.resizable().points;
             pts.conservativeResize(pts.rows() + 1, 3);
             pts.row(pts.rows() - 1) = v.transpose();
           },
           py::arg("pt"),
           "Appends the point pt (3-list, metres).")
      .def("getPoint",
           [](const ConvexHullHandle& s, long i) {
             checkIndex(i, s.data->points.rows(), "point");
             return pointList(s.data->points, i);
           },
           py::arg("index"),
           "Returns the point with the given index as a 3-list.")
      .def("translate", [](ConvexHullHandle& s, FloatsArg t) { s.data->points.rowwise() += toFiniteVector3(t, "t").transpose(); },
           py::arg("t"),
           "Translates all the points by t (3-list, metres).")
      .def("transform", [](ConvexHullHandle& s, FloatsArg R, FloatsArg t) { klampt::transformPoints(s.data->points, toTransform(R, t)); },
           py::arg("R"), py::arg("t"),
           "Transforms all the points by the rigid transform (R,t): R a column-major 9-list rotation matrix, t a "
           "3-list in metres.")
      .def_property(
          "points", [](ConvexHullHandle& s) { return arrayView(s.data, s.data->points.data(), {s.data->points.size()}); },
          [](ConvexHullHandle& s, FloatsArg v) { s.resizable().points = readFlatPoints(v, "points"); },
          "Flat view [x1, y1, z1, ...] of the points.");
  addDataMembers(cls);
}

// ---------------------------------------------------------- volume grids

void checkCell(const klampt::VolumeGrid& g, long i, long j, long k) {
  checkIndex(i, g.dims[0], "cell i");
  checkIndex(j, g.dims[1], "cell j");
  checkIndex(k, g.dims[2], "cell k");
}

void resizeGrid(VolumeGridHandle& s, long sx, long sy, long sz) { klampt::resizeVolumeGrid(s.resizable(), sx, sy, sz); }

void setGridBmin(VolumeGridHandle& s, FloatsArg b) {
  klampt::setVolumeGridBounds(*s.data, toFiniteVector3(b, "bmin"), s.data->bmax, "bmin");
}

void setGridBmax(VolumeGridHandle& s, FloatsArg b) {
  klampt::setVolumeGridBounds(*s.data, s.data->bmin, toFiniteVector3(b, "bmax"), "bmax");
}

std::vector<double> gridBounds(const VolumeGridHandle& s) {
  const auto& g = *s.data;
  return {g.bmin[0], g.bmin[1], g.bmin[2], g.bmax[0], g.bmax[1], g.bmax[2]};
}

void bindVolumeGrid(py::module_& m) {
  py::class_<VolumeGridHandle> cls(m, "VolumeGrid",
                                   "An axis-aligned grid of cell values, typically a signed distance (> 0 outside).");
  addThisown(cls);
  auto valuesView = [](VolumeGridHandle& s) {
    auto& g = *s.data;
    return arrayView(s.data, g.values.data(), {g.dims[0], g.dims[1], g.dims[2]});
  };
  auto setValues = [](VolumeGridHandle& s, ArrayArg a) {
    auto arr = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(a);
    if (!arr || arr.ndim() != 3) throw py::value_error("np_array3 must be a 3D array");
    checkFinite(arr.data(), arr.size(), "np_array3");
    resizeGrid(s, arr.shape(0), arr.shape(1), arr.shape(2));
    std::copy(arr.data(), arr.data() + arr.size(), s.data->values.begin());
  };
  cls.def(py::init<>())
      .def("setBounds",
           [](VolumeGridHandle& s, FloatsArg lo, FloatsArg hi) {
             klampt::setVolumeGridBounds(*s.data, toFiniteVector3(lo, "bmin"), toFiniteVector3(hi, "bmax"), "bounds");
           },
           py::arg("bmin"), py::arg("bmax"))
      .def("resize", &resizeGrid, py::arg("sx"), py::arg("sy"), py::arg("sz"), "Sets the dimensions; values become 0.")
      .def("set",
           [](VolumeGridHandle& s, double v) { std::fill(s.data->values.begin(), s.data->values.end(), toFinite(v, "value")); },
           py::arg("value"))
      .def("set",
           [](VolumeGridHandle& s, long i, long j, long k, double v) {
             checkCell(*s.data, i, j, k);
             s.data->values[klampt::cellIndex(*s.data, i, j, k)] = toFinite(v, "value");
           },
           py::arg("i"), py::arg("j"), py::arg("k"), py::arg("value"))
      .def("get",
           [](const VolumeGridHandle& s, long i, long j, long k) {
             checkCell(*s.data, i, j, k);
             return s.data->values[klampt::cellIndex(*s.data, i, j, k)];
           },
           py::arg("i"), py::arg("j"), py::arg("k"),
           "Returns the value of the cell with indices (i,j,k).")
      .def("shift", [](VolumeGridHandle& s, double dv) { for (double& v : s.data->values) v += toFinite(dv, "dv"); },
           py::arg("dv"),
           "Adds dv to the value of every cell.")
      .def("getValues", valuesView, "A dims[0] x dims[1] x dims[2] numpy view of the values.")
      .def("setValues", setValues, py::arg("np_array3"), "Sets the values and the dimensions from a 3D array.")
      .def_property(
          "bbox",
          [](const VolumeGridHandle& s) {
            const auto& g = *s.data;
            return std::vector<double>{g.bmin[0], g.bmin[1], g.bmin[2], g.bmax[0], g.bmax[1], g.bmax[2]};
          },
          [](VolumeGridHandle& s, FloatsArg v) {
            const VectorX b = toFiniteVector(v, 6, "bbox");
            klampt::setVolumeGridBounds(*s.data, b.head<3>(), b.tail<3>(), "bbox");
          },
          "[xmin, ymin, zmin, xmax, ymax, zmax] (a copy; assign to replace).")
      .def_property(
          "dims", [](const VolumeGridHandle& s) { return std::vector<int>(s.data->dims.begin(), s.data->dims.end()); },
          [](VolumeGridHandle& s, IntsArg v) {
            auto d = toIntList(v, "dims");
            if (d.size() != 3) throw py::value_error("dims must have 3 entries");
            resizeGrid(s, d[0], d[1], d[2]);
          },
          "Cells along x, y, z (a copy; assigning resizes and zeroes the values).")
      .def("getBmin", [](const VolumeGridHandle& s) { return toList(s.data->bmin); }, "The lower corner [x, y, z].")
      .def("getBmax", [](const VolumeGridHandle& s) { return toList(s.data->bmax); }, "The upper corner [x, y, z].")
      .def("setBmin", &setGridBmin, py::arg("bmin"), "Sets the lower corner (ValueError above the upper corner).")
      .def("setBmax", &setGridBmax, py::arg("bmax"), "Sets the upper corner (ValueError below the lower corner).")
      .def("setBounds",
           [](VolumeGridHandle& s, FloatsArg b) {
             const VectorX v = toFiniteVector(b, 6, "bounds");
             klampt::setVolumeGridBounds(*s.data, v.head<3>(), v.tail<3>(), "bounds");
           },
           py::arg("bounds"), "Klamp't 0.10's form: sets [xmin, ymin, zmin, xmax, ymax, zmax].")
      .def("getBounds", &gridBounds, "[xmin, ymin, zmin, xmax, ymax, zmax] (as bbox).")
      .def("scale", [](VolumeGridHandle& s, double cv) { for (double& v : s.data->values) v *= toFinite(cv, "cv"); },
           py::arg("cv"), "Multiplies every value by cv.")
      .def("getTruncationDistance", [](const VolumeGridHandle& s) { return s.data->truncationDistance; },
           "The truncation distance: inf for a signed distance field, else that of a truncated one (TSDF), from "
           "which cells count as far; it travels with the grid (copies, Geometry3D).")
      .def("setTruncationDistance",
           [](VolumeGridHandle& s, double d) {
             if (!(d >= 0)) throw py::value_error("the truncation distance must be >= 0 (inf for none)");
             s.data->truncationDistance = d;
           },
           py::arg("d"), "Sets the truncation distance (>= 0; inf for a plain signed distance field).")
      .def_property(
          "bmin", [](const VolumeGridHandle& s) { return toList(s.data->bmin); }, &setGridBmin,
          "The lower corner [x, y, z] (a copy; assign to change it).")
      .def_property(
          "bmax", [](const VolumeGridHandle& s) { return toList(s.data->bmax); }, &setGridBmax,
          "The upper corner [x, y, z] (a copy; assign to change it).")
      .def_property(
          "bounds", &gridBounds,
          [](VolumeGridHandle& s, FloatsArg b) {
            const VectorX v = toFiniteVector(b, 6, "bounds");
            klampt::setVolumeGridBounds(*s.data, v.head<3>(), v.tail<3>(), "bounds");
          },
          "[xmin, ymin, zmin, xmax, ymax, zmax] (as bbox).")
      .def_property("values", valuesView, setValues,
                    "A 3D numpy view of the values (assigning a 3D array sets values and dimensions, as setValues).");
  addDataMembers(cls);
  m.attr("ImplicitSurface") = cls;
}

}  // namespace

void bindGeometryTypes(py::module_& m) {
  bindTriangleMesh(m);
  bindPointCloud(m);
  bindPrimitive(m);
  bindConvexHull(m);
  bindVolumeGrid(m);
}

}  // namespace klampt_py
