#include "klampt/geometry/render_data.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <mutex>
#include <unordered_set>
#include "klampt/geometry/convert.h"

namespace klampt {

/// The arrays drawn for one shape version: meshes per crease angle (usually one).
struct RenderCache {
  mutable std::mutex mutex;
  mutable std::map<double, std::shared_ptr<const RenderMesh>> meshes;
  mutable std::shared_ptr<const RenderPoints> points;
};

namespace {

std::uint64_t nextSerial() {
  static std::atomic<std::uint64_t> counter{0};
  return ++counter;
}

const RenderCache& cacheOf(const GeometryData& data) {
  if (const RenderCache* cache = data.renderCache.get()) return *cache;
  return data.renderCache.publish(std::make_shared<const RenderCache>());
}

/// Appends a mesh's triangles (local frame) to `out` as separate vertices.
void appendMesh(const TriangleMesh& mesh, std::vector<Vector3>& corners, std::vector<std::uint32_t>& source,
                std::uint32_t vertexOffset) {
  for (Eigen::Index t = 0; t < mesh.indices.rows(); ++t)
    for (int k = 0; k < 3; ++k) {
      int v = mesh.indices(t, k);
      corners.push_back(mesh.vertices.row(v).transpose());
      source.push_back(vertexOffset + (std::uint32_t)v);
    }
}

/// Collects the triangles of a shape; false if it has no surface to draw.
bool collectTriangles(const GeometryData& data, std::vector<Vector3>& corners, std::vector<std::uint32_t>& source,
                      std::uint32_t& vertexOffset) {
  switch (data.type) {
    case GeometryType::TriangleMesh:
      appendMesh(data.mesh, corners, source, vertexOffset);
      vertexOffset += (std::uint32_t)data.mesh.vertices.rows();
      return true;
    case GeometryType::Primitive:
      if (data.primitive.type == "Point" || data.primitive.type == "Segment") return false;
      [[fallthrough]];
    case GeometryType::ConvexHull:
    case GeometryType::Heightmap:
    case GeometryType::OccupancyGrid:
    case GeometryType::VolumeGrid: {
      GeometryData mesh;
      try {
        mesh = convertGeometry(data, GeometryType::TriangleMesh, 0.0);
      } catch (const std::exception&) {
        return false;  // nothing drawable (degenerate hull, empty grid)
      }
      appendMesh(mesh.mesh, corners, source, vertexOffset);
      vertexOffset += (std::uint32_t)mesh.mesh.vertices.rows();
      return true;
    }
    case GeometryType::Group: {
      bool any = false;
      for (const auto& member : data.group)
        if (member) any = collectTriangles(*member, corners, source, vertexOffset) || any;
      return any;
    }
    default: return false;
  }
}

std::shared_ptr<const RenderMesh> buildMesh(const GeometryData& data, double creaseAngle) {
  auto out = std::make_shared<RenderMesh>();
  out->creaseAngle = creaseAngle;
  out->serial = nextSerial();
  std::vector<Vector3> corners;
  std::vector<std::uint32_t> source;
  std::uint32_t vertexOffset = 0;
  collectTriangles(data, corners, source, vertexOffset);
  const std::size_t n = corners.size(), ntri = n / 3;
  std::vector<Vector3> faceNormal(ntri);
  for (std::size_t t = 0; t < ntri; ++t) {
    Vector3 c = (corners[3 * t + 1] - corners[3 * t]).cross(corners[3 * t + 2] - corners[3 * t]);
    double len = c.norm();
    faceNormal[t] = len > 0 ? Vector3(c / len) : Vector3(0, 0, 1);
  }
  std::vector<Vector3> normals(n);
  for (std::size_t i = 0; i < n; ++i) normals[i] = faceNormal[i / 3];
  if (creaseAngle > 0 && ntri > 0) {
    // Corners of the same vertex share normals across edges sharper than the crease angle only.
    std::vector<std::vector<std::uint32_t>> facesOf(vertexOffset);
    for (std::size_t i = 0; i < n; ++i) facesOf[source[i]].push_back((std::uint32_t)(i / 3));
    const double cosCrease = std::cos(creaseAngle);
    for (std::size_t i = 0; i < n; ++i) {
      const Vector3& own = faceNormal[i / 3];
      Vector3 sum = Vector3::Zero();
      for (std::uint32_t f : facesOf[source[i]])
        if (own.dot(faceNormal[f]) >= cosCrease) sum += faceNormal[f];
      double len = sum.norm();
      if (len > 0) normals[i] = sum / len;
    }
  }
  out->positions.resize(3 * n);
  out->normals.resize(3 * n);
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) {
      out->positions[3 * i + k] = (float)corners[i][k];
      out->normals[3 * i + k] = (float)normals[i][k];
    }
  out->sourceVertex = std::move(source);
  std::unordered_set<std::uint64_t> seen;
  for (std::size_t t = 0; t < ntri; ++t)
    for (int k = 0; k < 3; ++k) {
      std::uint32_t a = (std::uint32_t)(3 * t + k), b = (std::uint32_t)(3 * t + (k + 1) % 3);
      std::uint64_t va = out->sourceVertex[a], vb = out->sourceVertex[b];
      if (seen.insert(std::min(va, vb) << 32 | std::max(va, vb)).second) {
        out->edges.push_back(a);
        out->edges.push_back(b);
      }
    }
  return out;
}

int column(const PointCloud& pc, const char* name) {
  auto it = std::find(pc.propertyNames.begin(), pc.propertyNames.end(), name);
  return it == pc.propertyNames.end() ? -1 : (int)(it - pc.propertyNames.begin());
}

float channel(double v) { return (float)std::min(1.0, std::max(0.0, v)); }

std::shared_ptr<const RenderPoints> buildPoints(const GeometryData& data) {
  auto out = std::make_shared<RenderPoints>();
  out->serial = nextSerial();
  if (data.type != GeometryType::PointCloud) return out;
  const PointCloud& pc = data.pointCloud;
  const Eigen::Index n = pc.points.rows();
  out->positions.resize(3 * n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) out->positions[3 * i + k] = (float)pc.points(i, k);
  int rgb = column(pc, "rgb"), rgba = column(pc, "rgba");
  int r = column(pc, "r"), g = column(pc, "g"), b = column(pc, "b"), a = column(pc, "a");
  if (rgb < 0 && rgba < 0 && (r < 0 || g < 0 || b < 0)) return out;
  out->colors.resize(4 * n);
  for (Eigen::Index i = 0; i < n; ++i) {
    float* c = &out->colors[4 * i];
    if (rgba >= 0 || rgb >= 0) {  // packed 0xaarrggbb / 0xrrggbb
      auto word = (std::uint32_t)(std::int64_t)pc.properties(i, rgba >= 0 ? rgba : rgb);
      c[0] = ((word >> 16) & 0xff) / 255.0f;
      c[1] = ((word >> 8) & 0xff) / 255.0f;
      c[2] = (word & 0xff) / 255.0f;
      c[3] = rgba >= 0 ? ((word >> 24) & 0xff) / 255.0f : 1.0f;
    } else {
      c[0] = channel(pc.properties(i, r));
      c[1] = channel(pc.properties(i, g));
      c[2] = channel(pc.properties(i, b));
      c[3] = a >= 0 ? channel(pc.properties(i, a)) : 1.0f;
    }
  }
  return out;
}

}  // namespace

std::shared_ptr<const RenderMesh> renderMesh(const GeometryData& data, double creaseAngle) {
  const RenderCache& cache = cacheOf(data);
  std::lock_guard<std::mutex> lock(cache.mutex);
  auto& slot = cache.meshes[creaseAngle];
  if (!slot) slot = buildMesh(data, creaseAngle);
  return slot;
}

std::shared_ptr<const RenderPoints> renderPoints(const GeometryData& data) {
  const RenderCache& cache = cacheOf(data);
  std::lock_guard<std::mutex> lock(cache.mutex);
  if (!cache.points) cache.points = buildPoints(data);
  return cache.points;
}

}  // namespace klampt
