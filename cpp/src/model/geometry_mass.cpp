#include "klampt/model/geometry_mass.h"

#include <algorithm>
#include <cmath>
#include <vector>
#include "klampt/geometry/heightmap.h"
#include "klampt/geometry/occupancy_grid.h"

namespace klampt {

namespace {

using Points = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;

/// Zeroth, first and second moments of a mass distribution: total weight,
/// weighted sum of positions and of outer products (about a chosen point).
struct Moments {
  double weight = 0;
  Vector3 first = Vector3::Zero();
  Matrix3 second = Matrix3::Zero();
};

/// Moments of the triangle surface, positions taken relative to `o`.
Moments shellMoments(const TriangleMesh& m, const Vector3& o) {
  Moments s;
  for (Eigen::Index i = 0; i < m.indices.rows(); ++i) {
    Vector3 a = m.vertices.row(m.indices(i, 0)).transpose() - o;
    Vector3 b = m.vertices.row(m.indices(i, 1)).transpose() - o;
    Vector3 c = m.vertices.row(m.indices(i, 2)).transpose() - o;
    double area = 0.5 * (b - a).cross(c - a).norm();
    Vector3 sum = a + b + c;
    s.weight += area;
    s.first += area / 3.0 * sum;
    // Integral of x x^T over a triangle: area/12 (a a^T + b b^T + c c^T + sum sum^T).
    s.second += area / 12.0 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + sum * sum.transpose());
  }
  return s;
}

/// Moments of the enclosed solid (signed tetrahedra from `o` to each triangle).
Moments solidMoments(const TriangleMesh& m, const Vector3& o) {
  Moments s;
  for (Eigen::Index i = 0; i < m.indices.rows(); ++i) {
    Vector3 a = m.vertices.row(m.indices(i, 0)).transpose() - o;
    Vector3 b = m.vertices.row(m.indices(i, 1)).transpose() - o;
    Vector3 c = m.vertices.row(m.indices(i, 2)).transpose() - o;
    double vol = a.dot(b.cross(c)) / 6.0;
    Vector3 sum = a + b + c;  // the fourth vertex is the origin
    s.weight += vol;
    s.first += vol / 4.0 * sum;
    s.second += vol / 20.0 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + sum * sum.transpose());
  }
  return s;
}

Vector3 vertexMean(const Points& p) {
  if (p.rows() == 0) return Vector3::Zero();
  return p.colwise().mean().transpose();
}

/// Whether the solid moments are usable (a closed, non-degenerate mesh).
bool solidValid(const Moments& solid, const Moments& shell) {
  double scale = std::pow(std::max(shell.weight, 1e-300), 1.5);
  return std::abs(solid.weight) > 1e-12 * scale;
}

Vector3 meshCenter(const TriangleMesh& m, double f) {
  Vector3 o = vertexMean(m.vertices);
  Moments shell = shellMoments(m, o);
  if (shell.weight <= 0) return o;
  Vector3 cs = shell.first / shell.weight;
  if (f >= 1) return o + cs;
  Moments solid = solidMoments(m, o);
  if (!solidValid(solid, shell)) return o + cs;
  return o + f * cs + (1 - f) * solid.first / solid.weight;
}

Matrix3 meshCovariance(const TriangleMesh& m, const Vector3& center, double f) {
  Moments shell = shellMoments(m, center);
  if (shell.weight <= 0) return Matrix3::Zero();
  Matrix3 cs = shell.second / shell.weight;
  if (f >= 1) return cs;
  Moments solid = solidMoments(m, center);
  if (!solidValid(solid, shell)) return cs;
  return f * cs + (1 - f) * solid.second / solid.weight;
}

Matrix3 pointCovariance(const Points& p, const Vector3& center) {
  Matrix3 c = Matrix3::Zero();
  if (p.rows() == 0) return c;
  for (Eigen::Index i = 0; i < p.rows(); ++i) {
    Vector3 d = p.row(i).transpose() - center;
    c += d * d.transpose();
  }
  return c / (double)p.rows();
}

/// Centers of the grid cells inside the shape (value <= 0).
std::vector<Vector3> insideCells(const VolumeGrid& g) {
  std::vector<Vector3> cells;
  Vector3 size = g.bmax - g.bmin;
  for (int i = 0; i < g.dims[0]; ++i)
    for (int j = 0; j < g.dims[1]; ++j)
      for (int k = 0; k < g.dims[2]; ++k) {
        size_t idx = ((size_t)i * g.dims[1] + j) * g.dims[2] + k;
        if (idx >= g.values.size() || g.values[idx] > 0) continue;
        Vector3 u((i + 0.5) / g.dims[0], (j + 0.5) / g.dims[1], (k + 0.5) / g.dims[2]);
        cells.push_back(g.bmin + size.cwiseProduct(u));
      }
  return cells;
}

Matrix3 covariance(const GeometryData& g, const Vector3& center, double f) {
  switch (g.type) {
    case GeometryType::TriangleMesh: return meshCovariance(g.mesh, center, f);
    case GeometryType::PointCloud: return pointCovariance(g.pointCloud.points, center);
    case GeometryType::ConvexHull: return pointCovariance(g.hull.points, center);
    case GeometryType::Primitive: {
      // Klamp't: the solid box of the primitive's bounding box.
      Vector3 bmin, bmax;
      tightBoundingBox(g, RigidTransform(), bmin, bmax);
      Vector3 d = bmax - bmin;
      return (d.cwiseProduct(d) / 12.0).asDiagonal();
    }
    case GeometryType::VolumeGrid: {
      std::vector<Vector3> cells = insideCells(g.grid);
      Matrix3 c = Matrix3::Zero();
      for (const Vector3& x : cells) c += (x - center) * (x - center).transpose();
      return cells.empty() ? c : Matrix3(c / (double)cells.size());
    }
    case GeometryType::Heightmap: return meshCovariance(heightmapMesh(g.heightmap), center, f);
    case GeometryType::OccupancyGrid: return covariance(occupancyBoxes(g.occupancy), center, f);
    case GeometryType::Group: {
      Matrix3 c = Matrix3::Zero();
      for (const auto& member : g.group) c += covariance(*member, center, f);
      return c;
    }
    case GeometryType::Empty: break;
  }
  return Matrix3::Zero();
}

}  // namespace

Vector3 geometryCenterOfMass(const GeometryData& g, double f) {
  switch (g.type) {
    case GeometryType::TriangleMesh: return meshCenter(g.mesh, f);
    case GeometryType::PointCloud: return vertexMean(g.pointCloud.points);
    case GeometryType::ConvexHull: return vertexMean(g.hull.points);
    case GeometryType::Primitive: {
      Vector3 bmin, bmax;
      tightBoundingBox(g, RigidTransform(), bmin, bmax);
      return 0.5 * (bmin + bmax);
    }
    case GeometryType::VolumeGrid: {
      std::vector<Vector3> cells = insideCells(g.grid);
      Vector3 sum = Vector3::Zero();
      for (const Vector3& x : cells) sum += x;
      return cells.empty() ? sum : Vector3(sum / (double)cells.size());
    }
    case GeometryType::Heightmap: return meshCenter(heightmapMesh(g.heightmap), f);
    case GeometryType::OccupancyGrid: return geometryCenterOfMass(occupancyBoxes(g.occupancy), f);
    case GeometryType::Group: {
      Vector3 sum = Vector3::Zero();
      for (const auto& member : g.group) sum += geometryCenterOfMass(*member, f);
      return g.group.empty() ? sum : Vector3(sum / (double)g.group.size());
    }
    case GeometryType::Empty: break;
  }
  return Vector3::Zero();
}

Matrix3 geometryInertia(const GeometryData& g, const Vector3& center, double mass, double f) {
  Matrix3 c = covariance(g, center, f);
  return mass * (c.trace() * Matrix3::Identity() - c);
}

}  // namespace klampt
