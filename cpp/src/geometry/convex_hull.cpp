// Qhull (reentrant C API) wrapped to return meshes and vertex subsets.
#include "klampt/geometry/convex_hull.h"
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>
#include "klampt/geometry/heightmap.h"
#include "klampt/geometry/occupancy_grid.h"
#include "klampt/geometry/primitive.h"
extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace klampt {

namespace {

// Runs Qhull on the points ("Qt": triangulated facets) and calls
// onFacet(a, b, c) for every facet with its vertex indices wound outward.
template <class F>
void runQhull(const PointMatrix& points, F onFacet) {
  if (points.rows() < 4) throw std::runtime_error("a convex hull needs at least 4 points");
  if (!points.allFinite()) throw std::invalid_argument("convex hull points must be finite");
  std::vector<coordT> coords(points.data(), points.data() + points.size());
  char* errText = nullptr;
  std::size_t errSize = 0;
  FILE* err = open_memstream(&errText, &errSize);
  qhT qhData;
  qhT* qh = &qhData;
  qh_zero(qh, err);
  char flags[] = "qhull Qt";
  int code = qh_new_qhull(qh, 3, (int)points.rows(), coords.data(), False, flags, nullptr, err);
  if (code == 0) {
    facetT* facet;
    FORALLfacets {
      int ids[3], n = 0;
      vertexT *vertex, **vertexp;
      FOREACHvertex_(facet->vertices) {
        if (n < 3) ids[n] = qh_pointid(qh, vertex->point);
        ++n;
      }
      if (n != 3) continue;
      Vector3 a = points.row(ids[0]), b = points.row(ids[1]), c = points.row(ids[2]);
      Vector3 normal(facet->normal[0], facet->normal[1], facet->normal[2]);
      if ((b - a).cross(c - a).dot(normal) < 0) std::swap(ids[1], ids[2]);
      onFacet(ids[0], ids[1], ids[2]);
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong, totlong;
  qh_memfreeshort(qh, &curlong, &totlong);
  std::fclose(err);
  std::string message(errText ? errText : "", errSize);
  std::free(errText);
  if (code != 0) {
    std::size_t cut = message.find('\n');
    throw std::runtime_error("Qhull could not compute the convex hull: " +
                             (cut == std::string::npos ? message : message.substr(0, cut)));
  }
}

void appendRows(PointMatrix& out, const PointMatrix& rows) {
  Eigen::Index n = out.rows();
  out.conservativeResize(n + rows.rows(), 3);
  out.bottomRows(rows.rows()) = rows;
}

}  // namespace

TriangleMesh convexHullMesh(const PointMatrix& points) {
  std::vector<int> used(points.rows(), -1);
  std::vector<std::array<int, 3>> tris;
  runQhull(points, [&](int a, int b, int c) { tris.push_back({a, b, c}); });
  TriangleMesh mesh;
  int count = 0;
  for (auto& t : tris)
    for (int& i : t) {
      if (used[i] < 0) used[i] = count++;
      i = used[i];
    }
  mesh.vertices.resize(count, 3);
  for (Eigen::Index i = 0; i < points.rows(); ++i)
    if (used[i] >= 0) mesh.vertices.row(used[i]) = points.row(i);
  mesh.indices.resize((Eigen::Index)tris.size(), 3);
  for (std::size_t t = 0; t < tris.size(); ++t) mesh.indices.row(t) << tris[t][0], tris[t][1], tris[t][2];
  return mesh;
}

PointMatrix convexHullVertices(const PointMatrix& points) {
  std::vector<char> onHull(points.rows(), 0);
  runQhull(points, [&](int a, int b, int c) { onHull[a] = onHull[b] = onHull[c] = 1; });
  PointMatrix out(std::count(onHull.begin(), onHull.end(), 1), 3);
  Eigen::Index k = 0;
  for (Eigen::Index i = 0; i < points.rows(); ++i)
    if (onHull[i]) out.row(k++) = points.row(i);
  return out;
}

PointMatrix hullPoints(const GeometryData& data) {
  switch (data.type) {
    case GeometryType::Empty: return PointMatrix(0, 3);
    case GeometryType::TriangleMesh: return data.mesh.vertices;
    case GeometryType::PointCloud: return data.pointCloud.points;
    case GeometryType::ConvexHull: return data.hull.points;
    case GeometryType::Primitive: {
      const GeometricPrimitive& p = data.primitive;
      if (p.type == "Point" || p.type == "Segment") {
        PointMatrix out(p.properties.size() / 3, 3);
        for (Eigen::Index i = 0; i < out.rows(); ++i)
          out.row(i) << p.properties[3 * i], p.properties[3 * i + 1], p.properties[3 * i + 2];
        return out;
      }
      return primitiveToMesh(p, 0).vertices;
    }
    case GeometryType::VolumeGrid: {
      const VolumeGrid& g = data.grid;
      PointMatrix out(8, 3);
      for (int c = 0; c < 8; ++c)
        for (int k = 0; k < 3; ++k) out(c, k) = ((c >> k) & 1) ? g.bmax[k] : g.bmin[k];
      return out;
    }
    case GeometryType::Heightmap: return heightmapMesh(data.heightmap).vertices;
    case GeometryType::OccupancyGrid: return hullPoints(occupancyBoxes(data.occupancy));
    case GeometryType::Group: {
      PointMatrix out(0, 3);
      for (const auto& child : data.group)
        if (child) appendRows(out, hullPoints(*child));
      return out;
    }
  }
  return PointMatrix(0, 3);
}

GeometryData hullOfPair(const Geometry& g1, const Geometry& g2) {
  const RigidTransform rel = g1.currentTransform.inverse() * g2.currentTransform;
  const PointMatrix a = hullPoints(*g1.data);
  PointMatrix b = hullPoints(*g2.data);
  transformPoints(b, rel);
  GeometryData d;
  d.type = GeometryType::ConvexHull;
  d.hull.points.resize(a.rows() + b.rows(), 3);
  d.hull.points.topRows(a.rows()) = a;
  d.hull.points.bottomRows(b.rows()) = b;
  return d;
}

}  // namespace klampt
