// Internal to the URDF loader: a URDF file (with Klamp't's <klampt> extension)
// as plain data, and the steps that turn it into a klampt::Robot.
//   urdf_parser.cpp    XML -> Model
//   urdf_to_robot.cpp  Model -> links, joints, drivers, masses, limits
//   urdf_geometry.cpp  link geometry and colours
//   urdf_format.cpp    loadUrdf: the steps above, self-collision and mounts
#pragma once
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include "klampt/io/load_error.h"
#include "klampt/model/robot.h"

namespace klampt {
namespace urdf {

/// A <visual> or <collision> element: one shape placed at `origin` in the link frame.
struct Shape {
  enum Kind { Mesh, Box, Cylinder, Sphere } kind = Mesh;
  std::string filename;             // Mesh: as written in the file
  Vector3 scale = Vector3::Ones();  // Mesh
  Vector3 size = Vector3::Zero();   // Box side lengths
  double radius = 0, length = 0;    // Cylinder (along z), Sphere
  RigidTransform origin;
  int line = 0;
};

struct Inertial {
  double mass = 0;
  RigidTransform origin;  // the inertia frame in the link frame (COM at origin.t)
  Matrix3 inertia = Matrix3::Zero();  // about the COM, in the inertia frame
};

struct Link {
  std::string name;
  std::optional<Inertial> inertial;
  std::vector<Shape> visuals, collisions;
  /// Colour of the first <visual> material that has one (inline or named).
  std::optional<std::array<float, 4>> color;
  int line = 0;
};

enum class JointKind { Revolute, Continuous, Prismatic, Fixed, Floating, Planar };

struct JointLimits {
  double lower = 0, upper = 0, effort = 0, velocity = 0;
};

struct Mimic {
  std::string joint;
  double multiplier = 1, offset = 0;
  int line = 0;
};

struct Joint {
  std::string name, parent, child;
  JointKind kind = JointKind::Fixed;
  RigidTransform origin;         // child (joint) frame in the parent link frame
  std::optional<Vector3> axis;   // as written; only read for moving joints
  std::optional<JointLimits> limits;
  double damping = 0, friction = 0;  // <dynamics>
  std::optional<Mimic> mimic;
  int line = 0;
};

/// <klampt><link ...>: per-link settings (unset values keep the defaults).
struct LinkSettings {
  bool physical = true;
  std::optional<double> accMax, servoP, servoI, servoD, dryFriction, viscousFriction;
  int line = 0;
};

/// A pair of link references (names, or indices written as integers).
struct LinkPair {
  std::string first, second;
  int line = 0;
};

/// <klampt><mount ...>: a robot (.rob / .urdf) or geometry file attached to a link.
struct Mount {
  std::string link = "-1";  // name or index; -1 is the world
  std::string file;         // resolved path
  RigidTransform transform;
  std::string prefix;
  int line = 0;
};

/// The <klampt> element, with Klamp't 0.9.2's defaults.
struct KlamptExtension {
  bool useVisGeom = false, flipYZ = false, freezeRootLink = false;
  std::string worldFrame = "world";
  double defaultMass = 1e-4;
  Matrix3 defaultInertia = 1e-8 * Matrix3::Identity();
  double defaultAccMax = 10;
  /// "sensors" / "controller" XML text.
  std::vector<std::pair<std::string, std::string>> properties;
  std::map<std::string, LinkSettings> links;
  std::vector<LinkPair> selfCollision, noSelfCollision;
  std::vector<Mount> mounts;
};

struct Model {
  std::string path;         // the URDF file, for messages
  std::string dir;          // its folder: relative file names resolve against it
  std::string packageRoot;  // where package://X points (X is appended)
  std::string name;
  std::vector<Link> links;
  std::vector<Joint> joints;
  KlamptExtension klampt;

  /// Resolves a file name of the URDF (package://, file://, relative or absolute).
  std::string resolve(const std::string& file) const;
  /// A LoadError naming the URDF file and `line`.
  LoadError error(int line, const std::string& message) const;
};

/// Reads and checks the XML. Throws LoadError naming the file and line.
Model parseUrdf(const std::string& path, LoadContext& ctx);

/// The robot built from a Model, and where each URDF link went.
struct RobotBuild {
  std::shared_ptr<Robot> robot;
  std::vector<int> robotLink;  // per Model link: its robot index, -1 for the world frame
};

/// Links in depth-first order (children sorted by joint name, as Klamp't
/// does), joints, limits, masses and drivers (mimic joints become affine
/// drivers). No geometry, self-collision pairs or mounts.
RobotBuild buildRobot(const Model& model, LoadContext& ctx);

/// Loads each link's <collision> (or <visual>) shapes into its geometry when
/// ctx.loadGeometry is set, and sets link colours from the visual materials.
/// Unreadable files are skipped with a warning.
void loadLinkGeometry(const Model& model, const RobotBuild& build, LoadContext& ctx);

}  // namespace urdf
}  // namespace klampt
