// The overlap witnesses of convex shape pairs (overlap_witness.h), kept in
// a PairMemory.
#include "overlap_witness.h"
#include <algorithm>
#include <cmath>
#include "pair_memory.h"

namespace klampt {
namespace detail {

namespace {

struct Witness {
  Vector3 pa[4], pb[4];  // points of each shape, in its Coal shape's frame
};

thread_local PairMemory<Witness> witnesses;

/// Whether the origin lies inside the tetrahedron w, of points whose world
/// coordinates are at most `size` in magnitude, by a margin that rounding
/// cannot cross: a volume not below 1e-6 of its longest edge cubed (so every
/// height is at least 6e-6 of that edge), and the origin farther than 1e-9
/// size (and 1e-7 of its heights) from every face. Transforming a point
/// moves it by about 1e-16 size.
bool enclosesOrigin(const Vector3 w[4], double size) {
  const Vector3 e1 = w[1] - w[0], e2 = w[2] - w[0], e3 = w[3] - w[0], o = -w[0];
  const double volume = e1.dot(e2.cross(e3));
  const double edge = std::max({e1.norm(), e2.norm(), e3.norm(), (w[2] - w[1]).norm(), (w[3] - w[1]).norm(),
                                (w[3] - w[2]).norm()});
  if (!(std::abs(volume) > 1e-6 * edge * edge * edge)) return false;
  const double l1 = o.dot(e2.cross(e3)) / volume, l2 = e1.dot(o.cross(e3)) / volume,
               l3 = e1.dot(e2.cross(o)) / volume;
  // A barycentric coordinate l is the origin's distance to that face over the
  // height across it (>= 6e-6 edge).
  const double margin = std::max(1e-7, 1e-9 * size / (6e-6 * edge));
  return l1 > margin && l2 > margin && l3 > margin && 1 - l1 - l2 - l3 > margin;
}

bool encloses(const Leaf& a, const Leaf& b, const Vector3 pa[4], const Vector3 pb[4]) {
  const RigidTransform Ta = a.shapePose(), Tb = b.shapePose();
  Vector3 w[4];
  double size = 0;
  for (int k = 0; k < 4; ++k) {
    const Vector3 qa = Ta.apply(pa[k]), qb = Tb.apply(pb[k]);
    size = std::max({size, qa.norm(), qb.norm()});
    w[k] = qa - qb;
  }
  return enclosesOrigin(w, size);
}

}  // namespace

bool overlapByWitness(const Leaf& a, const Leaf& b) {
  const Witness* w = witnesses.find(a, b);
  return w && encloses(a, b, w->pa, w->pb);
}

void rememberOverlap(const Leaf& a, const Leaf& b, const coal::details::GJK& gjk) {
  const coal::details::GJK::Simplex* simplex = gjk.getSimplex();
  if (!simplex || simplex->rank != 4) return;
  // GJK works in a's shape frame: b's support points are placed there.
  const RigidTransform aToB = b.shapePose().inverse() * a.shapePose();
  Witness w;
  for (int k = 0; k < 4; ++k) {
    w.pa[k] = simplex->vertex[k]->w0;
    w.pb[k] = aToB.apply(simplex->vertex[k]->w1);
  }
  if (encloses(a, b, w.pa, w.pb)) witnesses.keep(a, b, w);
}

}  // namespace detail
}  // namespace klampt
