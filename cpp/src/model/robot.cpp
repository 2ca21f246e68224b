#include "klampt/model/robot.h"

#include <algorithm>
#include <cmath>
#include "klampt/math/sincos.h"
#include "klampt/model/world.h"

namespace klampt {

const char* jointTypeName(JointType type) {
  switch (type) {
    case JointType::Weld: return "weld";
    case JointType::Normal: return "normal";
    case JointType::Spin: return "spin";
    case JointType::Floating: return "floating";
    case JointType::FloatingPlanar: return "floatingplanar";
    case JointType::BallAndSocket: return "ballandsocket";
  }
  return "";
}

const char* driverTypeName(DriverType type) {
  switch (type) {
    case DriverType::Normal: return "normal";
    case DriverType::Affine: return "affine";
    case DriverType::Translation: return "translation";
    case DriverType::Rotation: return "rotation";
  }
  return "";
}

void Robot::structureChanged() {
  structureStamp = newStructureStamp();
  if (world) world->structureChanged();
}

void Robot::resize(int n) {
  const double inf = INFINITY;
  links.resize(n);
  q = VectorX::Zero(n);
  dq = VectorX::Zero(n);
  qMin = VectorX::Constant(n, -inf);
  qMax = VectorX::Constant(n, inf);
  velMin = VectorX::Constant(n, -inf);
  velMax = VectorX::Constant(n, inf);
  accMax = VectorX::Constant(n, inf);
  torqueMax = VectorX::Constant(n, inf);
  powerMax = VectorX::Constant(n, inf);
  linkTransforms.assign(n, RigidTransform());
  selfCollision.assign((size_t)n * n, 0);
}

RigidTransform Robot::jointMotion(int i, double qi) const {
  const Link& l = links[i];
  RigidTransform m;
  if (l.prismatic)
    m.t = l.axis * qi;
  else
    m.R = momentRotation(l.axis * qi);
  return m;
}

void Robot::setConfig(const VectorX& config) {
  q = config;
  dynamicsDirty = true;
  updateFrames();
}

void Robot::setVelocity(const VectorX& velocity) {
  dq = velocity;
  dynamicsDirty = true;
}

namespace {

// M <- M * exp(q [axis]x), given sin q and cos q. Joint axes are nearly
// always a signed coordinate axis, where the product only mixes two columns of M.
inline void rotateAboutLocalAxis(Matrix3& M, const Vector3& axis, double q, double sinQ, double cosQ) {
  for (int k = 0; k < 3; ++k) {
    const int a = (k + 1) % 3, b = (k + 2) % 3;
    if (axis[a] != 0.0 || axis[b] != 0.0 || std::abs(axis[k]) != 1.0) continue;
    const double s = axis[k] * sinQ;  // about -e_k, the angle is -q
    const Vector3 colA = M.col(a);
    M.col(a) = cosQ * colA + s * M.col(b);
    M.col(b) = cosQ * M.col(b) - s * colA;
    return;
  }
  M = M * momentRotation(axis * q);
}

/// Places the frames of links linkAt(0..m) in that order, eight at a time:
/// the sines and cosines of their joint values together, then each frame.
template <class LinkAt>
void placeFrames(Robot& r, int m, LinkAt linkAt, bool placeGeometry) {
  constexpr int kChunk = 8;
  for (int k0 = 0; k0 < m; k0 += kChunk) {
    const int len = std::min(kChunk, m - k0);
    double angles[kChunk] = {}, sines[kChunk], cosines[kChunk];
    for (int k = 0; k < len; ++k) angles[k] = r.q[linkAt(k0 + k)];
    sinCos(angles, len, sines, cosines);
    for (int k = 0; k < len; ++k) {
      const int i = linkAt(k0 + k);
      r.placeLinkFrame(i, sines[k], cosines[k]);
      if (placeGeometry) r.links[i].geometry->currentTransform = r.linkTransforms[i];
    }
  }
}

}  // namespace

void Robot::updateLinkFrame(int i) {
  placeLinkFrame(i);
  links[i].geometry->currentTransform = linkTransforms[i];
}

void Robot::placeLinkFrame(int i) {
  double s = 0.0, c = 1.0;
  if (!links[i].prismatic) sinCos(q[i], s, c);
  placeLinkFrame(i, s, c);
}

void Robot::placeLinkFrame(int i, double sinQ, double cosQ) {
  const Link& l = links[i];
  RigidTransform& T = linkTransforms[i];
  if (l.parent < 0) {
    T = l.parentTransform;
  } else {
    const RigidTransform& P = linkTransforms[l.parent];
    // Most joint frames are only translated from their parent's.
    if (l.parentTransform.R == Matrix3::Identity())
      T.R = P.R;
    else
      T.R.noalias() = P.R * l.parentTransform.R;
    T.t.noalias() = P.R * l.parentTransform.t;
    T.t += P.t;
  }
  if (l.prismatic)
    T.t.noalias() += T.R * (l.axis * q[i]);
  else if (q[i] != 0.0)
    rotateAboutLocalAxis(T.R, l.axis, q[i], sinQ, cosQ);
}

void Robot::placeLinkFrames(const std::vector<int>& frames, bool placeGeometry) {
  placeFrames(*this, (int)frames.size(), [&](int k) { return frames[k]; }, placeGeometry);
}

void Robot::updateFrames() {
  placeFrames(*this, numLinks(), [](int k) { return k; }, true);
}

void Robot::updateSubtree(int link) {
  // Links are topologically ordered, so descendants come after `link`.
  const int n = numLinks();
  std::vector<char> moved(n, 0);
  for (int i = link; i < n; ++i) {
    const Link& l = links[i];
    if (i != link && (l.parent < 0 || !moved[l.parent])) continue;
    moved[i] = 1;
    updateLinkFrame(i);
  }
}

int Robot::jointOfLink(int i) const {
  for (size_t j = 0; j < joints.size(); ++j) {
    const Joint& jt = joints[j];
    if (jt.linkIndex == i) return (int)j;
    if (jt.type == JointType::Floating || jt.type == JointType::FloatingPlanar ||
        jt.type == JointType::BallAndSocket) {
      // The joint spans the chain from linkIndex up to (not including) baseIndex.
      for (int k = jt.linkIndex; k >= 0 && k != jt.baseIndex; k = links[k].parent)
        if (k == i) return (int)j;
    }
  }
  return -1;
}

bool Robot::isAncestor(int ancestor, int i) const {
  for (int k = i; k >= 0; k = links[k].parent)
    if (k == ancestor) return true;
  return false;
}

int Robot::linkIndex(const std::string& n) const {
  for (int i = 0; i < numLinks(); ++i)
    if (links[i].name == n) return i;
  return -1;
}

int Robot::driverIndex(const std::string& n) const {
  for (size_t i = 0; i < drivers.size(); ++i)
    if (drivers[i].name == n) return (int)i;
  return -1;
}

void Robot::initDefaultSelfCollision() {
  const int n = numLinks();
  selfCollision.assign((size_t)n * n, 0);
  for (int i = 0; i < n; ++i) {
    if (links[i].geometry->empty()) continue;
    for (int j = i + 1; j < n; ++j) {
      if (links[j].geometry->empty()) continue;
      if (links[j].parent == i || links[i].parent == j) continue;
      selfCollision[(size_t)i * n + j] = 1;
    }
  }
}

bool Robot::selfCollisionEnabled(int i, int j) const {
  if (i == j) return false;
  if (i > j) std::swap(i, j);
  return selfCollision[(size_t)i * numLinks() + j] != 0;
}

void Robot::setSelfCollision(int i, int j, bool enabled) {
  if (i == j) return;
  if (i > j) std::swap(i, j);
  selfCollision[(size_t)i * numLinks() + j] = enabled ? 1 : 0;
}

void Robot::initDefaultJointsAndDrivers() {
  joints.clear();
  for (int i = 0; i < numLinks(); ++i) {
    Joint j;
    j.linkIndex = i;
    j.type = (links[i].parent < 0 && velMin[i] == 0 && velMax[i] == 0) ? JointType::Weld : JointType::Normal;
    joints.push_back(j);
  }
  drivers.clear();
  for (const Joint& j : joints) {
    if (j.type != JointType::Normal && j.type != JointType::Spin) continue;
    Driver d;
    d.type = DriverType::Normal;
    d.linkIndices = {j.linkIndex};
    d.name = links[j.linkIndex].name;
    drivers.push_back(d);
    setDriverLimitsFromLinks((int)drivers.size() - 1);
  }
}

double Robot::driverValue(int d, const VectorX& config) const {
  const Driver& dr = drivers[d];
  if (dr.type != DriverType::Affine) return config[dr.linkIndices[0]];
  // Mean of the values each affected link implies (exact when they agree).
  double sum = 0;
  int count = 0;
  for (size_t k = 0; k < dr.linkIndices.size(); ++k) {
    if (dr.affScaling[k] == 0) continue;
    sum += (config[dr.linkIndices[k]] - dr.affOffset[k]) / dr.affScaling[k];
    ++count;
  }
  return count ? sum / count : 0.0;
}

double Robot::driverVelocity(int d, const VectorX& velocity) const {
  const Driver& dr = drivers[d];
  if (dr.type != DriverType::Affine) return velocity[dr.linkIndices[0]];
  double sum = 0;
  int count = 0;
  for (size_t k = 0; k < dr.linkIndices.size(); ++k) {
    if (dr.affScaling[k] == 0) continue;
    sum += velocity[dr.linkIndices[k]] / dr.affScaling[k];
    ++count;
  }
  return count ? sum / count : 0.0;
}

void Robot::setDriverValue(int d, double value, VectorX& config) const {
  const Driver& dr = drivers[d];
  if (dr.type == DriverType::Affine) {
    for (size_t k = 0; k < dr.linkIndices.size(); ++k)
      config[dr.linkIndices[k]] = dr.affScaling[k] * value + dr.affOffset[k];
  } else {
    config[dr.linkIndices[0]] = value;
  }
}

void Robot::setDriverVelocity(int d, double value, VectorX& velocity) const {
  const Driver& dr = drivers[d];
  if (dr.type == DriverType::Affine) {
    for (size_t k = 0; k < dr.linkIndices.size(); ++k)
      velocity[dr.linkIndices[k]] = dr.affScaling[k] * value;
  } else {
    velocity[dr.linkIndices[0]] = value;
  }
}

void Robot::setDriverLimitsFromLinks(int d) {
  Driver& dr = drivers[d];
  if (dr.linkIndices.empty()) return;
  int l = dr.linkIndices[0];
  dr.qmin = qMin[l];
  dr.qmax = qMax[l];
  dr.vmin = velMin[l];
  dr.vmax = velMax[l];
  dr.tmin = -torqueMax[l];
  dr.tmax = torqueMax[l];
  dr.amin = -accMax[l];
  dr.amax = accMax[l];
}

std::string Robot::property(const std::string& key) const {
  for (const auto& kv : properties)
    if (kv.first == key) return kv.second;
  return std::string();
}

void Robot::setProperty(const std::string& key, const std::string& value) {
  for (auto& kv : properties)
    if (kv.first == key) {
      kv.second = value;
      return;
    }
  properties.emplace_back(key, value);
}

}  // namespace klampt
