#include "klampt/geometry/queries/shape_hull.h"

#include <iterator>
#include <mutex>
#include <unordered_map>
#include <vector>
#include <coal/shape/convex.h>
#include "klampt/geometry/convex_hull.h"
#include "klampt/geometry/queries/collision_cache.h"

namespace klampt {

namespace {

/// A convex polytope holding a shape (mesh or hull), in its local frame,
/// for the hull-box distance test; null for other shapes or when the
/// points are flat.
std::shared_ptr<const coal::ConvexBase> computeHull(const GeometryData& d) {
  if (d.type != GeometryType::TriangleMesh && d.type != GeometryType::ConvexHull) return nullptr;
  try {
    const PointMatrix points = convexHullVertices(hullPoints(d));
    auto pts = std::make_shared<std::vector<coal::Vec3s>>(points.rows());
    for (Eigen::Index j = 0; j < points.rows(); ++j) (*pts)[j] = points.row(j).transpose();
    return std::shared_ptr<const coal::ConvexBase>(
        coal::ConvexBase::convexHull(pts, (unsigned)points.rows(), true, nullptr));
  } catch (const std::exception&) {
    return nullptr;
  }
}

}  // namespace

std::shared_ptr<const coal::ConvexBase> shapeHull(const std::shared_ptr<const GeometryData>& d) {
  struct Entry {
    std::weak_ptr<const GeometryData> data;
    std::shared_ptr<const coal::ConvexBase> hull;
  };
  static std::mutex mutex;
  static std::unordered_map<const GeometryData*, Entry> hulls;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = hulls.find(d.get());
    if (it != hulls.end() && it->second.data.lock() == d) return it->second.hull;
  }
  auto hull = computeHull(*d);
  countCollisionStructureBuilt();
  std::lock_guard<std::mutex> lock(mutex);
  if (hulls.size() > 1024)
    for (auto it = hulls.begin(); it != hulls.end();) it = it->second.data.expired() ? hulls.erase(it) : std::next(it);
  hulls[d.get()] = Entry{d, hull};
  return hull;
}

}  // namespace klampt
