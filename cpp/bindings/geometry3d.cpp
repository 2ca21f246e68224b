// Geometry3D's data API: construction from each type, get/set, files,
// transforms, margins, bounding boxes, groups and elements, conversions.
#include "convert.h"
#include "geometry_handle.h"
#include "handles.h"
#include "klampt/geometry/convert.h"
#include "klampt/geometry/convex_hull.h"
#include "klampt/geometry/merge.h"
#include "klampt/geometry/primitive.h"
#include "klampt/geometry/slice.h"
#include "klampt/io/geometry_files.h"

namespace klampt_py {

using klampt::Geometry;
using klampt::GeometryData;
using klampt::GeometryType;

namespace {

ListPair boxTuple(const Geometry& g, bool tight) {
  if (g.empty()) throw py::value_error("the geometry is empty");
  Vector3 lo, hi;
  if (tight)
    klampt::tightWorldBoundingBox(g, lo, hi);
  else
    klampt::looseBoundingBox(g, lo, hi);
  return toListPair(lo, hi);
}

// Replaces the shape; an element keeps its pose, a standalone geometry too.
void setData(Geometry3D& s, GeometryData data) {
  s.get().mutableData() = std::move(data);
  s.get().sourceFile.clear();
}

GeometryData wrap(GeometryType type) {
  GeometryData d;
  d.type = type;
  return d;
}

const GeometryData& dataOfType(const Geometry3D& s, GeometryType type) {
  const GeometryData& d = *s.get().data;
  if (d.type != type)
    throw py::value_error(std::string("the geometry is a ") + (d.type == GeometryType::Empty ? "empty geometry" : klampt::geometryTypeName(d.type)) +
                          ", not a " + klampt::geometryTypeName(type));
  return d;
}

template <class Handle, class T>
Handle handleOf(const T& value) {
  Handle h;
  h.data = std::make_shared<T>(value);
  return h;
}

Geometry3D standaloneCopy(const Geometry3D& src) {
  Geometry3D g;
  *g.geom = src.get();  // shape data stays shared until either is edited
  return g;
}

Geometry3D standaloneOf(GeometryData data) {
  Geometry3D g;
  g.geom->data = std::make_shared<GeometryData>(std::move(data));
  return g;
}

int elementId(const Geometry3D& s) { return s.owner ? s.owner->idOfGeometry(s.geom.get()) : -1; }

}  // namespace

void bindGeometry3D(py::module_& m) {
  py::class_<Geometry3D> geomCls(m, "Geometry3D", "The three-D geometry container used throughout Klampt.");
  addThisown(geomCls);
  geomCls.def(py::init<>())
      .def(py::init(&standaloneCopy), py::arg("arg2"))
      .def(py::init([](const TriangleMeshHandle& h) { return standaloneOf(klampt::geometryDataOf(*h.data)); }), py::arg("arg2"))
      .def(py::init([](const PointCloudHandle& h) { return standaloneOf(klampt::geometryDataOf(*h.data)); }), py::arg("arg2"))
      .def(py::init([](const PrimitiveHandle& h) { return standaloneOf(klampt::geometryDataOf(*h.data)); }), py::arg("arg2"))
      .def(py::init([](const ConvexHullHandle& h) { return standaloneOf(klampt::geometryDataOf(*h.data)); }), py::arg("arg2"))
      .def(py::init([](const VolumeGridHandle& h) { return standaloneOf(klampt::geometryDataOf(*h.data)); }), py::arg("arg2"))
      .def(py::init([](const HeightmapHandle& h) { return standaloneOf(klampt::geometryDataOf(*h.data)); }), py::arg("arg2"))
      .def(py::init([](const OccupancyGridHandle& h) { return standaloneOf(klampt::geometryDataOf(*h.data)); }),
           py::arg("arg2"))
      .def("clone", &standaloneCopy, "A standalone copy (same as copy()).")
      .def("copy", &standaloneCopy, "A standalone copy: shape, current transform and margin.")
      .def("set",
           [](Geometry3D& s, const Geometry3D& other) {
             if (s.geom == other.geom) return;
             const Geometry& src = other.get();
             Geometry& dst = s.get();
             const RigidTransform pose = dst.currentTransform;
             dst = src;
             if (s.owner) dst.currentTransform = pose;  // an element keeps its own pose
           },
           py::arg("arg2"),
           "Copies the other geometry's shape and margin (and, if this is standalone, its current transform).")
      .def("isStandalone", [](const Geometry3D& s) { return !s.owner; },
           "Returns True if this geometry is standalone, False if it belongs to an element of a world.")
      .def("free",
           [](Geometry3D& s) {
             s.geom = std::make_shared<Geometry>();
             s.owner.reset();
             s.lock.reset();
           },
           "Releases the data; the handle becomes an empty standalone geometry.")
      .def("type", [](const Geometry3D& s) { return std::string(klampt::geometryTypeName(s.get().data->type)); },
           "Returns the type of the geometry: '' (empty), 'GeometricPrimitive', 'TriangleMesh', 'PointCloud', "
           "'VolumeGrid', 'ConvexHull', 'Group', 'Heightmap' or 'OccupancyGrid'.")
      .def("empty", [](const Geometry3D& s) { return s.get().empty(); },
           "Returns True if the geometry has no data (type '').")
      .def("getTriangleMesh",
           [](const Geometry3D& s) { return handleOf<TriangleMeshHandle>(dataOfType(s, GeometryType::TriangleMesh).mesh); },
           "A copy of the mesh (edit it, then setTriangleMesh to apply).")
      .def("getPointCloud",
           [](const Geometry3D& s) { return handleOf<PointCloudHandle>(dataOfType(s, GeometryType::PointCloud).pointCloud); },
           "Returns a copy of the point cloud (edit it, then setPointCloud to apply); ValueError if the geometry "
           "is not a PointCloud.")
      .def("getGeometricPrimitive",
           [](const Geometry3D& s) { return handleOf<PrimitiveHandle>(dataOfType(s, GeometryType::Primitive).primitive); },
           "Returns a copy of the primitive (edit it, then setGeometricPrimitive to apply); ValueError if the "
           "geometry is not a GeometricPrimitive.")
      .def("getConvexHull",
           [](const Geometry3D& s) { return handleOf<ConvexHullHandle>(dataOfType(s, GeometryType::ConvexHull).hull); },
           "Returns a copy of the convex hull (edit it, then setConvexHull to apply); ValueError if the geometry "
           "is not a ConvexHull.")
      .def("getVolumeGrid",
           [](const Geometry3D& s) { return handleOf<VolumeGridHandle>(dataOfType(s, GeometryType::VolumeGrid).grid); },
           "Returns a copy of the volume grid (edit it, then setVolumeGrid to apply); ValueError if the geometry "
           "is not a VolumeGrid.")
      .def("getHeightmap",
           [](const Geometry3D& s) { return handleOf<HeightmapHandle>(dataOfType(s, GeometryType::Heightmap).heightmap); },
           "A copy of the heightmap (edit it, then setHeightmap to apply).")
      .def("setHeightmap", [](Geometry3D& s, const HeightmapHandle& h) { setData(s, klampt::geometryDataOf(*h.data)); },
           py::arg("hm"), "Sets this geometry to a copy of the heightmap.")
      .def("getOccupancyGrid",
           [](const Geometry3D& s) {
             return handleOf<OccupancyGridHandle>(dataOfType(s, GeometryType::OccupancyGrid).occupancy);
           },
           "A copy of the occupancy grid (edit it, then setOccupancyGrid to apply).")
      .def("setOccupancyGrid",
           [](Geometry3D& s, const OccupancyGridHandle& h) { setData(s, klampt::geometryDataOf(*h.data)); },
           py::arg("grid"), "Sets this geometry to a copy of the occupancy grid.")
      .def("setTriangleMesh", [](Geometry3D& s, const TriangleMeshHandle& h) { setData(s, klampt::geometryDataOf(*h.data)); }, py::arg("arg2"),
           "Replaces the geometry's data with a copy of the triangle mesh arg2 (in local coordinates); the "
           "current transform is kept.")
      .def("setPointCloud", [](Geometry3D& s, const PointCloudHandle& h) { setData(s, klampt::geometryDataOf(*h.data)); }, py::arg("arg2"),
           "Replaces the geometry's data with a copy of the point cloud arg2 (in local coordinates); the current "
           "transform is kept.")
      .def("setGeometricPrimitive", [](Geometry3D& s, const PrimitiveHandle& h) { setData(s, klampt::geometryDataOf(*h.data)); },
           py::arg("arg2"),
           "Replaces the geometry's data with a copy of the primitive arg2 (in local coordinates); the current "
           "transform is kept.")
      .def("setConvexHull", [](Geometry3D& s, const ConvexHullHandle& h) { setData(s, klampt::geometryDataOf(*h.data)); }, py::arg("arg2"),
           "Replaces the geometry's data with the convex hull of the points of arg2 (in local coordinates); the "
           "current transform is kept.")
      .def("setVolumeGrid", [](Geometry3D& s, const VolumeGridHandle& h) { setData(s, klampt::geometryDataOf(*h.data)); }, py::arg("arg2"),
           "Replaces the geometry's data with a copy of the volume grid arg2 (in local coordinates); the current "
           "transform is kept.")
      .def("getImplicitSurface",
           [](const Geometry3D& s) { return handleOf<VolumeGridHandle>(dataOfType(s, GeometryType::VolumeGrid).grid); },
           "Klamp't 0.10's name of getVolumeGrid: a copy of the grid (ImplicitSurface is VolumeGrid).")
      .def("setImplicitSurface",
           [](Geometry3D& s, const VolumeGridHandle& h) { setData(s, klampt::geometryDataOf(*h.data)); }, py::arg("grid"),
           "Klamp't 0.10's name of setVolumeGrid.")
      .def("setConvexHullGroup",
           [](Geometry3D& s, const Geometry3D& g1, const Geometry3D& g2) {
             const RigidTransform pose = g1.get().currentTransform;  // s may be g1
             setData(s, klampt::hullOfPair(g1.get(), g2.get()));
             s.get().currentTransform = pose;
           },
           py::arg("g1"), py::arg("g2"),
           "Makes this geometry the convex hull of the points of geometries g1 and g2 at their current relative "
           "pose, expressed in g1's local frame; the geometry takes g1's current transform.")
      .def("setGroup", [](Geometry3D& s) { setData(s, wrap(GeometryType::Group)); },
           "Makes this geometry an empty Group; add members with setElement.")
      .def("getElement",
           [](const Geometry3D& s, int i) { return standaloneOf(klampt::getElement(*s.get().data, i)); },
           py::arg("element"), "A standalone copy of a group member, mesh triangle or cloud point (local coordinates).")
      .def("setElement",
           [](Geometry3D& s, int i, const Geometry3D& e) {
             const klampt::Geometry element = e.get();  // holds e's shape even if e is s
             klampt::setElement(s.get().mutableData(), i, element);
           },
           py::arg("element"), py::arg("data"),
           "Sets sub-element number element to the geometry data: replaces a group member (element == "
           "numElements() appends one), placed in the group's frame by data's current transform; moves a mesh "
           "triangle's vertices to a Triangle primitive's, or a cloud point to a Point's.")
      .def("numElements", [](const Geometry3D& s) { return klampt::numElements(*s.get().data); },
           "Returns the number of sub-elements: group members, mesh triangles, cloud points or grid cells; 1 for "
           "a primitive or a convex hull.")
      .def("loadFile",
           [](Geometry3D& s, const std::string& fn) {
             auto data = std::make_shared<GeometryData>();
             try {
               py::gil_scoped_release release;
               klampt::loadGeometryFile(fn, *data);
             } catch (const std::exception& e) {
               logError(e.what());
               return false;
             }
             s.get().data = data;
             s.get().sourceFile = fn;
             return true;
           },
           py::arg("fn"),
           "Loads the geometry from the file fn (mesh, point cloud, primitive or other supported format); returns "
           "True on success, False (with an error logged) on failure.")
      .def("saveFile",
           [](const Geometry3D& s, const std::string& fn) {
             std::shared_ptr<const GeometryData> src = s.get().data;  // held while the GIL is released
             try {
               py::gil_scoped_release release;
               klampt::saveGeometryFile(*src, fn);
             } catch (const std::exception& e) {
               logError(e.what());
               return false;
             }
             return true;
           },
           py::arg("fn"),
           "Saves the geometry's local data to the file fn, in the format given by its extension; returns True on "
           "success, False (with an error logged) on failure.")
      .def("getCurrentTransform", [](const Geometry3D& s) { return transformToTuple(s.get().currentTransform); },
           "Returns the current transform (R,t) of the geometry in world coordinates: R a column-major 9-list "
           "rotation matrix, t a 3-list in metres.")
      .def("setCurrentTransform",
           [](Geometry3D& s, FloatsArg R, FloatsArg t) {
             const RigidTransform T = toTransform(R, t);
             s.get().currentTransform = T;
           },
           py::arg("R"), py::arg("t"),
           "Sets the current transform of the geometry in world coordinates: R a column-major 9-list rotation "
           "matrix, t a 3-list translation in metres. The local data is not changed.")
      .def("translate",
           [](Geometry3D& s, FloatsArg t) {
             RigidTransform T;
             T.t = toFiniteVector3(t, "t");
             klampt::transformGeometryData(s.get().mutableData(), T);
           },
           py::arg("t"),
           "Translates the geometry's local data by t (3-list, metres, local frame).")
      .def("scale",
           [](Geometry3D& s, double k) {
             const Vector3 factors = Vector3::Constant(toFinite(k, "s"));
             klampt::scaleGeometryData(s.get().mutableData(), factors);
           },
           py::arg("s"),
           "Scales the geometry's local data uniformly by the factor s about the local origin.")
      .def("scale",
           [](Geometry3D& s, double x, double y, double z) {
             const Vector3 factors(toFinite(x, "sx"), toFinite(y, "sy"), toFinite(z, "sz"));
             klampt::scaleGeometryData(s.get().mutableData(), factors);
           },
           py::arg("sx"), py::arg("sy"), py::arg("sz"),
           "Scales the geometry's local data about the local origin by sx, sy and sz along the local x, y and z "
           "axes.")
      .def("rotate",
           [](Geometry3D& s, FloatsArg R) {
             RigidTransform T;
             T.R = toFiniteRotation(R, "R");
             klampt::transformGeometryData(s.get().mutableData(), T);
           },
           py::arg("R"),
           "Rotates the geometry's local data about the local origin by R (a column-major 9-list rotation "
           "matrix).")
      .def("transform",
           [](Geometry3D& s, FloatsArg R, FloatsArg t) {
             const RigidTransform T = toTransform(R, t);
             klampt::transformGeometryData(s.get().mutableData(), T);
           },
           py::arg("R"), py::arg("t"),
           "Transforms the geometry's local data by the rigid transform (R,t): R a column-major 9-list rotation "
           "matrix, t a 3-list in metres. The current transform is not changed.")
      .def("merge",
           [](Geometry3D& s, const Geometry3D& o) {
             klampt::Geometry merged = s.get();  // the shape stays shared until the merge copies it
             const klampt::Geometry other = o.snapshot();
             {
               py::gil_scoped_release release;
               klampt::mergeGeometry(merged, other);
             }
             s.get().data = merged.data;
             s.get().sourceFile.clear();
           },
           py::arg("other"),
           "Merges other (at its current transform) into this geometry, in place, in this geometry's frame; the "
           "type, pose and margin stay. TriangleMesh + TriangleMesh appends the triangles; PointCloud + "
           "PointCloud appends the points, keeping the properties both clouds name (Klamp't 0.10 refuses clouds "
           "whose names differ); ConvexHull + ConvexHull gives the hull of both; a VolumeGrid (ImplicitSurface) "
           "takes at each cell the smaller of its value and the signed distance to other, over its own domain "
           "(other may be any shape with a point distance; meshes are signed by their inside); an OccupancyGrid "
           "marks the cells other overlaps or contains; a Heightmap keeps its samples: an elevation map rises to "
           "other's top surface seen from above, a depth map takes other's depth where it is nearer to the "
           "camera. Raises ValueError for other combinations.")
      .def("getCollisionMargin", [](const Geometry3D& s) { return s.get().margin; },
           "Returns the collision margin in metres (see setCollisionMargin).")
      .def("setCollisionMargin",
           [](Geometry3D& s, double margin) {
             toNonNegative(margin, "margin");
             s.get().margin = margin;
           },
           py::arg("margin"),
           "Sets the collision margin (metres, >= 0): the geometry is grown by this much in collision and "
           "proximity queries.")
      .def("getBB", [](const Geometry3D& s) { return boxTuple(s.get(), false); },
           "Axis-aligned bounding box ([xmin,ymin,zmin],[xmax,ymax,zmax]) in world coordinates, grown by the "
           "collision margin. O(1) after the first call; contains getBBTight() but is looser when rotated.")
      .def("getBBTight", [](const Geometry3D& s) { return boxTuple(s.get(), true); },
           "The tightest axis-aligned bounding box in world coordinates, grown by the collision margin. O(n).")
      .def("convert",
           [](const Geometry3D& s, const std::string& type, double param) {
             GeometryType target = klampt::geometryTypeFromName(type);
             std::shared_ptr<const GeometryData> src = s.get().data;  // held while the GIL is released
             GeometryData out;
             {
               py::gil_scoped_release release;
               out = klampt::convertGeometry(*src, target, param);
             }
             Geometry3D g = standaloneOf(std::move(out));
             g.geom->currentTransform = s.get().currentTransform;
             g.geom->margin = s.get().margin;
             return g;
           },
           py::arg("type"), py::arg("param") = 0.0, "A standalone geometry of another type (see the reference for param).")
      .def("slice",
           [](const Geometry3D& s, FloatsArg R, FloatsArg t, double tol) {
             const RigidTransform T = toTransform(R, t);
             GeometryData out = klampt::sliceGeometry(*s.get().data, s.get().currentTransform, T, tol);
             Geometry3D g = standaloneOf(std::move(out));
             g.geom->currentTransform = T;
             return g;
           },
           py::arg("R"), py::arg("t"), py::arg("tol"),
           "Returns the slice of this geometry (at its current transform) by the x-y plane of the frame (R,t) in "
           "world coordinates, expressed in that frame: the points of a point cloud within distance tol of the "
           "plane, or a mesh's cross-section as a Group of Segment primitives.")
      .def("roi",
           [](const Geometry3D& s, const std::string& query, FloatsArg bmin, FloatsArg bmax) {
             const Vector3 lo = toFiniteVector3(bmin, "bmin"), hi = toFiniteVector3(bmax, "bmax");
             GeometryData out = klampt::regionOfInterest(*s.get().data, s.get().currentTransform, query, lo, hi);
             Geometry3D g = standaloneOf(std::move(out));
             g.geom->currentTransform = s.get().currentTransform;
             return g;
           },
           py::arg("query"), py::arg("bmin"), py::arg("bmax"),
           "Returns the part of this geometry, in its local frame, inside the world-coordinates box [bmin,bmax] "
           "(3-lists, metres): points, or whole triangles of a mesh. query is 'intersect', 'touching' or "
           "'within', optionally prefixed by '~' to invert the selection.")
      .def_property_readonly("world", [](const Geometry3D& s) { return worldNumber(s.owner.get()); },
          "Index of the world whose element this geometry belongs to, or -1 for a standalone geometry.")
      .def_property_readonly("id", &elementId,
          "Index of the element within its world (world.getName(id) names it), or -1 for a standalone geometry.")
      .def_property_readonly("geomPtr", [](const Geometry3D& s) { return (std::uintptr_t)s.geom.get(); },
          "Address of the native geometry data (an opaque integer, for the reference's C++ interoperability).");
  bindGeometryQueries(geomCls);
}

}  // namespace klampt_py
