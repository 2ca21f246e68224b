// Solid boxes by the separating-axis test: whether two are within a
// distance, their penetration, and their contact manifolds (vertex-in-range
// tests for the points); and a mesh's triangles against a box.
#include "box_contacts.h"
#include "klampt/math/parallel_for.h"
#include "convex_solver.h"
#include <coal/narrowphase/narrowphase.h>
#include <coal/shape/geometric_shapes.h>
#include <algorithm>
#include <cmath>
#include "klampt/geometry/primitive.h"

namespace klampt {
namespace detail {

namespace {

struct Box {
  Vector3 c, h;  // centre and half sizes
  Matrix3 R;     // axes as columns
};

Box boxOf(const Leaf& leaf) {
  const RigidTransform W = leaf.shapePose();
  return Box{W.t, static_cast<const coal::Box&>(*leaf.cache->shape).halfSide, W.R};
}

/// Signed distance from p to the box and the closest point of its surface.
double pointBoxDistance(const Box& b, const Vector3& p, Vector3& closest) {
  const Vector3 q = b.R.transpose() * (p - b.c);
  const Vector3 over = q.cwiseAbs() - b.h;
  if ((over.array() > 0).any()) {
    closest = b.c + b.R * q.cwiseMax(-b.h).cwiseMin(b.h);
    return over.cwiseMax(0.0).norm();
  }
  int k;
  const double d = over.maxCoeff(&k);  // inside: the nearest face
  Vector3 onFace = q;
  onFace[k] = q[k] < 0 ? -b.h[k] : b.h[k];
  closest = b.c + b.R * onFace;
  return d;
}

/// Corner i of the box [-h, h]: bit k of i set for +h[k].
Vector3 corner(const Vector3& h, int i) {
  return Vector3((i & 1 ? 1 : -1) * h[0], (i & 2 ? 1 : -1) * h[1], (i & 4 ? 1 : -1) * h[2]);
}

Vector3 vertex(const Box& b, int i) { return b.c + b.R * corner(b.h, i); }

/// The vertex witness of a separating axis n: the first of the points whose
/// height along n is within eps of their least (`lowest`) or greatest that,
/// moved by `shift`, lands on the other shape (`lands`). Returns it in `from`
/// and where it lands in `to`.
template <class Lands>
bool landingVertex(const Vector3* pts, int count, const Vector3& n, bool lowest, const Vector3& shift, double eps,
                   Lands&& lands, Vector3& from, Vector3& to) {
  const double sign = lowest ? -1.0 : 1.0;  // the points' heights, made greatest at the extreme looked for
  double extreme = -INFINITY;
  for (int i = 0; i < count; ++i) extreme = std::max(extreme, sign * pts[i].dot(n));
  for (int i = 0; i < count; ++i) {
    if (sign * pts[i].dot(n) < extreme - eps) continue;
    const Vector3 moved = pts[i] + shift;
    if (lands(moved)) {
      from = pts[i];
      to = moved;
      return true;
    }
  }
  return false;
}

/// Separating-axis test of two boxes, in a's frame: a is [-ha, ha], b has
/// half sizes hb, its axes as the columns of R and its centre at t. The
/// largest separation along the face axes of both and the cross products of
/// their edges (positive: apart by at least that much; otherwise minus the
/// least penetration), with its unit `axis` from a to b. Face axes win ties,
/// so resting boxes get a face normal. In a's frame its own axes are the unit
/// vectors and its edges' cross products are read off b's axes without
/// products (a third of the time of testing them in the world frame).
double separatingAxisInA(const Vector3& ha, const Matrix3& R, const Vector3& t, const Vector3& hb, Vector3& axis,
                         bool& edgeAxis) {
  const Matrix3 absR = R.cwiseAbs();
  double best = -INFINITY;
  axis = Vector3::UnitZ();
  edgeAxis = false;
  // The separation along the axis L of length 1 / invLen, from the
  // projections on L of t and of a's and b's half sizes; L is scaled to unit
  // length only if it is the best so far.
  auto consider = [&](const Vector3& L, double invLen, double along, double ra, double rb, bool isEdge) {
    const double sep = (std::abs(along) - ra - rb) * invLen;
    if (sep > best + (isEdge ? 1e-9 : 0.0)) {
      best = sep;
      axis = (along < 0 ? -invLen : invLen) * L;
      edgeAxis = isEdge;
    }
  };
  for (int i = 0; i < 3; ++i) consider(Vector3::Unit(i), 1.0, t[i], ha[i], absR.row(i).dot(hb), false);
  for (int j = 0; j < 3; ++j) consider(R.col(j), 1.0, t.dot(R.col(j)), absR.col(j).dot(ha), hb[j], false);
  // a's axis i crossed with b's axis j: its components off i are b's axis
  // j's two others, turned a quarter; b's half sizes project on it through
  // the entries of R in row i (R is a rotation).
  for (int i = 0; i < 3; ++i) {
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    for (int j = 0; j < 3; ++j) {
      const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      Vector3 L = Vector3::Zero();
      L[i1] = -R(i2, j);
      L[i2] = R(i1, j);
      const double len = std::sqrt(L[i1] * L[i1] + L[i2] * L[i2]);
      if (len < 1e-9) continue;  // parallel edges: covered by the face axes
      const double along = t[i1] * L[i1] + t[i2] * L[i2];
      const double ra = ha[i1] * absR(i2, j) + ha[i2] * absR(i1, j);
      const double rb = hb[j1] * absR(i, j2) + hb[j2] * absR(i, j1);
      consider(L, 1.0 / len, along, ra, rb, true);
    }
  }
  return best;
}

/// separatingAxisInA for two boxes in the world, its axis as a world `normal`.
double separatingAxis(const Box& a, const Box& b, Vector3& normal, bool& edgeAxis) {
  Vector3 axis;
  const double best =
      separatingAxisInA(a.h, a.R.transpose() * b.R, a.R.transpose() * (b.c - a.c), b.h, axis, edgeAxis);
  normal = a.R * axis;
  return best;
}

/// Whether q, in the frame of the box [-h, h], is within eps of its surface
/// (pointBoxDistance's magnitude at most eps, without the closest point).
bool onBoxSurface(const Vector3& q, const Vector3& h, double eps) {
  const Vector3 over = q.cwiseAbs() - h;
  if ((over.array() > 0).any()) return over.cwiseMax(0.0).squaredNorm() <= eps * eps;
  return over.maxCoeff() >= -eps;
}

}  // namespace

bool isSolidBox(const Leaf& leaf) {
  return (leaf.isPrimitive("Box") || leaf.isPrimitive("AABB")) && leaf.cache->shape &&
         leaf.cache->shape->getNodeType() == coal::GEOM_BOX;
}

double pointSolidBoxDistance(const Leaf& box, const Vector3& p, Vector3& closest) {
  return pointBoxDistance(boxOf(box), p, closest);
}

BoxPairWithin boxPairWithin(const Leaf& la, const Leaf& lb, double tol) {
  const Box a = boxOf(la), b = boxOf(lb);
  // The same axes as separatingAxis, tested in a's frame without normalising
  // them and left at the first that separates: a yes or no needs neither the
  // least penetration nor its normal (an overlapping pair's collides took
  // 0.46 us through separatingAxis, 0.32 this way).
  // In a's frame: b's axes are the columns of R, its centre is at t.
  const Matrix3 R = a.R.transpose() * b.R;
  const Vector3 t = a.R.transpose() * (b.c - a.c);
  const Matrix3 absR = R.cwiseAbs();
  bool apart = false;  // some axis separates them (by at most tol)
  // Separation along an axis of length len, from the centres' projection
  // and the two boxes' radii along it.
  auto test = [&](double centres, double ra, double rb, double len) {
    const double gap = std::abs(centres) - ra - rb;
    if (gap > tol * len) return true;
    apart = apart || gap > 0;
    return false;
  };
  for (int i = 0; i < 3; ++i)
    if (test(t[i], a.h[i], absR.row(i).dot(b.h), 1.0)) return BoxPairWithin::No;
  for (int j = 0; j < 3; ++j)
    if (test(t.dot(R.col(j)), absR.col(j).dot(a.h), b.h[j], 1.0)) return BoxPairWithin::No;
  for (int i = 0; i < 3; ++i) {
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    for (int j = 0; j < 3; ++j) {
      const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      // The axis a_i x b_j, whose length is the sine of their angle.
      const double len = std::sqrt(std::max(0.0, 1.0 - R(i, j) * R(i, j)));
      if (len < 1e-9) continue;  // parallel edges: covered by the face axes
      if (test(t[i2] * R(i1, j) - t[i1] * R(i2, j), a.h[i1] * absR(i2, j) + a.h[i2] * absR(i1, j),
               b.h[j1] * absR(i, j2) + b.h[j2] * absR(i, j1), len))
        return BoxPairWithin::No;
    }
  }
  return apart ? BoxPairWithin::Unknown : BoxPairWithin::Yes;
}

bool boxPairSeparation(const Leaf& la, const Leaf& lb, double& sep, Vector3& pa, Vector3& pb) {
  const Box a = boxOf(la), b = boxOf(lb);
  // In a's frame, where a's corners and its surface test need no rotation.
  const Matrix3 R = a.R.transpose() * b.R;
  const Vector3 t = a.R.transpose() * (b.c - a.c);
  Vector3 n;
  bool edgeAxis;
  sep = separatingAxisInA(a.h, R, t, b.h, n, edgeAxis);
  if (edgeAxis) return false;
  // Moving b by -sep along n makes the boxes touch, on a's support plane
  // along n: a vertex of b's facing feature moved there, or a vertex of a's
  // facing feature, lies on both surfaces unless the two features only
  // cross.
  const double eps = 1e-9 * (1.0 + a.h.norm() + b.h.norm());
  Vector3 va[8], vb[8];
  for (int i = 0; i < 8; ++i) {
    va[i] = corner(a.h, i);
    vb[i] = t + R * corner(b.h, i);
  }
  const auto onA = [&a, eps](const Vector3& q) { return onBoxSurface(q, a.h, eps); };
  const auto onB = [&b, &R, &t, eps](const Vector3& q) { return onBoxSurface(R.transpose() * (q - t), b.h, eps); };
  // b's vertices first; a's only when none of b's reaches a's surface.
  if (!landingVertex(vb, 8, n, true, -sep * n, eps, onA, pb, pa) &&
      !landingVertex(va, 8, n, false, sep * n, eps, onB, pa, pb))
    return false;
  pa = a.c + a.R * pa;
  pb = a.c + a.R * pb;
  return true;
}

bool boxPairContacts(const Leaf& la, const Leaf& lb, double pad, std::vector<BoxPairContact>& out) {
  const Box a = boxOf(la), b = boxOf(lb);
  Vector3 normal;
  bool edgeAxis;
  const double best = separatingAxis(a, b, normal, edgeAxis);
  if (best > pad) return true;  // separated by more than pad along some axis
  if (edgeAxis) return false;
  const size_t first = out.size();
  Vector3 cp;
  for (int i = 0; i < 8; ++i) {
    const Vector3 v = vertex(a, i);
    if ((v - a.c).dot(normal) < 0) continue;  // vertices facing away from b
    const double d = pointBoxDistance(b, v, cp);
    if (d <= pad) out.push_back({v, cp, normal, d});
  }
  for (int i = 0; i < 8; ++i) {
    const Vector3 v = vertex(b, i);
    if ((v - b.c).dot(normal) > 0) continue;
    const double d = pointBoxDistance(a, v, cp);
    if (d <= pad) out.push_back({cp, v, normal, d});
  }
  return out.size() > first;
}

namespace {

/// Separating-axis test of a triangle (vertices v, in the box's frame) and
/// the box [-h, h]: the largest separation (negative: minus the least
/// penetration) along the box's faces, the triangle's unit normal (if it has
/// area) and the cross products of their edges, with its unit axis n from
/// the triangle to the box. Face axes win ties.
double triangleSeparation(const Vector3 (&v)[3], const Vector3* normal, const Vector3& h, Vector3& n) {
  double best = -INFINITY;
  n = Vector3::UnitZ();
  const auto consider = [&](const Vector3& L, bool isEdge) {
    const double x[3] = {v[0].dot(L), v[1].dot(L), v[2].dot(L)};
    const auto [lo, hi] = std::minmax({x[0], x[1], x[2]});
    const double r = h.dot(L.cwiseAbs());
    const double beyondHigh = -r - hi, beyondLow = lo - r;  // the box past the triangle along +L, along -L
    const double sep = std::max(beyondHigh, beyondLow);
    if (sep > best + (isEdge ? 1e-9 : 0.0)) {
      best = sep;
      n = beyondHigh >= beyondLow ? L : Vector3(-L);
    }
  };
  for (int k = 0; k < 3; ++k) consider(Vector3::Unit(k), false);
  if (normal) consider(*normal, false);
  for (int j = 0; j < 3; ++j) {
    const Vector3 e = v[(j + 1) % 3] - v[j];
    for (int k = 0; k < 3; ++k) {
      const Vector3 L = Vector3::Unit(k).cross(e);
      const double len = L.norm();
      if (len <= 1e-9 * e.norm()) continue;  // an edge along a box axis: covered by the face axes
      consider(L / len, true);
    }
  }
  return best;
}

/// The contact of a triangle (box frame) with the box [-h, h] from the axis
/// of largest separation, if a vertex of either attains it: then p on the
/// triangle and q on the box with q - p = sep n, which no pair of points can
/// beat, so sep is their distance (apart) or least penetration (overlapping).
bool triangleBoxWitness(const Vector3 (&v)[3], const Vector3& h, double pad, Vector3& p, Vector3& q, Vector3& n,
                        double& sep, bool& near) {
  // Without area the triangle's normal is not an axis (the others still bound
  // the distance from below, and GJK/EPA decides what they leave).
  const Vector3 e1 = v[1] - v[0], e2 = v[2] - v[0], cross = e1.cross(e2);
  const bool hasArea = cross.norm() > 1e-12 * e1.norm() * e2.norm();
  const Vector3 normal = hasArea ? Vector3(cross.normalized()) : Vector3::Zero();
  sep = triangleSeparation(v, hasArea ? &normal : nullptr, h, n);
  near = sep <= pad;
  if (!near) return true;
  if (!hasArea) return false;
  const double eps = 1e-9 * (1.0 + h.norm() + e1.norm() + e2.norm());
  Vector3 corners[8];
  for (int i = 0; i < 8; ++i) corners[i] = corner(h, i);
  const auto onBox = [&h, eps](const Vector3& x) { return onBoxSurface(x, h, eps); };
  const auto onTriangle = [&](const Vector3& x) {
    return (closestPointOnTriangle(x, v[0], v[1], v[2]) - x).norm() <= eps;
  };
  // The triangle's vertices first (the pair when a box face is the axis, the
  // most common), then the box's corners.
  return landingVertex(v, 3, n, false, sep * n, eps, onBox, p, q) ||
         landingVertex(corners, 8, n, true, -sep * n, eps, onTriangle, q, p);
}

/// Whether the oriented box of a mesh node (axes, centre and half sizes in
/// the box's frame) is farther than pad from the box [-h, h] along one of
/// the box's axes or its own.
bool nodeBeyondBox(const Matrix3& axes, const Vector3& center, const Vector3& extent, const Vector3& h, double pad) {
  const Matrix3 absAxes = axes.cwiseAbs();
  for (int k = 0; k < 3; ++k)
    if (std::abs(center[k]) > h[k] + pad + absAxes.row(k).dot(extent)) return true;
  for (int k = 0; k < 3; ++k)
    if (std::abs(axes.col(k).dot(center)) > extent[k] + pad + absAxes.col(k).dot(h)) return true;
  return false;
}

}  // namespace

void meshBoxContacts(const Leaf& mesh, const Leaf& box, double pad, std::vector<ContactPoint>& out) {
  const MeshBVH& bvh = mesh.meshBVH();
  if (bvh.getNumBVs() == 0) return;
  const Box b = boxOf(box);
  // The mesh's frame in the box's (centred, axis-aligned) frame, and back to the world.
  const RigidTransform boxPose{b.R, b.c};
  const RigidTransform toBox = boxPose.inverse() * mesh.T;
  const auto& verts = *bvh.vertices;
  const auto& tris = *bvh.tri_indices;
  // The triangles under nodes within pad of the box, in the descent's order.
  thread_local std::vector<int> stack, candidates;
  stack.assign(1, 0);
  candidates.clear();
  while (!stack.empty()) {
    const auto& node = bvh.getBV(stack.back());
    stack.pop_back();
    const coal::OBB& obb = node.bv.obb;
    if (nodeBeyondBox(toBox.R * obb.axes, toBox.apply(obb.To), obb.extent, b.h, pad)) continue;
    if (node.isLeaf()) {
      candidates.push_back(node.primitiveId());
    } else {
      stack.push_back(node.rightChild());
      stack.push_back(node.leftChild());
    }
  }
  const coal::Transform3s meshPose = mesh.coalTransform(), shapePose = box.coalTransform();
  const auto& shape = static_cast<const coal::ShapeBase&>(*box.cache->shape);
  const auto contactsOf = [&](const int* begin, const int* end, std::vector<ContactPoint>& found) {
    for (const int* it = begin; it != end; ++it) {
      const int t = *it;
      const Vector3 v[3] = {toBox.apply(verts[tris[t][0]]), toBox.apply(verts[tris[t][1]]),
                            toBox.apply(verts[tris[t][2]])};
      Vector3 p, q, n;
      double sep;
      bool near;
      if (triangleBoxWitness(v, b.h, pad, p, q, n, sep, near)) {
        if (near) found.push_back({boxPose.apply(p), boxPose.apply(q), b.R * n, sep, mesh.elem(t), box.elem(0)});
        continue;
      }
      // Crossing edges or a triangle without area: GJK/EPA on this triangle.
      const coal::TriangleP tri(verts[tris[t][0]], verts[tris[t][1]], verts[tris[t][2]]);
      Vector3 pa, pb, normal;
      const double d = tightSolver().shapeDistance(static_cast<const coal::ShapeBase&>(tri), meshPose, shape,
                                                   shapePose, true, pa, pb, normal);
      if (d <= pad) found.push_back({pa, pb, normal.normalized(), d, mesh.elem(t), box.elem(0)});
    }
  };
  // Blocks of triangles (a third of a microsecond each) on every core when
  // there are several: a link deep in another's box has 17,000 near it.
  constexpr size_t kTrianglesPerBlock = 2048;
  // `candidates` named by reference: a worker's would be its own.
  const std::vector<int>& list = candidates;
  const size_t blocks = (list.size() + kTrianglesPerBlock - 1) / kTrianglesPerBlock;
  parallelAppend((int)blocks, out, [&](int k, std::vector<ContactPoint>& found) {
    const size_t begin = k * kTrianglesPerBlock, end = std::min(list.size(), begin + kTrianglesPerBlock);
    contactsOf(list.data() + begin, list.data() + end, found);
  });
}

}  // namespace detail
}  // namespace klampt
