// Appearance: colors, per-element colors, tint, shininess, draw flags,
// textures and texture coordinates, kept as data (drawing is klampt.vis's).
#include "convert.h"
#include "geometry_handle.h"
#include "handles.h"
#include "klampt/geometry/appearance_features.h"
#include "klampt/geometry/appearance_textures.h"

namespace klampt_py {

using klampt::Color;
using App = klampt::Appearance;

namespace {

Color readColor(float r, float g, float b, float a) {
  const double rgba[4] = {r, g, b, a};
  checkFinite(rgba, 4, "color");
  return {r, g, b, a};
}

py::list colorList(const Color& c) {
  py::list out(4);
  for (int i = 0; i < 4; ++i) out[i] = py::float_((double)c[i]);
  return out;
}

Appearance standaloneCopy(const Appearance& s) { return Appearance{std::make_shared<App>(s.get()), nullptr, nullptr}; }

// Texture from a uint8 array (1, 2 or 3 dims), or uint32 packed 0xaarrggbb /
// 0xaabbggrr (for rgba8 / bgra8) with one dimension less.
void setTextureArray(App& app, const std::string& format, py::handle obj, int dims, bool topdown) {
  if (klampt::textureFormatChannels(format) == 0) {
    klampt::setTexture(app, "", nullptr, 0, 0, 0, true);
    return;
  }
  auto arr = py::array::ensure(obj);
  if (!arr) throw py::type_error("texture must be a numpy array");
  int nd = (int)arr.ndim();
  bool packed = arr.dtype().kind() == 'u' && arr.itemsize() == 4;
  if (packed) {
    if (nd != dims) throw py::value_error("a packed uint32 texture must have " + std::to_string(dims) + " dimension(s)");
    auto a = py::array_t<std::uint32_t, py::array::c_style | py::array::forcecast>::ensure(arr);
    int w = (int)a.shape(dims - 1), h = dims == 2 ? (int)a.shape(0) : 1;
    klampt::setPackedTexture(app, format, a.data(), w, h, topdown);
    return;
  }
  if (arr.dtype().kind() != 'u' || arr.itemsize() != 1) throw py::type_error("texture must be uint8 (or packed uint32)");
  if (nd != dims && nd != dims + 1)
    throw py::value_error("texture must have " + std::to_string(dims) + " or " + std::to_string(dims + 1) + " dimensions");
  auto a = py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>::ensure(arr);
  int channels = nd == dims ? 1 : (int)a.shape(nd - 1);
  int w = (int)a.shape(dims - 1), h = dims == 2 ? (int)a.shape(0) : 1;
  klampt::setTexture(app, format, a.data(), w, h, channels, topdown);
}

void setTexcoords(App& app, py::handle obj) {
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(obj);
  if (!a) throw py::type_error("texture coordinates must be an array of numbers");
  checkFinite(a.data(), a.size(), "texture coordinates");
  const int dim = a.ndim() == 1 ? 1 : a.ndim() == 2 ? (int)a.shape(1) : 0;
  klampt::setTexcoords(app, a.data(), (std::size_t)a.size(), dim);
}

int elementId(const Appearance& s) { return s.owner ? s.owner->idOfAppearance(s.app.get()) : -1; }

/// The texture's format if it is `dims`-dimensional ("" otherwise). A
/// texture one row high counts as both 1D and 2D.
std::string textureFormat(const App& app, int dims) {
  if (app.textureFormat.empty() || (dims == 1 && app.textureHeight != 1)) return "";
  return app.textureFormat;
}

/// A copy of the texels: n x channels (1D) or h x w x channels (2D), top row first.
py::array textureChannels(const App& app, int dims) {
  if (textureFormat(app, dims).empty())
    throw std::runtime_error(std::to_string(dims) + "D texture not set");
  std::vector<py::ssize_t> shape;
  if (dims == 2) shape.push_back(app.textureHeight);
  shape.push_back(app.textureWidth);
  shape.push_back(app.textureChannels);
  py::array_t<std::uint8_t> out(shape);
  std::copy(app.textureData.begin(), app.textureData.end(), out.mutable_data());
  return std::move(out);
}

py::array texcoordsOf(const App& app, int dims) {
  if (app.texcoordDim != dims) throw std::runtime_error(std::to_string(dims) + "D texture coordinates not set");
  const py::ssize_t n = (py::ssize_t)app.texcoords.size() / dims;
  auto out = dims == 1 ? newArray({n}) : newArray({n, 2});
  std::copy(app.texcoords.begin(), app.texcoords.end(), out.mutable_data());
  return std::move(out);
}

}  // namespace

void bindAppearance(py::module_& m) {
  py::class_<Appearance> cls(m, "Appearance", "Geometry appearance information (colors, textures, draw flags).");
  addThisown(cls);
  cls.attr("ALL") = (int)App::ALL;
  cls.attr("VERTICES") = (int)App::VERTICES;
  cls.attr("EDGES") = (int)App::EDGES;
  cls.attr("FACES") = (int)App::FACES;
  cls.attr("EMISSIVE") = (int)App::EMISSIVE;
  cls.attr("SPECULAR") = (int)App::SPECULAR;
  cls.def(py::init<>())
      .def(py::init(&standaloneCopy), py::arg("app"))
      .def("refresh", [](Appearance&, bool) {}, py::arg("deep") = true,
           "Kept for compatibility: there are no OpenGL buffers to rebuild here.")
      .def("clone", &standaloneCopy,
           "Returns a standalone deep copy of this appearance, not tied to any world element.")
      .def("set",
           [](Appearance& s, const Appearance& o) {
             if (s.app == o.app) return;
             const App& src = o.get();
             s.get() = src;
           },
           py::arg("arg2"),
           "Copies all of the data of the appearance arg2 into this one (the element this handle refers to keeps "
           "it).")
      .def("isStandalone", [](const Appearance& s) { return !s.owner; },
           "Returns True if this appearance is standalone, False if it belongs to an element of a world.")
      .def("free",
           [](Appearance& s) {
             s.app = std::make_shared<App>();
             s.owner.reset();
             s.lock.reset();
           },
           "Releases the data; the handle becomes a default standalone appearance.")
      .def("setDraw", [](Appearance& s, bool draw) { s.get().drawn = draw; }, py::arg("draw"),
           "Turns drawing of the whole appearance on (draw=True) or off.")
      .def("setDraw",
           [](Appearance& s, int f, bool draw) { klampt::setFeatureDrawn(s.get(), f, draw); },
           py::arg("feature"), py::arg("draw"),
           "Turns drawing of one feature (VERTICES, EDGES, FACES; ALL for all of them) on or off.")
      .def("getDraw", [](const Appearance& s) { return s.get().drawn; },
           "Returns whether the appearance is drawn at all.")
      .def("getDraw",
           [](const Appearance& s, int f) { return klampt::featureDrawn(s.get(), f); },
           py::arg("feature"),
           "Returns whether the given feature (VERTICES, EDGES, FACES, ...) is drawn.")
      .def("setColor", [](Appearance& s, float r, float g, float b, float a) { s.get().color = readColor(r, g, b, a); },
           py::arg("r"), py::arg("g"), py::arg("b"), py::arg("a") = 1.0f,
           "Sets the main color of the appearance (r, g, b, a each in [0,1]).")
      .def("setColor",
           [](Appearance& s, int f, float r, float g, float b, float a) {
             const Color c = readColor(r, g, b, a);
             klampt::setFeatureColor(s.get(), f, c);
           },
           py::arg("feature"), py::arg("r"), py::arg("g"), py::arg("b"), py::arg("a"),
           "Sets the color of one feature (VERTICES, EDGES, FACES, EMISSIVE, SPECULAR; ALL for all of them); r, "
           "g, b, a each in [0,1].")
      .def("getColor", [](const Appearance& s) { return colorList(s.get().color); },
           "Returns the main color as a list [r,g,b,a] of floats in [0,1].")
      .def("getColor", [](const Appearance& s, int f) { return colorList(klampt::featureColor(s.get(), f)); }, py::arg("feature"),
           "Returns the color of the given feature as a list [r,g,b,a] of floats in [0,1].")
      .def("setColors",
           [](Appearance& s, int f, ArrayArg obj) {
             klampt::elementColors(s.get(), f);  // checks f first
             auto a = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(obj);
             if (!a || a.ndim() != 2 || (a.shape(1) != 3 && a.shape(1) != 4))
               throw py::value_error("np_array2 must be an m x 3 (rgb) or m x 4 (rgba) array");
             std::vector<Color> colors(a.shape(0));
             for (py::ssize_t i = 0; i < a.shape(0); ++i)
               colors[i] = readColor(a.at(i, 0), a.at(i, 1), a.at(i, 2), a.shape(1) == 4 ? a.at(i, 3) : 1.0f);
             klampt::elementColors(s.get(), f) = std::move(colors);
           },
           py::arg("feature"), py::arg("np_array2"),
           "Sets per-element colors of the given feature (VERTICES or FACES) from an m x 3 (rgb) or m x 4 (rgba) "
           "array of floats in [0,1], one row per vertex or face.")
      .def("setTintColor",
           [](Appearance& s, FloatsArg color, float strength) {
             VectorX c = toVector(color, 4, "color");
             const Color tint = readColor((float)c[0], (float)c[1], (float)c[2], (float)c[3]);
             toFinite(strength, "strength");
             App& app = s.get();
             app.tintColor = tint;
             app.tintStrength = strength;
           },
           py::arg("color"), py::arg("strength"),
           "Sets a tint color (a list [r,g,b,a] of floats in [0,1]) blended into all colors with weight strength "
           "(0 means no tint, 1 means the tint color only).")
      .def("getTintColor", [](const Appearance& s) { return colorList(s.get().tintColor); },
           "Returns the tint color as a list [r,g,b,a] of floats in [0,1].")
      .def("getTintStrength", [](const Appearance& s) { return s.get().tintStrength; },
           "Returns the strength (blending weight) of the tint color; 0 means no tint.")
      .def("setShininess",
           [](Appearance& s, float shininess, float strength) {
             toNonNegative(shininess, "shininess");
             const Color specular = strength >= 0 ? readColor(strength, strength, strength, 1.0f) : Color{};
             App& app = s.get();
             app.shininess = shininess;
             if (strength >= 0) app.specularColor = specular;
           },
           py::arg("shininess"), py::arg("strength") = -1.0f,
           "Sets the specular shininess exponent (>= 0, 0 turns specular highlights off); if strength >= 0 the "
           "specular color also becomes (strength, strength, strength).")
      .def("getShininess", [](const Appearance& s) { return s.get().shininess; },
           "Returns the specular shininess exponent.")
      .def("setElementColor",
           [](Appearance& s, int f, long element, float r, float g, float b, float a) {
             klampt::setElementColor(s.get(), f, element, readColor(r, g, b, a));
           },
           py::arg("feature"), py::arg("element"), py::arg("r"), py::arg("g"), py::arg("b"), py::arg("a") = 1.0f,
           "Sets the color of one element (vertex or face index) of the given feature (VERTICES or FACES); r, g, "
           "b, a each in [0,1].")
      .def("getElementColor",
           [](Appearance& s, int f, long element) {
             return colorList(klampt::elementColor(s.get(), f, element));
           },
           py::arg("feature"), py::arg("element"),
           "The element's color, or the feature's color if no per-element color was set for it.")
      .def("setTexture1D_b", [](Appearance& s, const std::string& fmt, ArrayArg a) { setTextureArray(*s.shared(), fmt, a, 1, true); },
           py::arg("format"), py::arg("np_array"),
           "Sets a 1D texture from a 1D array of unsigned bytes; format is 'l8' (luminance); an empty format "
           "removes the texture.")
      .def("setTexture1D_i",
           [](Appearance& s, const std::string& fmt, ArrayArg a, int) {
             auto arr = py::array_t<std::uint32_t, py::array::c_style | py::array::forcecast>::ensure(a);
             if (!arr) throw py::type_error("np_array must be an array of unsigned ints");
             setTextureArray(*s.shared(), fmt, arr, 1, true);
           },
           py::arg("format"), py::arg("np_array"), py::arg("m") = -1,
           "Sets a 1D texture from a 1D array of unsigned ints, each a packed color; format is 'rgba8' or "
           "'bgra8'; an empty format removes the texture. m is ignored.")
      .def("setTexture1D_channels",
           [](Appearance& s, const std::string& fmt, ArrayArg a) { setTextureArray(*s.shared(), fmt, a, 1, true); },
           py::arg("format"), py::arg("np_array2"),
           "Sets a 1D texture from an n x channels array of unsigned bytes; format is 'rgb8', 'bgr8', 'rgba8', "
           "'bgra8' or 'l8' to match the channel count; an empty format removes the texture.")
      .def("setTexture2D_b",
           [](Appearance& s, const std::string& fmt, ArrayArg a, bool topdown) { setTextureArray(*s.shared(), fmt, a, 2, topdown); },
           py::arg("format"), py::arg("np_array2"), py::arg("topdown") = true,
           "Sets a 2D texture from an h x w array of unsigned bytes ('l8' format); the rows go top to bottom if "
           "topdown is True, else bottom to top.")
      .def("setTexture2D_i",
           [](Appearance& s, const std::string& fmt, ArrayArg a, bool topdown) {
             auto arr = py::array_t<std::uint32_t, py::array::c_style | py::array::forcecast>::ensure(a);
             if (!arr) throw py::type_error("np_array2 must be an array of unsigned ints");
             setTextureArray(*s.shared(), fmt, arr, 2, topdown);
           },
           py::arg("format"), py::arg("np_array2"), py::arg("topdown") = true,
           "Sets a 2D texture from an h x w array of unsigned ints, each a packed color ('rgba8' or 'bgra8' "
           "format); the rows go top to bottom if topdown is True, else bottom to top.")
      .def("setTexture2D_channels",
           [](Appearance& s, const std::string& fmt, ArrayArg a, bool topdown) { setTextureArray(*s.shared(), fmt, a, 2, topdown); },
           py::arg("format"), py::arg("np_array3"), py::arg("topdown") = true,
           "Sets a 2D texture from an h x w x channels array of unsigned bytes (format as in "
           "setTexture1D_channels); the rows go top to bottom if topdown is True, else bottom to top.")
      .def("setTexture1D", [](Appearance& s, const std::string& fmt, ArrayArg a) { setTextureArray(*s.shared(), fmt, a, 1, true); },
           py::arg("format"), py::arg("array"), "A 1D texture: w (uint8 or packed uint32) or w x c uint8 array.")
      .def("setTexture2D", [](Appearance& s, const std::string& fmt, ArrayArg a) { setTextureArray(*s.shared(), fmt, a, 2, true); },
           py::arg("format"), py::arg("array"), "A 2D texture, top row first: h x w or h x w x c array.")
      .def("setTexcoords1D", [](Appearance& s, ArrayArg a) { setTexcoords(*s.shared(), a); }, py::arg("np_array"),
           "Sets per-vertex texture coordinates for a 1D texture (one float per vertex); an empty array turns "
           "texture mapping off.")
      .def("setTexcoords2D", [](Appearance& s, ArrayArg a) { setTexcoords(*s.shared(), a); }, py::arg("np_array2"),
           "Sets per-vertex texture coordinates for a 2D texture as an n x 2 array of (u, v); an empty array "
           "turns texture mapping off.")
      .def("setTexcoords", [](Appearance& s, ArrayArg a) { setTexcoords(*s.shared(), a); }, py::arg("array"),
           "Sets per-vertex texture coordinates: a length-n array for a 1D texture or an n x 2 array of (u, v) "
           "for a 2D one; an empty array turns texture mapping off.")
      .def("setTexgen",
           [](Appearance& s, ArrayArg obj, bool world) {
             const auto m = readMatrix(obj, 4, "np_array2");
             std::vector<std::array<double, 4>> rows(m.rows());
             for (Eigen::Index i = 0; i < m.rows(); ++i)
               for (int k = 0; k < 4; ++k) rows[i][k] = m(i, k);
             klampt::setTexgen(s.get(), rows, world);
           },
           py::arg("np_array2"), py::arg("worldcoordinates") = false,
           "Sets texture coordinate generation planes as an m x 4 array, m in 0..4 (0 turns it off); "
           "worldcoordinates=True generates them from world coordinates rather than the object's local ones.")
      .def("getTexture1D_format", [](const Appearance& s) { return textureFormat(s.get(), 1); },
           "The 1D texture's format, '' if none is set (a one-row 2D texture counts as 1D too).")
      .def("getTexture2D_format", [](const Appearance& s) { return textureFormat(s.get(), 2); },
           "The 2D texture's format, '' if none is set.")
      .def("getTexture1D_channels", [](const Appearance& s) { return textureChannels(s.get(), 1); },
           "A copy of the 1D texture: an n x channels uint8 array. RuntimeError if no 1D texture is set.")
      .def("getTexture2D_channels", [](const Appearance& s) { return textureChannels(s.get(), 2); },
           "A copy of the 2D texture: an h x w x channels uint8 array, top row first. RuntimeError if no texture "
           "is set.")
      .def("getTexcoords1D", [](const Appearance& s) { return texcoordsOf(s.get(), 1); },
           "A copy of the per-vertex 1D texture coordinates (length n). RuntimeError if none are set.")
      .def("getTexcoords2D", [](const Appearance& s) { return texcoordsOf(s.get(), 2); },
           "A copy of the per-vertex 2D texture coordinates (n x 2). RuntimeError if none are set.")
      .def("getTexgenMatrix",
           [](const Appearance& s) {
             const App& app = s.get();
             auto out = newArray({(py::ssize_t)app.texgen.size(), 4});
             for (std::size_t i = 0; i < app.texgen.size(); ++i)
               std::copy(app.texgen[i].begin(), app.texgen[i].end(), out.mutable_data() + 4 * i);
             return out;
           },
           "The texture generation planes as an m x 4 array (m in 0..4; empty when off).")
      .def("isTexgenWorld", [](const Appearance& s) { return s.get().texgenWorld; },
           "Whether texture generation is performed in world coordinates (else in local ones).")
      .def("getColors",
           [](const Appearance& s, int f) {
             App& app = s.get();
             const std::vector<Color>& colors = klampt::elementColors(app, f);  // checks f
             py::array_t<float> out(std::vector<py::ssize_t>{colors.empty() ? 1 : (py::ssize_t)colors.size(), 4});
             if (colors.empty())
               std::copy(klampt::featureColor(app, f).begin(), klampt::featureColor(app, f).end(), out.mutable_data());
             for (std::size_t i = 0; i < colors.size(); ++i)
               std::copy(colors[i].begin(), colors[i].end(), out.mutable_data() + 4 * i);
             return out;
           },
           py::arg("feature"),
           "The per-element colors of VERTICES or FACES as an m x 4 float32 array, or the feature's color as a "
           "1 x 4 array if it has none; ValueError for another feature.")
      .def("setTexWrap", [](Appearance& s, bool wrap) { s.get().textureWrap = wrap; }, py::arg("wrap"),
           "Sets whether textures wrap (repeat) outside [0,1] texture coordinates (default True).")
      .def("setPointSize",
           [](Appearance& s, float size) {
             toNonNegative(size, "size");
             s.get().pointSize = size;
           },
           py::arg("size"),
           "For point clouds and vertices, sets the drawn point size in pixels (>= 0).")
      .def("setCreaseAngle",
           [](Appearance& s, float angle) {
             toFinite(angle, "creaseAngleRads");
             s.get().creaseAngle = angle;
           },
           py::arg("creaseAngleRads"),
           "For meshes, sets the crease angle in radians above which normals are not smoothed across an edge; 0 "
           "disables smoothing.")
      .def("setSilhouette",
           [](Appearance& s, float radius, float r, float g, float b, float a) {
             toNonNegative(radius, "radius");
             const Color c = readColor(r, g, b, a);
             App& app = s.get();
             app.silhouetteColor = c;
             app.silhouetteRadius = radius;
           },
           py::arg("radius"), py::arg("r") = 0.0f, py::arg("g") = 0.0f, py::arg("b") = 0.0f, py::arg("a") = 1.0f,
           "For meshes, sets the silhouette radius and color (r, g, b, a in [0,1]); a radius of 0 disables "
           "silhouette drawing.")
      .def_property_readonly("world", [](const Appearance& s) { return worldNumber(s.owner.get()); },
          "Index of the world whose element this appearance belongs to, or -1 for a standalone appearance.")
      .def_property_readonly("id", &elementId,
          "Index of the element within its world, or -1 for a standalone appearance.")
      .def_property_readonly("appearancePtr", [](const Appearance& s) { return (std::uintptr_t)s.app.get(); },
          "Address of the native appearance data (an opaque integer, for the reference's C++ interoperability).");
}

}  // namespace klampt_py
