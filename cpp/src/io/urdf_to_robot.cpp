// urdf::Model -> klampt::Robot kinematics, limits, masses and drivers, as
// Klamp't 0.9.2's LoadURDF maps them (see reference_behaviour_notes.md 4.7),
// with two deliberate differences: inertia matrices are rotated into the link
// frame as R H R^T (Klamp't applies the transpose), and a floating or planar
// joint below the root becomes a chain of virtual links like the floating base
// (Klamp't gives it a single link).
#include <algorithm>
#include <cmath>

#include "urdf_model.h"

namespace klampt {
namespace urdf {

namespace {

constexpr double kInf = INFINITY;

/// A robot link and its limits, gathered before the robot is sized.
struct LinkSlot {
  klampt::Link link;
  double qmin = -kInf, qmax = kInf, vmin = -kInf, vmax = kInf;
  double amax = kInf, tmax = kInf, pmax = kInf;
};

struct MimicLink {
  int link;            // robot index of the mimicking link
  const Joint* joint;  // its URDF joint
};

/// Axes of the virtual links of a floating (x, y, z, then rotations about z,
/// y, x) or planar chain; the last axis is the child link's.
struct FreeChain {
  std::vector<Vector3> axes;
  std::vector<bool> prismatic;
};

FreeChain floatingChain() {
  return {{Vector3::UnitX(), Vector3::UnitY(), Vector3::UnitZ(), Vector3::UnitZ(), Vector3::UnitY(), Vector3::UnitX()},
          {true, true, true, false, false, false}};
}

/// Translations along two directions spanning the plane normal to `n`, then
/// a rotation about `n`.
FreeChain planarChain(const Vector3& n) {
  int k = 0;  // the coordinate axis least aligned with n
  for (int i = 1; i < 3; ++i)
    if (std::abs(n[i]) < std::abs(n[k])) k = i;
  Vector3 u = Vector3::Unit(k) - n[k] * n;
  u.normalize();
  return {{u, n.cross(u), n}, {true, true, false}};
}

class Builder {
 public:
  Builder(const Model& m, LoadContext& ctx) : m_(m), ctx_(ctx) {}

  RobotBuild build() {
    buildTree();
    const int n = (int)m_.links.size();
    build_.robotLink.assign(n, -1);
    // Depth-first, children in joint-name order: (URDF link, robot parent).
    std::vector<std::pair<int, int>> stack;
    auto pushChildren = [&](int u, int robotParent) {
      for (auto it = childJoints_[u].rbegin(); it != childJoints_[u].rend(); ++it)
        stack.emplace_back(linkIndex(m_.joints[*it].child), robotParent);
    };
    if (m_.links[root_].name == m_.klampt.worldFrame) {
      pushChildren(root_, -1);  // fixed base: the world frame link is dropped
    } else {
      build_.robotLink[root_] = addFloatingBase();
      pushChildren(root_, build_.robotLink[root_]);
    }
    while (!stack.empty()) {
      auto [u, parent] = stack.back();
      stack.pop_back();
      build_.robotLink[u] = addJointLink(m_.joints[parentJoint_[u]], parent);
      pushChildren(u, build_.robotLink[u]);
    }
    makeAffineDrivers();
    warnUnknownLinkSettings();
    assemble();
    return std::move(build_);
  }

 private:
  int linkIndex(const std::string& name) const {
    auto it = linkByName_.find(name);
    return it == linkByName_.end() ? -1 : it->second;
  }

  /// Checks that the links and joints form one tree and records it.
  void buildTree() {
    const int n = (int)m_.links.size();
    if (n == 0) throw m_.error(0, "the robot has no <link>");
    for (int i = 0; i < n; ++i) linkByName_[m_.links[i].name] = i;
    parentJoint_.assign(n, -1);
    childJoints_.assign(n, {});
    for (int j = 0; j < (int)m_.joints.size(); ++j) {
      const Joint& jt = m_.joints[j];
      const int p = linkIndex(jt.parent), c = linkIndex(jt.child);
      if (p < 0) throw m_.error(jt.line, "joint \"" + jt.name + "\": parent link \"" + jt.parent + "\" does not exist");
      if (c < 0) throw m_.error(jt.line, "joint \"" + jt.name + "\": child link \"" + jt.child + "\" does not exist");
      if (p == c) throw m_.error(jt.line, "joint \"" + jt.name + "\" connects link \"" + jt.child + "\" to itself");
      if (parentJoint_[c] >= 0)
        throw m_.error(jt.line, "link \"" + jt.child + "\" is the child of two joints, \"" +
                                    m_.joints[parentJoint_[c]].name + "\" and \"" + jt.name + "\"");
      parentJoint_[c] = j;
      childJoints_[p].push_back(j);
    }
    for (auto& children : childJoints_)
      std::sort(children.begin(), children.end(),
                [this](int a, int b) { return m_.joints[a].name < m_.joints[b].name; });
    std::vector<int> roots;
    for (int i = 0; i < n; ++i)
      if (parentJoint_[i] < 0) roots.push_back(i);
    if (roots.empty()) throw m_.error(0, "no root link: the joints form a cycle");
    if (roots.size() > 1)
      throw m_.error(m_.links[roots[1]].line, "several root links (\"" + m_.links[roots[0]].name + "\", \"" +
                                                  m_.links[roots[1]].name + "\"): a URDF robot must be one tree");
    root_ = roots[0];
    // With one root and one parent per link, unreachable links lie on a cycle.
    std::vector<char> reached(n, 0);
    std::vector<int> stack{root_};
    while (!stack.empty()) {
      int u = stack.back();
      stack.pop_back();
      reached[u] = 1;
      for (int j : childJoints_[u]) stack.push_back(linkIndex(m_.joints[j].child));
    }
    for (int i = 0; i < n; ++i)
      if (!reached[i])
        throw m_.error(m_.links[i].line, "link \"" + m_.links[i].name + "\" is on a cycle of joints");
  }

  const LinkSettings* settings(const std::string& linkName) const {
    auto it = m_.klampt.links.find(linkName);
    return it == m_.klampt.links.end() ? nullptr : &it->second;
  }

  /// Mass, COM and inertia about the COM, in the link frame.
  void setMass(klampt::Link& link, const Link& l) const {
    const LinkSettings* s = settings(l.name);
    Mass& mass = link.mass;
    if (s && !s->physical) {
      mass.mass = 0;
      mass.com.setZero();
      mass.inertia.setZero();
    } else if (l.inertial) {
      const Matrix3& R = l.inertial->origin.R;
      mass.mass = l.inertial->mass;
      mass.com = l.inertial->origin.t;
      mass.inertia = R * l.inertial->inertia * R.transpose();
    } else {
      mass.mass = m_.klampt.defaultMass;
      mass.com.setZero();
      mass.inertia = m_.klampt.defaultInertia;
    }
  }

  /// Virtual links along `chain` ending with URDF link `urdfLink`, their
  /// first link placed at `origin` under `parent`; adds the free joint.
  int addFreeChain(const FreeChain& chain, JointType type, const RigidTransform& origin, int parent,
                   const std::string& virtualPrefix, int urdfLink) {
    const int first = (int)slots_.size();
    const int count = (int)chain.axes.size();
    for (int k = 0; k < count; ++k) {
      LinkSlot s;
      klampt::Link& link = s.link;
      const bool last = (k + 1 == count);
      link.name = last ? m_.links[urdfLink].name : virtualPrefix + std::to_string(k);
      link.parent = k == 0 ? parent : first + k - 1;
      link.axis = chain.axes[k];
      link.prismatic = chain.prismatic[k];
      if (k == 0) link.parentTransform = origin;
      if (last) {
        setMass(link, m_.links[urdfLink]);
        s.pmax = 0;
      } else {
        link.mass.mass = 0;
        link.mass.inertia.setZero();
      }
      s.tmax = 0;  // free joints are not actuated
      slots_.push_back(s);
    }
    joints_.push_back({type, first + count - 1, parent});
    return first + count - 1;
  }

  /// The root link of a floating-base robot: virtual links base0..base4 first.
  int addFloatingBase() {
    const int root = addFreeChain(floatingChain(), JointType::Floating, RigidTransform(), -1, "base", root_);
    if (m_.klampt.freezeRootLink) {
      // Six welds instead; the limits stay infinite so the base can still be placed.
      joints_.pop_back();
      for (int i = root - 5; i <= root; ++i) joints_.push_back({JointType::Weld, i, -1});
    }
    return root;
  }

  /// The child link of URDF joint `j` under robot link `parent`; returns its index.
  int addJointLink(const Joint& j, int parent) {
    const int child = linkIndex(j.child);
    const Link& l = m_.links[child];
    int index;
    if (j.kind == JointKind::Floating || j.kind == JointKind::Planar) {
      const bool floating = j.kind == JointKind::Floating;
      index = addFreeChain(floating ? floatingChain() : planarChain(movingAxis(j)),
                           floating ? JointType::Floating : JointType::FloatingPlanar, j.origin, parent,
                           j.name + "_dof", child);
    } else {
      index = addSingleDofLink(j, l, parent);
    }
    childOfJoint_[j.name] = index;
    if (j.mimic) mimics_.push_back({index, &j});
    return index;
  }

  Vector3 movingAxis(const Joint& j) const {
    Vector3 axis = j.axis.value_or(Vector3::UnitX());
    if (!(axis.norm() > 0)) throw m_.error(j.line, "joint \"" + j.name + "\" has a zero axis");
    return axis.normalized();
  }

  int addSingleDofLink(const Joint& j, const Link& l, int parent) {
    const int index = (int)slots_.size();
    LinkSlot s;
    klampt::Link& link = s.link;
    link.name = l.name;
    link.parent = parent;
    link.parentTransform = j.origin;
    link.prismatic = j.kind == JointKind::Prismatic;
    link.axis = j.kind == JointKind::Fixed ? Vector3::UnitZ() : movingAxis(j);
    setMass(link, l);
    if (j.limits) {
      s.qmin = j.limits->lower;
      s.qmax = j.limits->upper;
      s.vmin = -j.limits->velocity;
      s.vmax = j.limits->velocity;
      s.tmax = j.limits->effort;
    }
    const LinkSettings* set = settings(l.name);
    s.amax = set && set->accMax ? *set->accMax : m_.klampt.defaultAccMax;
    JointType type = JointType::Normal;
    if (j.kind == JointKind::Continuous) {
      type = JointType::Spin;
      s.qmin = -kInf;
      s.qmax = kInf;
    } else if (j.kind == JointKind::Fixed) {
      type = JointType::Weld;
      s.qmin = s.qmax = s.vmin = s.vmax = s.amax = 0;  // the torque limit stays
    }
    slots_.push_back(s);
    joints_.push_back({type, index, -1});
    if (type != JointType::Weld) addDriver(j, index);
    return index;
  }

  /// A normal driver with the link's limits, servo gains 100/0/10 and the
  /// <dynamics> friction, then the <klampt><link> overrides.
  void addDriver(const Joint& j, int link) {
    const LinkSlot& s = slots_[link];
    Driver d;
    d.name = s.link.name;
    d.type = DriverType::Normal;
    d.linkIndices = {link};
    d.qmin = s.qmin;
    d.qmax = s.qmax;
    d.vmin = s.vmin;
    d.vmax = s.vmax;
    d.tmin = -s.tmax;
    d.tmax = s.tmax;
    d.amin = -s.amax;
    d.amax = s.amax;
    d.servoP = 100;
    d.servoI = 0;
    d.servoD = 10;
    d.dryFriction = j.friction;
    d.viscousFriction = j.damping;
    if (const LinkSettings* set = settings(s.link.name)) {
      d.servoP = set->servoP.value_or(d.servoP);
      d.servoI = set->servoI.value_or(d.servoI);
      d.servoD = set->servoD.value_or(d.servoD);
      d.dryFriction = set->dryFriction.value_or(d.dryFriction);
      d.viscousFriction = set->viscousFriction.value_or(d.viscousFriction);
    }
    drivers_.push_back(d);
  }

  int driverOfLink(int link) const {
    for (size_t d = 0; d < drivers_.size(); ++d)
      if (drivers_[d].linkIndices[0] == link) return (int)d;
    return -1;
  }

  /// Mimic joints: q[i] = scale * q[source] + offset, with chains collapsed to
  /// the joint at their end. The mimicking links' drivers are removed and each
  /// source's driver becomes an affine driver over its link and its mimics.
  void makeAffineDrivers() {
    const int n = (int)slots_.size();
    std::vector<int> source(n, -1);
    std::vector<double> scale(n, 1), offset(n, 0);
    for (const MimicLink& ml : mimics_) {
      const Mimic& mim = *ml.joint->mimic;
      auto it = childOfJoint_.find(mim.joint);
      const std::string what = "joint \"" + ml.joint->name + "\" mimics \"" + mim.joint + "\"";
      if (it == childOfJoint_.end()) {
        ctx_.warn(fileMessage(m_.path, mim.line, what + ", which does not exist; the mimic is ignored"));
      } else if (it->second == ml.link) {
        throw m_.error(mim.line, "joint \"" + ml.joint->name + "\" mimics itself");
      } else if (driverOfLink(ml.link) < 0 || driverOfLink(it->second) < 0) {
        ctx_.warn(fileMessage(m_.path, mim.line,
                              what + ": only revolute, continuous and prismatic joints can mimic one another; "
                                     "the mimic is ignored"));
      } else {
        source[ml.link] = it->second;
        scale[ml.link] = mim.multiplier;
        offset[ml.link] = mim.offset;
      }
    }
    for (const MimicLink& ml : mimics_) {
      const int i = ml.link;
      for (int steps = 0; source[i] >= 0 && source[source[i]] >= 0; ++steps) {
        if (steps > n)
          throw m_.error(ml.joint->mimic->line, "mimic joints form a cycle through \"" + ml.joint->name + "\"");
        const int p = source[i];
        offset[i] += scale[i] * offset[p];
        scale[i] *= scale[p];
        source[i] = source[p];
      }
    }
    std::vector<Driver> kept;
    for (const Driver& d : drivers_)
      if (source[d.linkIndices[0]] < 0) kept.push_back(d);
    drivers_.swap(kept);
    for (int i = 0; i < n; ++i) {
      if (source[i] < 0) continue;
      Driver& d = drivers_[driverOfLink(source[i])];
      if (d.type != DriverType::Affine) {
        d.type = DriverType::Affine;
        d.affScaling = {1.0};
        d.affOffset = {0.0};
      }
      d.linkIndices.push_back(i);
      d.affScaling.push_back(scale[i]);
      d.affOffset.push_back(offset[i]);
      intersectLimits(d, slots_[i], scale[i], offset[i]);
    }
  }

  /// Narrows the driver's limits so that link q = scale * value + offset
  /// stays within its own.
  static void intersectLimits(Driver& d, const LinkSlot& s, double scale, double offset) {
    if (scale == 0) return;
    auto narrow = [scale](double& lo, double& hi, double linkLo, double linkHi) {
      double a = linkLo / scale, b = linkHi / scale;
      if (scale < 0) std::swap(a, b);
      lo = std::max(lo, a);
      hi = std::min(hi, b);
    };
    narrow(d.qmin, d.qmax, s.qmin - offset, s.qmax - offset);
    narrow(d.vmin, d.vmax, s.vmin, s.vmax);
    narrow(d.amin, d.amax, -s.amax, s.amax);
    narrow(d.tmin, d.tmax, -s.tmax, s.tmax);
  }

  void warnUnknownLinkSettings() const {
    for (const auto& [name, s] : m_.klampt.links)
      if (linkIndex(name) < 0)
        ctx_.warn(fileMessage(m_.path, s.line, "<klampt><link name=\"" + name + "\">: no such link; ignored"));
  }

  void assemble() {
    auto robot = std::make_shared<Robot>();
    robot->name = m_.name;
    const int n = (int)slots_.size();
    robot->resize(n);
    for (int i = 0; i < n; ++i) {
      const LinkSlot& s = slots_[i];
      robot->links[i] = s.link;
      robot->qMin[i] = s.qmin;
      robot->qMax[i] = s.qmax;
      robot->velMin[i] = s.vmin;
      robot->velMax[i] = s.vmax;
      robot->accMax[i] = s.amax;
      robot->torqueMax[i] = s.tmax;
      robot->powerMax[i] = s.pmax;
    }
    robot->joints = joints_;
    robot->drivers = drivers_;
    robot->properties = m_.klampt.properties;
    build_.robot = robot;
  }

  const Model& m_;
  LoadContext& ctx_;
  std::map<std::string, int> linkByName_;
  std::vector<int> parentJoint_;                // per URDF link, -1 for the root
  std::vector<std::vector<int>> childJoints_;  // per URDF link, sorted by joint name
  int root_ = -1;
  std::vector<LinkSlot> slots_;
  std::vector<klampt::Joint> joints_;
  std::vector<Driver> drivers_;
  std::map<std::string, int> childOfJoint_;  // URDF joint name -> robot index of its child
  std::vector<MimicLink> mimics_;
  RobotBuild build_;
};

}  // namespace

RobotBuild buildRobot(const Model& model, LoadContext& ctx) { return Builder(model, ctx).build(); }

}  // namespace urdf
}  // namespace klampt
