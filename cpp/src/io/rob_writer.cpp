// Robot -> .rob text that loadRob reads back to the same model. Unlike
// Klamp't's Robot::Save it writes velmin, powermax, geometry transforms and
// margins, translation/rotation drivers, `floatingplanar` joints and the exact
// set of self-collision pairs. Link geometry is referenced as follows:
//  - with a geometry prefix, each non-empty shape is saved to prefix + name
//    (the source file's stem, or the link name, with the extension of its
//    type) and referenced as saved;
//  - otherwise the source file is referenced, with a `geomtransform` for the
//    scale/transform the loader applied to it; a shape without a source file
//    (built in memory, or merged by a geometry mount) is saved next to the
//    .rob as <robot file stem>_<name>.
// Paths are written relative to the .rob folder when possible.
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "klampt/io/geometry_files.h"
#include "klampt/io/robot_files.h"

namespace klampt {

namespace {

namespace fs = std::filesystem;

std::string num(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.17g", x);
  return buf;
}

/// A quoted string the .rob lexer reads back verbatim. A line break cannot be
/// written (the lexer ends the line there, or reads a CR as a space).
std::string quoted(const std::string& s) {
  if (s.find_first_of("\r\n") != std::string::npos)
    throw std::invalid_argument("\"" + s + "\" contains a line break, which a .rob file cannot hold");
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

/// A property value: quoted, with the escapes the property reader translates.
std::string quotedValue(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c == '"' || c == '\\') out += std::string("\\") + c;
    else out += c;
  }
  return out + "\"";
}

const char* defaultExtension(GeometryType type) {
  switch (type) {
    case GeometryType::TriangleMesh: return ".off";
    case GeometryType::PointCloud: return ".pcd";
    case GeometryType::VolumeGrid: return ".vol";
    default: return ".geom";
  }
}

std::string safeFileName(std::string s) {
  for (char& c : s)
    if (!(std::isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.')) c = '_';
  return s;
}

class RobWriter {
 public:
  RobWriter(const Robot& r, const std::string& path, const std::string& prefix)
      : r_(r), path_(path), prefix_(prefix), dir_(fs::absolute(fs::path(path)).parent_path().lexically_normal()) {}
  std::string write();

 private:
  void list(const char* keyword, const VectorX& v);
  void kinematics();
  void masses();
  void geometry();
  void jointsAndDrivers();
  void selfCollision();
  /// The .rob reference for a file: relative to the .rob folder when possible.
  std::string reference(const std::string& file) const;
  /// Saves link i's shape under `filePrefix` (once per shared shape) and returns the file.
  std::string saveShape(int i, const std::string& filePrefix);

  const Robot& r_;
  std::string path_, prefix_;
  fs::path dir_;
  std::ostringstream o_;
  std::map<const GeometryData*, std::string> saved_;
  std::set<std::string> usedFiles_;
};

void RobWriter::list(const char* keyword, const VectorX& v) {
  o_ << keyword;
  for (Eigen::Index i = 0; i < v.size(); ++i) o_ << ' ' << num(v[i]);
  o_ << '\n';
}

void RobWriter::kinematics() {
  const int n = r_.numLinks();
  o_ << "links";
  for (const Link& l : r_.links) o_ << ' ' << quoted(l.name);
  o_ << "\nparents";
  for (const Link& l : r_.links) o_ << ' ' << l.parent;
  o_ << "\njointtype";
  for (const Link& l : r_.links) o_ << (l.prismatic ? " p" : " r");
  o_ << "\naxis";
  for (const Link& l : r_.links) o_ << "  " << num(l.axis[0]) << ' ' << num(l.axis[1]) << ' ' << num(l.axis[2]);
  o_ << "\n# parent transforms: rotation (row-major) then translation\ntparent";
  for (int i = 0; i < n; ++i) {
    const RigidTransform& T = r_.links[i].parentTransform;
    for (int row = 0; row < 3; ++row)
      for (int c = 0; c < 3; ++c) o_ << ' ' << num(T.R(row, c));
    o_ << "  " << num(T.t[0]) << ' ' << num(T.t[1]) << ' ' << num(T.t[2]) << (i + 1 < n ? " \\\n  " : "");
  }
  o_ << '\n';
  list("q", r_.q);
  list("qmin", r_.qMin);
  list("qmax", r_.qMax);
  list("velmin", r_.velMin);
  list("velmax", r_.velMax);
  list("accmax", r_.accMax);
  list("torquemax", r_.torqueMax);
  list("powermax", r_.powerMax);
}

void RobWriter::masses() {
  o_ << "mass";
  for (const Link& l : r_.links) o_ << ' ' << num(l.mass.mass);
  o_ << "\ncom";
  for (const Link& l : r_.links) o_ << "  " << num(l.mass.com[0]) << ' ' << num(l.mass.com[1]) << ' ' << num(l.mass.com[2]);
  o_ << "\ninertia";
  for (const Link& l : r_.links) {
    o_ << ' ';
    for (int c = 0; c < 3; ++c)  // column by column, as the reader expects
      for (int row = 0; row < 3; ++row) o_ << ' ' << num(l.mass.inertia(row, c));
  }
  o_ << '\n';
}

std::string RobWriter::reference(const std::string& file) const {
  fs::path abs = fs::absolute(fs::path(file)).lexically_normal();
  fs::path rel = abs.lexically_relative(dir_);
  return (rel.empty() ? abs : rel).generic_string();
}

std::string RobWriter::saveShape(int i, const std::string& filePrefix) {
  const Geometry& g = *r_.links[i].geometry;
  auto done = saved_.find(g.data.get());
  if (done != saved_.end()) return done->second;
  std::string stem = g.sourceFile.empty() ? safeFileName(r_.links[i].name) : fs::path(g.sourceFile).stem().string();
  std::string ext = defaultExtension(g.data->type);
  std::string file = filePrefix + stem + ext;
  if (usedFiles_.count(file)) file = filePrefix + stem + "_" + std::to_string(i) + ext;
  saveGeometryFile(*g.data, file);
  usedFiles_.insert(file);
  saved_[g.data.get()] = file;
  return file;
}

void RobWriter::geometry() {
  const int n = r_.numLinks();
  std::ostringstream transforms;
  bool anyMargin = false;
  o_ << "geometry";
  for (int i = 0; i < n; ++i) {
    const Geometry& g = *r_.links[i].geometry;
    anyMargin = anyMargin || g.margin != 0;
    std::string ref;
    if (!prefix_.empty() && !g.empty()) {
      ref = reference(saveShape(i, prefix_));
    } else if (!g.sourceFile.empty()) {
      ref = reference(g.sourceFile);
      if (!g.sourceLinear.isIdentity(0) || !g.sourceOffset.isZero(0)) {
        transforms << "geomtransform " << i;
        for (int row = 0; row < 3; ++row) {
          transforms << "  " << num(g.sourceLinear(row, 0)) << ' ' << num(g.sourceLinear(row, 1)) << ' '
                     << num(g.sourceLinear(row, 2)) << ' ' << num(g.sourceOffset[row]);
        }
        transforms << "  0 0 0 1\n";
      }
    } else if (!g.empty()) {
      fs::path p(path_);
      ref = reference(saveShape(i, (p.parent_path() / p.stem()).string() + "_"));
    }
    o_ << ' ' << quoted(ref);
  }
  o_ << '\n' << transforms.str();
  if (anyMargin) {
    o_ << "geommargin";
    for (const Link& l : r_.links) o_ << ' ' << num(l.geometry->margin);
    o_ << '\n';
  }
}

void RobWriter::jointsAndDrivers() {
  for (const Joint& j : r_.joints) {
    o_ << "joint " << jointTypeName(j.type) << ' ' << j.linkIndex;
    if (j.baseIndex != -1) o_ << ' ' << j.baseIndex;
    o_ << '\n';
  }
  for (const Driver& d : r_.drivers) {
    o_ << "driver " << driverTypeName(d.type);
    if (d.type != DriverType::Affine) {
      for (int l : d.linkIndices) o_ << ' ' << l;
      o_ << '\n';
      continue;
    }
    o_ << ' ' << d.linkIndices.size() << ' ';
    for (int l : d.linkIndices) o_ << ' ' << l;
    o_ << ' ';
    for (double s : d.affScaling) o_ << ' ' << num(s);
    o_ << ' ';
    for (double s : d.affOffset) o_ << ' ' << num(s);
    o_ << "  " << num(d.qmin) << ' ' << num(d.qmax) << ' ' << num(d.vmin) << ' ' << num(d.vmax) << ' ' << num(d.tmin)
       << ' ' << num(d.tmax) << '\n';
  }
  if (r_.drivers.empty()) return;
  o_ << "drivers";
  for (const Driver& d : r_.drivers) o_ << ' ' << quoted(d.name);
  o_ << '\n';
  const std::pair<const char*, double Driver::*> params[] = {{"servoP", &Driver::servoP},
                                                              {"servoI", &Driver::servoI},
                                                              {"servoD", &Driver::servoD},
                                                              {"dryFriction", &Driver::dryFriction},
                                                              {"viscousFriction", &Driver::viscousFriction}};
  for (const auto& p : params) {
    o_ << p.first;
    for (const Driver& d : r_.drivers) o_ << ' ' << num(d.*p.second);
    o_ << '\n';
  }
}

void RobWriter::selfCollision() {
  // An explicit list: `selfcollision` replaces the default pairs. An empty set
  // is written as one pair enabled and then removed.
  const int n = r_.numLinks();
  int count = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      if (!r_.selfCollisionEnabled(i, j)) continue;
      o_ << (count % 8 == 0 ? (count ? "\nselfcollision" : "selfcollision") : "") << "  " << i << ' ' << j;
      ++count;
    }
  if (count > 0) o_ << '\n';
  else if (n >= 2) o_ << "selfcollision 0 1\nnoselfcollision 0 1\n";
}

std::string RobWriter::write() {
  o_ << "# Klamp't robot file (written by saveRob)\n";
  kinematics();
  masses();
  geometry();
  jointsAndDrivers();
  selfCollision();
  for (const auto& kv : r_.properties) o_ << "property " << quoted(kv.first) << ' ' << quotedValue(kv.second) << '\n';
  return o_.str();
}

}  // namespace

void saveRob(const Robot& robot, const std::string& path, const std::string& geometryPrefix) {
  // The .rob loader rejects a file without links, so none is written.
  if (robot.numLinks() == 0) throw LoadError(fileMessage(path, 0, "cannot save a robot without links"));
  std::string text;
  try {
    text = RobWriter(robot, path, geometryPrefix).write();
  } catch (const std::invalid_argument& e) {
    throw LoadError(fileMessage(path, 0, std::string("cannot save the robot: ") + e.what()));
  }
  std::ofstream out(path, std::ios::out | std::ios::trunc | std::ios::binary);
  if (!out) throw LoadError(fileMessage(path, 0, "cannot open file for writing"));
  out << text;
  out.close();
  if (!out) throw LoadError(fileMessage(path, 0, "error while writing the file"));
}

}  // namespace klampt
