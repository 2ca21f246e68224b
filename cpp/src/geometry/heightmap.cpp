// Heightmap grids: sizing, projections, vertex positions, and the mesh and
// point cloud through the samples.
#include "klampt/geometry/heightmap.h"
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include "klampt/geometry/mesh_distance.h"
#include "klampt/geometry/volume_grid.h"

namespace klampt {

namespace {

void requireNontrivial(const Heightmap& hm, const char* what) {
  if (hm.viewport.w <= 1 || hm.viewport.h <= 1)
    throw std::invalid_argument(std::string(what) + " needs a heightmap of at least 2 x 2 samples (resize it first)");
}

FloatGrid resized(const FloatGrid& a, int w, int h) {
  FloatGrid out = FloatGrid::Zero(w, h);
  const int mi = std::min<int>(w, a.rows()), mj = std::min<int>(h, a.cols());
  out.topLeftCorner(mi, mj) = a.topLeftCorner(mi, mj);
  return out;
}

/// Local (orientation-free) image-plane coordinates of sample (i, j).
Eigen::Vector2d planeCoords(const HeightmapViewport& vp, double i, double j) {
  const double u = (i + 0.5 - vp.cx) / vp.fx;
  const double v = vp.perspective ? (j + 0.5 - vp.cy) / vp.fy : (vp.h - 1 - j + 0.5 - vp.cy) / vp.fy;
  return {u, v};
}

}  // namespace

void resizeHeightmap(Heightmap& hm, int w, int h) {
  if (w < 0 || h < 0) throw std::invalid_argument("heightmap size must be >= 0");
  if ((long long)w * h > kMaxHeightmapPoints) throw std::invalid_argument("heightmap size too large");
  HeightmapViewport& vp = hm.viewport;
  if (vp.w > 1) {
    vp.cx = vp.cx / vp.w * w;
    vp.fx = vp.fx / vp.w * w;
  } else {
    vp.cx = 0.5 * w;
  }
  if (vp.h > 1) {
    vp.cy = vp.cy / vp.h * h;
    vp.fy = vp.fy / vp.h * h;
  } else {
    vp.cy = 0.5 * h;
  }
  hm.heights = resized(hm.heights, w, h);
  for (auto& p : hm.properties) p = resized(p, w, h);
  if (hm.colorChannels > 0) {
    // Colour rows are top to bottom, h x w x c.
    std::vector<std::uint8_t> colors((size_t)w * h * hm.colorChannels, 255);
    const int c = hm.colorChannels;
    for (int r = 0; r < std::min(h, vp.h); ++r)
      for (int i = 0; i < std::min(w, vp.w); ++i)
        std::copy_n(&hm.colors[((size_t)r * vp.w + i) * c], c, &colors[((size_t)r * w + i) * c]);
    hm.colors = std::move(colors);
  }
  vp.w = w;
  vp.h = h;
}

void setHeightmapSize(Heightmap& hm, double width, double height) {
  requireNontrivial(hm, "setSize");
  if (!(std::isfinite(width) && width > 0) || !std::isfinite(height))
    throw std::invalid_argument("heightmap width must be > 0 and height finite");
  HeightmapViewport& vp = hm.viewport;
  if (height <= 0) height = width / (vp.w - 1) * (vp.h - 1);
  vp.perspective = false;
  vp.fx = (vp.w - 1) / width;
  vp.fy = (vp.h - 1) / height;
  vp.cx = 0.5 * vp.w;
  vp.cy = 0.5 * vp.h;
}

void setHeightmapFOV(Heightmap& hm, double fovx, double fovy) {
  requireNontrivial(hm, "setFOV");
  if (!(fovx > 0 && fovx < M_PI) || !(std::isfinite(fovy) && fovy < M_PI))
    throw std::invalid_argument("fields of view must be in (0, pi) radians");
  HeightmapViewport& vp = hm.viewport;
  vp.perspective = true;
  vp.fx = 0.5 * (vp.w - 1) / std::tan(0.5 * fovx);
  vp.fy = fovy > 0 ? 0.5 * (vp.h - 1) / std::tan(0.5 * fovy) : vp.fx;
  vp.cx = 0.5 * vp.w;
  vp.cy = 0.5 * vp.h;
}

void setHeightmapIntrinsics(Heightmap& hm, double fx, double fy, double cx, double cy) {
  if (!std::isfinite(fx) || !std::isfinite(fy) || fx == 0 || fy == 0 || !std::isfinite(cx) || !std::isfinite(cy))
    throw std::invalid_argument("intrinsics must be finite with fx, fy nonzero");
  HeightmapViewport& vp = hm.viewport;
  vp.perspective = true;
  vp.fx = fx;
  vp.fy = fy;
  vp.cx = cx < 0 ? 0.5 * vp.w : cx;
  vp.cy = cy < 0 ? 0.5 * vp.h : cy;
}

bool validHeight(const Heightmap& hm, double v) {
  return std::isfinite(v) && !(hm.viewport.perspective && v == 0);
}

Vector3 heightmapVertex(const Heightmap& hm, int i, int j) {
  const Eigen::Vector2d uv = planeCoords(hm.viewport, i, j);
  const double d = hm.heights(i, j);
  const Vector3 local = hm.viewport.perspective ? Vector3(d * uv.x(), d * uv.y(), d) : Vector3(uv.x(), uv.y(), d);
  return hm.viewport.pose.apply(local);
}

namespace {

/// heightmapProject of a point in the viewport's frame (its pose undone).
Vector3 projectInView(const HeightmapViewport& vp, const Vector3& q) {
  if (vp.perspective) {
    if (!(q.z() > 0)) return Vector3(NAN, NAN, q.z());
    return Vector3(q.x() / q.z() * vp.fx + vp.cx - 0.5, q.y() / q.z() * vp.fy + vp.cy - 0.5, q.z());
  }
  return Vector3(q.x() * vp.fx + vp.cx - 0.5, vp.h - 1 + 0.5 - vp.cy - q.y() * vp.fy, q.z());
}

}  // namespace

Vector3 heightmapProject(const Heightmap& hm, const Vector3& p) {
  return projectInView(hm.viewport, hm.viewport.pose.inverse().apply(p));
}

TriangleMesh heightmapMesh(const Heightmap& hm) {
  const int w = (int)hm.heights.rows(), h = (int)hm.heights.cols();
  Eigen::MatrixXi index = Eigen::MatrixXi::Constant(w, h, -1);
  int n = 0;
  for (int i = 0; i < w; ++i)
    for (int j = 0; j < h; ++j)
      if (validHeight(hm, hm.heights(i, j))) index(i, j) = n++;
  TriangleMesh mesh;
  mesh.vertices.resize(n, 3);
  for (int i = 0; i < w; ++i)
    for (int j = 0; j < h; ++j)
      if (index(i, j) >= 0) mesh.vertices.row(index(i, j)) = heightmapVertex(hm, i, j).transpose();
  std::vector<Eigen::Vector3i> tris;
  for (int i = 0; i + 1 < w; ++i)
    for (int j = 0; j + 1 < h; ++j) {
      const int a = index(i, j), b = index(i, j + 1), c = index(i + 1, j), d = index(i + 1, j + 1);
      // As the reference: each triangle whose three samples are valid.
      if (a >= 0 && b >= 0 && c >= 0) tris.emplace_back(a, b, c);
      if (b >= 0 && d >= 0 && c >= 0) tris.emplace_back(b, d, c);
    }
  mesh.indices.resize((Eigen::Index)tris.size(), 3);
  for (size_t t = 0; t < tris.size(); ++t) mesh.indices.row((Eigen::Index)t) = tris[t].transpose();
  return mesh;
}

TriangleMesh heightmapWalls(const Heightmap& hm) {
  TriangleMesh mesh;
  const int w = (int)hm.heights.rows(), h = (int)hm.heights.cols();
  if (hm.viewport.perspective || w < 2 || h < 2) return mesh;
  // Walls from each outer edge between two valid samples down to a floor a
  // footprint's diagonal below the lowest sample.
  double lowest = INFINITY;
  for (Eigen::Index k = 0; k < hm.heights.size(); ++k)
    if (validHeight(hm, hm.heights.data()[k])) lowest = std::min(lowest, (double)hm.heights.data()[k]);
  if (!std::isfinite(lowest)) return mesh;
  const double span = std::hypot((w - 1) / std::abs(hm.viewport.fx), (h - 1) / std::abs(hm.viewport.fy));
  const double floorHeight = lowest - std::max(span, 1e-3);
  std::vector<std::array<int, 2>> edges;  // consecutive samples (i, j) pairs along the border, as flat indices
  for (int i = 0; i + 1 < w; ++i) {
    edges.push_back({i * h, (i + 1) * h});
    edges.push_back({(i + 1) * h + h - 1, i * h + h - 1});
  }
  for (int j = 0; j + 1 < h; ++j) {
    edges.push_back({j + 1, j});
    edges.push_back({(w - 1) * h + j, (w - 1) * h + j + 1});
  }
  const Vector3 up = hm.viewport.pose.R.col(2);
  std::vector<Vector3> corners;
  std::vector<Eigen::Vector3i> tris;
  for (const auto& e : edges) {
    const int i0 = e[0] / h, j0 = e[0] % h, i1 = e[1] / h, j1 = e[1] % h;
    if (!validHeight(hm, hm.heights(i0, j0)) || !validHeight(hm, hm.heights(i1, j1))) continue;
    const Vector3 top0 = heightmapVertex(hm, i0, j0), top1 = heightmapVertex(hm, i1, j1);
    const int k = (int)corners.size();
    corners.push_back(top0);
    corners.push_back(top1);
    corners.push_back(top1 - up * (hm.heights(i1, j1) - floorHeight));
    corners.push_back(top0 - up * (hm.heights(i0, j0) - floorHeight));
    tris.emplace_back(k, k + 1, k + 2);
    tris.emplace_back(k, k + 2, k + 3);
  }
  mesh.vertices.resize((Eigen::Index)corners.size(), 3);
  for (size_t k = 0; k < corners.size(); ++k) mesh.vertices.row((Eigen::Index)k) = corners[k].transpose();
  mesh.indices.resize((Eigen::Index)tris.size(), 3);
  for (size_t k = 0; k < tris.size(); ++k) mesh.indices.row((Eigen::Index)k) = tris[k].transpose();
  return mesh;
}

PointCloud heightmapPointCloud(const Heightmap& hm) {
  const int w = (int)hm.heights.rows(), h = (int)hm.heights.cols();
  PointCloud pc;
  const int nc = hm.colorChannels == 1 ? 3 : hm.colorChannels;
  if (nc >= 3) pc.propertyNames = {"r", "g", "b"};
  if (nc == 4) pc.propertyNames.push_back("a");
  std::vector<Vector3> pts;
  std::vector<std::array<double, 4>> cols;
  for (int i = 0; i < w; ++i)
    for (int j = 0; j < h; ++j) {
      if (!validHeight(hm, hm.heights(i, j))) continue;
      pts.push_back(heightmapVertex(hm, i, j));
      if (nc) cols.push_back(heightmapColor(hm, i, j));
    }
  pc.points.resize((Eigen::Index)pts.size(), 3);
  pc.properties.resize((Eigen::Index)pts.size(), (Eigen::Index)pc.propertyNames.size());
  for (size_t k = 0; k < pts.size(); ++k) {
    pc.points.row((Eigen::Index)k) = pts[k].transpose();
    for (int c = 0; c < nc; ++c) pc.properties((Eigen::Index)k, c) = cols[k][c];
  }
  return pc;
}

bool heightmapContains(const Heightmap& hm, const Vector3& p) {
  return heightmapContainsInView(hm, hm.viewport.pose.inverse().apply(p));
}

bool heightmapSurfaceAt(const Heightmap& hm, double x, double y, double& height) {
  const int w = (int)hm.heights.rows(), h = (int)hm.heights.cols();
  if (!std::isfinite(x) || !std::isfinite(y) || w < 2 || h < 2) return false;
  if (x < 0 || y < 0 || x > w - 1 || y > h - 1) return false;
  // The cell's triangle under the point, split as heightmapMesh splits it:
  // (i, j), (i, j+1), (i+1, j) where fi + fj <= 1, else (i+1, j+1), (i+1, j), (i, j+1).
  const int i = std::min((int)x, w - 2), j = std::min((int)y, h - 2);
  const double fi = x - i, fj = y - j;
  const bool first = fi + fj <= 1;
  const int ci = first ? i : i + 1, cj = first ? j : j + 1;
  const double a = hm.heights(ci, cj), b = hm.heights(i + 1, j), c = hm.heights(i, j + 1);
  if (!validHeight(hm, a) || !validHeight(hm, b) || !validHeight(hm, c)) return false;
  const double u = first ? fi : 1 - fj, v = first ? fj : 1 - fi;  // weights of b and c
  height = (1 - u - v) * a + u * b + v * c;
  return true;
}

bool heightmapContainsInView(const Heightmap& hm, const Vector3& viewPoint) {
  const Vector3 q = projectInView(hm.viewport, viewPoint);
  double surface;
  if (!heightmapSurfaceAt(hm, q.x(), q.y(), surface)) return false;
  return hm.viewport.perspective ? q.z() >= surface : q.z() <= surface;
}

VolumeGrid heightmapToVolumeGrid(const Heightmap& hm, double resolution) {
  const TriangleMesh mesh = heightmapMesh(hm);
  if (mesh.indices.rows() == 0) throw std::invalid_argument("the heightmap has no surface (fewer than 2 x 2 valid samples)");
  const Vector3 lo = mesh.vertices.colwise().minCoeff().transpose(), hi = mesh.vertices.colwise().maxCoeff().transpose();
  if (!(resolution > 0))
    resolution = hm.viewport.perspective ? std::max((hi - lo).maxCoeff() / 64, 1e-6)
                                         : std::min(1 / std::abs(hm.viewport.fx), 1 / std::abs(hm.viewport.fy));
  VolumeGrid grid = gridAround(lo, hi, resolution);
  const TriangleDistanceTree tree(mesh);
  for (int i = 0; i < grid.dims[0]; ++i)
    for (int j = 0; j < grid.dims[1]; ++j)
      for (int k = 0; k < grid.dims[2]; ++k) {
        const Vector3 c = cellCenter(grid, i, j, k);
        const double d = tree.distance(c);
        grid.values[cellIndex(grid, i, j, k)] = heightmapContains(hm, c) ? -d : d;
      }
  return grid;
}

std::array<double, 4> heightmapColor(const Heightmap& hm, int i, int j) {
  const int c = hm.colorChannels;
  if (c == 0) return {1, 1, 1, 1};
  const std::uint8_t* px = &hm.colors[((size_t)j * hm.viewport.w + i) * c];
  if (c == 1) return {px[0] / 255.0, px[0] / 255.0, px[0] / 255.0, 1.0};
  return {px[0] / 255.0, px[1] / 255.0, px[2] / 255.0, c == 4 ? px[3] / 255.0 : 1.0};
}

void setHeightmapColor(Heightmap& hm, int i, int j, const std::array<double, 4>& rgba) {
  if (hm.colorChannels == 0) {
    hm.colorChannels = 4;
    hm.colors.assign((size_t)hm.viewport.w * hm.viewport.h * 4, 255);
  }
  const int c = hm.colorChannels;
  std::uint8_t* px = &hm.colors[((size_t)j * hm.viewport.w + i) * c];
  auto byte = [](double v) { return (std::uint8_t)std::lround(255.0 * std::clamp(v, 0.0, 1.0)); };
  if (c == 1) {
    px[0] = byte((rgba[0] + rgba[1] + rgba[2]) / 3.0);
    return;
  }
  for (int k = 0; k < std::min(c, 4); ++k) px[k] = byte(rgba[k]);
}

void scaleHeightmap(Heightmap& hm, const Vector3& s) {
  if ((s.array() <= 0).any()) throw std::invalid_argument("a Heightmap can only be scaled by positive factors");
  HeightmapViewport& vp = hm.viewport;
  if (!vp.pose.R.isIdentity(1e-12)) throw std::invalid_argument("a rotated Heightmap can only be scaled uniformly");
  vp.pose.t = vp.pose.t.cwiseProduct(s);
  hm.heights *= (float)s.z();
  // Orthographic: x = u / fx; perspective: x = d u / fx with d scaled by s.z.
  const double zf = vp.perspective ? s.z() : 1.0;
  vp.fx *= zf / s.x();
  vp.fy *= zf / s.y();
}

void validateHeightmap(const Heightmap& hm) {
  const HeightmapViewport& vp = hm.viewport;
  // A default-constructed heightmap (no heights at all) is an empty geometry.
  const bool empty = hm.heights.size() == 0 && hm.properties.empty() && hm.colorChannels == 0;
  if (!empty && (hm.heights.rows() != vp.w || hm.heights.cols() != vp.h))
    throw std::invalid_argument("heightmap heights must be viewport.w x viewport.h");
  for (const auto& p : hm.properties)
    if (p.rows() != vp.w || p.cols() != vp.h) throw std::invalid_argument("heightmap properties must be w x h");
  if (hm.properties.size() != hm.propertyNames.size())
    throw std::invalid_argument("heightmap needs one property name per property");
  if (!(hm.colorChannels == 0 || hm.colorChannels == 1 || hm.colorChannels == 3 || hm.colorChannels == 4) ||
      (!empty && hm.colors.size() != (size_t)vp.w * vp.h * hm.colorChannels))
    throw std::invalid_argument("heightmap colours must be h x w x (1, 3 or 4)");
  if (!std::isfinite(vp.fx) || !std::isfinite(vp.fy) || vp.fx == 0 || vp.fy == 0 || !std::isfinite(vp.cx) ||
      !std::isfinite(vp.cy))
    throw std::invalid_argument("heightmap intrinsics must be finite with fx, fy nonzero");
  if (!vp.pose.t.allFinite() || !(vp.pose.R * vp.pose.R.transpose()).isIdentity(1e-6) || vp.pose.R.determinant() < 0)
    throw std::invalid_argument("heightmap pose must be a finite rigid transform");
}

}  // namespace klampt
