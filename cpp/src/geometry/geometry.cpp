// Type names, shape data of each type, tight bounding boxes and baked
// transforms / scales of geometry data.
#include "klampt/geometry/geometry.h"
#include "klampt/geometry/heightmap.h"
#include "klampt/geometry/occupancy_grid.h"
#include "klampt/geometry/primitive.h"
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

namespace klampt {

std::mutex& lazyCachePublishMutex() {
  static std::mutex m;
  return m;
}

const char* geometryTypeName(GeometryType type) {
  switch (type) {
    case GeometryType::Empty: return "";
    case GeometryType::Primitive: return "GeometricPrimitive";
    case GeometryType::TriangleMesh: return "TriangleMesh";
    case GeometryType::PointCloud: return "PointCloud";
    case GeometryType::VolumeGrid: return "VolumeGrid";
    case GeometryType::ConvexHull: return "ConvexHull";
    case GeometryType::Group: return "Group";
    case GeometryType::Heightmap: return "Heightmap";
    case GeometryType::OccupancyGrid: return "OccupancyGrid";
  }
  return "";
}

namespace {

using Points = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;

struct Bounds {
  Vector3 bmin = Vector3::Constant(std::numeric_limits<double>::infinity());
  Vector3 bmax = Vector3::Constant(-std::numeric_limits<double>::infinity());
  void add(const Vector3& p) {
    bmin = bmin.cwiseMin(p);
    bmax = bmax.cwiseMax(p);
  }
};

// Number of 3D points stored in a primitive's parameters from `first` on
// (Point, Segment, Triangle, Polygon, and the center of a Sphere), after
// checking the parameter count. Throws for the types that are not point lists.
std::size_t checkedPointCount(const GeometricPrimitive& p, std::size_t& first) {
  std::size_t n = p.properties.size(), expected = 0, points = 0;
  first = 0;
  if (p.type == "Point") expected = 3, points = 1;
  else if (p.type == "Sphere") expected = 4, points = 1;
  else if (p.type == "Segment") expected = 6, points = 2;
  else if (p.type == "Triangle") expected = 9, points = 3;
  else if (p.type == "AABB") expected = 6, points = 2;
  else if (p.type == "Box") expected = 15, points = 0;
  else if (p.type == "Polygon") {
    double count = n > 0 ? p.properties[0] : -1;
    if (count < 3 || count != std::floor(count) || n != 1 + 3 * (std::size_t)count)
      throw std::invalid_argument("Polygon primitive needs a vertex count n >= 3 followed by 3n coordinates");
    first = 1;
    return (std::size_t)count;
  } else {
    throw std::invalid_argument("unsupported geometric primitive type \"" + p.type + "\"");
  }
  if (n != expected)
    throw std::invalid_argument(p.type + " primitive needs " + std::to_string(expected) + " parameters, has " +
                                std::to_string(n));
  return points;
}

Vector3 point(const GeometricPrimitive& p, std::size_t offset) {
  return Vector3(p.properties[offset], p.properties[offset + 1], p.properties[offset + 2]);
}

void setPoint(GeometricPrimitive& p, std::size_t offset, const Vector3& v) {
  for (int k = 0; k < 3; ++k) p.properties[offset + k] = v[k];
}

// A Box covers ori + R * [0, dims]; R is stored column-major after ori.
void boxFrame(const GeometricPrimitive& p, Vector3& ori, Matrix3& R, Vector3& dims) {
  ori = point(p, 0);
  R = rotationFromColumnMajor(&p.properties[3]);
  dims = point(p, 12);
}

void setBoxFrame(GeometricPrimitive& p, const Vector3& ori, const Matrix3& R, const Vector3& dims) {
  p.type = "Box";
  p.properties.assign(15, 0.0);
  setPoint(p, 0, ori);
  auto m = rotationToColumnMajor(R);
  std::copy(m.begin(), m.end(), p.properties.begin() + 3);
  setPoint(p, 12, dims);
}

void addCorners(const Vector3& ori, const Matrix3& axes, const RigidTransform& T, Bounds& b) {
  for (int c = 0; c < 8; ++c) {
    Vector3 u((c & 1) ? 1 : 0, (c & 2) ? 1 : 0, (c & 4) ? 1 : 0);
    b.add(T.apply(ori + axes * u));
  }
}

void addPrimitive(const GeometricPrimitive& p, const RigidTransform& T, Bounds& b) {
  std::size_t first;
  std::size_t n = checkedPointCount(p, first);
  if (p.type == "Sphere") {
    Vector3 c = T.apply(point(p, 0));
    double r = p.properties[3];
    b.add(c - Vector3::Constant(r));
    b.add(c + Vector3::Constant(r));
  } else if (p.type == "AABB") {
    Vector3 lo = point(p, 0), hi = point(p, 3);
    addCorners(lo, (hi - lo).asDiagonal(), T, b);
  } else if (p.type == "Box") {
    Vector3 ori, dims;
    Matrix3 R;
    boxFrame(p, ori, R, dims);
    addCorners(ori, R * dims.asDiagonal(), T, b);
  } else {
    for (std::size_t i = 0; i < n; ++i) b.add(T.apply(point(p, first + 3 * i)));
  }
}

void addPoints(const Points& pts, const RigidTransform& T, Bounds& b) {
  for (Eigen::Index i = 0; i < pts.rows(); ++i) b.add(T.apply(pts.row(i).transpose()));
}

void addGeometry(const GeometryData& d, const RigidTransform& T, Bounds& b) {
  switch (d.type) {
    case GeometryType::Empty: break;
    case GeometryType::Primitive: addPrimitive(d.primitive, T, b); break;
    case GeometryType::TriangleMesh: addPoints(d.mesh.vertices, T, b); break;
    case GeometryType::PointCloud: addPoints(d.pointCloud.points, T, b); break;
    case GeometryType::ConvexHull: addPoints(d.hull.points, T, b); break;
    case GeometryType::VolumeGrid:
      addCorners(d.grid.bmin, (d.grid.bmax - d.grid.bmin).asDiagonal(), T, b);
      break;
    case GeometryType::Group:
      for (const auto& child : d.group)
        if (child) addGeometry(*child, T, b);
      break;
    case GeometryType::Heightmap: {
      const Heightmap& hm = d.heightmap;
      for (int i = 0; i < hm.heights.rows(); ++i)
        for (int j = 0; j < hm.heights.cols(); ++j)
          if (validHeight(hm, hm.heights(i, j))) b.add(T.apply(heightmapVertex(hm, i, j)));
      break;
    }
    case GeometryType::OccupancyGrid:
      addCorners(d.occupancy.bmin, (d.occupancy.bmax - d.occupancy.bmin).asDiagonal(), T, b);
      break;
  }
}

// Columns of the normal_x, normal_y, normal_z properties, or -1.
Eigen::Vector3i normalColumns(const PointCloud& pc) {
  Eigen::Vector3i cols(-1, -1, -1);
  for (std::size_t j = 0; j < pc.propertyNames.size(); ++j)
    for (int k = 0; k < 3; ++k)
      if (pc.propertyNames[j] == std::string("normal_") + char('x' + k)) cols[k] = (int)j;
  return cols;
}

// Applies the linear map M to the normals of a point cloud (renormalized).
void mapNormals(PointCloud& pc, const Matrix3& M) {
  Eigen::Vector3i cols = normalColumns(pc);
  if ((cols.array() < 0).any()) return;
  for (Eigen::Index i = 0; i < pc.properties.rows(); ++i) {
    Vector3 n(pc.properties(i, cols[0]), pc.properties(i, cols[1]), pc.properties(i, cols[2]));
    n = M * n;
    if (n.norm() > 0) n.normalize();
    for (int k = 0; k < 3; ++k) pc.properties(i, cols[k]) = n[k];
  }
}

void transformPrimitive(GeometricPrimitive& p, const RigidTransform& T) {
  std::size_t first;
  std::size_t n = checkedPointCount(p, first);
  if (p.type == "AABB") {
    Vector3 lo = point(p, 0), hi = point(p, 3);
    if (T.R.isIdentity(1e-12)) {
      setPoint(p, 0, lo + T.t);
      setPoint(p, 3, hi + T.t);
    } else {
      setBoxFrame(p, T.apply(lo), T.R, hi - lo);  // a rotated AABB is a Box
    }
  } else if (p.type == "Box") {
    Vector3 ori, dims;
    Matrix3 R;
    boxFrame(p, ori, R, dims);
    setBoxFrame(p, T.apply(ori), T.R * R, dims);
  } else {
    for (std::size_t i = 0; i < n; ++i) setPoint(p, first + 3 * i, T.apply(point(p, first + 3 * i)));
  }
}

void scalePrimitive(GeometricPrimitive& p, const Vector3& s) {
  std::size_t first;
  std::size_t n = checkedPointCount(p, first);
  if (p.type == "Sphere") {
    double a = std::abs(s.x());
    if (std::abs(std::abs(s.y()) - a) > 1e-12 * a || std::abs(std::abs(s.z()) - a) > 1e-12 * a)
      throw std::invalid_argument("a Sphere primitive can only be scaled uniformly");
    setPoint(p, 0, point(p, 0).cwiseProduct(s));
    p.properties[3] *= a;
  } else if (p.type == "AABB") {
    Vector3 a = point(p, 0).cwiseProduct(s), b = point(p, 3).cwiseProduct(s);
    setPoint(p, 0, a.cwiseMin(b));
    setPoint(p, 3, a.cwiseMax(b));
  } else if (p.type == "Box") {
    Vector3 ori, dims;
    Matrix3 R;
    boxFrame(p, ori, R, dims);
    Matrix3 edges = s.asDiagonal() * R * dims.asDiagonal();  // the three edge vectors
    for (int i = 0; i < 3; ++i)
      for (int j = i + 1; j < 3; ++j)
        if (std::abs(edges.col(i).dot(edges.col(j))) > 1e-9 * edges.col(i).norm() * edges.col(j).norm())
          throw std::invalid_argument("a rotated Box primitive can only be scaled uniformly");
    for (int i = 0; i < 3; ++i) {
      dims[i] = edges.col(i).norm();
      if (dims[i] > 0) R.col(i) = edges.col(i) / dims[i];
    }
    ori = ori.cwiseProduct(s);
    if (R.determinant() < 0) {  // mirrored: keep a right-handed frame
      ori += edges.col(2);
      R.col(2) = -R.col(2);
    }
    setBoxFrame(p, ori, R, dims);
  } else {
    for (std::size_t i = 0; i < n; ++i) setPoint(p, first + 3 * i, point(p, first + 3 * i).cwiseProduct(s));
  }
}

// Group members are shared: replace each by a transformed copy.
template <class F>
void editGroup(GeometryData& data, F edit) {
  for (auto& child : data.group) {
    if (!child) continue;
    auto copy = std::make_shared<GeometryData>(*child);
    edit(*copy);
    child = std::move(copy);
  }
}

/// Shape data of `type` holding a copy of `shape` in `member`.
template <class Shape>
GeometryData holding(GeometryType type, Shape GeometryData::*member, const Shape& shape) {
  GeometryData d;
  d.type = type;
  d.*member = shape;
  return d;
}

}  // namespace

GeometryData geometryDataOf(const TriangleMesh& mesh) {
  validateTriangleMesh(mesh);
  return holding(GeometryType::TriangleMesh, &GeometryData::mesh, mesh);
}

GeometryData geometryDataOf(const PointCloud& pc) {
  GeometryData d = holding(GeometryType::PointCloud, &GeometryData::pointCloud, pc);
  if (pc.propertyNames.empty()) d.pointCloud.properties.resize(pc.points.rows(), 0);
  validatePointCloud(d.pointCloud);
  return d;
}

GeometryData geometryDataOf(const GeometricPrimitive& p) {
  validatePrimitive(p);
  return holding(GeometryType::Primitive, &GeometryData::primitive, p);
}

GeometryData geometryDataOf(const ConvexHull& hull) {
  validateConvexHull(hull);
  return holding(GeometryType::ConvexHull, &GeometryData::hull, hull);
}

GeometryData geometryDataOf(const VolumeGrid& grid) {
  validateVolumeGrid(grid);
  return holding(GeometryType::VolumeGrid, &GeometryData::grid, grid);
}

GeometryData geometryDataOf(const Heightmap& hm) {
  validateHeightmap(hm);
  return holding(GeometryType::Heightmap, &GeometryData::heightmap, hm);
}

GeometryData geometryDataOf(const OccupancyGrid& grid) {
  validateOccupancyGrid(grid);
  return holding(GeometryType::OccupancyGrid, &GeometryData::occupancy, grid);
}

void appendTriangleMesh(TriangleMesh& into, const TriangleMesh& add) {
  const Eigen::Index nv = into.vertices.rows(), nt = into.indices.rows();
  into.vertices.conservativeResize(nv + add.vertices.rows(), 3);
  into.vertices.bottomRows(add.vertices.rows()) = add.vertices;
  into.indices.conservativeResize(nt + add.indices.rows(), 3);
  into.indices.bottomRows(add.indices.rows()) = (add.indices.array() + (int)nv).matrix();
}

void transformPoints(Points& pts, const RigidTransform& T) {
  for (Eigen::Index i = 0; i < pts.rows(); ++i) pts.row(i) = T.apply(pts.row(i).transpose()).transpose();
}

void tightBoundingBox(const GeometryData& data, const RigidTransform& T, Vector3& bmin, Vector3& bmax) {
  Bounds b;
  addGeometry(data, T, b);
  bmin = b.bmin;
  bmax = b.bmax;
}

void looseBoundingBox(const Geometry& g, Vector3& bmin, Vector3& bmax) {
  const GeometryData& d = *g.data;
  const std::array<Vector3, 2>* box = d.localBox.get();
  if (!box) {
    Vector3 lo, hi;
    tightBoundingBox(d, RigidTransform(), lo, hi);
    box = &d.localBox.publish(std::make_shared<const std::array<Vector3, 2>>(std::array<Vector3, 2>{lo, hi}));
  }
  const Vector3 c = g.currentTransform.apply(0.5 * ((*box)[0] + (*box)[1]));
  const Vector3 e = g.currentTransform.R.cwiseAbs() * (0.5 * ((*box)[1] - (*box)[0])) + Vector3::Constant(g.margin);
  bmin = c - e;
  bmax = c + e;
}

void tightWorldBoundingBox(const Geometry& g, Vector3& bmin, Vector3& bmax) {
  tightBoundingBox(*g.data, g.currentTransform, bmin, bmax);
  bmin.array() -= g.margin;
  bmax.array() += g.margin;
}

double meanTriangleDiameter(const TriangleMesh& mesh) {
  if (mesh.indices.rows() == 0) return 0.0;
  double sum = 0;
  for (Eigen::Index t = 0; t < mesh.indices.rows(); ++t) {
    double longest = 0;
    for (int k = 0; k < 3; ++k)
      longest = std::max(longest, (mesh.vertices.row(mesh.indices(t, k)) - mesh.vertices.row(mesh.indices(t, (k + 1) % 3))).norm());
    sum += longest;
  }
  return sum / mesh.indices.rows();
}

void validateTriangleMesh(const TriangleMesh& mesh) {
  if (!mesh.vertices.allFinite()) throw std::invalid_argument("mesh vertices must be finite");
  if (mesh.indices.size() > 0 && (mesh.indices.minCoeff() < 0 || mesh.indices.maxCoeff() >= mesh.vertices.rows()))
    throw std::invalid_argument("mesh triangle indices must be in [0, " + std::to_string(mesh.vertices.rows()) + ")");
}

void validatePointCloud(const PointCloud& pc) {
  if (!pc.points.allFinite()) throw std::invalid_argument("point cloud points must be finite");
  if (pc.properties.rows() != pc.points.rows() || pc.properties.cols() != (Eigen::Index)pc.propertyNames.size())
    throw std::invalid_argument("point cloud properties must have one row per point and one column per name");
}

void validateConvexHull(const ConvexHull& hull) {
  if (!hull.points.allFinite()) throw std::invalid_argument("convex hull points must be finite");
}

void validateVolumeGrid(const VolumeGrid& grid) {
  if (grid.dims[0] < 0 || grid.dims[1] < 0 || grid.dims[2] < 0 ||
      (std::size_t)grid.dims[0] * grid.dims[1] * grid.dims[2] != grid.values.size())
    throw std::invalid_argument("volume grid values do not match its dims");
  if (!grid.bmin.allFinite() || !grid.bmax.allFinite()) throw std::invalid_argument("volume grid bounds must be finite");
  if ((grid.bmin.array() > grid.bmax.array()).any())
    throw std::invalid_argument("volume grid bounds must have bmin <= bmax");
}

void transformPointCloud(PointCloud& pc, const RigidTransform& T) {
  transformPoints(pc.points, T);
  mapNormals(pc, T.R);
}

void transformGeometryData(GeometryData& data, const RigidTransform& T) {
  switch (data.type) {
    case GeometryType::Empty: break;
    case GeometryType::Primitive: transformPrimitive(data.primitive, T); break;
    case GeometryType::TriangleMesh: transformPoints(data.mesh.vertices, T); break;
    case GeometryType::PointCloud: transformPointCloud(data.pointCloud, T); break;
    case GeometryType::ConvexHull: transformPoints(data.hull.points, T); break;
    case GeometryType::VolumeGrid:
      if (!T.R.isIdentity(1e-12)) throw std::invalid_argument("a VolumeGrid can only be translated, not rotated");
      data.grid.bmin += T.t;
      data.grid.bmax += T.t;
      break;
    case GeometryType::Group:
      editGroup(data, [&](GeometryData& d) { transformGeometryData(d, T); });
      break;
    case GeometryType::Heightmap: data.heightmap.viewport.pose = T * data.heightmap.viewport.pose; break;
    case GeometryType::OccupancyGrid:
      if (!T.R.isIdentity(1e-12)) throw std::invalid_argument("an OccupancyGrid can only be translated, not rotated");
      data.occupancy.bmin += T.t;
      data.occupancy.bmax += T.t;
      break;
  }
}

void scaleGeometryData(GeometryData& data, const Vector3& scale) {
  if (!scale.allFinite()) throw std::invalid_argument("geometry scale must be finite");
  switch (data.type) {
    case GeometryType::Empty: break;
    case GeometryType::Primitive: scalePrimitive(data.primitive, scale); break;
    case GeometryType::TriangleMesh:
      data.mesh.vertices = data.mesh.vertices * scale.asDiagonal();
      if (scale.prod() < 0) data.mesh.indices.col(1).swap(data.mesh.indices.col(2));  // keep normals outward
      break;
    case GeometryType::PointCloud: {
      data.pointCloud.points = data.pointCloud.points * scale.asDiagonal();
      // Normals map by the cofactor matrix, defined even for zero scales.
      Vector3 cof(scale.y() * scale.z(), scale.x() * scale.z(), scale.x() * scale.y());
      if (scale.prod() < 0) cof = -cof;  // a mirrored surface keeps its outward side
      mapNormals(data.pointCloud, cof.asDiagonal());
      break;
    }
    case GeometryType::ConvexHull: data.hull.points = data.hull.points * scale.asDiagonal(); break;
    case GeometryType::VolumeGrid:
      if ((scale.array() <= 0).any()) throw std::invalid_argument("a VolumeGrid can only be scaled by positive factors");
      data.grid.bmin = data.grid.bmin.cwiseProduct(scale);
      data.grid.bmax = data.grid.bmax.cwiseProduct(scale);
      break;
    case GeometryType::Group:
      editGroup(data, [&](GeometryData& d) { scaleGeometryData(d, scale); });
      break;
    case GeometryType::Heightmap: scaleHeightmap(data.heightmap, scale); break;
    case GeometryType::OccupancyGrid:
      if ((scale.array() <= 0).any()) throw std::invalid_argument("an OccupancyGrid can only be scaled by positive factors");
      data.occupancy.bmin = data.occupancy.bmin.cwiseProduct(scale);
      data.occupancy.bmax = data.occupancy.bmax.cwiseProduct(scale);
      break;
  }
}

}  // namespace klampt
