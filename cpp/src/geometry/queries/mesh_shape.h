// Internal to the queries: the distance from a triangle mesh to a convex
// Coal shape (box, capsule, convex hull) over the mesh's own tree.
#pragma once
#include <coal/shape/geometric_shapes.h>
#include "mesh_bvh.h"

namespace klampt {
namespace detail {

struct MeshShapeDistance {
  double d;          // below 0 when a triangle penetrates the shape
  Vector3 cp1, cp2;  // world closest points on the mesh and on the shape
  int tri = -1;
};
/// Distance between the mesh (placed at Tm) and the shape (placed at Ts) if
/// below `upper` (tri = -1 otherwise), within relErr / absErr as Coal's
/// distance requests define them; each triangle's distance is exact to GJK's
/// tolerance of 1e-10. With `depth` false a triangle that overlaps the shape
/// counts as distance 0, with no closest points (NaN): enough for a yes or no,
/// and it spares the penetration search (EPA) of every overlapping triangle.
MeshShapeDistance meshShapeDistance(const MeshBVH& mesh, const coal::Transform3s& Tm, const coal::ShapeBase& shape,
                                    const coal::Transform3s& Ts, double upper, double relErr, double absErr,
                                    bool depth);

}  // namespace detail
}  // namespace klampt
