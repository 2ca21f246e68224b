// The render-data accessors klampt.vis draws from: Geometry3D._render_mesh,
// Geometry3D._render_points and Appearance._render_state. Mesh and point
// arrays are read-only numpy views of the cached, immutable render data.
#include <cstring>
#include <pybind11/stl.h>
#include "geometry_handle.h"
#include "klampt/geometry/render_data.h"

namespace klampt_py {

namespace {

/// A read-only float32 / uint32 view of a vector owned by `owner`.
template <class Scalar, class Owner>
py::array readOnlyView(const std::shared_ptr<Owner>& owner, const std::vector<Scalar>& v, py::ssize_t cols) {
  py::array a = arrayView<Scalar>(owner, const_cast<Scalar*>(v.data()), {(py::ssize_t)v.size() / cols, cols});
  a.attr("setflags")(py::arg("write") = false);
  return a;
}

py::dict renderMesh(const Geometry3D& g, double creaseAngle) {
  toNonNegative(creaseAngle, "creaseAngle");
  std::shared_ptr<const klampt::GeometryData> data = g.geom->data;
  std::shared_ptr<const klampt::RenderMesh> mesh;
  {
    py::gil_scoped_release release;  // meshing a primitive or grid may take a while
    mesh = klampt::renderMesh(*data, creaseAngle);
  }
  py::dict out;
  out["positions"] = readOnlyView(mesh, mesh->positions, 3);
  out["normals"] = readOnlyView(mesh, mesh->normals, 3);
  out["source_vertex"] = readOnlyView(mesh, mesh->sourceVertex, 1).attr("reshape")(-1);
  out["edges"] = readOnlyView(mesh, mesh->edges, 2);
  out["serial"] = mesh->serial;
  return out;
}

py::dict renderPoints(const Geometry3D& g) {
  std::shared_ptr<const klampt::GeometryData> data = g.geom->data;
  auto pts = klampt::renderPoints(*data);
  py::dict out;
  out["positions"] = readOnlyView(pts, pts->positions, 3);
  out["colors"] = pts->colors.empty() ? py::object(py::none()) : py::object(readOnlyView(pts, pts->colors, 4));
  out["serial"] = pts->serial;
  return out;
}

py::list color(const klampt::Color& c) { return py::cast(std::vector<float>(c.begin(), c.end())); }

/// Per-element colors, copied (the appearance may be edited while they are drawn).
py::object colors(const std::vector<klampt::Color>& c) {
  if (c.empty()) return py::none();
  py::array_t<float> a({(py::ssize_t)c.size(), (py::ssize_t)4});
  std::memcpy(a.mutable_data(), c.data(), c.size() * sizeof(klampt::Color));
  return a;
}

py::dict renderState(const Appearance& s) {
  const klampt::Appearance& a = *s.app;
  py::dict out;
  out["drawn"] = a.drawn;
  out["draw_vertices"] = a.drawVertices;
  out["draw_edges"] = a.drawEdges;
  out["draw_faces"] = a.drawFaces;
  out["color"] = color(a.color);
  out["vertex_color"] = color(a.vertexColor);
  out["edge_color"] = color(a.edgeColor);
  out["emissive"] = color(a.emissiveColor);
  out["specular"] = color(a.specularColor);
  out["shininess"] = a.shininess;
  out["tint_color"] = color(a.tintColor);
  out["tint_strength"] = a.tintStrength;
  out["vertex_colors"] = colors(a.vertexColors);
  out["face_colors"] = colors(a.faceColors);
  out["point_size"] = a.pointSize;
  out["crease_angle"] = a.creaseAngle;
  out["silhouette_radius"] = a.silhouetteRadius;
  out["silhouette_color"] = color(a.silhouetteColor);
  if (a.textureFormat.empty()) {
    out["texture"] = py::none();
  } else {
    py::dict tex;
    tex["format"] = a.textureFormat;
    py::array_t<std::uint8_t> texels({(py::ssize_t)a.textureHeight, (py::ssize_t)a.textureWidth,
                                      (py::ssize_t)a.textureChannels});
    std::memcpy(texels.mutable_data(), a.textureData.data(), a.textureData.size());
    tex["texels"] = texels;  // rows top first
    tex["wrap"] = a.textureWrap;
    if (a.texcoordDim > 0) {
      py::array_t<double> tc({(py::ssize_t)(a.texcoords.size() / a.texcoordDim), (py::ssize_t)a.texcoordDim});
      std::memcpy(tc.mutable_data(), a.texcoords.data(), a.texcoords.size() * sizeof(double));
      tex["texcoords"] = tc;
    } else {
      tex["texcoords"] = py::none();
    }
    py::list planes;
    for (const auto& row : a.texgen) planes.append(py::cast(std::vector<double>(row.begin(), row.end())));
    tex["texgen"] = planes;
    tex["texgen_world"] = a.texgenWorld;
    out["texture"] = tex;
  }
  return out;
}

}  // namespace

void bindRenderData(py::module_&) {
  auto geomCls = py::reinterpret_borrow<py::class_<Geometry3D>>(py::type::of<Geometry3D>());
  geomCls.def("_render_mesh", &renderMesh, py::arg("creaseAngle") = 0.0,
              "Triangles to draw, built once per shape version: a dict of read-only arrays 'positions' and "
              "'normals' (float32, 3 rows per triangle, local frame), 'source_vertex' (uint32, the mesh vertex "
              "of each row), 'edges' (uint32 row pairs, each mesh edge once) and 'serial' (changes with the "
              "shape). Normals are smoothed across edges flatter than creaseAngle (radians).");
  geomCls.def("_render_points", &renderPoints,
              "Points of a point cloud to draw: read-only 'positions' (float32 n x 3, local frame), 'colors' "
              "(float32 n x 4 RGBA from the rgb / rgba / r, g, b properties, or None) and 'serial'.");
  auto appCls = py::reinterpret_borrow<py::class_<Appearance>>(py::type::of<Appearance>());
  appCls.def("_render_state", &renderState,
             "Everything a renderer reads from the appearance, as a dict (colors as RGBA lists, per-element "
             "colors as float32 n x 4 copies or None, texture texels and coordinates or None).");
}

}  // namespace klampt_py
