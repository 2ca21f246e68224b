// Signed distance grids and their isosurfaces.
#include "klampt/geometry/volume_grid.h"
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>
#include <vector>
#include "klampt/geometry/mesh_distance.h"
#include "klampt/geometry/primitive.h"

namespace klampt {

Vector3 cellCenter(const VolumeGrid& grid, int i, int j, int k) {
  Vector3 size = (grid.bmax - grid.bmin).cwiseQuotient(Vector3(grid.dims[0], grid.dims[1], grid.dims[2]));
  return grid.bmin + Vector3(i + 0.5, j + 0.5, k + 0.5).cwiseProduct(size);
}

void resizeVolumeGrid(VolumeGrid& grid, long sx, long sy, long sz) {
  if (sx < 0 || sy < 0 || sz < 0) throw std::invalid_argument("grid dimensions must be >= 0");
  if ((double)sx * sy * sz > double(1 << 28)) throw std::invalid_argument("grid too large (more than 2^28 cells)");
  grid.dims = {(int)sx, (int)sy, (int)sz};
  grid.values.assign((std::size_t)sx * sy * sz, 0.0);
}

void setVolumeGridBounds(VolumeGrid& grid, const Vector3& bmin, const Vector3& bmax, const char* what) {
  if ((bmin.array() > bmax.array()).any()) throw std::invalid_argument(std::string(what) + " must have bmin <= bmax");
  grid.bmin = bmin;
  grid.bmax = bmax;
}

VolumeGrid gridAround(const Vector3& lo, const Vector3& hi, double resolution) {
  if (!(resolution > 0) || !std::isfinite(resolution)) throw std::invalid_argument("grid resolution must be > 0");
  if (!lo.allFinite() || !hi.allFinite()) throw std::invalid_argument("cannot grid an empty or unbounded shape");
  VolumeGrid g;
  double total = 1;
  for (int k = 0; k < 3; ++k) {
    // One and a half cells of padding per side, as Klamp't lays out its grids:
    // cell centres then fall on lo - resolution + k * resolution.
    double cells = std::ceil((hi[k] - lo[k]) / resolution) + 3;
    total *= cells;
    if (total > double(1 << 25)) throw std::invalid_argument("grid resolution too fine: more than 2^25 cells");
    g.dims[k] = (int)cells;
    double mid = 0.5 * (lo[k] + hi[k]);
    g.bmin[k] = mid - 0.5 * cells * resolution;
    g.bmax[k] = mid + 0.5 * cells * resolution;
  }
  g.values.assign((std::size_t)total, 0.0);
  return g;
}

VolumeGrid meshToVolumeGrid(const TriangleMesh& mesh, double resolution) {
  if (mesh.indices.rows() == 0) throw std::invalid_argument("cannot build a volume grid from a mesh with no triangles");
  if (resolution <= 0) resolution = meanTriangleDiameter(mesh);
  VolumeGrid g = gridAround(mesh.vertices.colwise().minCoeff().transpose(),
                            mesh.vertices.colwise().maxCoeff().transpose(), resolution);
  TriangleDistanceTree tree(mesh);
  std::vector<char> inside = insideCells(mesh, g);
  for (int i = 0; i < g.dims[0]; ++i)
    for (int j = 0; j < g.dims[1]; ++j)
      for (int k = 0; k < g.dims[2]; ++k) {
        std::size_t c = cellIndex(g, i, j, k);
        double d = tree.distance(cellCenter(g, i, j, k));
        g.values[c] = inside[c] ? -d : d;
      }
  return g;
}

VolumeGrid primitiveToVolumeGrid(const GeometricPrimitive& prim, double resolution) {
  validatePrimitive(prim);
  GeometryData data;
  data.type = GeometryType::Primitive;
  data.primitive = prim;
  Vector3 lo, hi;
  tightBoundingBox(data, RigidTransform(), lo, hi);
  if (resolution <= 0) resolution = std::max((hi - lo).maxCoeff() / 10, 1e-3);
  VolumeGrid g = gridAround(lo, hi, resolution);
  for (int i = 0; i < g.dims[0]; ++i)
    for (int j = 0; j < g.dims[1]; ++j)
      for (int k = 0; k < g.dims[2]; ++k)
        g.values[cellIndex(g, i, j, k)] = primitiveSignedDistance(prim, cellCenter(g, i, j, k));
  return g;
}

TriangleMesh volumeGridIsosurface(const VolumeGrid& g, double level) {
  const int nx = g.dims[0], ny = g.dims[1], nz = g.dims[2];
  if ((std::size_t)nx * ny * nz != g.values.size()) throw std::invalid_argument("volume grid values do not match its dims");
  std::vector<Vector3> verts;
  std::vector<std::array<int, 3>> tris;
  std::unordered_map<std::uint64_t, int> edgeVertex;  // lattice edge -> vertex
  const std::uint64_t numCells = g.values.size();
  auto id = [&](int i, int j, int k) { return (std::uint64_t)cellIndex(g, i, j, k); };
  auto edgePoint = [&](std::uint64_t a, std::uint64_t b, const Vector3& pa, const Vector3& pb, double fa, double fb) {
    std::uint64_t key = std::min(a, b) * numCells + std::max(a, b);
    auto it = edgeVertex.find(key);
    if (it != edgeVertex.end()) return it->second;
    double t = (level - fa) / (fb - fa);
    verts.push_back(pa + t * (pb - pa));
    edgeVertex.emplace(key, (int)verts.size() - 1);
    return (int)verts.size() - 1;
  };
  // The six tetrahedra of a cube: corner 0, then one, two, three axis steps
  // in each order of the axes (shared diagonal 0-7).
  static const int tets[6][4] = {{0, 1, 3, 7}, {0, 1, 5, 7}, {0, 2, 3, 7}, {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 4, 6, 7}};
  for (int i = 0; i + 1 < nx; ++i)
    for (int j = 0; j + 1 < ny; ++j)
      for (int k = 0; k + 1 < nz; ++k) {
        std::uint64_t cid[8];
        Vector3 pos[8];
        double val[8];
        bool anyIn = false, anyOut = false;
        for (int c = 0; c < 8; ++c) {
          int a = i + (c & 1), b = j + ((c >> 1) & 1), d = k + ((c >> 2) & 1);
          cid[c] = id(a, b, d);
          pos[c] = cellCenter(g, a, b, d);
          val[c] = g.values[cid[c]];
          (val[c] < level ? anyIn : anyOut) = true;
        }
        if (!anyIn || !anyOut) continue;
        for (const auto& tet : tets) {
          int in[4], out[4], ni = 0, no = 0;
          for (int c : tet) (val[c] < level ? in[ni++] : out[no++]) = c;
          if (ni == 0 || no == 0) continue;
          auto ep = [&](int a, int b) { return edgePoint(cid[a], cid[b], pos[a], pos[b], val[a], val[b]); };
          Vector3 away = Vector3::Zero();  // from the inside corners towards the outside ones
          for (int q = 0; q < no; ++q) away += pos[out[q]] / no;
          for (int q = 0; q < ni; ++q) away -= pos[in[q]] / ni;
          auto emit = [&](int a, int b, int c) {
            if (a == b || b == c || a == c) return;
            if ((verts[b] - verts[a]).cross(verts[c] - verts[a]).dot(away) < 0) std::swap(b, c);
            tris.push_back({a, b, c});
          };
          if (ni == 1 || no == 1) {
            bool single_in = ni == 1;
            int s = single_in ? in[0] : out[0];
            const int* others = single_in ? out : in;
            emit(ep(s, others[0]), ep(s, others[1]), ep(s, others[2]));
          } else {  // two and two: a quad
            int p = ep(in[0], out[0]), q = ep(in[0], out[1]), r = ep(in[1], out[1]), s = ep(in[1], out[0]);
            emit(p, q, r);
            emit(p, r, s);
          }
        }
      }
  TriangleMesh mesh;
  mesh.vertices.resize((Eigen::Index)verts.size(), 3);
  for (std::size_t v = 0; v < verts.size(); ++v) mesh.vertices.row(v) = verts[v].transpose();
  mesh.indices.resize((Eigen::Index)tris.size(), 3);
  for (std::size_t t = 0; t < tris.size(); ++t) mesh.indices.row(t) << tris[t][0], tris[t][1], tris[t][2];
  return mesh;
}

}  // namespace klampt
