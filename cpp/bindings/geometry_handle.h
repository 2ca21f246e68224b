// Handles of the geometry classes. Geometry3D and Appearance are standalone or
// refer to a world element's data, keeping that element's world alive; an
// element's handle waits, on access, for long calls of other threads that use
// the element (its robot's or world's use lock). The geometry data classes
// (TriangleMesh, PointCloud, ...) own their data through a shared pointer that
// their numpy views also hold, so a view never dangles; an edit that resizes
// the data while views exist moves it to new storage.
#pragma once
#include <memory>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include "klampt/geometry/appearance.h"
#include "klampt/geometry/geometry.h"
#include "klampt/model/world.h"
#include "convert.h"
#include "use_scope.h"

namespace klampt_py {

namespace py = pybind11;

struct Geometry3D {
  std::shared_ptr<klampt::Geometry> geom = std::make_shared<klampt::Geometry>();
  std::shared_ptr<klampt::World> owner;  // keeps an element's world alive
  /// The use lock of the element's robot (links) or world (objects and
  /// terrains); null for a standalone geometry.
  std::shared_ptr<const klampt::UseLock> lock;

  /// The geometry, once no long call of another thread uses its element.
  klampt::Geometry& get() const {
    if (lock) awaitFree(*lock);
    return *geom;
  }
  /// What a query without the GIL reads: the shape (shared, and never edited
  /// in place while shared), the current transform and the margin.
  klampt::Geometry snapshot() const {
    const klampt::Geometry& g = get();
    return klampt::Geometry(g.data, g.currentTransform, g.margin);
  }
};

struct Appearance {
  std::shared_ptr<klampt::Appearance> app = std::make_shared<klampt::Appearance>();
  std::shared_ptr<klampt::World> owner;
  /// As Geometry3D::lock.
  std::shared_ptr<const klampt::UseLock> lock;

  klampt::Appearance& get() const {
    if (lock) awaitFree(*lock);
    return *app;
  }
  /// The same, as a shared pointer that keeps the appearance alive through a
  /// call that runs Python code (converting an argument) while it holds it.
  std::shared_ptr<klampt::Appearance> shared() const {
    get();
    return app;
  }
};

/// The use lock of a world, as a pointer that keeps the world alive.
inline std::shared_ptr<const klampt::UseLock> worldLock(const std::shared_ptr<klampt::World>& w) {
  return w ? std::shared_ptr<const klampt::UseLock>(w, &w->useLock) : nullptr;
}

/// A standalone geometry data object (the Python TriangleMesh, PointCloud,
/// GeometricPrimitive, ConvexHull and VolumeGrid).
template <class T>
struct DataHandle {
  std::shared_ptr<T> data = std::make_shared<T>();
  /// For edits that may reallocate: copies the data first if views share it.
  T& resizable() {
    if (data.use_count() > 1) data = std::make_shared<T>(*data);
    return *data;
  }
};
using TriangleMeshHandle = DataHandle<klampt::TriangleMesh>;
using PointCloudHandle = DataHandle<klampt::PointCloud>;
using PrimitiveHandle = DataHandle<klampt::GeometricPrimitive>;
using ConvexHullHandle = DataHandle<klampt::ConvexHull>;
using VolumeGridHandle = DataHandle<klampt::VolumeGrid>;
using HeightmapHandle = DataHandle<klampt::Heightmap>;
using OccupancyGridHandle = DataHandle<klampt::OccupancyGrid>;

/// A numpy array over `ptr` (shape / element strides) that keeps `owner` alive.
template <class Scalar, class Owner>
py::array arrayView(const std::shared_ptr<Owner>& owner, Scalar* ptr, std::vector<py::ssize_t> shape) {
  std::vector<py::ssize_t> strides(shape.size());
  py::ssize_t step = sizeof(Scalar);
  for (std::size_t i = shape.size(); i-- > 0;) {
    strides[i] = step;
    step *= shape[i];
  }
  auto* keep = new std::shared_ptr<const void>(owner);
  py::capsule base(keep, [](void* p) { delete static_cast<std::shared_ptr<const void>*>(p); });
  return py::array(py::dtype::of<Scalar>(), shape, strides, ptr, base);
}

void bindGeometryTypes(py::module_& m);
/// Heightmap (bindings/heightmap.cpp) and OccupancyGrid (bindings/occupancy_grid.cpp).
void bindHeightmap(py::module_& m);
void bindOccupancyGrid(py::module_& m);
void bindGeometry3D(py::module_& m);
void bindAppearance(py::module_& m);
/// Geometry3D._render_mesh / _render_points, Appearance._render_state (after bindGeometry).
void bindRenderData(py::module_& m);

}  // namespace klampt_py
