// RobSpec -> Robot: the post-processing of Klamp't's RobotModel::LoadRob, in
// its order (sizes, kinematics, limits, masses, geometry, joints and drivers,
// geometry mounts, automass, self-collision, robot mounts).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>

#include "klampt/io/geometry_files.h"
#include "klampt/io/robot_files.h"
#include "klampt/model/geometry_mass.h"
#include "klampt/model/robot_edit.h"
#include "rob_lexer.h"
#include "rob_spec.h"

namespace klampt {

namespace {

namespace fs = std::filesystem;

bool isRobotFile(const std::string& file) {
  std::string ext = fs::path(file).extension().string();
  for (char& c : ext) c = (char)std::tolower((unsigned char)c);
  return ext == ".rob" || ext == ".urdf";
}

class RobBuilder {
 public:
  RobBuilder(const RobSpec& spec, LoadContext& ctx)
      : spec_(spec), ctx_(ctx), dir_(fs::path(spec.path).parent_path().string()) {}
  std::shared_ptr<Robot> build();

 private:
  [[noreturn]] void fail(int line, const std::string& message) const {
    throw LoadError(fileMessage(spec_.path, line, message));
  }
  size_t voteLinkCount() const;
  void checkCounts();
  void setKinematics();
  void setLimits();
  void setMasses();
  void setJointsAndDrivers();
  void setDriverParameters();
  void checkValid() const;
  void mountGeometries();
  void autoMass();
  void initSelfCollision();
  void mountRobots();
  void applyResidualPairs();
  /// A link given by index or name: negative if there is none (an index past
  /// the last link gives -2, so that "-1" alone means the world in mounts).
  int resolveLink(const std::string& s) const;

  const RobSpec& spec_;
  LoadContext& ctx_;
  const std::string dir_;
  size_t n_ = 0;
  std::shared_ptr<Robot> robot_ = std::make_shared<Robot>();
  std::vector<int> mountLinks_;
  std::vector<RobPair> residualSelf_, residualNoSelf_;
};

template <class T>
void checkCount(const RobSpec& spec, const RobList<T>& list, size_t n, const char* keyword, bool allowOne = false) {
  if (list.empty() || list.size() == n || (allowOne && list.size() == 1)) return;
  throw LoadError(fileMessage(spec.path, list.line,
                              std::string("wrong number of '") + keyword + "' entries (" + std::to_string(list.size()) +
                                  "), the robot has " + std::to_string(n) + " links"));
}

VectorX toVector(const RobList<double>& list) { return Eigen::Map<const VectorX>(list.values.data(), list.size()); }

/// The chain heuristic shared by Klamp't's GetAccMax and autotorque: the
/// moment arm and mass a link's torque must hold, assuming a serial chain.
/// Returns arm * mass for each link, from the last link backwards.
VectorX chainLoads(const Robot& r) {
  const int n = r.numLinks();
  VectorX load(n);
  double sumMass = 0, sumCom = 0;
  for (int i = n - 1; i >= 0; --i) {
    const Link& l = r.links[i];
    double oldMass = sumMass, oldCom = sumCom + l.parentTransform.t.norm();
    sumMass += l.mass.mass;
    double total = l.mass.mass + oldMass;
    sumCom = total != 0 ? (l.mass.com.norm() * l.mass.mass + oldCom * oldMass) / total : 0.0;
    load[i] = sumCom * sumMass;
  }
  return load;
}

size_t RobBuilder::voteLinkCount() const {
  // Every sized list votes for its size; the most common wins, ties go to the smaller.
  std::map<size_t, int> votes;
  for (size_t k : {spec_.parents.size(), spec_.jointTypes.size(), spec_.linkNames.size(), spec_.mass.size(),
                   spec_.com.size(), spec_.inertia.size(), spec_.a.size(), spec_.d.size(), spec_.alpha.size(),
                   spec_.theta.size(), spec_.tParent.size(), spec_.axes.size(), spec_.q.size(), spec_.qMin.size(),
                   spec_.qMax.size(), spec_.velMin.size(), spec_.velMax.size(), spec_.torqueMax.size(),
                   spec_.powerMax.size()})
    if (k > 0) ++votes[k];
  size_t best = 0;
  int count = 0;
  for (const auto& v : votes)
    if (v.second > count) best = v.first, count = v.second;
  return best;
}

void RobBuilder::checkCounts() {
  const RobSpec& s = spec_;
  checkCount(s, s.parents, n_, "parents");
  checkCount(s, s.linkNames, n_, "links");
  checkCount(s, s.jointTypes, n_, "jointtype");
  checkCount(s, s.mass, n_, "mass");
  checkCount(s, s.com, n_, "com");
  checkCount(s, s.inertia, n_, "inertia");
  checkCount(s, s.a, n_, "a");
  checkCount(s, s.d, n_, "d");
  checkCount(s, s.alpha, n_, "alpha");
  checkCount(s, s.theta, n_, "theta");
  checkCount(s, s.tParent, n_, "tparent");
  checkCount(s, s.axes, n_, "axis");
  checkCount(s, s.q, n_, "q");
  checkCount(s, s.qMin, n_, "qmin");
  checkCount(s, s.qMax, n_, "qmax");
  checkCount(s, s.velMin, n_, "velmin");
  checkCount(s, s.velMax, n_, "velmax");
  checkCount(s, s.accMax, n_, "accmax");
  checkCount(s, s.torqueMax, n_, "torquemax");
  checkCount(s, s.powerMax, n_, "powermax");
  checkCount(s, s.geometry, n_, "geometry");
  checkCount(s, s.geomScale, n_, "geomscale", true);
  checkCount(s, s.geomMargin, n_, "geommargin", true);
  for (size_t i = 0; i < s.parents.size(); ++i) {
    int p = s.parents.values[i];
    if (p < -1 || p >= (int)i)
      fail(s.parents.line, "invalid parent " + std::to_string(p) + " of link " + std::to_string(i) +
                               " (a parent must be -1 or come before its child)");
  }
}

void RobBuilder::setKinematics() {
  Robot& r = *robot_;
  const RobSpec& s = spec_;
  bool dh = !s.alpha.empty() && !s.a.empty() && !s.d.empty() && !s.theta.empty();
  if (n_ == 0 && s.mounts.empty()) fail(0, "no links: the file defines no link and mounts no robot");
  if (s.tParent.empty() && !dh && n_ > 0)
    fail(0, "no link transforms: give 'tparent' or all of the DH parameters 'alpha', 'a', 'd', 'theta'");
  for (size_t i = 0; i < n_; ++i) {
    Link& l = r.links[i];
    l.parent = s.parents.empty() ? (int)i - 1 : s.parents.values[i];
    if (!s.linkNames.empty()) l.name = s.linkNames.values[i];
    else l.name = "Link_" + std::to_string(i);
    l.prismatic = false;
    if (!s.tParent.empty()) {
      l.parentTransform = s.tParent.values[i];
      l.axis = s.axes.empty() ? Vector3::UnitZ() : s.axes.values[i];
    } else {
      // Klamp't's DH convention (Craig's): RotX(alpha) TransX(a) TransZ(d) RotZ(theta),
      // revolute about z (an `axis` line is ignored, as in Klamp't).
      Matrix3 Rx = axisAngleRotation(Vector3::UnitX(), s.alpha.values[i]);
      l.parentTransform.R = Rx * axisAngleRotation(Vector3::UnitZ(), s.theta.values[i]);
      l.parentTransform.t = Rx * Vector3(s.a.values[i], 0, s.d.values[i]);
      l.axis = Vector3::UnitZ();
    }
    if (l.parent < 0) l.parentTransform = s.baseTransform * l.parentTransform;
    if (!s.jointTypes.empty()) l.prismatic = s.jointTypes.values[i] == 'p';
  }
}

void RobBuilder::setLimits() {
  Robot& r = *robot_;
  const RobSpec& s = spec_;
  if (!s.q.empty()) r.q = toVector(s.q);
  if (!s.qMin.empty()) r.qMin = toVector(s.qMin);
  if (!s.qMax.empty()) r.qMax = toVector(s.qMax);
  if (!s.velMax.empty()) r.velMax = toVector(s.velMax);
  r.velMin = s.velMin.empty() ? VectorX(-r.velMax) : toVector(s.velMin);
  if (!s.torqueMax.empty()) r.torqueMax = toVector(s.torqueMax);
  if (!s.powerMax.empty()) r.powerMax = toVector(s.powerMax);
  if (!s.accMax.empty()) {
    r.accMax = toVector(s.accMax);
  } else if (!s.torqueMax.empty()) {
    // Klamp't's GetAccMax quirk: derived before the file's masses and COMs are
    // assigned, so it sees the default unit masses at the link origins.
    VectorX load = chainLoads(r);
    for (size_t i = 0; i < n_; ++i)
      r.accMax[i] = load[i] > 0 ? r.torqueMax[i] / (load[i] * 9.8) : INFINITY;
  }
}

void RobBuilder::setMasses() {
  Robot& r = *robot_;
  const RobSpec& s = spec_;
  for (size_t i = 0; i < n_; ++i) {
    Mass& m = r.links[i].mass;
    m.mass = s.mass.empty() ? 1.0 : s.mass.values[i];
    m.com = s.com.empty() ? Vector3::Zero() : s.com.values[i];
    m.inertia = s.inertia.empty() ? Matrix3::Identity() : s.inertia.values[i];
  }
  if (s.autoTorque != 0) {
    VectorX load = chainLoads(r);
    for (size_t i = 0; i < n_; ++i) r.torqueMax[i] = load[i] * std::abs(s.autoTorque) * 9.8;
  }
}

void RobBuilder::setJointsAndDrivers() {
  Robot& r = *robot_;
  const RobSpec& s = spec_;
  r.initDefaultJointsAndDrivers();
  if (!s.joints.empty()) {
    r.joints.clear();
    for (const RobJointLine& j : s.joints) r.joints.push_back(j.joint);
    if (s.drivers.empty()) {
      // Default drivers: one per normal or spin joint.
      r.drivers.clear();
      for (const Joint& j : r.joints) {
        if (j.type != JointType::Normal && j.type != JointType::Spin) continue;
        if (j.linkIndex < 0 || j.linkIndex >= (int)n_) continue;  // reported by checkValid
        Driver d;
        d.linkIndices = {j.linkIndex};
        d.name = r.links[j.linkIndex].name;
        r.drivers.push_back(d);
        r.setDriverLimitsFromLinks((int)r.drivers.size() - 1);
      }
    }
  }
  if (!s.drivers.empty()) {
    r.drivers.clear();
    for (const RobDriverLine& dl : s.drivers) {
      Driver d = dl.driver;
      for (int l : d.linkIndices)
        if (l < 0 || l >= (int)n_) fail(dl.line, "driver link " + std::to_string(l) + " out of range");
      d.name = r.links[d.linkIndices[0]].name;
      r.drivers.push_back(d);
      if (d.type != DriverType::Affine) {
        r.setDriverLimitsFromLinks((int)r.drivers.size() - 1);
        continue;
      }
      // Affine: the tightest link acceleration limit, scaled back to the driver value.
      double amax = INFINITY;
      for (size_t k = 0; k < d.linkIndices.size(); ++k)
        if (d.affScaling[k] != 0) amax = std::min(amax, r.accMax[d.linkIndices[k]] / std::abs(d.affScaling[k]));
      r.drivers.back().amin = -amax;
      r.drivers.back().amax = amax;
    }
  }
  if (!s.driverNames.empty()) {
    if (s.driverNames.size() != r.drivers.size())
      fail(s.driverNames.line, "wrong number of driver names (" + std::to_string(s.driverNames.size()) +
                                   "), the robot has " + std::to_string(r.drivers.size()) + " drivers");
    for (size_t k = 0; k < r.drivers.size(); ++k) r.drivers[k].name = s.driverNames.values[k];
  }
}

void RobBuilder::setDriverParameters() {
  Robot& r = *robot_;
  struct Param {
    const RobList<double>& list;
    double Driver::*field;
    const char* keyword;
  };
  const Param params[] = {{spec_.servoP, &Driver::servoP, "servoP"},
                          {spec_.servoI, &Driver::servoI, "servoI"},
                          {spec_.servoD, &Driver::servoD, "servoD"},
                          {spec_.dryFriction, &Driver::dryFriction, "dryFriction"},
                          {spec_.viscousFriction, &Driver::viscousFriction, "viscousFriction"}};
  for (const Param& p : params) {
    if (p.list.empty()) continue;
    if (p.list.size() != r.drivers.size())
      fail(p.list.line, std::string("wrong number of '") + p.keyword + "' values (" + std::to_string(p.list.size()) +
                            "), the robot has " + std::to_string(r.drivers.size()) + " drivers");
    for (size_t k = 0; k < r.drivers.size(); ++k) {
      double v = p.list.values[k];
      if (!(v >= 0)) fail(p.list.line, std::string("'") + p.keyword + "' values must be >= 0");
      r.drivers[k].*p.field = v;
    }
  }
}

void RobBuilder::checkValid() const {
  const Robot& r = *robot_;
  const int n = r.numLinks();
  auto jointLine = [&](size_t j) { return j < spec_.joints.size() ? spec_.joints[j].line : 0; };
  std::vector<int> jointOf(n, -1);
  for (size_t j = 0; j < r.joints.size(); ++j) {
    const Joint& jt = r.joints[j];
    const std::string name = std::string(jointTypeName(jt.type)) + " joint " + std::to_string(j);
    if (jt.linkIndex < 0 || jt.linkIndex >= n) fail(jointLine(j), name + ": link index out of range");
    if (jt.type == JointType::Weld || jt.type == JointType::Normal || jt.type == JointType::Spin) {
      if (jointOf[jt.linkIndex] >= 0)
        fail(jointLine(j), name + ": link " + std::to_string(jt.linkIndex) + " already belongs to joint " +
                               std::to_string(jointOf[jt.linkIndex]));
      jointOf[jt.linkIndex] = (int)j;
      continue;
    }
    // Multi-DOF joints claim the chain from linkIndex up to (excluding) baseIndex.
    const int expected = jt.type == JointType::Floating ? 6 : 3;
    const std::string span = name + " must span exactly " + std::to_string(expected) + " links from link " +
                             std::to_string(jt.linkIndex) + " up to base " + std::to_string(jt.baseIndex);
    int count = 0;
    for (int l = jt.linkIndex; l != jt.baseIndex; l = r.links[l].parent, ++count) {
      if (l < 0 || count == expected) fail(jointLine(j), span);
      if (jointOf[l] >= 0)
        fail(jointLine(j), name + ": link " + std::to_string(l) + " already belongs to joint " +
                               std::to_string(jointOf[l]));
      jointOf[l] = (int)j;
    }
    if (count != expected) fail(jointLine(j), span);
  }
  for (int l = 0; l < n; ++l)
    if (jointOf[l] < 0)
      ctx_.warn(fileMessage(spec_.path, 0, "link " + std::to_string(l) + " belongs to no joint"));

  std::vector<int> drivenBy(n, -1);
  for (size_t d = 0; d < r.drivers.size(); ++d) {
    const Driver& dr = r.drivers[d];
    int line = d < spec_.drivers.size() ? spec_.drivers[d].line : 0;
    size_t driven = (dr.type == DriverType::Normal || dr.type == DriverType::Affine) ? dr.linkIndices.size() : 1;
    for (size_t k = 0; k < driven; ++k) {
      int l = dr.linkIndices[k];
      if (drivenBy[l] >= 0)
        fail(line, "driver " + std::to_string(d) + " drives link " + std::to_string(l) + ", already driven by driver " +
                       std::to_string(drivenBy[l]));
      drivenBy[l] = (int)d;
    }
  }
}

int RobBuilder::resolveLink(const std::string& s) const {
  int i;
  if (parseRobInteger(s, i)) return i < robot_->numLinks() ? i : -2;
  return robot_->linkIndex(s);
}

void RobBuilder::mountGeometries() {
  Robot& r = *robot_;
  for (const RobMount& m : spec_.mounts) {
    int link = resolveLink(m.link);
    if (link < -1 || (link == -1 && m.link != "-1")) fail(m.line, "invalid mount link '" + m.link + "'");
    mountLinks_.push_back(link);
    if (isRobotFile(m.file) || !ctx_.loadGeometry) continue;
    if (link < 0) fail(m.line, "geometry can only be mounted on a link");
    GeometryData geom;
    std::string file = (fs::path(dir_) / m.file).string();
    try {
      loadGeometryFile(file, geom);
    } catch (const LoadError& e) {
      fail(m.line, std::string("cannot mount geometry: ") + e.what());
    }
    mountGeometry(r, link, geom, m.transform);
    // The merged shape no longer matches the link's own file.
    Geometry& g = *r.links[link].geometry;
    g.sourceFile.clear();
    g.sourceLinear = Matrix3::Identity();
    g.sourceOffset = Vector3::Zero();
  }
}

void RobBuilder::autoMass() {
  if (!spec_.autoMass) return;
  Robot& r = *robot_;
  for (size_t i = 0; i < n_; ++i) {
    Mass& m = r.links[i].mass;
    const Geometry& g = *r.links[i].geometry;
    if (spec_.com.empty()) m.com = g.empty() ? Vector3::Zero() : geometryCenterOfMass(*g.data, spec_.surfaceFraction);
    if (spec_.inertia.empty())
      m.inertia = (g.empty() || m.mass == 0) ? Matrix3::Zero()
                                             : geometryInertia(*g.data, m.com, m.mass, spec_.surfaceFraction);
  }
}

void RobBuilder::initSelfCollision() {
  Robot& r = *robot_;
  const int n = r.numLinks();
  auto apply = [&](const std::vector<RobPair>& pairs, bool enable, std::vector<RobPair>& residual) {
    for (const RobPair& p : pairs) {
      int i = resolveLink(p.first), j = resolveLink(p.second);
      if (i < 0 || j < 0 || i >= n || j >= n) {
        residual.push_back(p);  // may name a link of a robot mounted later
        continue;
      }
      if (i == j) fail(p.line, "invalid self-collision pair " + p.first + ", " + p.second);
      r.setSelfCollision(i, j, enable);
    }
  };
  if (spec_.selfCollision.empty()) {
    r.initDefaultSelfCollision();
  } else {
    r.selfCollision.assign((size_t)n * n, 0);
    apply(spec_.selfCollision, true, residualSelf_);
  }
  apply(spec_.noSelfCollision, false, residualNoSelf_);
}

void RobBuilder::mountRobots() {
  Robot& r = *robot_;
  for (size_t k = 0; k < spec_.mounts.size(); ++k) {
    const RobMount& m = spec_.mounts[k];
    if (!isRobotFile(m.file)) continue;
    std::shared_ptr<Robot> sub;
    try {
      sub = loadRobotFile((fs::path(dir_) / m.file).string(), ctx_);
    } catch (const LoadError& e) {
      fail(m.line, std::string("cannot mount robot: ") + e.what());
    }
    mountRobot(r, mountLinks_[k], *sub, m.transform, m.name);
  }
}

void RobBuilder::applyResidualPairs() {
  Robot& r = *robot_;
  const int n = r.numLinks();
  auto apply = [&](const std::vector<RobPair>& pairs, bool enable) {
    for (const RobPair& p : pairs) {
      int i = resolveLink(p.first), j = resolveLink(p.second);
      if (i < 0 || j < 0 || i >= n || j >= n || i == j)
        fail(p.line, "invalid self-collision pair " + p.first + ", " + p.second + " (links are 0.." +
                         std::to_string(n - 1) + " or names)");
      r.setSelfCollision(i, j, enable);
    }
  };
  apply(residualSelf_, true);
  apply(residualNoSelf_, false);
}

std::shared_ptr<Robot> RobBuilder::build() {
  Robot& r = *robot_;
  r.name = fs::path(spec_.path).stem().string();
  n_ = voteLinkCount();
  checkCounts();
  r.resize((int)n_);
  setKinematics();
  setLimits();
  setMasses();
  if (spec_.scale != 1.0) fail(spec_.scaleLine, "'scale' other than 1 is not supported");
  loadRobGeometries(r, spec_, dir_, ctx_);
  if (!spec_.collision.empty()) fail(spec_.collision.line, "'collision' is reserved and not supported");
  for (const std::string& c : spec_.noCollision.values) {
    int l = resolveLink(c);
    if (l < 0) fail(spec_.noCollision.line, "invalid nocollision link '" + c + "'");
    fail(spec_.noCollision.line, "'nocollision' is reserved and not supported");
  }
  setJointsAndDrivers();
  setDriverParameters();
  checkValid();
  mountGeometries();
  autoMass();
  initSelfCollision();
  mountRobots();
  applyResidualPairs();
  r.properties = spec_.properties;
  r.dq = VectorX::Zero(r.numLinks());
  r.setConfig(r.q);
  return robot_;
}

}  // namespace

std::shared_ptr<Robot> loadRob(const std::string& path, LoadContext& ctx) {
  RobSpec spec = parseRobFile(path, ctx);
  return RobBuilder(spec, ctx).build();
}

}  // namespace klampt
