#include "geom_format.h"
#include <algorithm>
#include "mesh_text_formats.h"
#include "pcd_format.h"

namespace klampt {

namespace {

// Number of parameters of a fixed-size primitive type, -1 for Polygon
// (a vertex count then the vertices), 0 for unknown types.
int primitiveParameterCount(const std::string& type) {
  if (type == "Point") return 3;
  if (type == "Sphere") return 4;
  if (type == "Segment" || type == "AABB") return 6;
  if (type == "Triangle") return 9;
  if (type == "Cylinder") return 8;
  if (type == "Box" || type == "Ellipsoid") return 15;
  if (type == "Polygon") return -1;
  return 0;
}

void readPrimitive(TokenStream& in, const std::string& type, GeometricPrimitive& prim) {
  int count = primitiveParameterCount(type);
  if (count == 0) in.fail("unknown primitive type \"" + type + "\"");
  prim.type = type;
  prim.properties.clear();
  if (count < 0) {
    int n = in.nextCount("polygon vertex count");
    if (n < 3) in.fail("polygon with fewer than 3 vertices");
    prim.properties.push_back(n);
    count = 3 * n;
  }
  for (int i = 0; i < count; ++i) prim.properties.push_back(in.nextDouble("primitive parameter"));
}

void readPoints(TokenStream& in, Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>& points) {
  int n = in.nextCount("point count");
  if ((std::size_t)n * 3 > in.content().size()) in.fail("point count exceeds the data in the file");
  points.resize(n, 3);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) points(i, k) = in.nextDouble("point coordinate");
}

void readGeomNested(TokenStream& in, GeometryData& data, int depth);

}  // namespace

void readGeom(TokenStream& in, GeometryData& data) { readGeomNested(in, data, 0); }

namespace {

void readGeomNested(TokenStream& in, GeometryData& data, int depth) {
  if (depth > 64) in.fail("geometry groups nested too deeply");
  data = GeometryData();
  std::string type = in.next("geometry type").text;
  if (type == "Primitive" || type == "GeometricPrimitive") {
    data.type = GeometryType::Primitive;
    readPrimitive(in, in.next("primitive type").text, data.primitive);
  } else if (primitiveParameterCount(type) != 0) {
    data.type = GeometryType::Primitive;
    readPrimitive(in, type, data.primitive);
  } else if (type == "TriangleMesh") {
    data.type = GeometryType::TriangleMesh;
    const std::string& next = in.peek().text;
    if (next.size() >= 3 && next.compare(next.size() - 3, 3, "OFF") == 0)
      readOff(in, data.mesh);
    else
      readTri(in, data.mesh, false);
  } else if (type == "PointCloud") {
    data.type = GeometryType::PointCloud;
    readPcd(in, data.pointCloud);
  } else if (type == "ImplicitSurface" || type == "VolumeGrid") {
    data.type = GeometryType::VolumeGrid;
    readVolumeGrid(in, data.grid);
  } else if (type == "OccupancyGrid") {
    data.type = GeometryType::OccupancyGrid;
    readOccupancyGrid(in, data.occupancy);
  } else if (type == "ConvexHull") {
    data.type = GeometryType::ConvexHull;
    readPoints(in, data.hull.points);
  } else if (type == "Group") {
    data.type = GeometryType::Group;
    int n = in.nextCount("group size");
    for (int i = 0; i < n; ++i) {
      auto child = std::make_shared<GeometryData>();
      readGeomNested(in, *child, depth + 1);
      data.group.push_back(std::move(child));
    }
  } else {
    in.fail("unknown geometry type \"" + type + "\"");
  }
}

}  // namespace

void writeGeom(std::ostream& out, const GeometryData& data) {
  switch (data.type) {
    case GeometryType::Primitive:
      out << "Primitive\n" << data.primitive.type;
      for (double p : data.primitive.properties) out << ' ' << formatDouble(p);
      out << '\n';
      break;
    case GeometryType::TriangleMesh:
      out << "TriangleMesh\n";
      writeTri(out, data.mesh);
      break;
    case GeometryType::PointCloud:
      out << "PointCloud\n";
      writePcd(out, data.pointCloud);
      break;
    case GeometryType::VolumeGrid:
      out << "ImplicitSurface\n";
      writeVolumeGrid(out, data.grid);
      break;
    case GeometryType::ConvexHull:
      out << "ConvexHull\n" << data.hull.points.rows() << '\n';
      for (Eigen::Index i = 0; i < data.hull.points.rows(); ++i)
        out << formatDouble(data.hull.points(i, 0)) << ' ' << formatDouble(data.hull.points(i, 1)) << ' '
            << formatDouble(data.hull.points(i, 2)) << '\n';
      break;
    case GeometryType::Heightmap:
      throw std::invalid_argument("a Heightmap is saved as a .json description with image files, not in a .geom file");
    case GeometryType::OccupancyGrid:
      out << "OccupancyGrid\n";
      writeOccupancyGrid(out, data.occupancy);
      break;
    case GeometryType::Group:
    case GeometryType::Empty:  // an empty member of a group reads back as an empty group
      out << "Group\n" << data.group.size() << '\n';
      for (const auto& child : data.group) writeGeom(out, *child);
      break;
  }
}

void readVolumeGrid(TokenStream& in, VolumeGrid& grid) {
  for (int k = 0; k < 3; ++k) grid.bmin[k] = in.nextDouble("grid bound");
  for (int k = 0; k < 3; ++k) grid.bmax[k] = in.nextDouble("grid bound");
  std::size_t total = 1;
  for (int k = 0; k < 3; ++k) {
    grid.dims[k] = in.nextCount("grid dimension");
    total *= (std::size_t)grid.dims[k];
    if (total > in.content().size()) in.fail("grid size exceeds the data in the file");
  }
  grid.values.resize(total);
  for (double& v : grid.values) v = in.nextDouble("grid value");
}

void writeVolumeGrid(std::ostream& out, const VolumeGrid& grid) {
  for (int k = 0; k < 3; ++k) out << formatDouble(grid.bmin[k]) << ' ';
  for (int k = 0; k < 3; ++k) out << formatDouble(grid.bmax[k]) << (k < 2 ? ' ' : '\n');
  out << grid.dims[0] << ' ' << grid.dims[1] << ' ' << grid.dims[2] << '\n';
  std::size_t row = (std::size_t)std::max(grid.dims[2], 1);
  for (std::size_t i = 0; i < grid.values.size(); ++i)
    out << formatDouble(grid.values[i]) << ((i + 1) % row == 0 ? '\n' : ' ');
}

void readOccupancyGrid(TokenStream& in, OccupancyGrid& grid) {
  VolumeGrid layout;
  readVolumeGrid(in, layout);
  grid.bmin = layout.bmin;
  grid.bmax = layout.bmax;
  grid.dims = layout.dims;
  grid.values = std::move(layout.values);
}

void writeOccupancyGrid(std::ostream& out, const OccupancyGrid& grid) {
  VolumeGrid layout;
  layout.bmin = grid.bmin;
  layout.bmax = grid.bmax;
  layout.dims = grid.dims;
  layout.values = grid.values;
  writeVolumeGrid(out, layout);
}

}  // namespace klampt
