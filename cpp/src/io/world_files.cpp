// World XML files (Klamp't's XmlWorld): reading <world> into a World, writing
// a World with its element files, and loading single element files.
#include "klampt/io/world_files.h"
#include <tinyxml2.h>
#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <set>
#include <stdexcept>
#include "element_files.h"
#include "klampt/io/geometry_files.h"
#include "klampt/io/robot_files.h"
#include "klampt/io/xml_text.h"
#include "klampt/geometry/queries/collision_cache.h"
#include "klampt/geometry/queries/shape_hull.h"
#include "klampt/geometry/shared_shapes.h"
#include "klampt/math/parallel_for.h"
#include "klampt/model/geometry_mass.h"
#include "text_tokens.h"

namespace klampt {

namespace fs = std::filesystem;
using tinyxml2::XMLElement;

namespace {

std::string printXml(const XMLElement* e) {
  tinyxml2::XMLPrinter printer;
  e->Accept(&printer);
  return printer.CStr();
}

// Attribute parsing and error reporting for one world file.
class XmlReader {
 public:
  XmlReader(std::string file, LoadContext& ctx) : file_(std::move(file)), dir_(directoryOf(file_)), ctx_(ctx) {}

  LoadContext& ctx() const { return ctx_; }
  [[noreturn]] void fail(const XMLElement* e, const std::string& message) const {
    throw LoadError(fileMessage(file_, e->GetLineNum(), message));
  }
  void warn(const XMLElement* e, const std::string& message) const {
    ctx_.warn(fileMessage(file_, e->GetLineNum(), message));
  }
  std::string resolve(const std::string& file) const { return resolveFileReference(dir_, file); }

  /// The numbers of an attribute; false if it is absent.
  bool numbers(const XMLElement* e, const char* name, std::vector<double>& out) const {
    const char* text = e->Attribute(name);
    if (!text) return false;
    TokenStream in(file_, text);
    out.clear();
    while (!in.atEnd()) {
      std::string item = in.next("number").text;
      double v;
      if (!parseDouble(item, v)) fail(e, std::string("attribute ") + name + ": invalid number \"" + item + "\"");
      out.push_back(v);
    }
    return true;
  }
  /// An attribute of exactly one of the given sizes; false if absent.
  bool sized(const XMLElement* e, const char* name, std::initializer_list<std::size_t> sizes,
             std::vector<double>& out) const {
    if (!numbers(e, name, out)) return false;
    for (std::size_t n : sizes)
      if (out.size() == n) return true;
    fail(e, std::string("attribute ") + name + " has " + std::to_string(out.size()) + " values");
  }
  bool scalar(const XMLElement* e, const char* name, double& value) const {
    std::vector<double> v;
    if (!sized(e, name, {1}, v)) return false;
    value = v[0];
    return true;
  }
  bool vector3(const XMLElement* e, const char* name, Vector3& value) const {
    std::vector<double> v;
    if (!sized(e, name, {3}, v)) return false;
    value = Vector3(v[0], v[1], v[2]);
    return true;
  }

  /// Klamp't's ReadTransform: translation (or position, or translate: the
  /// name the file format documentation gives for <geometry>), then rotateRPY
  /// or rotateMoment, then rotateX, rotateY, rotateZ applied in turn.
  bool transform(const XMLElement* e, RigidTransform& T) const {
    T = RigidTransform();
    bool any = vector3(e, "translation", T.t) || vector3(e, "position", T.t) || vector3(e, "translate", T.t);
    Vector3 v;
    if (vector3(e, "rotateRPY", v)) {
      T.R = axisAngleRotation(Vector3::UnitZ(), v.z()) * axisAngleRotation(Vector3::UnitY(), v.y()) *
            axisAngleRotation(Vector3::UnitX(), v.x());
      any = true;
    }
    if (vector3(e, "rotateMoment", v)) {
      T.R = v.norm() > 0 ? axisAngleRotation(v.normalized(), v.norm()) : Matrix3::Identity();
      any = true;
    }
    const char* axes[3] = {"rotateX", "rotateY", "rotateZ"};
    for (int k = 0; k < 3; ++k) {
      double angle;
      if (scalar(e, axes[k], angle)) {
        T.R = axisAngleRotation(Vector3::Unit(k), angle) * T.R;
        any = true;
      }
    }
    return any;
  }
  /// `scale`: one uniform factor or three per-axis factors.
  bool scale(const XMLElement* e, Vector3& s) const {
    std::vector<double> v;
    if (!sized(e, "scale", {1, 3}, v)) return false;
    s = v.size() == 1 ? Vector3::Constant(v[0]) : Vector3(v[0], v[1], v[2]);
    return true;
  }
  /// `color` or `faceColor`: RGB or RGBA.
  bool color(const XMLElement* e, std::array<float, 4>& rgba) const {
    std::vector<double> v;
    if (!sized(e, "color", {3, 4}, v) && !sized(e, "faceColor", {3, 4}, v)) return false;
    for (int k = 0; k < 4; ++k) rgba[k] = k < (int)v.size() ? (float)v[k] : 1.0f;
    return true;
  }

 private:
  std::string file_, dir_;
  LoadContext& ctx_;
};

bool named(const XMLElement* e, const char* name) { return std::strcmp(e->Name(), name) == 0; }
bool isDisplay(const XMLElement* e) { return named(e, "display") || named(e, "appearance"); }

void setColor(std::shared_ptr<Appearance>& appearance, const std::array<float, 4>& rgba) {
  appearance = std::make_shared<Appearance>(*appearance);  // appearances are shared by copies
  appearance->color = rgba;
}

// Scale, then rigid transform, baked into a loaded geometry (Klamp't's Matrix4 R*diag(s), t).
void bakeTransform(const XmlReader& xr, const XMLElement* e, Geometry& geometry) {
  Vector3 s;
  RigidTransform T;
  bool scaled = xr.scale(e, s), moved = xr.transform(e, T);
  if (!scaled && !moved) return;
  try {
    const Vector3 scale = scaled ? s : Vector3::Ones();
    std::vector<double> numbers(scale.data(), scale.data() + 3);
    numbers.insert(numbers.end(), T.R.data(), T.R.data() + 9);
    numbers.insert(numbers.end(), T.t.data(), T.t.data() + 3);
    geometry.data = sharedChange(geometry.data, shapeChangeKey("scale, transform", numbers), [&](GeometryData& data) {
      if (scaled) scaleGeometryData(data, s);
      if (moved) transformGeometryData(data, T);
    });
  } catch (const std::invalid_argument& err) {
    xr.fail(e, err.what());
  }
  geometry.sourceFile.clear();  // no longer the file's shape
}

// "N q1 ... qN" -> q.
std::vector<double> configValues(const XmlReader& xr, const XMLElement* e, const char* what, std::vector<double> v) {
  if (v.empty() || v[0] != std::floor(v[0]) || v[0] < 0 || v[0] > 1e9 || (std::size_t)v[0] != v.size() - 1)
    xr.fail(e, std::string(what) + " must be \"N q1 ... qN\"");
  v.erase(v.begin());
  return v;
}

void setRobotConfig(const XmlReader& xr, const XMLElement* e, Robot& robot, const std::vector<double>& q) {
  if ((int)q.size() != robot.numLinks())
    xr.fail(e, "configuration has " + std::to_string(q.size()) + " entries, the robot " +
                   std::to_string(robot.numLinks()) + " links");
  robot.setConfig(Eigen::Map<const VectorX>(q.data(), (Eigen::Index)q.size()));
}

void readLinkDisplay(const XmlReader& xr, const XMLElement* d, Robot& robot) {
  std::array<float, 4> rgba;
  if (!xr.color(d, rgba)) return;
  const char* link = d->Attribute("link");
  if (!link) {
    for (Link& l : robot.links) setColor(l.appearance, rgba);
    return;
  }
  int index = robot.linkIndex(link);
  long number;
  if (index < 0 && parseInt(link, number) && number >= 0 && number < robot.numLinks()) index = (int)number;
  if (index < 0) return xr.warn(d, std::string("display: no link \"") + link + "\"");
  setColor(robot.links[index].appearance, rgba);
}

std::shared_ptr<Robot> readRobot(const XmlReader& xr, const XMLElement* e) {
  const char* file = e->Attribute("file");
  if (!file) xr.fail(e, "<robot> has no file attribute");
  std::shared_ptr<Robot> robot;
  try {
    robot = loadRobotFile(xr.resolve(file), xr.ctx());
  } catch (const LoadError& err) {
    xr.fail(e, std::string("cannot load the robot: ") + err.what());
  }
  const char* name = e->Attribute("name");
  robot->name = name ? name : "Robot";
  std::vector<double> v;
  if (xr.numbers(e, "config", v)) setRobotConfig(xr, e, *robot, configValues(xr, e, "config", v));
  if (const char* configFile = e->Attribute("configfile")) {
    v.clear();
    try {
      TokenStream in = TokenStream::open(xr.resolve(configFile));
      while (!in.atEnd()) v.push_back(in.nextDouble("configuration value"));
    } catch (const LoadError& err) {
      xr.fail(e, std::string("cannot load the configuration: ") + err.what());
    }
    setRobotConfig(xr, e, *robot, configValues(xr, e, "the configuration file", v));
  }
  RigidTransform T;
  if (xr.transform(e, T)) {
    for (Link& link : robot->links)
      if (link.parent < 0) link.parentTransform = T * link.parentTransform;
    robot->updateFrames();
  }
  for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
    if (named(c, "sensors")) {
      const char* sensorFile = c->Attribute("file");
      // The file is read when the sensors are first used; its mistakes are reported now.
      std::string text;
      if (sensorFile && readTextFile(xr.resolve(sensorFile), text))
        warnXmlNestingMistake(text, xr.resolve(sensorFile), 1, xr.ctx());
      robot->setProperty("sensors", sensorFile ? xr.resolve(sensorFile) : printXml(c));
    } else if (isDisplay(c)) {
      readLinkDisplay(xr, c, *robot);
    } else {
      xr.warn(c, std::string("<robot>: element <") + c->Name() + "> ignored");
    }
  }
  return robot;
}

void readPhysics(const XmlReader& xr, const XMLElement* p, RigidObject& obj) {
  xr.scalar(p, "mass", obj.mass.mass);
  xr.vector3(p, "com", obj.mass.com);
  std::vector<double> v;
  if (xr.sized(p, "inertia", {9}, v)) obj.mass.inertia = Eigen::Map<Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(v.data());
  double automass = 0, fraction = 1.0;
  xr.scalar(p, "automass", automass);
  xr.scalar(p, "automassSurfaceFraction", fraction);
  if (automass != 0) {
    setMassFromGeometry(*obj.geometry->data, obj.mass.mass, fraction, obj.mass);
  }
  xr.scalar(p, "kRestitution", obj.contact.kRestitution);
  xr.scalar(p, "kFriction", obj.contact.kFriction);
  xr.scalar(p, "kStiffness", obj.contact.kStiffness);
  xr.scalar(p, "kDamping", obj.contact.kDamping);
}

std::shared_ptr<RigidObject> readRigidObject(const XmlReader& xr, const XMLElement* e) {
  auto obj = std::make_shared<RigidObject>();
  // XmlWorld's defaults, replaced by the object file if there is one.
  obj->appearance->color = kGeometryFileColor;
  obj->mass.inertia.setZero();
  obj->contact.kRestitution = 0.5;
  if (const char* file = e->Attribute("file")) {
    try {
      obj = loadRigidObjectFile(xr.resolve(file), xr.ctx());
    } catch (const LoadError& err) {
      xr.fail(e, std::string("cannot load the rigid object: ") + err.what());
    }
  }
  const char* name = e->Attribute("name");
  obj->name = name ? name : "Object";
  if (const XMLElement* g = e->FirstChildElement("geometry")) {
    const char* file = g->Attribute("file") ? g->Attribute("file") : g->Attribute("mesh");
    if (file) {
      try {
        loadElementGeometry(xr.resolve(file), *obj->geometry, xr.ctx());
      } catch (const LoadError& err) {
        xr.fail(g, std::string("cannot load the geometry: ") + err.what());
      }
    }
    bakeTransform(xr, g, *obj->geometry);
    xr.scalar(g, "margin", obj->geometry->margin);
  }
  xr.scalar(e, "margin", obj->geometry->margin);  // where Klamp't's XmlWorld::Save writes it
  if (obj->geometry->empty() && xr.ctx().loadGeometry) xr.fail(e, "<rigidObject> has no geometry");
  RigidTransform T;
  if (xr.transform(e, T)) obj->transform = T;
  for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
    std::array<float, 4> rgba;
    if (named(c, "physics")) readPhysics(xr, c, *obj);
    else if (isDisplay(c)) { if (xr.color(c, rgba)) setColor(obj->appearance, rgba); }
    else if (!named(c, "geometry")) xr.warn(c, std::string("<rigidObject>: element <") + c->Name() + "> ignored");
  }
  return obj;
}

std::shared_ptr<Terrain> readTerrain(const XmlReader& xr, const XMLElement* e, const std::string& defaultName) {
  const char* file = e->Attribute("file");
  if (!file) xr.fail(e, "<terrain> has no file attribute");
  std::shared_ptr<Terrain> terrain;
  try {
    terrain = loadTerrainFile(xr.resolve(file), xr.ctx());
  } catch (const LoadError& err) {
    xr.fail(e, std::string("cannot load the terrain: ") + err.what());
  }
  const char* name = e->Attribute("name");
  terrain->name = name ? name : defaultName;
  xr.scalar(e, "kFriction", terrain->kFriction);
  bakeTransform(xr, e, *terrain->geometry);
  xr.scalar(e, "margin", terrain->geometry->margin);
  for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
    std::array<float, 4> rgba;
    if (isDisplay(c)) { if (xr.color(c, rgba)) setColor(terrain->appearance, rgba); }
    else xr.warn(c, std::string("<terrain>: element <") + c->Name() + "> ignored");
  }
  return terrain;
}

// ---- saving ----

// File-system-safe, unique stems for the element files (shared by all kinds,
// since each element also gets a geometry folder of that name).
std::string uniqueStem(const std::string& name, const char* fallback, std::set<std::string>& used) {
  std::string base;
  for (char c : name) base += (std::isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.') ? c : '_';
  if (base.empty() || base[0] == '.') base = fallback + base;
  std::string stem = base;
  for (int k = 1; used.count(stem); ++k) stem = base + "_" + std::to_string(k);
  used.insert(stem);
  return stem;
}

const char* defaultExtension(GeometryType type) {
  switch (type) {
    case GeometryType::TriangleMesh: return ".off";
    case GeometryType::PointCloud: return ".pcd";
    case GeometryType::VolumeGrid: return ".vol";
    default: return ".geom";
  }
}

// Writes an element's geometry as <dir>/<stem>/<stem>.<ext>; returns that path
// relative to dir, as the element file references it.
std::string saveElementGeometry(const Geometry& geometry, const fs::path& dir, const std::string& stem,
                                const std::string& what) {
  if (geometry.empty()) throw LoadError(fileMessage((dir / stem).string(), 0, "cannot save " + what + " without geometry"));
  fs::path sub = dir / stem;
  std::error_code ec;
  fs::create_directories(sub, ec);
  if (ec) throw LoadError(fileMessage(sub.string(), 0, "cannot create directory: " + ec.message()));
  std::string file = stem + defaultExtension(geometry.data->type);
  saveGeometryFile(*geometry.data, (sub / file).string());
  return stem + "/" + file;
}

std::string numberList(const double* v, std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += (i ? " " : "") + formatDouble(v[i]);
  return s;
}

void addColor(tinyxml2::XMLElement* parent, const std::array<float, 4>& rgba, const char* link = nullptr) {
  XMLElement* d = parent->InsertNewChildElement("display");
  if (link) d->SetAttribute("link", link);
  std::string text;
  for (float c : rgba) {
    char buf[32];
    text += (text.empty() ? "" : " ") + std::string(buf, std::to_chars(buf, buf + sizeof(buf), c).ptr);
  }
  d->SetAttribute("color", text.c_str());
}

/// Builds the collision trees of the loaded shapes and the robots' links'
/// broad-phase hulls now rather than in the first query (issue #196: the
/// reference stalled the first plan for seconds building them), on every core,
/// the largest shapes first so that no core is left with one at the end.
void prepareQueryStructures(const std::vector<std::shared_ptr<Robot>>& robots,
                            const std::vector<std::shared_ptr<RigidObject>>& objects,
                            const std::vector<std::shared_ptr<Terrain>>& terrains) {
  struct Job {
    std::shared_ptr<const GeometryData> shape;
    bool hull;  // a link's: planning's broad phase bounds it by its hull too
    Eigen::Index size;
  };
  std::vector<Job> jobs;
  auto add = [&jobs](const std::shared_ptr<Geometry>& g, bool hull) {
    if (!g || g->empty()) return;
    const GeometryData& d = *g->data;
    jobs.push_back({g->data, hull, std::max({d.mesh.indices.rows(), d.pointCloud.points.rows(), Eigen::Index(1)})});
  };
  for (const auto& r : robots)
    for (const Link& l : r->links) add(l.geometry, true);
  for (const auto& o : objects) add(o->geometry, false);
  for (const auto& t : terrains) add(t->geometry, false);
  // A shape that several elements share is built once, by a link's job if a
  // link holds it (that one builds the hull too); then the largest first.
  std::sort(jobs.begin(), jobs.end(),
            [](const Job& a, const Job& b) { return a.shape != b.shape ? a.shape < b.shape : a.hull > b.hull; });
  jobs.erase(std::unique(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) { return a.shape == b.shape; }),
             jobs.end());
  std::stable_sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) { return a.size > b.size; });
  parallelFor((int)jobs.size(), availableCores(), [&jobs](int, int i) {
    collisionCache(*jobs[i].shape);
    if (jobs[i].hull) shapeHull(jobs[i].shape);
  });
}

}  // namespace

void loadWorldXml(World& world, const std::string& path, LoadContext& ctx) {
  std::string text;
  if (!readTextFile(path, text)) throw LoadError(fileMessage(path, 0, "cannot open file"));
  // Klamp't refuses world files whose elements do not nest properly (unlike URDF).
  tinyxml2::XMLDocument doc;
  const XmlParse parsed = parseXmlText(doc, text, false);
  if (!parsed.ok) throw LoadError(fileMessage(path, parsed.line, parsed.error));
  const XMLElement* root = doc.RootElement();
  if (!root || !named(root, "world")) throw LoadError(fileMessage(path, root ? root->GetLineNum() : 0, "the root element is not <world>"));

  // Elements are added only once the whole file has loaded.
  XmlReader xr(path, ctx);
  std::vector<std::shared_ptr<Robot>> robots;
  std::vector<std::shared_ptr<RigidObject>> objects;
  std::vector<std::shared_ptr<Terrain>> terrains;
  std::string simulation;
  for (const XMLElement* e = root->FirstChildElement(); e; e = e->NextSiblingElement()) {
    if (named(e, "robot")) {
      robots.push_back(readRobot(xr, e));
    } else if (named(e, "rigidObject")) {
      objects.push_back(readRigidObject(xr, e));
    } else if (named(e, "terrain")) {
      terrains.push_back(readTerrain(xr, e, "Terrain" + std::to_string(world.terrains.size() + terrains.size())));
    } else if (named(e, "simulation")) {
      if (!simulation.empty()) xr.warn(e, "second <simulation> element replaces the first");
      simulation = printXml(e);
    } else if (!isDisplay(e)) {  // a world <display> only sets the viewer's background
      xr.warn(e, std::string("element <") + e->Name() + "> ignored");
    }
  }
  prepareQueryStructures(robots, objects, terrains);
  for (auto& r : robots) world.add(r);
  for (auto& o : objects) world.add(o);
  for (auto& t : terrains) world.add(t);
  if (!simulation.empty()) world.simulationXml = simulation;
}

void saveWorldXml(const World& world, const std::string& path, const std::string& elementDir) {
  fs::path xmlPath(path);
  fs::path dir = elementDir.empty() ? fs::path(xmlPath).replace_extension() : fs::path(elementDir);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw LoadError(fileMessage(dir.string(), 0, "cannot create directory: " + ec.message()));
  fs::path xmlDir = fs::absolute(xmlPath).parent_path();
  fs::path relDir = fs::absolute(dir).lexically_proximate(xmlDir);

  tinyxml2::XMLDocument doc;
  doc.InsertEndChild(doc.NewDeclaration());
  XMLElement* root = doc.NewElement("world");
  doc.InsertEndChild(root);
  std::set<std::string> used;
  for (const auto& robot : world.robots) {
    std::string stem = uniqueStem(robot->name, "robot", used);
    // saveRob writes the link geometry files at this prefix and refers to
    // them relative to the .rob file.
    fs::path geometryDir = fs::absolute(dir) / stem;
    fs::create_directories(geometryDir, ec);
    if (ec) throw LoadError(fileMessage(geometryDir.string(), 0, "cannot create directory: " + ec.message()));
    saveRob(*robot, (dir / (stem + ".rob")).string(), geometryDir.string() + "/");
    XMLElement* e = root->InsertNewChildElement("robot");
    e->SetAttribute("name", robot->name.c_str());
    e->SetAttribute("file", (relDir / (stem + ".rob")).generic_string().c_str());
    e->SetAttribute("config", (std::to_string(robot->q.size()) + " " + numberList(robot->q.data(), robot->q.size())).c_str());
    Appearance defaults;
    for (const Link& link : robot->links)
      if (link.appearance->color != defaults.color) addColor(e, link.appearance->color, link.name.c_str());
  }
  for (const auto& obj : world.rigidObjects) {
    std::string stem = uniqueStem(obj->name, "object", used);
    std::string geometryFile = saveElementGeometry(*obj->geometry, dir, stem, "rigid object \"" + obj->name + "\"");
    saveRigidObjectFile(*obj, (dir / (stem + ".obj")).string(), geometryFile);
    XMLElement* e = root->InsertNewChildElement("rigidObject");
    e->SetAttribute("name", obj->name.c_str());
    e->SetAttribute("file", (relDir / (stem + ".obj")).generic_string().c_str());
    if (obj->geometry->margin != 0)
      e->InsertNewChildElement("geometry")->SetAttribute("margin", formatDouble(obj->geometry->margin).c_str());
    addColor(e, obj->appearance->color);
  }
  for (const auto& terrain : world.terrains) {
    std::string stem = uniqueStem(terrain->name, "terrain", used);
    std::string geometryFile = saveElementGeometry(*terrain->geometry, dir, stem, "terrain \"" + terrain->name + "\"");
    saveTerrainFile(*terrain, (dir / (stem + ".env")).string(), geometryFile);
    XMLElement* e = root->InsertNewChildElement("terrain");
    e->SetAttribute("name", terrain->name.c_str());
    e->SetAttribute("file", (relDir / (stem + ".env")).generic_string().c_str());
    if (terrain->geometry->margin != 0) e->SetAttribute("margin", formatDouble(terrain->geometry->margin).c_str());
    addColor(e, terrain->appearance->color);
  }
  if (!world.simulationXml.empty()) {
    tinyxml2::XMLDocument sim;
    if (sim.Parse(world.simulationXml.c_str()) != tinyxml2::XML_SUCCESS || !sim.RootElement())
      throw LoadError(fileMessage(path, 0, std::string("the simulation section is not valid XML: ") + sim.ErrorStr()));
    root->InsertEndChild(sim.RootElement()->DeepClone(&doc));
  }
  if (doc.SaveFile(path.c_str()) != tinyxml2::XML_SUCCESS)
    throw LoadError(fileMessage(path, 0, std::string("cannot write file: ") + doc.ErrorStr()));
}

int loadElement(World& world, const std::string& path, LoadContext& ctx) {
  std::string ext = fileExtension(path);
  if (ext == "rob" || ext == "urdf") {
    std::shared_ptr<Robot> robot = loadRobotFile(path, ctx);
    robot->name = fileStem(path);
    world.add(robot);
    return world.robotID((int)world.robots.size() - 1);
  }
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) throw LoadError(fileMessage(path, 0, "file not found"));
  if (isRigidObjectKeyValueFile(path)) {
    world.add(loadRigidObjectFile(path, ctx));
    return world.rigidObjectID((int)world.rigidObjects.size() - 1);
  }
  if (ext == "env" || isGeometryFile(path)) {
    world.add(loadTerrainFile(path, ctx));
    return world.terrainID((int)world.terrains.size() - 1);
  }
  throw LoadError(fileMessage(path, 0, "unknown element file type \"." + ext + "\""));
}

}  // namespace klampt
