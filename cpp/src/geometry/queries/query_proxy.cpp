// Stand-in shapes of heightmaps and occupancy grids for the queries.
#include "query_proxy.h"
#include <memory>
#include "klampt/geometry/heightmap.h"
#include "klampt/geometry/occupancy_grid.h"

namespace klampt {
namespace detail {

const GeometryData* queryProxy(const GeometryData& data) {
  if (data.type != GeometryType::Heightmap && data.type != GeometryType::OccupancyGrid) return nullptr;
  if (const GeometryData* built = data.queryProxy.get()) return built;
  auto proxy = std::make_shared<GeometryData>();
  if (data.type == GeometryType::Heightmap) {
    proxy->type = GeometryType::TriangleMesh;
    proxy->mesh = heightmapSolidMesh(data.heightmap);
  } else {
    *proxy = occupancyBoxes(data.occupancy);
  }
  return &data.queryProxy.publish(std::move(proxy));
}

}  // namespace detail
}  // namespace klampt
