// The expanding polytope: the face of the Minkowski difference nearest the
// origin, grown one support point at a time from GJK's tetrahedron.
#include "expanding_polytope.h"
#include <cmath>
#include <limits>

namespace klampt {
namespace detail {

namespace {

using coal::Vec3s;
using Face = PolytopeWorkspace::Face;

int addFace(PolytopeWorkspace& w, int a, int b, int c) {
  Face f;
  f.v[0] = a;
  f.v[1] = b;
  f.v[2] = c;
  const Vec3s& A = w.vertices[a].w;
  f.n = (w.vertices[b].w - A).cross(w.vertices[c].w - A);
  f.norm2 = f.n.squaredNorm();
  f.offset = A.dot(f.n);
  // A face without area is never the nearest; it stays in the polytope until a new vertex sees past it.
  f.key = f.norm2 > 0 ? f.offset * std::abs(f.offset) / f.norm2 : std::numeric_limits<double>::infinity();
  f.alive = true;
  w.faces.push_back(f);
  return (int)w.faces.size() - 1;
}

void link(PolytopeWorkspace& w, int f, int i, int g, int j) {
  w.faces[f].adj[i] = g;
  w.faces[f].adjEdge[i] = j;
  w.faces[g].adj[j] = f;
  w.faces[g].adjEdge[j] = i;
}

/// Whether p lies above the face's plane by more than rounding.
bool sees(const PolytopeWorkspace& w, const Face& f, const Vec3s& p) {
  const double h = f.n.dot(p - w.vertices[f.v[0]].w);
  return h > 0 && h * h > 1e-30 * f.norm2;
}

/// Removes face g, entered across its edge e, and every face past it that p
/// sees, and records the edges where p stops seeing them, in order around p.
void carve(PolytopeWorkspace& w, int g, int e, const Vec3s& p) {
  if (!w.faces[g].alive) return;
  if (!sees(w, w.faces[g], p)) {
    w.horizon.emplace_back(g, e);
    return;
  }
  w.faces[g].alive = false;
  const Face& f = w.faces[g];  // carving adds no faces: the reference holds
  carve(w, f.adj[(e + 1) % 3], f.adjEdge[(e + 1) % 3], p);
  carve(w, f.adj[(e + 2) % 3], f.adjEdge[(e + 2) % 3], p);
}

int nearestFace(const PolytopeWorkspace& w) {
  int best = -1;
  double key = std::numeric_limits<double>::infinity();
  for (int i = 0; i < (int)w.faces.size(); ++i)
    if (w.faces[i].alive && w.faces[i].key < key) {
      key = w.faces[i].key;
      best = i;
    }
  return best;
}

/// Whether the origin's projection on the face's plane lies in the face (to
/// rounding), with its barycentric weights.
bool projectsInside(const PolytopeWorkspace& w, const Face& f, double weights[3]) {
  const Vec3s p = (f.offset / f.norm2) * f.n;
  for (int k = 0; k < 3; ++k) {
    const Vec3s& b = w.vertices[f.v[(k + 1) % 3]].w;
    const Vec3s& c = w.vertices[f.v[(k + 2) % 3]].w;
    weights[k] = (b - p).cross(c - p).dot(f.n) / f.norm2;
    if (weights[k] < -1e-9) return false;
  }
  return true;
}

/// The tetrahedron of GJK's simplex (completed around the origin as Coal's
/// EPA completes it), its faces outward; false unless it has volume and holds
/// the origin.
bool startTetrahedron(coal::details::GJK& gjk, PolytopeWorkspace& w) {
  if (!gjk.encloseOrigin()) return false;
  const auto& simplex = *gjk.getSimplex();
  if (simplex.rank != 4) return false;
  for (int i = 0; i < 4; ++i) w.vertices.push_back(*simplex.vertex[i]);
  const auto& v = w.vertices;
  if ((v[1].w - v[0].w).cross(v[2].w - v[0].w).dot(v[3].w - v[0].w) > 0) std::swap(w.vertices[0], w.vertices[1]);
  // Vertex 3 below face 012; the faces' edges: 0:(01,12,20) 1:(03,31,10) 2:(13,32,21) 3:(23,30,02).
  const int f0 = addFace(w, 0, 1, 2), f1 = addFace(w, 0, 3, 1), f2 = addFace(w, 1, 3, 2), f3 = addFace(w, 2, 3, 0);
  link(w, f0, 0, f1, 2);
  link(w, f0, 1, f2, 2);
  link(w, f0, 2, f3, 2);
  link(w, f1, 0, f3, 1);
  link(w, f1, 1, f2, 0);
  link(w, f2, 1, f3, 0);
  for (const Face& f : w.faces)
    if (!(f.norm2 > 0) || f.offset < 0) return false;
  return true;
}

}  // namespace

bool expandPolytope(coal::details::GJK& gjk, size_t maxIterations, double tolerance, PolytopeWorkspace& work,
                    Penetration& out) {
  work.vertices.clear();
  work.faces.clear();
  if (!startTetrahedron(gjk, work)) return false;
  coal::support_func_guess_t hint = gjk.support_hint;
  int nearest = nearestFace(work);
  for (size_t iteration = 0; iteration < maxIterations; ++iteration) {
    const Face& f = work.faces[nearest];
    const Vec3s dir = f.n / std::sqrt(f.norm2);
    coal::details::GJK::SimplexV s;
    gjk.getSupport(dir, s, hint);
    // Converged when the support is no farther than the face (Coal's test), or is one of its vertices.
    const double close = tolerance + tolerance * s.w.norm();
    const Vec3s& a = work.vertices[f.v[0]].w;
    if (dir.dot(s.w - a) <= close) break;
    if ((s.w - a).norm() <= close || (s.w - work.vertices[f.v[1]].w).norm() <= close ||
        (s.w - work.vertices[f.v[2]].w).norm() <= close)
      break;

    work.horizon.clear();
    work.faces[nearest].alive = false;
    for (int j = 0; j < 3; ++j) carve(work, work.faces[nearest].adj[j], work.faces[nearest].adjEdge[j], s.w);
    const int edges = (int)work.horizon.size();
    if (edges < 3) return false;
    const int apex = (int)work.vertices.size();
    work.vertices.push_back(s);
    const int first = (int)work.faces.size();
    for (const auto& [g, e] : work.horizon) {
      // The horizon edge as the removed face ran along it, closed by the new vertex.
      const int from = work.faces[g].v[(e + 1) % 3], to = work.faces[g].v[e];
      link(work, addFace(work, from, to, apex), 0, g, e);
    }
    for (int k = 0; k < edges; ++k) {
      const int face = first + k, next = first + (k + 1) % edges;
      if (work.faces[face].v[1] != work.faces[next].v[0]) return false;  // the horizon is not one loop
      link(work, face, 1, next, 2);
      if (work.faces[face].key < -1e-20) return false;  // the origin fell outside: rounding broke the polytope
    }
    nearest = nearestFace(work);
    if (nearest < 0) return false;
  }
  // Faces in one plane are equally near; the origin projects inside one of them.
  double weights[3];
  if (!projectsInside(work, work.faces[nearest], weights)) {
    const double key = work.faces[nearest].key, slack = 1e-9 * std::abs(key);
    nearest = -1;
    for (int i = 0; i < (int)work.faces.size() && nearest < 0; ++i) {
      const Face& f = work.faces[i];
      if (f.alive && std::abs(f.key - key) <= slack && projectsInside(work, f, weights)) nearest = i;
    }
    if (nearest < 0) return false;
  }
  const Face& f = work.faces[nearest];
  const double inverse = 1.0 / std::sqrt(f.norm2);
  out.normal = f.n * inverse;
  out.depth = f.offset * inverse;
  out.point0 = out.point1 = Vec3s::Zero();
  for (int k = 0; k < 3; ++k) {
    out.point0 += weights[k] * work.vertices[f.v[k]].w0;
    out.point1 += weights[k] * work.vertices[f.v[k]].w1;
  }
  out.hint = hint;
  return true;
}

}  // namespace detail
}  // namespace klampt
