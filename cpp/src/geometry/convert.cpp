// Geometry3D.convert and the element accessors.
#include "klampt/geometry/convert.h"
#include <cmath>
#include <limits>
#include <stdexcept>
#include "klampt/geometry/convex_hull.h"
#include "klampt/geometry/heightmap.h"
#include "klampt/geometry/occupancy_grid.h"
#include "klampt/geometry/point_cloud.h"
#include "klampt/geometry/primitive.h"
#include "klampt/geometry/rasterize.h"
#include "klampt/geometry/volume_grid.h"

namespace klampt {

GeometryType geometryTypeFromName(const std::string& name) {
  if (name == "GeometricPrimitive" || name == "Primitive") return GeometryType::Primitive;
  if (name == "TriangleMesh") return GeometryType::TriangleMesh;
  if (name == "PointCloud") return GeometryType::PointCloud;
  if (name == "VolumeGrid" || name == "ImplicitSurface") return GeometryType::VolumeGrid;
  if (name == "ConvexHull") return GeometryType::ConvexHull;
  if (name == "Group") return GeometryType::Group;
  if (name == "Heightmap") return GeometryType::Heightmap;
  if (name == "OccupancyGrid") return GeometryType::OccupancyGrid;
  throw std::invalid_argument("unknown geometry type \"" + name + "\"");
}

namespace {

GeometryData ofMesh(TriangleMesh mesh) {
  GeometryData d;
  d.type = GeometryType::TriangleMesh;
  d.mesh = std::move(mesh);
  return d;
}

GeometryData ofCloud(PointCloud pc) {
  GeometryData d;
  d.type = GeometryType::PointCloud;
  d.pointCloud = std::move(pc);
  return d;
}

GeometryData ofHull(PointMatrix points) {
  GeometryData d;
  d.type = GeometryType::ConvexHull;
  d.hull.points = convexHullVertices(points);
  return d;
}

GeometryData ofGrid(VolumeGrid grid) {
  GeometryData d;
  d.type = GeometryType::VolumeGrid;
  d.grid = std::move(grid);
  return d;
}

GeometryData ofHeightmap(Heightmap hm) {
  GeometryData d;
  d.type = GeometryType::Heightmap;
  d.heightmap = std::move(hm);
  return d;
}

GeometryData ofOccupancy(OccupancyGrid grid) {
  GeometryData d;
  d.type = GeometryType::OccupancyGrid;
  d.occupancy = std::move(grid);
  return d;
}

/// Conversions into heightmaps and occupancy grids, the same from every type.
bool intoGrid(const GeometryData& data, GeometryType target, double param, GeometryData& out) {
  if (target == GeometryType::Heightmap && data.type != GeometryType::Group) {
    out = ofHeightmap(rasterizeHeightmap(data, param));
    return true;
  }
  if (target == GeometryType::OccupancyGrid && data.type != GeometryType::Group) {
    out = ofOccupancy(data.type == GeometryType::VolumeGrid ? volumeGridToOccupancy(data.grid)
                                                             : rasterizeOccupancy(data, param));
    return true;
  }
  return false;
}

PointCloud plainCloud(const PointMatrix& points) {
  PointCloud pc;
  pc.points = points;
  pc.properties.resize(points.rows(), 0);
  return pc;
}

[[noreturn]] void unavailable(GeometryType from, GeometryType to) {
  throw std::invalid_argument(std::string("no conversion from ") + geometryTypeName(from) + " to " +
                              geometryTypeName(to));
}

GeometryData fromPrimitive(const GeometricPrimitive& p, GeometryType target, double param) {
  validatePrimitive(p);
  bool pointLike = p.type == "Point" || p.type == "Segment";
  switch (target) {
    case GeometryType::TriangleMesh: return ofMesh(primitiveToMesh(p, param));
    case GeometryType::PointCloud:
      if (pointLike) {  // the point, or the segment sampled at spacing param
        GeometryData src;
        src.type = GeometryType::Primitive;
        src.primitive = p;
        PointMatrix ends = hullPoints(src);
        if (p.type == "Point") return ofCloud(plainCloud(ends));
        Vector3 a = ends.row(0), b = ends.row(1);
        int n = param > 0 ? std::max(1, (int)std::ceil((b - a).norm() / param)) : 1;
        if (n > 50000000) throw std::invalid_argument("segment sampling resolution too fine");
        PointMatrix pts(n + 1, 3);
        for (int i = 0; i <= n; ++i) pts.row(i) = (a + (b - a) * (double(i) / n)).transpose();
        return ofCloud(plainCloud(pts));
      }
      return ofCloud(meshToPointCloud(primitiveToMesh(p, param), param));
    case GeometryType::ConvexHull: {
      GeometryData src;
      src.type = GeometryType::Primitive;
      src.primitive = p;
      if (p.type == "Sphere" && param > 0) return ofHull(primitiveToMesh(p, param).vertices);
      return ofHull(hullPoints(src));
    }
    case GeometryType::VolumeGrid: return ofGrid(primitiveToVolumeGrid(p, param));
    default: unavailable(GeometryType::Primitive, target);
  }
}

}  // namespace

GeometryData convertGeometry(const GeometryData& data, GeometryType target, double param) {
  if (!std::isfinite(param)) throw std::invalid_argument("conversion parameter must be finite");
  if (data.type == target) return data;
  GeometryData grid;
  if (data.type != GeometryType::Empty && intoGrid(data, target, param, grid)) return grid;
  switch (data.type) {
    case GeometryType::Primitive: return fromPrimitive(data.primitive, target, param);
    case GeometryType::TriangleMesh:
      if (target == GeometryType::PointCloud) return ofCloud(meshToPointCloud(data.mesh, param));
      if (target == GeometryType::VolumeGrid) return ofGrid(meshToVolumeGrid(data.mesh, param));
      if (target == GeometryType::ConvexHull) {
        if (param != 0) throw std::invalid_argument("convex decomposition (param != 0) is not available");
        return ofHull(data.mesh.vertices);
      }
      break;
    case GeometryType::PointCloud:
      if (target == GeometryType::ConvexHull) return ofHull(data.pointCloud.points);
      if (target == GeometryType::TriangleMesh)
        return ofMesh(structuredCloudToMesh(data.pointCloud, param > 0 ? param : std::numeric_limits<double>::infinity()));
      break;
    case GeometryType::VolumeGrid:
      if (target == GeometryType::TriangleMesh) return ofMesh(volumeGridIsosurface(data.grid, param));
      if (target == GeometryType::PointCloud) return ofCloud(plainCloud(volumeGridIsosurface(data.grid, param).vertices));
      break;
    case GeometryType::ConvexHull:
      if (target == GeometryType::TriangleMesh) return ofMesh(convexHullMesh(data.hull.points));
      if (target == GeometryType::PointCloud) return ofCloud(meshToPointCloud(convexHullMesh(data.hull.points), param));
      break;
    case GeometryType::Group:
      if (target == GeometryType::ConvexHull) return ofHull(hullPoints(data));
      break;
    case GeometryType::Heightmap:
      if (target == GeometryType::TriangleMesh) return ofMesh(heightmapMesh(data.heightmap));
      if (target == GeometryType::PointCloud) return ofCloud(heightmapPointCloud(data.heightmap));
      if (target == GeometryType::ConvexHull) return ofHull(heightmapMesh(data.heightmap).vertices);
      if (target == GeometryType::VolumeGrid) return ofGrid(heightmapToVolumeGrid(data.heightmap, param));
      break;
    case GeometryType::OccupancyGrid:
      if (target == GeometryType::TriangleMesh) return ofMesh(occupancyGridMesh(data.occupancy));
      if (target == GeometryType::PointCloud) return ofCloud(occupancyGridPointCloud(data.occupancy));
      if (target == GeometryType::ConvexHull) return ofHull(occupancyGridMesh(data.occupancy).vertices);
      if (target == GeometryType::VolumeGrid) return ofGrid(occupancyToVolumeGrid(data.occupancy));
      break;
    case GeometryType::Empty: throw std::invalid_argument("cannot convert an empty geometry");
  }
  unavailable(data.type, target);
}

int numElements(const GeometryData& data) {
  switch (data.type) {
    case GeometryType::Empty: return 0;
    case GeometryType::Primitive:
    case GeometryType::ConvexHull: return 1;
    case GeometryType::TriangleMesh: return (int)data.mesh.indices.rows();
    case GeometryType::PointCloud: return (int)data.pointCloud.points.rows();
    case GeometryType::VolumeGrid: return (int)data.grid.values.size();
    case GeometryType::Group: return (int)data.group.size();
    case GeometryType::Heightmap: return (int)data.heightmap.heights.size();
    case GeometryType::OccupancyGrid: return (int)data.occupancy.values.size();
  }
  return 0;
}

namespace {

void checkElementIndex(int index, int size) {
  if (index < 0 || index >= size)
    throw std::out_of_range("element index " + std::to_string(index) + " out of range [0, " + std::to_string(size) + ")");
}

}  // namespace

GeometryData getElement(const GeometryData& data, int index) {
  GeometryData out;
  switch (data.type) {
    case GeometryType::Group:
      checkElementIndex(index, (int)data.group.size());
      return *data.group[index];
    case GeometryType::TriangleMesh: {
      checkElementIndex(index, (int)data.mesh.indices.rows());
      auto v = [&](int k) { return Vector3(data.mesh.vertices.row(data.mesh.indices(index, k))); };
      out.type = GeometryType::Primitive;
      out.primitive = makeTrianglePrimitive(v(0), v(1), v(2));
      return out;
    }
    case GeometryType::PointCloud:
      checkElementIndex(index, (int)data.pointCloud.points.rows());
      out.type = GeometryType::Primitive;
      out.primitive = makePointPrimitive(data.pointCloud.points.row(index).transpose());
      return out;
    default:
      throw std::invalid_argument(std::string("getElement is only available for Group, TriangleMesh and PointCloud, not ") +
                                  geometryTypeName(data.type));
  }
}

void setElement(GeometryData& data, int index, const GeometryData& element) {
  switch (data.type) {
    case GeometryType::Group:
      if (index == (int)data.group.size()) {
        data.group.push_back(std::make_shared<GeometryData>(element));
      } else {
        checkElementIndex(index, (int)data.group.size());
        data.group[index] = std::make_shared<GeometryData>(element);
      }
      return;
    case GeometryType::TriangleMesh: {
      checkElementIndex(index, (int)data.mesh.indices.rows());
      if (element.type != GeometryType::Primitive || element.primitive.type != "Triangle")
        throw std::invalid_argument("a TriangleMesh element must be a Triangle primitive");
      for (int k = 0; k < 3; ++k)
        for (int c = 0; c < 3; ++c)
          data.mesh.vertices(data.mesh.indices(index, k), c) = element.primitive.properties[3 * k + c];
      return;
    }
    case GeometryType::PointCloud:
      checkElementIndex(index, (int)data.pointCloud.points.rows());
      if (element.type != GeometryType::Primitive || element.primitive.type != "Point")
        throw std::invalid_argument("a PointCloud element must be a Point primitive");
      for (int c = 0; c < 3; ++c) data.pointCloud.points(index, c) = element.primitive.properties[c];
      return;
    default:
      throw std::invalid_argument(std::string("setElement needs a Group, TriangleMesh or PointCloud, not ") +
                                  (data.type == GeometryType::Empty ? "an empty geometry" : geometryTypeName(data.type)));
  }
}

void setElement(GeometryData& data, int index, const Geometry& element) {
  const RigidTransform& T = element.currentTransform;
  if (data.type != GeometryType::Group || (T.R.isIdentity(0) && T.t.isZero(0))) {
    setElement(data, index, *element.data);
    return;
  }
  GeometryData placed = *element.data;
  transformGeometryData(placed, T);
  setElement(data, index, placed);
}

}  // namespace klampt
