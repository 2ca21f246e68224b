// Point cloud properties, images and conversions to and from meshes.
#include "klampt/geometry/point_cloud.h"
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace klampt {

std::vector<std::uint32_t> packRGB(const double* rgb, std::size_t count, double scale) {
  std::vector<std::uint32_t> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    std::uint32_t packed = 0;
    for (int k = 0; k < 3; ++k) {
      const double v = rgb[3 * i + k] * scale;
      packed = (packed << 8) | (std::uint32_t)std::clamp(std::lround(std::isfinite(v) ? v : 0.0), 0L, 255L);
    }
    out[i] = packed;
  }
  return out;
}

int propertyIndex(const PointCloud& pc, const std::string& name) {
  for (std::size_t i = 0; i < pc.propertyNames.size(); ++i)
    if (pc.propertyNames[i] == name) return (int)i;
  return -1;
}

void addProperty(PointCloud& pc, const std::string& name, const VectorX& values) {
  if (values.size() != pc.points.rows())
    throw std::invalid_argument("property \"" + name + "\" needs one value per point (" +
                                std::to_string(pc.points.rows()) + "), got " + std::to_string(values.size()));
  pc.properties.conservativeResize(pc.points.rows(), pc.properties.cols() + 1);
  pc.properties.col(pc.properties.cols() - 1) = values;
  pc.propertyNames.push_back(name);
}

void joinPointClouds(PointCloud& pc, const PointCloud& other) {
  if (pc.propertyNames != other.propertyNames)
    throw std::invalid_argument("joined point clouds must have the same properties");
  Eigen::Index n = pc.points.rows(), m = other.points.rows();
  pc.points.conservativeResize(n + m, 3);
  pc.points.bottomRows(m) = other.points;
  pc.properties.conservativeResize(n + m, pc.propertyNames.size());
  if (m > 0 && !pc.propertyNames.empty()) pc.properties.bottomRows(m) = other.properties;
}

int addPoint(PointCloud& pc, const Vector3& p) {
  Eigen::Index n = pc.points.rows();
  pc.points.conservativeResize(n + 1, 3);
  pc.points.row(n) = p.transpose();
  pc.properties.conservativeResize(n + 1, pc.propertyNames.size());
  pc.properties.row(n).setZero();
  return (int)n;
}

void setPoints(PointCloud& pc, const CloudPoints& points) {
  const Eigen::Index n = pc.points.rows(), m = points.rows();
  pc.properties.conservativeResize(m, pc.propertyNames.size());
  if (m > n) pc.properties.bottomRows(m - n).setZero();
  pc.points = points;
}

void setPointsAndProperties(PointCloud& pc, const CloudMatrix& m) {
  if ((std::size_t)m.cols() != pc.propertyNames.size() + 3)
    throw std::invalid_argument("points and properties need 3 + " + std::to_string(pc.propertyNames.size()) +
                                " columns, got " + std::to_string(m.cols()));
  pc.points = m.leftCols(3);
  pc.properties = m.rightCols(m.cols() - 3);
}

void setProperties(PointCloud& pc, const CloudMatrix& values) {
  if (values.rows() != pc.points.rows() || (std::size_t)values.cols() != pc.propertyNames.size())
    throw std::invalid_argument("properties need one row per point and one column per property (" +
                                std::to_string(pc.points.rows()) + " x " + std::to_string(pc.propertyNames.size()) +
                                "), got " + std::to_string(values.rows()) + " x " + std::to_string(values.cols()));
  pc.properties = values;
}

void setPropertyNames(PointCloud& pc, const std::vector<std::string>& names) {
  const std::size_t old = pc.propertyNames.size();
  pc.properties.conservativeResize(pc.points.rows(), names.size());
  for (std::size_t j = old; j < names.size(); ++j) pc.properties.col(j).setZero();
  pc.propertyNames = names;
}

void setDepthImage(PointCloud& pc, const std::array<double, 4>& K, const double* depth, int h, int w,
                   double depthScale, const std::uint32_t* rgb) {
  if (!(K[0] != 0 && K[1] != 0) || !std::isfinite(K[0] + K[1] + K[2] + K[3]))
    throw std::invalid_argument("intrinsics [fx, fy, cx, cy] must be finite with nonzero fx, fy");
  if (!std::isfinite(depthScale)) throw std::invalid_argument("depth_scale must be finite");
  pc = PointCloud();
  pc.points.resize((Eigen::Index)h * w, 3);
  pc.properties.resize(pc.points.rows(), 0);
  for (int v = 0; v < h; ++v)
    for (int u = 0; u < w; ++u) {
      Eigen::Index i = (Eigen::Index)v * w + u;
      double d = depth[i] * depthScale;
      if (!(d != 0) || !std::isfinite(d)) {
        pc.points.row(i).setZero();
        continue;
      }
      pc.points.row(i) << (u - K[2]) * d / K[0], (v - K[3]) * d / K[1], d;
    }
  if (rgb) {
    VectorX colors(pc.points.rows());
    for (Eigen::Index i = 0; i < colors.size(); ++i) colors[i] = double(rgb[i] & 0xffffff);
    addProperty(pc, "rgb", colors);
  }
  pc.settings["width"] = std::to_string(w);
  pc.settings["height"] = std::to_string(h);
  pc.settings["viewpoint"] = "0 0 0 1 0 0 0";
}

TriangleMesh structuredCloudToMesh(const PointCloud& pc, double threshold) {
  auto w = pc.settings.find("width"), h = pc.settings.find("height");
  if (w == pc.settings.end() || h == pc.settings.end())
    throw std::invalid_argument("only structured point clouds (width and height settings) can be meshed");
  int W = std::stoi(w->second), H = std::stoi(h->second);
  if ((Eigen::Index)W * H != pc.points.rows() || W < 1 || H < 1)
    throw std::invalid_argument("point cloud width x height does not match its number of points");
  auto valid = [&](int i) { return !pc.points.row(i).isZero(0); };
  std::vector<std::array<int, 3>> tris;
  auto tryAdd = [&](int a, int b, int c) {
    if (!valid(a) || !valid(b) || !valid(c)) return;
    double za = pc.points(a, 2), zb = pc.points(b, 2), zc = pc.points(c, 2);
    if (std::max({za, zb, zc}) - std::min({za, zb, zc}) > threshold) return;
    tris.push_back({a, c, b});  // counter-clockwise seen from the camera (y down)
  };
  for (int v = 0; v + 1 < H; ++v)
    for (int u = 0; u + 1 < W; ++u) {
      int i = v * W + u;
      tryAdd(i, i + 1, i + W);
      tryAdd(i + 1, i + W + 1, i + W);
    }
  TriangleMesh mesh;
  mesh.vertices = pc.points;
  mesh.indices.resize((Eigen::Index)tris.size(), 3);
  for (std::size_t t = 0; t < tris.size(); ++t) mesh.indices.row(t) << tris[t][0], tris[t][1], tris[t][2];
  return mesh;
}

namespace {

// Splits (a, b, c) at the midpoint of its longest edge while that edge is
// longer than maxEdge, appending the midpoints.
void bisect(const Vector3& a, const Vector3& b, const Vector3& c, double maxEdge, std::vector<Vector3>& out,
            int depth) {
  double ab = (b - a).norm(), bc = (c - b).norm(), ca = (a - c).norm();
  double longest = std::max({ab, bc, ca});
  if (!(longest > maxEdge) || depth > 40) return;
  // Rotate so that the longest edge is (p, q), opposite r.
  const Vector3 *p = &a, *q = &b, *r = &c;
  if (bc == longest) p = &b, q = &c, r = &a;
  else if (ca == longest) p = &c, q = &a, r = &b;
  Vector3 m = 0.5 * (*p + *q);
  out.push_back(m);
  bisect(*r, *p, m, maxEdge, out, depth + 1);
  bisect(*q, *r, m, maxEdge, out, depth + 1);
}

}  // namespace

PointCloud meshToPointCloud(const TriangleMesh& mesh, double dispersion) {
  const auto& V = mesh.vertices;
  const auto& F = mesh.indices;
  if (dispersion <= 0) dispersion = F.rows() > 0 ? meanTriangleDiameter(mesh) : 1.0;
  // Keep the number of samples bounded: a triangle of area A gets about
  // A / dispersion^2 points.
  double area = 0;
  for (Eigen::Index t = 0; t < F.rows(); ++t)
    area += 0.5 * (Vector3(V.row(F(t, 1)) - V.row(F(t, 0))).cross(Vector3(V.row(F(t, 2)) - V.row(F(t, 0))))).norm();
  if (area / (dispersion * dispersion) > 5e7) throw std::invalid_argument("point cloud dispersion too small for this mesh");
  std::vector<Vector3> faceNormals(F.rows());
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> vertexNormals = decltype(vertexNormals)::Zero(V.rows(), 3);
  for (Eigen::Index t = 0; t < F.rows(); ++t) {
    Vector3 a = V.row(F(t, 0)), b = V.row(F(t, 1)), c = V.row(F(t, 2));
    Vector3 n = (b - a).cross(c - a);
    if (n.norm() > 0) n.normalize();
    faceNormals[t] = n;
    for (int k = 0; k < 3; ++k) vertexNormals.row(F(t, k)) += n.transpose();
  }
  std::vector<Vector3> points, normals;
  for (Eigen::Index i = 0; i < V.rows(); ++i) {
    points.push_back(V.row(i).transpose());
    Vector3 n = vertexNormals.row(i).transpose();
    normals.push_back(n.norm() > 0 ? Vector3(n.normalized()) : n);
  }
  const double maxEdge = std::sqrt(2.0) * dispersion * (1 + 1e-9);
  std::vector<Vector3> samples;
  for (Eigen::Index t = 0; t < F.rows(); ++t) {
    samples.clear();
    bisect(V.row(F(t, 0)), V.row(F(t, 1)), V.row(F(t, 2)), maxEdge, samples, 0);
    for (const Vector3& s : samples) {
      points.push_back(s);
      normals.push_back(faceNormals[t]);
    }
  }
  PointCloud pc;
  pc.points.resize((Eigen::Index)points.size(), 3);
  pc.properties.resize((Eigen::Index)points.size(), 3);
  for (std::size_t i = 0; i < points.size(); ++i) {
    pc.points.row(i) = points[i].transpose();
    pc.properties.row(i) = normals[i].transpose();
  }
  pc.propertyNames = {"normal_x", "normal_y", "normal_z"};
  return pc;
}

}  // namespace klampt
