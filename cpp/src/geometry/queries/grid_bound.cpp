// Lower bound of a volume grid's value over a triangle (see grid_bound.h).
#include "grid_bound.h"
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace klampt {
namespace detail {

namespace {

/// Where a triangle lies along one axis of the grid: one cell whose
/// coordinate varies (the triangle meets its span), or the clamped ends
/// before the first cell centre and past the last, where it is fixed.
struct AxisSpan {
  int cell;      // the lower of the two cell centres interpolated
  bool fixed;    // clamped: the local coordinate is `at` everywhere
  double at;
};

/// Up to two spans along an axis; false if the triangle meets more.
bool axisSpans(double lo, double hi, int n, AxisSpan (&out)[2], int& count) {
  count = 0;
  auto add = [&](AxisSpan s) {
    if (count == 2) return false;
    out[count++] = s;
    return true;
  };
  if (n == 1) return add({0, true, 0.0});
  const int top = n - 1;  // the coordinate runs over [0, top]
  if (lo < 0 && !add({0, true, 0.0})) return false;
  if (hi >= 0 && lo <= top) {
    const int first = std::clamp((int)std::floor(std::max(lo, 0.0)), 0, top - 1);
    const int last = std::clamp((int)std::floor(std::min(hi, (double)top)), 0, top - 1);
    for (int c = first; c <= last; ++c)
      if (!add({c, false, 0.0})) return false;
  }
  if (hi > top && !add({top - 1, true, 1.0})) return false;
  return true;
}

/// Blocks per axis a box bound may look at, at the finest level where the box
/// spans no more: four (64 lookups at most) bound a surface far outside the
/// grid, whose values vary along the grid's boundary, much more tightly than
/// two (a mesh 23 cm from a link's grid: 0.9 -> 0.3 ms).
constexpr int kBlocksSpanned = 4;

/// A convex polygon in cell coordinates (p) and in the grid's frame (at): a
/// triangle clipped by cell planes.
struct Polygon {
  Vector3 p[12], at[12];  // a triangle cut by at most six planes has at most nine corners
  int n = 0;
};

/// Keeps the part of `poly` where side * (u[k] - at) <= 0.
void clip(Polygon& poly, int k, double at, double side) {
  Polygon out;
  for (int q = 0; q < poly.n; ++q) {
    const Vector3& p = poly.p[q];
    const Vector3& r = poly.p[(q + 1) % poly.n];
    const double dp = side * (p[k] - at), dr = side * (r[k] - at);
    if (dp <= 0) {
      out.at[out.n] = poly.at[q];
      out.p[out.n++] = p;
    }
    if ((dp < 0 && dr > 0) || (dp > 0 && dr < 0)) {
      const double t = dp / (dp - dr);
      out.at[out.n] = poly.at[q] + t * (poly.at[(q + 1) % poly.n] - poly.at[q]);
      out.p[out.n++] = p + t * (r - p);
    }
  }
  poly = out;
}

}  // namespace

GridBlockMinima gridBlockMinima(const VolumeGrid& grid) {
  GridBlockMinima out;
  std::array<int, 3> n = grid.dims;
  const std::vector<double>* below = &grid.values;
  while (n[0] > 1 || n[1] > 1 || n[2] > 1) {
    const std::array<int, 3> m{(n[0] + 1) / 2, (n[1] + 1) / 2, (n[2] + 1) / 2};
    std::vector<double> level((size_t)m[0] * m[1] * m[2], INFINITY);
    for (int i = 0; i < n[0]; ++i)
      for (int j = 0; j < n[1]; ++j)
        for (int k = 0; k < n[2]; ++k) {
          double& block = level[((size_t)(i / 2) * m[1] + j / 2) * m[2] + k / 2];
          block = std::min(block, (*below)[((size_t)i * n[1] + j) * n[2] + k]);
        }
    out.dims.push_back(m);
    out.levels.push_back(std::move(level));
    below = &out.levels.back();
    n = m;
  }
  return out;
}

double gridLeastValue(const VolumeGrid& grid, const GridBlockMinima& minima) {
  if (!minima.levels.empty()) return minima.levels.back()[0];
  if (grid.values.empty()) throw std::invalid_argument("the volume grid is empty");
  return grid.values[0];  // a single cell
}

double gridBoxLowerBound(const VolumeGrid& g, const GridBlockMinima& minima, const Vector3& lo, const Vector3& hi) {
  const auto& n = g.dims;
  if (n[0] <= 0 || n[1] <= 0 || n[2] <= 0) return -INFINITY;
  // The cells whose values gridValue interpolates somewhere in the box
  // clamped to the grid's: from floor(u) to floor(u) + 1 along each axis.
  int first[3], last[3];
  for (int k = 0; k < 3; ++k) {
    const double h = (g.bmax[k] - g.bmin[k]) / n[k];
    if (!(h > 0)) {
      first[k] = last[k] = 0;
      continue;
    }
    const double ulo = (std::clamp(lo[k], g.bmin[k], g.bmax[k]) - g.bmin[k]) / h - 0.5;
    const double uhi = (std::clamp(hi[k], g.bmin[k], g.bmax[k]) - g.bmin[k]) / h - 0.5;
    first[k] = std::clamp((int)std::floor(ulo), 0, n[k] - 1);
    last[k] = std::clamp((int)std::floor(uhi) + 1, 0, n[k] - 1);
  }
  // The finest level where the range spans at most kBlocksSpanned blocks per axis.
  int level = 0;
  while (level < (int)minima.levels.size() &&
         ((last[0] >> level) - (first[0] >> level) > kBlocksSpanned - 1 ||
          (last[1] >> level) - (first[1] >> level) > kBlocksSpanned - 1 ||
          (last[2] >> level) - (first[2] >> level) > kBlocksSpanned - 1))
    ++level;
  const std::vector<double>& values = level == 0 ? g.values : minima.levels[level - 1];
  const std::array<int, 3> dims = level == 0 ? n : minima.dims[level - 1];
  double least = INFINITY;
  for (int i = first[0] >> level; i <= last[0] >> level; ++i)
    for (int j = first[1] >> level; j <= last[1] >> level; ++j)
      for (int k = first[2] >> level; k <= last[2] >> level; ++k)
        least = std::min(least, values[((size_t)i * dims[1] + j) * dims[2] + k]);
  const Vector3 gap = (g.bmin - hi).cwiseMax(lo - g.bmax).cwiseMax(0.0);
  return least + gap.norm();
}

double gridTriangleLowerBound(const VolumeGrid& g, const Vector3& a, const Vector3& b, const Vector3& c,
                              Vector3& probe) {
  const auto& n = g.dims;
  const Vector3* v[3] = {&a, &b, &c};
  const Vector3 m = (a + b + c) / 3.0;
  // The corners in unclamped cell coordinates (gridValue's u before clamping).
  Polygon triangle;
  triangle.n = 3;
  for (int i = 0; i < 3; ++i) triangle.at[i] = *v[i];
  probe = m;
  AxisSpan spans[3][2];
  int count[3];
  for (int k = 0; k < 3; ++k) {
    const double h = n[k] > 0 ? (g.bmax[k] - g.bmin[k]) / n[k] : 0.0;
    if (!(h > 0) || n[k] == 1) {  // gridValue takes the first cell along k everywhere
      for (int i = 0; i < 3; ++i) triangle.p[i][k] = 0;
      count[k] = 1;
      spans[k][0] = {0, true, 0.0};
      continue;
    }
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < 3; ++i) {
      const double u = ((*v[i])[k] - g.bmin[k]) / h - 0.5;
      triangle.p[i][k] = u;
      lo = std::min(lo, u);
      hi = std::max(hi, u);
    }
    if (!axisSpans(lo, hi, n[k], spans[k], count[k])) return -INFINITY;
  }
  auto value = [&](int i, int j, int k) {
    i = std::min(i, n[0] - 1);
    j = std::min(j, n[1] - 1);
    k = std::min(k, n[2] - 1);
    return g.values[((size_t)i * n[1] + j) * n[2] + k];
  };
  double least = INFINITY;
  for (int s0 = 0; s0 < count[0]; ++s0)
    for (int s1 = 0; s1 < count[1]; ++s1)
      for (int s2 = 0; s2 < count[2]; ++s2) {
        const AxisSpan* s[3] = {&spans[0][s0], &spans[1][s1], &spans[2][s2]};
        // The part of the triangle where this cell's polynomial is the value.
        Polygon part = triangle;
        // (Along an axis gridValue does not follow, every corner is at 0 and
        // the clip to u <= 0 keeps them all.)
        for (int k = 0; k < 3 && part.n > 0; ++k) {
          if (!s[k]->fixed) {
            clip(part, k, s[k]->cell, -1);
            clip(part, k, s[k]->cell + 1, 1);
          } else {
            clip(part, k, s[k]->at == 0 ? 0.0 : n[k] - 1.0, s[k]->at == 0 ? 1 : -1);
          }
        }
        if (part.n == 0) continue;
        // The cell's polynomial P = v000 + cx x + cy y + cz z + cxy xy + cxz xz + cyz yz + cxyz xyz.
        const int i = s[0]->cell, j = s[1]->cell, k = s[2]->cell;
        const double v000 = value(i, j, k), v100 = value(i + 1, j, k), v010 = value(i, j + 1, k),
                     v001 = value(i, j, k + 1), v110 = value(i + 1, j + 1, k), v101 = value(i + 1, j, k + 1),
                     v011 = value(i, j + 1, k + 1), v111 = value(i + 1, j + 1, k + 1);
        const double cx = v100 - v000, cy = v010 - v000, cz = v001 - v000;
        const double cxy = v110 - v100 - v010 + v000, cxz = v101 - v100 - v001 + v000,
                     cyz = v011 - v010 - v001 + v000;
        const double cxyz = v111 - v110 - v101 - v011 + v100 + v010 + v001 - v000;
        // Expanded about the part's vertex mean: local coordinates there and
        // the part's largest offsets from it.
        Vector3 mean = Vector3::Zero();
        for (int q = 0; q < part.n; ++q) mean += part.p[q];
        mean /= part.n;
        double x[3], reach[3];
        for (int k2 = 0; k2 < 3; ++k2) {
          x[k2] = s[k2]->fixed ? s[k2]->at : mean[k2] - s[k2]->cell;
          reach[k2] = 0;
          if (!s[k2]->fixed)
            for (int q = 0; q < part.n; ++q) reach[k2] = std::max(reach[k2], std::abs(part.p[q][k2] - mean[k2]));
        }
        const double P = v000 + cx * x[0] + cy * x[1] + cz * x[2] + cxy * x[0] * x[1] + cxz * x[0] * x[2] +
                         cyz * x[1] * x[2] + cxyz * x[0] * x[1] * x[2];
        Vector3 grad(cx + cxy * x[1] + cxz * x[2] + cxyz * x[1] * x[2],
                     cy + cxy * x[0] + cyz * x[2] + cxyz * x[0] * x[2],
                     cz + cxz * x[0] + cyz * x[1] + cxyz * x[0] * x[1]);
        for (int k2 = 0; k2 < 3; ++k2)
          if (s[k2]->fixed) grad[k2] = 0;
        double linear = INFINITY;
        int lowest = 0;
        for (int q = 0; q < part.n; ++q) {
          const double change = grad.dot(part.p[q] - mean);
          if (change < linear) {
            linear = change;
            lowest = q;
          }
        }
        const double cross = std::abs(cxy + cxyz * x[2]) * reach[0] * reach[1] +
                             std::abs(cxz + cxyz * x[1]) * reach[0] * reach[2] +
                             std::abs(cyz + cxyz * x[0]) * reach[1] * reach[2] +
                             std::abs(cxyz) * reach[0] * reach[1] * reach[2];
        if (P + linear - cross < least) {
          least = P + linear - cross;
          probe = part.at[lowest];
        }
      }
  if (least == INFINITY) return -INFINITY;  // rounding clipped every part away
  // The distance to the grid's box, convex: above its tangent plane at the centroid.
  const Vector3 q = m.cwiseMax(g.bmin).cwiseMin(g.bmax);
  const double dm = (m - q).norm();
  double outside = 0;
  if (dm > 0) {
    const Vector3 dir = (m - q) / dm;
    double drop = INFINITY;
    for (const Vector3* p : v) drop = std::min(drop, dir.dot(*p - m));
    outside = std::max(0.0, dm + drop);
  }
  return least + outside;
}

}  // namespace detail
}  // namespace klampt
