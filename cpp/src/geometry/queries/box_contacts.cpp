// Two solid boxes by the separating-axis test: whether they are within a
// distance, their penetration, and their contact manifolds (vertex-in-range
// tests for the points).
#include "box_contacts.h"
#include <coal/shape/geometric_shapes.h>
#include <algorithm>
#include <cmath>

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

Vector3 vertex(const Box& b, int i) {
  return b.c + b.R * Vector3((i & 1 ? 1 : -1) * b.h[0], (i & 2 ? 1 : -1) * b.h[1], (i & 4 ? 1 : -1) * b.h[2]);
}

/// Separating-axis test of two boxes: the largest separation along the face
/// axes of both and the cross products of their edges (positive: apart by at
/// least that much; otherwise minus the least penetration), with its axis
/// `normal`, from a to b. Face axes win ties, so resting boxes get a face
/// normal. The axes are tested in a's frame, where its own are the unit
/// vectors and its edges' cross products are read off b's axes without
/// products (a third of the time of testing them in the world frame).
double separatingAxis(const Box& a, const Box& b, Vector3& normal, bool& edgeAxis) {
  const Matrix3 R = a.R.transpose() * b.R;  // b's axes as columns, in a's frame
  const Vector3 t = a.R.transpose() * (b.c - a.c);
  const Matrix3 absR = R.cwiseAbs();
  double best = -INFINITY;
  Vector3 axis = Vector3::UnitZ();  // in a's frame
  edgeAxis = false;
  // The separation along the unit axis L (in a's frame) whose projections of
  // t and of a's and b's half sizes are given.
  auto consider = [&](const Vector3& L, double along, double ra, double rb, bool isEdge) {
    const double sep = std::abs(along) - ra - rb;
    if (sep > best + (isEdge ? 1e-9 : 0.0)) {
      best = sep;
      axis = along < 0 ? Vector3(-L) : L;
      edgeAxis = isEdge;
    }
  };
  for (int i = 0; i < 3; ++i) consider(Vector3::Unit(i), t[i], a.h[i], absR.row(i).dot(b.h), false);
  for (int j = 0; j < 3; ++j) consider(R.col(j), t.dot(R.col(j)), absR.col(j).dot(a.h), b.h[j], false);
  // a's axis i crossed with b's axis j: in a's frame its components off i
  // are b's axis j's two others, turned a quarter; b's half sizes project on
  // it through the entries of R in row i (R is a rotation).
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
      const double ra = a.h[i1] * absR(i2, j) + a.h[i2] * absR(i1, j);
      const double rb = b.h[j1] * absR(i, j2) + b.h[j2] * absR(i, j1);
      consider(L / len, along / len, ra / len, rb / len, true);
    }
  }
  normal = a.R * axis;
  return best;
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
  Vector3 n;
  bool edgeAxis;
  sep = separatingAxis(a, b, n, edgeAxis);
  if (edgeAxis) return false;
  // Moving b by -sep along n makes the boxes touch, on a's support plane
  // along n: a vertex of b's facing feature moved there, or a vertex of a's
  // facing feature, lies on both surfaces unless the two features only
  // cross.
  const double eps = 1e-9 * (1.0 + a.h.norm() + b.h.norm());
  Vector3 va[8], vb[8];
  double alongA[8], alongB[8];
  double lowB = INFINITY, highA = -INFINITY;
  for (int i = 0; i < 8; ++i) {
    vb[i] = vertex(b, i);
    alongB[i] = vb[i].dot(n);
    lowB = std::min(lowB, alongB[i]);
  }
  Vector3 unused;
  for (int i = 0; i < 8; ++i)
    if (alongB[i] <= lowB + eps && std::abs(pointBoxDistance(a, vb[i] - sep * n, unused)) <= eps) {
      pb = vb[i];
      pa = vb[i] - sep * n;
      return true;
    }
  // a's vertices only when none of b's reaches a's surface.
  for (int i = 0; i < 8; ++i) {
    va[i] = vertex(a, i);
    alongA[i] = va[i].dot(n);
    highA = std::max(highA, alongA[i]);
  }
  for (int i = 0; i < 8; ++i)
    if (alongA[i] >= highA - eps && std::abs(pointBoxDistance(b, va[i] + sep * n, unused)) <= eps) {
      pa = va[i];
      pb = va[i] + sep * n;
      return true;
    }
  return false;
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

}  // namespace detail
}  // namespace klampt
