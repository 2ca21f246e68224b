#include "mesh_text_formats.h"
#include <algorithm>
#include <array>
#include <functional>
#include <string>
#include <unordered_map>

namespace klampt {

void setMesh(TriangleMesh& mesh, const std::vector<double>& vertices, const std::vector<int>& triangles) {
  mesh.vertices.resize((Eigen::Index)(vertices.size() / 3), 3);
  for (std::size_t i = 0; i < vertices.size(); ++i) mesh.vertices.data()[i] = vertices[i];
  mesh.indices.resize((Eigen::Index)(triangles.size() / 3), 3);
  for (std::size_t i = 0; i < triangles.size(); ++i) mesh.indices.data()[i] = triangles[i];
}

namespace {

struct PositionHash {
  std::size_t operator()(const std::array<double, 3>& p) const {
    std::size_t h = 0;
    for (double x : p) h = (h * 1000003u) ^ std::hash<double>()(x + 0.0);  // + 0.0 maps -0 to +0
    return h;
  }
};

}  // namespace

void weldVertices(TriangleMesh& mesh) {
  std::vector<char> used(mesh.vertices.rows(), 0);
  for (Eigen::Index i = 0; i < mesh.indices.size(); ++i) used[mesh.indices.data()[i]] = 1;
  std::unordered_map<std::array<double, 3>, int, PositionHash> first;
  std::vector<int> remap(mesh.vertices.rows(), -1);
  std::vector<double> vertices;
  for (Eigen::Index v = 0; v < mesh.vertices.rows(); ++v) {
    if (!used[v]) continue;
    std::array<double, 3> p = {mesh.vertices(v, 0), mesh.vertices(v, 1), mesh.vertices(v, 2)};
    auto inserted = first.emplace(p, (int)(vertices.size() / 3));
    if (inserted.second) vertices.insert(vertices.end(), p.begin(), p.end());
    remap[v] = inserted.first->second;
  }
  std::vector<int> triangles;
  for (Eigen::Index t = 0; t < mesh.indices.rows(); ++t) {
    int a = remap[mesh.indices(t, 0)], b = remap[mesh.indices(t, 1)], c = remap[mesh.indices(t, 2)];
    if (a != b && b != c && a != c) triangles.insert(triangles.end(), {a, b, c});
  }
  setMesh(mesh, vertices, triangles);
}

namespace {

// Appends the fan triangulation of a polygon.
void addFan(const std::vector<int>& face, std::vector<int>& triangles) {
  for (std::size_t i = 1; i + 1 < face.size(); ++i) {
    triangles.push_back(face[0]);
    triangles.push_back(face[i]);
    triangles.push_back(face[i + 1]);
  }
}

// "OFF" optionally prefixed by ST, C and N (texture, color, normal data per vertex).
bool isSupportedOffHeader(const std::string& h) {
  if (h.size() < 3 || h.compare(h.size() - 3, 3, "OFF") != 0) return false;
  std::string prefix = h.substr(0, h.size() - 3);
  if (prefix.compare(0, 2, "ST") == 0) prefix = prefix.substr(2);
  if (!prefix.empty() && prefix[0] == 'C') prefix = prefix.substr(1);
  if (!prefix.empty() && prefix[0] == 'N') prefix = prefix.substr(1);
  return prefix.empty();
}

}  // namespace

void readOff(TokenStream& in, TriangleMesh& mesh) {
  Token header = in.next("OFF header");
  if (!isSupportedOffHeader(header.text)) in.fail("not an OFF file (header \"" + header.text + "\")");
  int nv = in.nextCount("vertex count");
  int nf = in.nextCount("face count");
  if (in.moreOnLine()) in.nextInt("edge count");
  in.skipLine();
  std::vector<double> vertices;
  vertices.reserve(std::min((std::size_t)nv * 3, in.content().size()));  // counts may lie
  for (int i = 0; i < nv; ++i) {
    for (int k = 0; k < 3; ++k) vertices.push_back(in.nextDouble("vertex coordinate"));
    in.skipLine();
  }
  std::vector<int> triangles, face;
  triangles.reserve(std::min((std::size_t)nf * 3, in.content().size()));
  for (int f = 0; f < nf; ++f) {
    int n = in.nextCount("face vertex count");
    if (n < 3) in.fail("face with " + std::to_string(n) + " vertices");
    face.resize(n);
    for (int& v : face) {
      long index = in.nextInt("face vertex index");
      if (index < 0 || index >= nv) in.fail("vertex index " + std::to_string(index) + " out of range");
      v = (int)index;
    }
    addFan(face, triangles);
    in.skipLine();
  }
  setMesh(mesh, vertices, triangles);
}

void readTri(TokenStream& in, TriangleMesh& mesh, bool untilEnd) {
  std::vector<double> vertices;
  std::vector<int> triangles;
  do {
    int offset = (int)(vertices.size() / 3);
    int nv = in.nextCount("vertex count");
    for (int i = 0; i < 3 * nv; ++i) vertices.push_back(in.nextDouble("vertex coordinate"));
    int nt = in.nextCount("triangle count");
    for (int i = 0; i < 3 * nt; ++i) {
      long index = in.nextInt("triangle vertex index");
      if (index < 0 || index >= nv) in.fail("vertex index " + std::to_string(index) + " out of range");
      triangles.push_back(offset + (int)index);
    }
  } while (untilEnd && !in.atEnd());
  setMesh(mesh, vertices, triangles);
}

void readObj(TokenStream& in, TriangleMesh& mesh) {
  std::vector<double> vertices;
  std::vector<int> triangles, face;
  while (!in.atEnd()) {
    Token key = in.next("statement");
    if (key.text == "v") {
      for (int k = 0; k < 3; ++k) vertices.push_back(in.nextDouble("vertex coordinate"));
    } else if (key.text == "f") {
      int nv = (int)(vertices.size() / 3);
      face.clear();
      while (in.moreOnLine()) {
        std::string item = in.next("face vertex").text;
        long index;
        if (!parseInt(item.substr(0, item.find('/')), index) || index == 0)
          in.fail("invalid face vertex \"" + item + "\"");
        index = index > 0 ? index - 1 : nv + index;  // negative: relative to the last vertex
        if (index < 0 || index >= nv) in.fail("face vertex \"" + item + "\" out of range");
        face.push_back((int)index);
      }
      if (face.size() < 3) in.fail("face with fewer than 3 vertices");
      addFan(face, triangles);
    }
    in.skipLine();
  }
  if (triangles.empty()) in.failAt(0, "no faces (not a Wavefront OBJ mesh?)");
  setMesh(mesh, vertices, triangles);
}

namespace {

void writeVertex(std::ostream& out, const TriangleMesh& mesh, Eigen::Index i) {
  out << formatDouble(mesh.vertices(i, 0)) << ' ' << formatDouble(mesh.vertices(i, 1)) << ' '
      << formatDouble(mesh.vertices(i, 2));
}

}  // namespace

void writeOff(std::ostream& out, const TriangleMesh& mesh) {
  out << "OFF\n" << mesh.vertices.rows() << ' ' << mesh.indices.rows() << " 0\n";
  for (Eigen::Index i = 0; i < mesh.vertices.rows(); ++i) {
    writeVertex(out, mesh, i);
    out << '\n';
  }
  for (Eigen::Index i = 0; i < mesh.indices.rows(); ++i)
    out << "3 " << mesh.indices(i, 0) << ' ' << mesh.indices(i, 1) << ' ' << mesh.indices(i, 2) << '\n';
}

void writeTri(std::ostream& out, const TriangleMesh& mesh) {
  out << mesh.vertices.rows() << '\n';
  for (Eigen::Index i = 0; i < mesh.vertices.rows(); ++i) {
    writeVertex(out, mesh, i);
    out << '\n';
  }
  out << mesh.indices.rows() << '\n';
  for (Eigen::Index i = 0; i < mesh.indices.rows(); ++i)
    out << mesh.indices(i, 0) << ' ' << mesh.indices(i, 1) << ' ' << mesh.indices(i, 2) << '\n';
}

void writeObj(std::ostream& out, const TriangleMesh& mesh) {
  for (Eigen::Index i = 0; i < mesh.vertices.rows(); ++i) {
    out << "v ";
    writeVertex(out, mesh, i);
    out << '\n';
  }
  for (Eigen::Index i = 0; i < mesh.indices.rows(); ++i)
    out << "f " << mesh.indices(i, 0) + 1 << ' ' << mesh.indices(i, 1) + 1 << ' ' << mesh.indices(i, 2) + 1 << '\n';
}

void writeStl(std::ostream& out, const TriangleMesh& mesh) {
  out << "solid klampt\n";
  for (Eigen::Index i = 0; i < mesh.indices.rows(); ++i) {
    Vector3 p[3];
    for (int k = 0; k < 3; ++k) p[k] = mesh.vertices.row(mesh.indices(i, k)).transpose();
    Vector3 n = (p[1] - p[0]).cross(p[2] - p[0]);
    if (n.norm() > 0) n.normalize();
    out << " facet normal " << formatDouble(n.x()) << ' ' << formatDouble(n.y()) << ' ' << formatDouble(n.z())
        << "\n  outer loop\n";
    for (int k = 0; k < 3; ++k)
      out << "   vertex " << formatDouble(p[k].x()) << ' ' << formatDouble(p[k].y()) << ' '
          << formatDouble(p[k].z()) << '\n';
    out << "  endloop\n endfacet\n";
  }
  out << "endsolid klampt\n";
}

}  // namespace klampt
