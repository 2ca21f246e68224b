// Internal to the .rob reader: the contents of a .rob file as parsed, before
// any of the post-processing that turns them into a Robot.
#pragma once
#include <string>
#include <utility>
#include <vector>
#include "klampt/io/load_error.h"
#include "klampt/model/robot.h"

namespace klampt {

/// Values accumulated from every line of one keyword, and the last such line.
template <class T>
struct RobList {
  std::vector<T> values;
  int line = 0;
  bool empty() const { return values.empty(); }
  size_t size() const { return values.size(); }
};

struct RobJointLine {
  Joint joint;
  int line = 0;
};

struct RobDriverLine {
  Driver driver;
  int line = 0;
};

/// A `selfcollision` / `noselfcollision` pair: link indices or names.
struct RobPair {
  std::string first, second;
  int line = 0;
};

struct RobMount {
  std::string link, file, name;
  RigidTransform transform;
  int line = 0;
};

/// A `geomtransform` line: x -> linear x + offset on link `link`'s geometry.
struct RobGeomTransform {
  int link = -1;
  Matrix3 linear = Matrix3::Identity();
  Vector3 offset = Vector3::Zero();
  int line = 0;
};

struct RobSpec {
  std::string path;  // the .rob file, as given
  RobList<int> parents;
  RobList<std::string> linkNames, driverNames;
  RobList<char> jointTypes;  // 'r' or 'p'
  RobList<double> q, qMin, qMax, velMin, velMax, accMax, torqueMax, powerMax;
  RobList<double> servoP, servoI, servoD, dryFriction, viscousFriction;
  RobList<double> alpha, a, d, theta;
  RobList<RigidTransform> tParent;
  RobList<Vector3> axes, com;
  RobList<double> mass;
  RobList<Matrix3> inertia;
  RobList<std::string> geometry;
  RobList<double> geomScale, geomMargin;
  RobList<std::string> collision, noCollision;
  std::vector<RobPair> selfCollision, noSelfCollision;
  std::vector<RobGeomTransform> geomTransforms;
  std::vector<RobJointLine> joints;
  std::vector<RobDriverLine> drivers;
  std::vector<RobMount> mounts;
  std::vector<std::pair<std::string, std::string>> properties;
  RigidTransform baseTransform;
  double scale = 1.0;
  int scaleLine = 0;
  bool autoMass = false;
  double surfaceFraction = 1.0;
  double autoTorque = 0.0;
};

/// Reads and tokenizes a .rob file (keywords, counts within a line, property
/// files). Throws LoadError naming the file and line.
RobSpec parseRobFile(const std::string& path, LoadContext& ctx);

/// Loads the link geometries of a freshly built robot (`geometry`,
/// `geomscale`, `geomtransform`, `geommargin`), relative to `dir`.
void loadRobGeometries(Robot& robot, const RobSpec& spec, const std::string& dir, LoadContext& ctx);

/// Applies x -> A x + b to a shape in place. Meshes, point clouds and hulls
/// take any affine map; primitives and grids only a per-axis scale followed by
/// a rigid motion (throws std::invalid_argument otherwise).
void applyAffine(GeometryData& data, const Matrix3& A, const Vector3& b);

}  // namespace klampt
