#include "klampt/sim/sim_contacts.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include "klampt/geometry/queries/queries.h"
#include "klampt/sim/sim_body.h"
#include "klampt/sim/sim_settings.h"

namespace klampt {

namespace {

double harmonicMean(double a, double b) {
  if (a <= 0 || b <= 0) return 0;
  return 2.0 / (1.0 / a + 1.0 / b);
}

/// Springs (or dampers) in series; infinite means rigid.
double series(double a, double b) {
  if (std::isinf(a)) return b;
  if (std::isinf(b)) return a;
  if (a <= 0 || b <= 0) return 0;
  return 1.0 / (1.0 / a + 1.0 / b);
}

bool isDynamic(const SimBody& b) { return b.body && !dBodyIsKinematic(b.body); }

/// The spring of a contact between a and b: both surfaces' stiffness and
/// damping in series, mapped to ODE's ERP and CFM for a step dt.
struct ContactSpring {
  double stiffness, damping;
  /// Finite stiffness and damping; otherwise the contact is rigid.
  bool soft(double dt) const {
    return std::isfinite(stiffness) && std::isfinite(damping) && dt * stiffness + damping > 0;
  }
  double erp(double dt) const { return dt * stiffness / (dt * stiffness + damping); }
  double cfm(double dt) const { return 1.0 / (dt * stiffness + damping); }
};

ContactSpring springOf(const SimBody& a, const SimBody& b) {
  return {series(a.surface.kStiffness, b.surface.kStiffness), series(a.surface.kDamping, b.surface.kDamping)};
}

constexpr double kMaxRigidContactCFM = 1e-4;

/// Whether a and b's contact springs yield enough to matter: their
/// compliance (CFM / dt, a contact row's added diagonal) is at least a tenth
/// of the bodies' own mobility 1/ma + 1/mb. Stiffer springs (the default
/// terrain surface, or 1e4 N/m under a 0.1 kg block) act as rigid contacts.
bool compliantPair(const SimBody& a, const SimBody& b, double dt) {
  const ContactSpring spring = springOf(a, b);
  if (!spring.soft(dt)) return false;
  double mobility = 0;
  for (const SimBody* body : {&a, &b}) {
    if (!isDynamic(*body)) continue;
    dMass m;
    dBodyGetMass(body->body, &m);
    if (m.mass > 0) mobility += 1.0 / m.mass;
  }
  return spring.cfm(dt) / dt >= 0.1 * mobility;
}

constexpr size_t kMaxPatchPoints = 8;

/// Keeps the contacts on the boundary of the contact region when every normal
/// agrees (a flat contact patch): interior points of a planar rigid patch add
/// only redundant rows to the LCP. Coincident points are merged. (Compliant
/// contacts keep every point: each is a spring, and the reference's number
/// of them sets how deep an object rests.)
void keepPatchBoundary(PairContacts& pc) {
  const size_t n = pc.points.size();
  if (n <= 4) return;
  Vector3 mean = Vector3::Zero();
  for (const auto& nv : pc.normals) mean += nv;
  if (mean.norm() < 1e-9) return;
  mean.normalize();
  for (const auto& nv : pc.normals)
    if (nv.dot(mean) < 0.985) return;
  const Vector3 u = mean.unitOrthogonal(), v = mean.cross(u);
  std::vector<std::pair<Eigen::Vector2d, size_t>> pts(n);
  for (size_t i = 0; i < n; ++i) pts[i] = {Eigen::Vector2d(pc.points[i].dot(u), pc.points[i].dot(v)), i};
  std::sort(pts.begin(), pts.end(), [](const auto& a, const auto& b) {
    return a.first.x() < b.first.x() || (a.first.x() == b.first.x() && a.first.y() < b.first.y());
  });
  auto cross = [](const Eigen::Vector2d& o, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    return (a - o).x() * (b - o).y() - (a - o).y() * (b - o).x();
  };
  // Andrew's monotone chain; (nearly) collinear and coincident points are dropped.
  std::vector<size_t> hull(2 * n);
  size_t k = 0;
  const double extent = (pts.back().first - pts.front().first).norm();
  const double eps = 1e-4 * extent * extent;
  for (size_t i = 0; i < n; ++i) {
    while (k >= 2 && cross(pts[hull[k - 2]].first, pts[hull[k - 1]].first, pts[i].first) <= eps) --k;
    hull[k++] = i;
  }
  for (size_t i = n - 1, t = k + 1; i > 0; --i) {
    while (k >= t && cross(pts[hull[k - 2]].first, pts[hull[k - 1]].first, pts[i - 1].first) <= eps) --k;
    hull[k++] = i - 1;
  }
  if (k < 4) return;  // degenerate (a line of contacts): keep them all
  hull.resize(k - 1);
  if (hull.size() > kMaxPatchPoints) {
    // The hull vertices furthest in evenly spaced directions.
    std::vector<size_t> kept;
    for (size_t d = 0; d < kMaxPatchPoints; ++d) {
      const double a = 2 * M_PI * d / kMaxPatchPoints;
      const Eigen::Vector2d dir(std::cos(a), std::sin(a));
      size_t best = hull[0];
      for (size_t h : hull)
        if (pts[h].first.dot(dir) > pts[best].first.dot(dir)) best = h;
      if (std::find(kept.begin(), kept.end(), best) == kept.end()) kept.push_back(best);
    }
    hull.swap(kept);
  }
  PairContacts out;
  for (size_t h : hull) {
    const size_t i = pts[h].second;
    out.points.push_back(pc.points[i]);
    out.normals.push_back(pc.normals[i]);
    out.depths.push_back(pc.depths[i]);
  }
  pc.points.swap(out.points);
  pc.normals.swap(out.normals);
  pc.depths.swap(out.depths);
}

void updateBox(SimBody& b) {
  if ((!b.body || b.asleep) && b.boxCurrent) return;
  // The cached local box placed at the pose: O(1) per step, where an exact
  // box would visit every vertex of a mesh each step.
  looseBoundingBox(b.geometry, b.boxMin, b.boxMax);
  const double pad = b.padding;
  b.boxMin.array() -= pad;
  b.boxMax.array() += pad;
  b.boxCurrent = true;
}

}  // namespace

std::vector<std::pair<int, int>> broadPhase(std::vector<SimBody>& bodies, const std::vector<char>& pairAllowed,
                                            bool skipSleeping) {
  const int n = (int)bodies.size();
  for (SimBody& b : bodies)
    if (b.hasGeometry && b.enabled) updateBox(b);
  std::vector<std::pair<int, int>> out;
  for (int i = 0; i < n; ++i) {
    const SimBody& a = bodies[i];
    if (!a.hasGeometry || !a.enabled) continue;
    for (int j = i + 1; j < n; ++j) {
      const SimBody& b = bodies[j];
      if (!b.hasGeometry || !b.enabled || !pairAllowed[(size_t)i * n + j]) continue;
      if (!isDynamic(a) && !isDynamic(b)) continue;
      if ((a.boxMin.array() > b.boxMax.array()).any() || (b.boxMin.array() > a.boxMax.array()).any()) continue;
      out.emplace_back(i, j);
    }
  }
  if (!skipSleeping) return out;
  // A sleeping body keeps its contacts only while an awake body touches it:
  // that contact wakes it in the step, and its other contacts must hold it.
  // ODE never wakes a body for a kinematic one, so that is done here.
  auto movingKinematic = [](const SimBody& b) { return b.body && !b.alwaysKinematic && dBodyIsKinematic(b.body); };
  std::vector<char> touched(n, 0);
  for (auto [i, j] : out) {
    for (auto [s, o] : {std::make_pair(i, j), std::make_pair(j, i)}) {
      if (!bodies[s].asleep) continue;
      if (movingKinematic(bodies[o])) bodies[s].wake();
      else if (bodies[o].active()) touched[s] = 1;
    }
  }
  auto live = [&](int i) { return !bodies[i].asleep ? isDynamic(bodies[i]) : touched[i] != 0; };
  out.erase(std::remove_if(out.begin(), out.end(), [&](auto p) { return !live(p.first) && !live(p.second); }),
            out.end());
  return out;
}

std::vector<PairContacts> generateContacts(std::vector<SimBody>& bodies, const SimSettings& settings,
                                           const std::vector<std::pair<int, int>>& candidates,
                                           ContactCaches& caches) {
  std::vector<PairContacts> out;
  out.reserve(candidates.size());
  for (auto [i, j] : candidates) {
    // Body a always has an ODE body so that feedback f1 is the force on a.
    if (!bodies[i].body) std::swap(i, j);
    const SimBody& a = bodies[i];
    const SimBody& b = bodies[j];
    const double pa = settings.boundaryLayerCollisions ? a.padding : 0.0;
    const double pb = settings.boundaryLayerCollisions ? b.padding : 0.0;
    ContactQueryResult res;
    try {
      res = contacts(a.geometry, b.geometry, pa, pb, settings.maxContacts, settings.clusterNormalScale,
                     &caches[{i, j}]);
    } catch (const std::exception&) {
      continue;  // a type pair without a contact query never collides
    }
    if (res.depths.empty()) continue;
    PairContacts pc;
    pc.a = i;
    pc.b = j;
    pc.kFriction = harmonicMean(a.surface.kFriction, b.surface.kFriction);
    const double layer = pa + pb + a.geometry.margin + b.geometry.margin;
    pc.points.reserve(res.depths.size());
    pc.normals.reserve(res.depths.size());
    pc.depths.reserve(res.depths.size());
    for (size_t k = 0; k < res.depths.size(); ++k) {
      Vector3 n = -res.normals[k];
      if (!n.allFinite() || n.squaredNorm() < 0.25) continue;
      n.normalize();
      pc.points.push_back(0.5 * (res.points1[k] + res.points2[k]));
      pc.normals.push_back(n);
      pc.depths.push_back(res.depths[k]);
      if (layer > 0 && res.depths[k] >= layer * (1 - 1e-9)) pc.penetrating = true;
    }
    if (layer <= 0) pc.penetrating = true;
    if (!compliantPair(a, b, settings.simStep)) keepPatchBoundary(pc);
    if (!pc.points.empty()) out.push_back(std::move(pc));
  }
  return out;
}

void createContactJoints(dWorldID world, dJointGroupID group, const std::vector<SimBody>& bodies,
                         const std::vector<PairContacts>& contacts, const SimSettings& settings, double dt,
                         std::vector<dJointFeedback>& feedback) {
  size_t total = 0;
  for (const auto& pc : contacts)
    if (!pc.frozen) total += pc.points.size();
  feedback.assign(total, dJointFeedback{});
  size_t k = 0;
  for (const auto& pc : contacts) {
    if (pc.frozen) continue;
    const SimBody& a = bodies[pc.a];
    const SimBody& b = bodies[pc.b];
    dContact c{};
    c.surface.mode = dContactApprox1;
    // The pyramid friction cone is inscribed in the circular one.
    c.surface.mu = 0.707 * pc.kFriction;
    const double restitution = 0.5 * (a.surface.kRestitution + b.surface.kRestitution);
    if (restitution > 0) {
      c.surface.mode |= dContactBounce;
      c.surface.bounce = restitution;
      c.surface.bounce_vel = 1e-2;  // the reference's: slower approaches do not bounce
    }
    const ContactSpring spring = springOf(a, b);
    const bool soft = spring.soft(dt);
    const double pa = settings.boundaryLayerCollisions ? a.padding : 0.0;
    const double pb = settings.boundaryLayerCollisions ? b.padding : 0.0;
    const double layer = pa + pb + a.geometry.margin + b.geometry.margin;
    for (size_t i = 0; i < pc.points.size(); ++i, ++k) {
      for (int d = 0; d < 3; ++d) {
        c.geom.pos[d] = pc.points[i][d];
        c.geom.normal[d] = pc.normals[i][d];
      }
      c.geom.depth = pc.depths[i];
      // Soft contact acts inside the boundary layer; once the geometries
      // themselves touch, the contact is rigid so nothing sinks through.
      c.surface.mode |= dContactSoftERP | dContactSoftCFM;
      if (soft && pc.depths[i] < layer * (1 - 1e-9)) {
        c.surface.soft_erp = spring.erp(dt);
        c.surface.soft_cfm = spring.cfm(dt);
      } else {
        // Rigid contact. Its compliance is bounded: with the capped
        // correcting velocity a large CFM could not hold heavy loads.
        c.surface.soft_erp = settings.errorReductionParameter;
        c.surface.soft_cfm = std::min(settings.dampedLeastSquaresParameter, kMaxRigidContactCFM);
      }
      dJointID j = dJointCreateContact(world, group, &c);
      dJointAttach(j, a.body, b.body);
      dJointSetFeedback(j, &feedback[k]);
    }
  }
}

}  // namespace klampt
