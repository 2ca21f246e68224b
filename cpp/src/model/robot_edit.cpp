#include "klampt/model/robot_edit.h"

#include <memory>
#include <stdexcept>
#include <string>

namespace klampt {

namespace {

// `into` gains `add`: meshes are concatenated, anything else forms a group.
void mergeGeometry(Geometry& into, const GeometryData& add) {
  if (add.type == GeometryType::Empty) return;
  if (into.empty()) {
    into.data = std::make_shared<GeometryData>(add);
    return;
  }
  GeometryData& d = into.mutableData();
  if (d.type == GeometryType::TriangleMesh && add.type == GeometryType::TriangleMesh) {
    appendTriangleMesh(d.mesh, add.mesh);
  } else if (d.type == GeometryType::Group) {
    d.group.push_back(std::make_shared<GeometryData>(add));
  } else {
    auto first = std::make_shared<GeometryData>(d);
    GeometryData group;
    group.type = GeometryType::Group;
    group.group = {first, std::make_shared<GeometryData>(add)};
    d = group;
  }
}

// Inertia of a body about point `about`, both in the same frame, given its
// inertia about its own COM.
Matrix3 shiftInertia(const Matrix3& Icom, double m, const Vector3& com, const Vector3& about) {
  Vector3 d = com - about;
  return Icom + m * (d.squaredNorm() * Matrix3::Identity() - d * d.transpose());
}

// Adds `other` (expressed in a frame placed at T in `into`'s frame) to `into`.
void combineMass(Mass& into, const Mass& other, const RigidTransform& T) {
  double m = into.mass + other.mass;
  if (m <= 0) return;
  Vector3 c2 = T.apply(other.com);
  Vector3 com = (into.mass * into.com + other.mass * c2) / m;
  Matrix3 I2 = T.R * other.inertia * T.R.transpose();
  into.inertia = shiftInertia(into.inertia, into.mass, into.com, com) + shiftInertia(I2, other.mass, c2, com);
  into.com = com;
  into.mass = m;
}

}  // namespace

void mountGeometry(Robot& robot, int link, const GeometryData& geom, const RigidTransform& T) {
  GeometryData placed = geom;
  transformGeometryData(placed, T);
  mergeGeometry(*robot.links[link].geometry, placed);
}

void mountRobot(Robot& robot, int link, const Robot& sub, const RigidTransform& T, const std::string& prefix) {
  const int n0 = robot.numLinks(), ns = sub.numLinks(), n = n0 + ns;
  auto named = [&](const std::string& s) { return prefix.empty() ? s : prefix + ":" + s; };
  Robot old = robot;  // per-link arrays are rebuilt at the new size
  robot.resize(n);
  for (int i = 0; i < n0; ++i) robot.links[i] = old.links[i];
  auto copyRange = [&](VectorX& dst, const VectorX& a, const VectorX& b) {
    dst.head(n0) = a;
    dst.tail(ns) = b;
  };
  copyRange(robot.q, old.q, sub.q);
  copyRange(robot.dq, old.dq, sub.dq);
  copyRange(robot.qMin, old.qMin, sub.qMin);
  copyRange(robot.qMax, old.qMax, sub.qMax);
  copyRange(robot.velMin, old.velMin, sub.velMin);
  copyRange(robot.velMax, old.velMax, sub.velMax);
  copyRange(robot.accMax, old.accMax, sub.accMax);
  copyRange(robot.torqueMax, old.torqueMax, sub.torqueMax);
  copyRange(robot.powerMax, old.powerMax, sub.powerMax);
  for (int i = 0; i < ns; ++i) {
    Link l = sub.links[i];
    l.name = named(l.name);
    l.geometry = std::make_shared<Geometry>(*l.geometry);
    l.appearance = std::make_shared<Appearance>(*l.appearance);
    if (l.parent < 0) {
      l.parent = link;
      l.parentTransform = T * l.parentTransform;
    } else {
      l.parent += n0;
    }
    robot.links[n0 + i] = l;
  }
  for (Joint j : sub.joints) {
    j.linkIndex += n0;
    // A multi-link joint based at the sub-robot's root now starts at `link`.
    j.baseIndex = j.baseIndex < 0 ? link : j.baseIndex + n0;
    robot.joints.push_back(j);
  }
  for (Driver d : sub.drivers) {
    d.name = named(d.name);
    for (int& k : d.linkIndices) k += n0;
    robot.drivers.push_back(d);
  }
  for (int i = 0; i < n0; ++i)
    for (int j = i + 1; j < n0; ++j) robot.setSelfCollision(i, j, old.selfCollisionEnabled(i, j));
  for (int i = 0; i < ns; ++i)
    for (int j = i + 1; j < ns; ++j) robot.setSelfCollision(n0 + i, n0 + j, sub.selfCollisionEnabled(i, j));
  for (int i = 0; i < n0; ++i) {
    if (robot.links[i].geometry->empty()) continue;
    for (int j = n0; j < n; ++j) {
      if (robot.links[j].geometry->empty()) continue;
      if (i == link && robot.links[j].parent == link) continue;
      robot.setSelfCollision(i, j, true);
    }
  }
  robot.updateFrames();
}

std::vector<int> reduceRobot(const Robot& robot, Robot& reduced) {
  const int n = robot.numLinks();
  std::vector<char> fixed(n, 0);
  for (int i = 0; i < n; ++i) fixed[i] = robot.qMin[i] == robot.qMax[i];
  for (const Joint& j : robot.joints)
    if (j.type == JointType::Weld) fixed[j.linkIndex] = 1;

  std::vector<int> map(n, -1);
  int m = 0;
  for (int i = 0; i < n; ++i)
    if (!fixed[i]) map[i] = m++;

  // For each original link: the kept link it is rigidly attached to (-1: the
  // world) and its transform relative to that link at the current config.
  std::vector<int> owner(n, -1);
  std::vector<RigidTransform> toOwner(n);
  for (int i = 0; i < n; ++i) {
    const Link& l = robot.links[i];
    RigidTransform local = l.parentTransform * robot.jointMotion(i, robot.q[i]);
    if (!fixed[i]) {
      owner[i] = i;
      toOwner[i] = RigidTransform();
    } else if (l.parent < 0) {
      owner[i] = -1;
      toOwner[i] = local;
    } else {
      owner[i] = owner[l.parent];
      toOwner[i] = toOwner[l.parent] * local;
    }
  }

  reduced = Robot();
  reduced.name = robot.name;
  reduced.properties = robot.properties;
  reduced.resize(m);
  for (int i = 0; i < n; ++i) {
    if (fixed[i]) continue;
    const Link& l = robot.links[i];
    int k = map[i];
    Link nl = l;
    nl.geometry = std::make_shared<Geometry>(*l.geometry);
    nl.appearance = std::make_shared<Appearance>(*l.appearance);
    if (l.parent >= 0) {
      int o = owner[l.parent];
      nl.parent = o < 0 ? -1 : map[o];
      nl.parentTransform = toOwner[l.parent] * l.parentTransform;
    }
    reduced.links[k] = nl;
    reduced.q[k] = robot.q[i];
    reduced.dq[k] = robot.dq[i];
    reduced.qMin[k] = robot.qMin[i];
    reduced.qMax[k] = robot.qMax[i];
    reduced.velMin[k] = robot.velMin[i];
    reduced.velMax[k] = robot.velMax[i];
    reduced.accMax[k] = robot.accMax[i];
    reduced.torqueMax[k] = robot.torqueMax[i];
    reduced.powerMax[k] = robot.powerMax[i];
  }
  // Fixed links hand their mass and geometry to the kept link they ride on.
  for (int i = 0; i < n; ++i) {
    if (!fixed[i] || owner[i] < 0) continue;
    Link& target = reduced.links[map[owner[i]]];
    combineMass(target.mass, robot.links[i].mass, toOwner[i]);
    if (!robot.links[i].geometry->empty()) {
      GeometryData placed = *robot.links[i].geometry->data;
      transformGeometryData(placed, toOwner[i]);
      mergeGeometry(*target.geometry, placed);
    }
  }
  for (const Joint& j : robot.joints) {
    if (map[j.linkIndex] < 0) continue;
    Joint nj = j;
    nj.linkIndex = map[j.linkIndex];
    nj.baseIndex = j.baseIndex < 0 ? -1 : (owner[j.baseIndex] < 0 ? -1 : map[owner[j.baseIndex]]);
    reduced.joints.push_back(nj);
  }
  for (const Driver& d : robot.drivers) {
    Driver nd = d;
    nd.linkIndices.clear();
    nd.affScaling.clear();
    nd.affOffset.clear();
    for (size_t k = 0; k < d.linkIndices.size(); ++k) {
      if (map[d.linkIndices[k]] < 0) continue;
      nd.linkIndices.push_back(map[d.linkIndices[k]]);
      if (d.type == DriverType::Affine) {
        nd.affScaling.push_back(d.affScaling[k]);
        nd.affOffset.push_back(d.affOffset[k]);
      }
    }
    if (!nd.linkIndices.empty()) reduced.drivers.push_back(nd);
  }
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (map[i] >= 0 && map[j] >= 0) reduced.setSelfCollision(map[i], map[j], robot.selfCollisionEnabled(i, j));
  reduced.updateFrames();
  return map;
}

void replaceRobot(Robot& robot, const Robot& with) {
  World* world = robot.world;
  robot = with;
  robot.world = world;
  robot.structureChanged();
}

void setLinkParent(Robot& robot, int link, int parent) {
  if (parent != -1 && (parent < 0 || parent >= robot.numLinks()))
    throw std::out_of_range("parent index " + std::to_string(parent) + " out of range [0, " +
                            std::to_string(robot.numLinks()) + ")");
  if (parent >= link)
    throw std::invalid_argument("a link's parent must come before it (parent " + std::to_string(parent) + ", link " +
                                std::to_string(link) + ")");
  robot.links[link].parent = parent;
  robot.structureChanged();
  robot.updateFrames();
}

}  // namespace klampt
