// The solid side of heightmaps (heightmap_solid.h).
#include "heightmap_solid.h"
#include <stdexcept>
#include "klampt/geometry/heightmap.h"
#include "klampt/geometry/queries/queries.h"

namespace klampt {
namespace detail {

bool buriedInHeightmap(const Geometry& hm, const Geometry& other) {
  if (hm.data->type != GeometryType::Heightmap || other.empty()) return false;
  const Heightmap& h = hm.data->heightmap;
  const RigidTransform toLocal = hm.currentTransform.inverse();
  if (other.data->type == GeometryType::PointCloud) {
    // One transform from the cloud's frame to the heightmap's view.
    const RigidTransform toView = h.viewport.pose.inverse() * toLocal * other.currentTransform;
    const auto& pts = other.data->pointCloud.points;
    for (Eigen::Index i = 0; i < pts.rows(); ++i)
      if (heightmapContainsInView(h, toView.apply(pts.row(i).transpose()))) return true;
    return false;
  }
  const Vector3 solid =
      hm.currentTransform.R * (h.viewport.pose.R * Vector3(0, 0, h.viewport.perspective ? 1.0 : -1.0));
  Vector3 deepest;
  try {
    deepest = support(other, solid);
  } catch (const std::invalid_argument&) {
    return false;  // shapes without support points (volume grids) are judged by their surfaces only
  }
  return heightmapContains(h, toLocal.apply(deepest));
}

}  // namespace detail
}  // namespace klampt
