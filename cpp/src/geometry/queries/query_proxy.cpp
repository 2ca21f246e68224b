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
    // Surface and walls apart: one tree holding both would mix the long
    // wall triangles into the surface's boxes.
    proxy->type = GeometryType::Group;
    for (TriangleMesh part : {heightmapMesh(data.heightmap), heightmapWalls(data.heightmap)}) {
      if (part.indices.rows() == 0) continue;
      auto member = std::make_shared<GeometryData>();
      member->type = GeometryType::TriangleMesh;
      member->mesh = std::move(part);
      proxy->group.push_back(std::move(member));
    }
  } else {
    *proxy = occupancyBoxes(data.occupancy);
  }
  return &data.queryProxy.publish(std::move(proxy));
}

}  // namespace detail
}  // namespace klampt
