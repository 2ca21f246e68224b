// loadUrdf: parse, build the robot, load link geometry, then apply the
// <klampt> extension's mounts and self-collision pairs in Klamp't's order:
// geometry mounts (they count for self-collision), self-collision pairs,
// robot mounts, then the pairs that name mounted links.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>

#include "klampt/io/geometry_files.h"
#include "klampt/io/robot_files.h"
#include "klampt/model/robot_edit.h"
#include "urdf_model.h"

namespace klampt {

namespace {

/// A link by name, or by index written as an integer; -1 if neither.
int findLink(const Robot& robot, const std::string& ref) {
  int i = robot.linkIndex(ref);
  if (i >= 0) return i;
  int index = -1;
  auto res = std::from_chars(ref.data(), ref.data() + ref.size(), index);
  if (res.ec == std::errc() && res.ptr == ref.data() + ref.size() && index >= 0 && index < robot.numLinks())
    return index;
  return -1;
}

bool isRobotFile(const std::string& file) {
  std::string ext = std::filesystem::path(file).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return (char)std::tolower(c); });
  return ext == ".rob" || ext == ".urdf";
}

/// The mount's link index; -1 (the world) is only allowed for robots.
int mountLink(const urdf::Model& m, const Robot& robot, const urdf::Mount& mt) {
  if (mt.link == "-1" && isRobotFile(mt.file)) return -1;
  int link = findLink(robot, mt.link);
  if (link < 0) throw m.error(mt.line, "<mount>: no link \"" + mt.link + "\"");
  return link;
}

void mountGeometries(const urdf::Model& m, Robot& robot, LoadContext& ctx) {
  for (const urdf::Mount& mt : m.klampt.mounts) {
    if (isRobotFile(mt.file)) continue;
    const int link = mountLink(m, robot, mt);
    if (!ctx.loadGeometry) continue;
    GeometryData geom;
    try {
      loadGeometryFile(mt.file, geom);
    } catch (const LoadError& e) {
      throw m.error(mt.line, std::string("<mount>: ") + e.what());
    }
    mountGeometry(robot, link, geom, mt.transform);
  }
}

void mountRobots(const urdf::Model& m, Robot& robot, LoadContext& ctx) {
  for (const urdf::Mount& mt : m.klampt.mounts) {
    if (!isRobotFile(mt.file)) continue;
    const int link = mountLink(m, robot, mt);
    std::shared_ptr<Robot> sub;
    try {
      sub = loadRobotFile(mt.file, ctx);
    } catch (const LoadError& e) {
      throw m.error(mt.line, std::string("<mount>: ") + e.what());
    }
    mountRobot(robot, link, *sub, mt.transform, mt.prefix);
  }
}

/// Sets the pairs whose links exist; returns the others (they may name
/// links of robots mounted later).
std::vector<urdf::LinkPair> setPairs(Robot& robot, const std::vector<urdf::LinkPair>& pairs, bool enabled) {
  std::vector<urdf::LinkPair> unresolved;
  for (const urdf::LinkPair& p : pairs) {
    const int a = findLink(robot, p.first), b = findLink(robot, p.second);
    if (a < 0 || b < 0)
      unresolved.push_back(p);
    else
      robot.setSelfCollision(a, b, enabled);  // a == b is ignored
  }
  return unresolved;
}

void checkResolved(const urdf::Model& m, const Robot& robot, const std::vector<urdf::LinkPair>& unresolved) {
  if (unresolved.empty()) return;
  const urdf::LinkPair& p = unresolved[0];
  const std::string& name = findLink(robot, p.first) < 0 ? p.first : p.second;
  throw m.error(p.line, "self-collision pair names no link \"" + name + "\"");
}

}  // namespace

std::shared_ptr<Robot> loadUrdf(const std::string& path, LoadContext& ctx) {
  const urdf::Model model = urdf::parseUrdf(path, ctx);
  urdf::RobotBuild build = urdf::buildRobot(model, ctx);
  urdf::loadLinkGeometry(model, build, ctx);
  Robot& robot = *build.robot;
  mountGeometries(model, robot, ctx);

  // An explicit <selfcollision> list replaces the default pairs.
  const urdf::KlamptExtension& x = model.klampt;
  std::vector<urdf::LinkPair> selfPending, noSelfPending;
  if (x.selfCollision.empty()) {
    robot.initDefaultSelfCollision();
  } else {
    robot.selfCollision.assign(robot.selfCollision.size(), 0);
    selfPending = setPairs(robot, x.selfCollision, true);
  }
  noSelfPending = setPairs(robot, x.noSelfCollision, false);

  mountRobots(model, robot, ctx);
  checkResolved(model, robot, setPairs(robot, selfPending, true));
  checkResolved(model, robot, setPairs(robot, noSelfPending, false));
  // As for .rob files: a robot needs a link (here, besides the world frame).
  if (robot.numLinks() == 0) throw model.error(0, "no links: the robot has no link besides the world frame");

  robot.setConfig(robot.q);
  return build.robot;
}

}  // namespace klampt
