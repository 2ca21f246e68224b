// Primitive setters, validation, text form, distances and meshes.
#include "klampt/geometry/primitive.h"
#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include "klampt/geometry/primitive_meshes.h"

namespace klampt {

namespace {

void put(std::vector<double>& v, const Vector3& p) { v.insert(v.end(), {p.x(), p.y(), p.z()}); }

Vector3 at(const std::vector<double>& v, std::size_t i) { return Vector3(v[i], v[i + 1], v[i + 2]); }

// Parameter count of a fixed-size type; -1 for Polygon, 0 if unknown.
int parameterCount(const std::string& type) {
  if (type == "Point") return 3;
  if (type == "Sphere") return 4;
  if (type == "Segment" || type == "AABB") return 6;
  if (type == "Triangle") return 9;
  if (type == "Box") return 15;
  if (type == "Polygon") return -1;
  return 0;
}

std::string formatNumber(double x) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), x);
  return std::string(buf, res.ptr);
}

void boxFrame(const GeometricPrimitive& p, Vector3& ori, Matrix3& R, Vector3& dims) {
  ori = at(p.properties, 0);
  R = rotationFromColumnMajor(&p.properties[3]);
  dims = at(p.properties, 12);
}

double segmentDistance(const Vector3& x, const Vector3& a, const Vector3& b) {
  Vector3 d = b - a;
  double len2 = d.squaredNorm();
  double u = len2 > 0 ? std::clamp((x - a).dot(d) / len2, 0.0, 1.0) : 0.0;
  return (x - (a + u * d)).norm();
}

// Signed distance to the box [-h, h] in its own frame.
double centeredBoxDistance(const Vector3& local, const Vector3& h) {
  Vector3 q = local.cwiseAbs() - h;
  return q.cwiseMax(0.0).norm() + std::min(q.maxCoeff(), 0.0);
}

}  // namespace

GeometricPrimitive makePointPrimitive(const Vector3& p) {
  GeometricPrimitive g{"Point", {}};
  put(g.properties, p);
  return g;
}

GeometricPrimitive makeSpherePrimitive(const Vector3& c, double r) {
  GeometricPrimitive g{"Sphere", {}};
  put(g.properties, c);
  g.properties.push_back(r);
  return g;
}

GeometricPrimitive makeSegmentPrimitive(const Vector3& a, const Vector3& b) {
  GeometricPrimitive g{"Segment", {}};
  put(g.properties, a);
  put(g.properties, b);
  return g;
}

GeometricPrimitive makeTrianglePrimitive(const Vector3& a, const Vector3& b, const Vector3& c) {
  GeometricPrimitive g{"Triangle", {}};
  put(g.properties, a);
  put(g.properties, b);
  put(g.properties, c);
  return g;
}

GeometricPrimitive makePolygonPrimitive(const std::vector<double>& verts) {
  if (verts.size() % 3 != 0 || verts.size() < 9)
    throw std::invalid_argument("polygon vertices must be a flat list of at least 3 points");
  GeometricPrimitive g{"Polygon", {double(verts.size() / 3)}};
  g.properties.insert(g.properties.end(), verts.begin(), verts.end());
  return g;
}

GeometricPrimitive makeAABBPrimitive(const Vector3& bmin, const Vector3& bmax) {
  GeometricPrimitive g{"AABB", {}};
  put(g.properties, bmin);
  put(g.properties, bmax);
  return g;
}

GeometricPrimitive makeBoxPrimitive(const Vector3& ori, const Matrix3& R, const Vector3& dims) {
  GeometricPrimitive g{"Box", {}};
  put(g.properties, ori);
  auto m = rotationToColumnMajor(R);
  g.properties.insert(g.properties.end(), m.begin(), m.end());
  put(g.properties, dims);
  return g;
}

void validatePrimitive(const GeometricPrimitive& p) {
  int count = parameterCount(p.type);
  if (count == 0) throw std::invalid_argument("unknown geometric primitive type \"" + p.type + "\"");
  const auto& v = p.properties;
  for (double x : v)
    if (!std::isfinite(x)) throw std::invalid_argument(p.type + " primitive has a non-finite parameter");
  if (count < 0) {
    double n = v.empty() ? 0 : v[0];
    if (n < 3 || n != std::floor(n) || v.size() != 1 + 3 * (std::size_t)n)
      throw std::invalid_argument("Polygon primitive needs a vertex count n >= 3 followed by 3n coordinates");
    return;
  }
  if (v.size() != (std::size_t)count)
    throw std::invalid_argument(p.type + " primitive needs " + std::to_string(count) + " parameters, has " +
                                std::to_string(v.size()));
  if (p.type == "Sphere" && v[3] < 0) throw std::invalid_argument("Sphere radius must be >= 0");
  if (p.type == "AABB" && (at(v, 0).array() > at(v, 3).array()).any())
    throw std::invalid_argument("AABB needs bmin <= bmax");
  if (p.type == "Box") {
    Vector3 ori, dims;
    Matrix3 R;
    boxFrame(p, ori, R, dims);
    if ((dims.array() < 0).any()) throw std::invalid_argument("Box dimensions must be >= 0");
    if (!(R.transpose() * R).isIdentity(1e-5) || R.determinant() < 0)
      throw std::invalid_argument("Box axes must form a rotation matrix");
  }
}

bool isValidPrimitive(const GeometricPrimitive& p) {
  try {
    validatePrimitive(p);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

std::string primitiveToString(const GeometricPrimitive& p) {
  std::string s = p.type;
  for (double x : p.properties) s += " " + formatNumber(x);
  return s;
}

GeometricPrimitive primitiveFromString(const std::string& text) {
  std::istringstream in(text);
  GeometricPrimitive p;
  if (!(in >> p.type)) throw std::invalid_argument("empty primitive string");
  std::string token;
  while (in >> token) {
    double x;
    auto res = std::from_chars(token.data(), token.data() + token.size(), x);
    if (res.ec != std::errc() || res.ptr != token.data() + token.size())
      throw std::invalid_argument("bad number \"" + token + "\" in primitive string");
    p.properties.push_back(x);
  }
  validatePrimitive(p);
  return p;
}

Vector3 closestPointOnTriangle(const Vector3& x, const Vector3& a, const Vector3& b, const Vector3& c) {
  // Classify x against the Voronoi regions of the vertices, edges and face.
  Vector3 ab = b - a, ac = c - a, ap = x - a;
  double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return a;
  Vector3 bp = x - b;
  double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return b;
  double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + (d1 / (d1 - d3)) * ab;
  Vector3 cp = x - c;
  double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return c;
  double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + (d2 / (d2 - d6)) * ac;
  double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
  double denom = va + vb + vc;
  if (denom == 0) return a;  // degenerate triangle reduced to its first vertex
  return a + ab * (vb / denom) + ac * (vc / denom);
}

double primitiveSignedDistance(const GeometricPrimitive& p, const Vector3& x) {
  const auto& v = p.properties;
  if (p.type == "Point") return (x - at(v, 0)).norm();
  if (p.type == "Sphere") return (x - at(v, 0)).norm() - v[3];
  if (p.type == "Segment") return segmentDistance(x, at(v, 0), at(v, 3));
  if (p.type == "Triangle") return (x - closestPointOnTriangle(x, at(v, 0), at(v, 3), at(v, 6))).norm();
  if (p.type == "Polygon") {  // fan triangulation of a planar polygon
    int n = (int)v[0];
    double best = std::numeric_limits<double>::infinity();
    for (int i = 1; i + 1 < n; ++i)
      best = std::min(best, (x - closestPointOnTriangle(x, at(v, 1), at(v, 1 + 3 * i), at(v, 4 + 3 * i))).norm());
    return best;
  }
  if (p.type == "AABB") {
    Vector3 lo = at(v, 0), hi = at(v, 3);
    return centeredBoxDistance(x - 0.5 * (lo + hi), 0.5 * (hi - lo));
  }
  if (p.type == "Box") {
    Vector3 ori, dims;
    Matrix3 R;
    boxFrame(p, ori, R, dims);
    return centeredBoxDistance(R.transpose() * (x - ori) - 0.5 * dims, 0.5 * dims);
  }
  throw std::invalid_argument("unsupported geometric primitive type \"" + p.type + "\"");
}

TriangleMesh primitiveToMesh(const GeometricPrimitive& p, double resolution) {
  validatePrimitive(p);
  const auto& v = p.properties;
  TriangleMesh mesh;
  if (p.type == "Sphere") {
    int slices = 32;
    if (resolution > 0) slices = std::clamp((int)std::ceil(2 * M_PI * v[3] / resolution), 8, 1024);
    mesh = makeSphereMesh(v[3], std::max(4, slices / 2), slices);
    mesh.vertices.rowwise() += at(v, 0).transpose();
  } else if (p.type == "AABB" || p.type == "Box") {
    Vector3 ori, dims;
    Matrix3 R = Matrix3::Identity();
    if (p.type == "AABB") {
      ori = at(v, 0);
      dims = at(v, 3) - ori;
    } else {
      boxFrame(p, ori, R, dims);
    }
    mesh = makeBoxMesh(dims);
    for (Eigen::Index i = 0; i < mesh.vertices.rows(); ++i)
      mesh.vertices.row(i) = (ori + R * (mesh.vertices.row(i).transpose() + 0.5 * dims)).transpose();
  } else if (p.type == "Triangle" || p.type == "Polygon") {
    int n = p.type == "Triangle" ? 3 : (int)v[0];
    std::size_t first = p.type == "Triangle" ? 0 : 1;
    mesh.vertices.resize(n, 3);
    for (int i = 0; i < n; ++i) mesh.vertices.row(i) = at(v, first + 3 * i).transpose();
    mesh.indices.resize(n - 2, 3);
    for (int i = 1; i + 1 < n; ++i) mesh.indices.row(i - 1) << 0, i, i + 1;
  } else {
    throw std::invalid_argument("a " + p.type + " primitive has no surface to mesh");
  }
  return mesh;
}

}  // namespace klampt
