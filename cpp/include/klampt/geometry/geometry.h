// Geometry data held by links, rigid objects and terrains: the payload of each
// geometry type, the current transform and the collision margin. Queries live
// elsewhere in geometry/.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>
#include "klampt/math/types.h"

namespace klampt {

/// Indexed triangle mesh; rows of `vertices` are points, rows of `indices` triangles.
struct TriangleMesh {
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> vertices;
  Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor> indices;
};

/// Point cloud with optional per-point named properties (one column each).
struct PointCloud {
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> points;
  std::vector<std::string> propertyNames;
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> properties;
  std::map<std::string, std::string> settings;
};

/// Klamp't's geometric primitive: a type name ("Point", "Sphere", "Segment",
/// "Triangle", "Polygon", "AABB", "Box") and its flat list of parameters.
struct GeometricPrimitive {
  std::string type;
  std::vector<double> properties;
};

/// Axis-aligned grid of values (a signed distance field: > 0 outside).
struct VolumeGrid {
  Vector3 bmin = Vector3::Zero(), bmax = Vector3::Zero();
  std::array<int, 3> dims{0, 0, 0};
  std::vector<double> values;  // x-major: index = (i*dims[1] + j)*dims[2] + k
  /// Infinite for a signed distance field; for a truncated one (TSDF), the
  /// value from which cells count as far (queries beyond it are not meaningful).
  double truncationDistance = std::numeric_limits<double>::infinity();
};

/// Points whose convex hull is the geometry.
struct ConvexHull {
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> points;
};

/// Where a heightmap's samples lie: a w x h grid, its projection
/// (orthographic elevation map or perspective depth map), the intrinsics
/// that map grid indices to the image plane and the grid frame's pose.
struct HeightmapViewport {
  int w = 1, h = 1;
  bool perspective = false;
  double fx = 1.0, fy = 1.0, cx = 0.5, cy = 0.5;
  RigidTransform pose;
};

/// A w x h array of floats indexed (i, j): i along x, j down the image.
using FloatGrid = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// Heights (or depths) at the vertices of a grid (geometry/heightmap.h).
struct Heightmap {
  HeightmapViewport viewport;
  FloatGrid heights;                  // w x h
  int colorChannels = 0;              // 0 (none), 1, 3 or 4
  std::vector<std::uint8_t> colors;   // h x w x colorChannels, top row first
  std::vector<std::string> propertyNames;
  std::vector<FloatGrid> properties;  // each w x h
};

/// Axis-aligned grid of cell values; cells above occupancyThreshold are
/// solid boxes (geometry/occupancy_grid.h).
struct OccupancyGrid {
  Vector3 bmin = Vector3::Zero(), bmax = Vector3::Zero();
  std::array<int, 3> dims{0, 0, 0};
  std::vector<double> values;  // x-major: index = (i*dims[1] + j)*dims[2] + k
  double occupancyThreshold = 0.5;
};

enum class GeometryType { Empty, Primitive, TriangleMesh, PointCloud, VolumeGrid, ConvexHull, Group, Heightmap, OccupancyGrid };

/// Acceleration structures for queries (BVHs, hulls), defined by the query
/// code, built lazily on first use and shared by every copy of the shape.
struct CollisionCache;
class TriangleDistanceTree;
/// Arrays for drawing (geometry/render_data.h), built on first draw.
struct RenderCache;

/// Serializes storing a LazyCache's value (once per shape and structure).
std::mutex& lazyCachePublishMutex();

/// A lazily built acceleration structure of a GeometryData. Reading it is one
/// acquire load, with no lock and no reference count, so threads querying one
/// shared shape do not contend; the value lives as long as the GeometryData
/// (until an edit, which happens only to a shape no other thread holds). A
/// copy of the GeometryData starts without it: copies are made to be edited,
/// and the original's may be under construction on another thread.
template <class T>
class LazyCache {
 public:
  LazyCache() = default;
  LazyCache(const LazyCache&) noexcept {}
  LazyCache& operator=(const LazyCache&) noexcept {
    reset();
    return *this;
  }
  /// The stored value, or null before the first publish.
  T* get() const noexcept { return ptr_.load(std::memory_order_acquire); }
  /// Stores `value` unless another thread stored one first; returns the value kept.
  T& publish(std::shared_ptr<T> value) {
    std::lock_guard<std::mutex> lock(lazyCachePublishMutex());
    if (T* kept = ptr_.load(std::memory_order_relaxed)) return *kept;
    owner_ = std::move(value);
    ptr_.store(owner_.get(), std::memory_order_release);
    return *owner_;
  }
  /// Drops the value (the shape is being edited by its only holder).
  void reset() noexcept {
    ptr_.store(nullptr, std::memory_order_relaxed);
    owner_.reset();
  }

 private:
  std::shared_ptr<T> owner_;
  std::atomic<T*> ptr_{nullptr};
};

/// The shape of a geometry in its local frame. Immutable once shared: editing a
/// shared geometry copies it first (see Geometry::mutableData), so a query
/// that holds the shared pointer reads a shape that does not change.
struct GeometryData {
  GeometryType type = GeometryType::Empty;
  GeometricPrimitive primitive;
  TriangleMesh mesh;
  PointCloud pointCloud;
  VolumeGrid grid;
  ConvexHull hull;
  std::vector<std::shared_ptr<const GeometryData>> group;
  Heightmap heightmap;
  OccupancyGrid occupancy;
  /// Built on first query; reset whenever the shape is edited.
  mutable LazyCache<CollisionCache> collisionCache;
  /// Local axis-aligned box {min, max}, computed on first use; reset with the cache.
  mutable LazyCache<const std::array<Vector3, 2>> localBox;
  /// A mesh's box tree for point queries, cheaper to build than the collision
  /// cache's; built on the first point query, reset with the cache.
  mutable LazyCache<const TriangleDistanceTree> pointQueryTree;
  /// Built on the first draw, reset with the cache.
  mutable LazyCache<const RenderCache> renderCache;
  /// What the queries see of a heightmap (its surface mesh) or an occupancy
  /// grid (a group of its occupied boxes); built on first use, reset with the cache.
  mutable LazyCache<const GeometryData> queryProxy;
};

/// A geometry as an element holds it: shared shape data plus the element's
/// current transform and collision margin.
struct Geometry {
  std::shared_ptr<const GeometryData> data = std::make_shared<GeometryData>();
  RigidTransform currentTransform;
  double margin = 0.0;
  /// The file it was loaded from (kept for saving), empty if built in memory.
  std::string sourceFile;
  // Added for the .rob loader/saver (io/rob_*): the affine map
  // x -> sourceLinear x + sourceOffset that the loader applied to the contents
  // of sourceFile (.rob geomscale/geomtransform); identity when loaded as is.
  // A saver that references sourceFile writes it back so the shape round-trips.
  Matrix3 sourceLinear = Matrix3::Identity();
  Vector3 sourceOffset = Vector3::Zero();

  Geometry() = default;
  /// What a query reads: a shape, its pose and margin (no allocation).
  Geometry(std::shared_ptr<const GeometryData> shape, const RigidTransform& T, double margin)
      : data(std::move(shape)), currentTransform(T), margin(margin) {}

  bool empty() const { return data->type == GeometryType::Empty; }
  /// Copy-on-write access to the shape (the copy, if any, starts without
  /// acceleration structures).
  GeometryData& mutableData() {
    if (data.use_count() > 1) data = std::make_shared<GeometryData>(*data);
    GeometryData& d = const_cast<GeometryData&>(*data);
    d.collisionCache.reset();
    d.localBox.reset();
    d.pointQueryTree.reset();
    d.renderCache.reset();
    d.queryProxy.reset();
    return d;
  }
};

/// Name of a geometry type as Geometry3D.type() returns it ("" when empty).
const char* geometryTypeName(GeometryType type);

/// Axis-aligned bounding box [bmin, bmax] of the shape in its local frame
/// transformed by T (exact for meshes, points and primitives).
void tightBoundingBox(const GeometryData& data, const RigidTransform& T, Vector3& bmin, Vector3& bmax);

/// World box of g grown by its margin, in O(1) after the first call: the
/// cached local box placed at the current transform (loose when rotated).
void looseBoundingBox(const Geometry& g, Vector3& bmin, Vector3& bmax);
/// The exact world box of g grown by its margin.
void tightWorldBoundingBox(const Geometry& g, Vector3& bmin, Vector3& bmax);

/// Bakes a transform into the shape (vertices, points, primitive parameters).
void transformGeometryData(GeometryData& data, const RigidTransform& T);
/// Mean over the triangles of their longest edge (0 without triangles): the
/// default resolution of mesh conversions.
double meanTriangleDiameter(const TriangleMesh& mesh);

/// Throws std::invalid_argument if a vertex is not finite or an index does
/// not name a vertex.
void validateTriangleMesh(const TriangleMesh& mesh);
/// Throws std::invalid_argument for non-finite points or properties, or a
/// property table whose shape does not match the points and names.
void validatePointCloud(const PointCloud& pc);
/// Throws std::invalid_argument for a non-finite point.
void validateConvexHull(const ConvexHull& hull);
/// Throws std::invalid_argument if the values do not fill the dims, or the
/// bounds are not finite with bmin <= bmax.
void validateVolumeGrid(const VolumeGrid& grid);

/// Shape data holding a copy of a mesh, point cloud, primitive, convex hull
/// or volume grid, validated first (std::invalid_argument as the validate
/// functions say). A point cloud without properties gets an n x 0 table.
GeometryData geometryDataOf(const TriangleMesh& mesh);
GeometryData geometryDataOf(const PointCloud& pc);
GeometryData geometryDataOf(const GeometricPrimitive& p);
GeometryData geometryDataOf(const ConvexHull& hull);
GeometryData geometryDataOf(const VolumeGrid& grid);
GeometryData geometryDataOf(const Heightmap& hm);
GeometryData geometryDataOf(const OccupancyGrid& grid);

/// Appends the vertices and triangles of `add` to `into` (indices shifted).
void appendTriangleMesh(TriangleMesh& into, const TriangleMesh& add);
/// Applies T to each row of an n x 3 point array (mesh vertices, hull points).
void transformPoints(Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>& pts, const RigidTransform& T);
/// Moves a point cloud's points by T and rotates its normal_x/y/z properties.
void transformPointCloud(PointCloud& pc, const RigidTransform& T);
/// Scales a shape about its local origin, per axis.
void scaleGeometryData(GeometryData& data, const Vector3& scale);

}  // namespace klampt
