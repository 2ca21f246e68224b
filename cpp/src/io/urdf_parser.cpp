// URDF XML -> urdf::Model. Follows urdfdom's rules for required elements and
// defaults (revolute/prismatic joints need <limit> with effort and velocity;
// a missing <axis> is (1, 0, 0)) and reads the <klampt> extension.
#include <tinyxml2.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <sstream>

#include "file_paths.h"
#include "klampt/io/xml_text.h"
#include "urdf_model.h"

namespace klampt {
namespace urdf {

namespace fs = std::filesystem;
using tinyxml2::XMLElement;

std::string Model::resolve(const std::string& file) const {
  static const std::string package = "package://", fileUrl = "file://";
  if (file.compare(0, package.size(), package) == 0)
    return (fs::path(packageRoot) / file.substr(package.size())).lexically_normal().string();
  fs::path p(file.compare(0, fileUrl.size(), fileUrl) == 0 ? file.substr(fileUrl.size()) : file);
  if (p.is_absolute()) return p.lexically_normal().string();
  return (fs::path(dir) / p).lexically_normal().string();
}

LoadError Model::error(int line, const std::string& message) const {
  return LoadError(fileMessage(path, line, message));
}

namespace {

std::string tag(const XMLElement* e) { return std::string("<") + e->Name() + ">"; }

/// Reads attributes of one element, throwing LoadError on malformed values.
class Attributes {
 public:
  Attributes(const Model& m, const XMLElement* e) : m_(m), e_(e) {}

  bool has(const char* name) const { return e_->Attribute(name) != nullptr; }
  int line() const { return e_->GetLineNum(); }

  std::string text(const char* name) const {
    const char* v = e_->Attribute(name);
    if (!v) fail(std::string("missing attribute \"") + name + "\"");
    return v;
  }
  std::string text(const char* name, const std::string& dflt) const { return has(name) ? text(name) : dflt; }

  /// Whitespace-separated numbers.
  std::vector<double> numbers(const char* name) const {
    std::istringstream in(text(name));
    std::vector<double> values;
    std::string tok;
    while (in >> tok) {
      const char* begin = tok.c_str() + (tok[0] == '+' ? 1 : 0);
      const char* end = tok.c_str() + tok.size();
      double v = 0;
      auto res = std::from_chars(begin, end, v);
      if (res.ec != std::errc() || res.ptr != end || std::isnan(v))
        fail(std::string("attribute \"") + name + "\": \"" + tok + "\" is not a number");
      values.push_back(v);
    }
    return values;
  }
  std::vector<double> numbers(const char* name, size_t count) const {
    std::vector<double> v = numbers(name);
    if (v.size() != count)
      fail(std::string("attribute \"") + name + "\" needs " + std::to_string(count) + " numbers, got " +
           std::to_string(v.size()));
    return v;
  }
  double number(const char* name) const { return numbers(name, 1)[0]; }
  double number(const char* name, double dflt) const { return has(name) ? number(name) : dflt; }
  std::optional<double> optionalNumber(const char* name) const {
    return has(name) ? std::optional<double>(number(name)) : std::nullopt;
  }
  /// Servo gains and friction coefficients: >= 0, as the .rob format requires
  /// (so that a robot loaded from URDF saves to a .rob that loads again).
  double nonNegative(const char* name, double dflt) const {
    double v = number(name, dflt);
    if (!(v >= 0)) fail(std::string("attribute \"") + name + "\" must be >= 0");
    return v;
  }
  std::optional<double> optionalNonNegative(const char* name) const {
    return has(name) ? std::optional<double>(nonNegative(name, 0)) : std::nullopt;
  }
  Vector3 vector3(const char* name, const Vector3& dflt) const {
    if (!has(name)) return dflt;
    std::vector<double> v = numbers(name, 3);
    return Vector3(v[0], v[1], v[2]);
  }
  /// 1/0/true/false (Klamp't itself only reads integers).
  bool boolean(const char* name, bool dflt) const {
    if (!has(name)) return dflt;
    std::string v = text(name);
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return (char)std::tolower(c); });
    if (v == "1" || v == "true") return true;
    if (v == "0" || v == "false") return false;
    fail(std::string("attribute \"") + name + "\": \"" + v + "\" is not a boolean (1, 0, true, false)");
  }

  [[noreturn]] void fail(const std::string& message) const {
    throw m_.error(e_->GetLineNum(), tag(e_) + ": " + message);
  }

 private:
  const Model& m_;
  const XMLElement* e_;
};

/// Lower-cased with underscores removed: "defaultAccMax" ~ "default_acc_max".
std::string looseName(const std::string& s) {
  std::string r;
  for (char c : s)
    if (c != '_') r += (char)std::tolower((unsigned char)c);
  return r;
}

/// Warns about attributes of `e` that Klamp't does not read (typically a
/// misspelling such as defaultAccMax, which Klamp't 0.9.2 ignores too).
void warnUnknownAttributes(const Model& m, const XMLElement* e, std::initializer_list<const char*> known,
                           LoadContext& ctx) {
  for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
    if (std::any_of(known.begin(), known.end(), [a](const char* k) { return std::strcmp(k, a->Name()) == 0; }))
      continue;
    std::string msg = tag(e) + " attribute \"" + a->Name() + "\" is not recognised and is ignored";
    for (const char* k : known)
      if (looseName(k) == looseName(a->Name())) msg += std::string(" (did you mean \"") + k + "\"?)";
    ctx.warn(fileMessage(m.path, a->GetLineNum(), msg));
  }
}

/// Names separated by whitespace; "double quotes" allow spaces in a name.
std::vector<std::string> splitNames(const std::string& s) {
  std::vector<std::string> names;
  size_t i = 0;
  while (i < s.size()) {
    if (std::isspace((unsigned char)s[i])) {
      ++i;
    } else if (s[i] == '"') {
      size_t close = s.find('"', i + 1);
      if (close == std::string::npos) close = s.size();
      names.push_back(s.substr(i + 1, close - i - 1));
      i = close + 1;
    } else {
      size_t end = i;
      while (end < s.size() && !std::isspace((unsigned char)s[end])) ++end;
      names.push_back(s.substr(i, end - i));
      i = end;
    }
  }
  return names;
}

/// URDF rpy: fixed-axis roll about x, then pitch about y, then yaw about z.
Matrix3 rpyRotation(const Vector3& rpy) {
  return (Eigen::AngleAxisd(rpy[2], Vector3::UnitZ()) * Eigen::AngleAxisd(rpy[1], Vector3::UnitY()) *
          Eigen::AngleAxisd(rpy[0], Vector3::UnitX()))
      .toRotationMatrix();
}

class Parser {
 public:
  Parser(Model& m, LoadContext& ctx) : m_(m), ctx_(ctx) {}

  void parse(const XMLElement* robot) {
    m_.name = Attributes(m_, robot).text("name", fs::path(m_.path).stem().string());
    for (const XMLElement* e = robot->FirstChildElement("material"); e; e = e->NextSiblingElement("material")) {
      const XMLElement* c = e->FirstChildElement("color");
      if (e->Attribute("name") && c) materials_[e->Attribute("name")] = color(c);
    }
    for (const XMLElement* e = robot->FirstChildElement("link"); e; e = e->NextSiblingElement("link"))
      m_.links.push_back(link(e));
    for (const XMLElement* e = robot->FirstChildElement("joint"); e; e = e->NextSiblingElement("joint"))
      m_.joints.push_back(joint(e));
    checkUniqueNames();
    if (const XMLElement* k = robot->FirstChildElement("klampt")) klampt(k);
  }

 private:
  RigidTransform origin(const XMLElement* parent) const {
    RigidTransform T;
    if (const XMLElement* e = parent->FirstChildElement("origin")) {
      Attributes a(m_, e);
      T.t = a.vector3("xyz", Vector3::Zero());
      T.R = rpyRotation(a.vector3("rpy", Vector3::Zero()));
    }
    return T;
  }

  std::array<float, 4> color(const XMLElement* e) const {
    std::vector<double> v = Attributes(m_, e).numbers("rgba", 4);
    return {(float)v[0], (float)v[1], (float)v[2], (float)v[3]};
  }

  const XMLElement* child(const XMLElement* e, const char* name) const {
    const XMLElement* c = e->FirstChildElement(name);
    if (!c) Attributes(m_, e).fail(std::string("missing <") + name + "> element");
    return c;
  }

  Link link(const XMLElement* e) {
    Link l;
    l.name = Attributes(m_, e).text("name");
    l.line = e->GetLineNum();
    if (const XMLElement* in = e->FirstChildElement("inertial")) {
      Inertial inertial;
      inertial.origin = origin(in);
      inertial.mass = Attributes(m_, child(in, "mass")).number("value");
      Attributes a(m_, child(in, "inertia"));
      Matrix3& H = inertial.inertia;
      H(0, 0) = a.number("ixx");
      H(1, 1) = a.number("iyy");
      H(2, 2) = a.number("izz");
      H(0, 1) = H(1, 0) = a.number("ixy");
      H(0, 2) = H(2, 0) = a.number("ixz");
      H(1, 2) = H(2, 1) = a.number("iyz");
      l.inertial = inertial;
    }
    for (const XMLElement* v = e->FirstChildElement("visual"); v; v = v->NextSiblingElement("visual")) {
      if (auto s = shape(v, l.name)) l.visuals.push_back(*s);
      if (!l.color) l.color = materialColor(v);
    }
    for (const XMLElement* c = e->FirstChildElement("collision"); c; c = c->NextSiblingElement("collision"))
      if (auto s = shape(c, l.name)) l.collisions.push_back(*s);
    return l;
  }

  std::optional<std::array<float, 4>> materialColor(const XMLElement* visual) const {
    const XMLElement* mat = visual->FirstChildElement("material");
    if (!mat) return std::nullopt;
    if (const XMLElement* c = mat->FirstChildElement("color")) return color(c);
    if (const char* name = mat->Attribute("name")) {
      auto it = materials_.find(name);
      if (it != materials_.end()) return it->second;
    }
    return std::nullopt;
  }

  /// A <visual>/<collision> element; unsupported shapes are skipped with a warning.
  std::optional<Shape> shape(const XMLElement* e, const std::string& linkName) {
    const XMLElement* g = child(e, "geometry")->FirstChildElement();
    if (!g) Attributes(m_, e).fail("<geometry> has no shape");
    Shape s;
    s.origin = origin(e);
    s.line = g->GetLineNum();
    Attributes a(m_, g);
    const std::string kind = g->Name();
    if (kind == "mesh") {
      s.kind = Shape::Mesh;
      s.filename = a.text("filename");
      if (a.has("scale")) {
        std::vector<double> v = a.numbers("scale");
        if (v.size() == 1) v.assign(3, v[0]);
        if (v.size() != 3) a.fail("attribute \"scale\" needs 1 or 3 numbers");
        s.scale = Vector3(v[0], v[1], v[2]);
      }
    } else if (kind == "box") {
      s.kind = Shape::Box;
      std::vector<double> v = a.numbers("size", 3);
      s.size = Vector3(v[0], v[1], v[2]);
    } else if (kind == "cylinder") {
      s.kind = Shape::Cylinder;
      s.radius = a.number("radius");
      s.length = a.number("length");
    } else if (kind == "sphere") {
      s.kind = Shape::Sphere;
      s.radius = a.number("radius");
    } else {
      ctx_.warn(fileMessage(m_.path, s.line, "link \"" + linkName + "\": unsupported geometry " + tag(g) + " skipped"));
      return std::nullopt;
    }
    return s;
  }

  Joint joint(const XMLElement* e) {
    Attributes a(m_, e);
    Joint j;
    j.name = a.text("name");
    j.line = e->GetLineNum();
    static const std::pair<const char*, JointKind> kinds[] = {
        {"revolute", JointKind::Revolute}, {"continuous", JointKind::Continuous},
        {"prismatic", JointKind::Prismatic}, {"fixed", JointKind::Fixed},
        {"floating", JointKind::Floating}, {"planar", JointKind::Planar}};
    const std::string type = a.text("type");
    auto kind = std::find_if(std::begin(kinds), std::end(kinds), [&](const auto& k) { return type == k.first; });
    if (kind == std::end(kinds)) a.fail("unknown joint type \"" + type + "\"");
    j.kind = kind->second;
    j.parent = Attributes(m_, child(e, "parent")).text("link");
    j.child = Attributes(m_, child(e, "child")).text("link");
    j.origin = origin(e);
    if (const XMLElement* axis = e->FirstChildElement("axis"))
      j.axis = Attributes(m_, axis).vector3("xyz", Vector3::UnitX());
    if (const XMLElement* lim = e->FirstChildElement("limit")) {
      Attributes la(m_, lim);
      j.limits = JointLimits{la.number("lower", 0), la.number("upper", 0), la.number("effort"), la.number("velocity")};
    } else if (j.kind == JointKind::Revolute || j.kind == JointKind::Prismatic) {
      a.fail("joint \"" + j.name + "\" is " + type + " but has no <limit>");
    }
    if (const XMLElement* dyn = e->FirstChildElement("dynamics")) {
      Attributes da(m_, dyn);
      j.damping = da.nonNegative("damping", 0);
      j.friction = da.nonNegative("friction", 0);
    }
    if (const XMLElement* mim = e->FirstChildElement("mimic")) {
      Attributes ma(m_, mim);
      j.mimic = Mimic{ma.text("joint"), ma.number("multiplier", 1), ma.number("offset", 0), mim->GetLineNum()};
    }
    return j;
  }

  void checkUniqueNames() const {
    std::map<std::string, int> links, joints;
    for (const Link& l : m_.links)
      if (!links.emplace(l.name, l.line).second)
        throw m_.error(l.line, "duplicate link name \"" + l.name + "\" (first on line " +
                                   std::to_string(links[l.name]) + ")");
    for (const Joint& j : m_.joints)
      if (!joints.emplace(j.name, j.line).second)
        throw m_.error(j.line, "duplicate joint name \"" + j.name + "\" (first on line " +
                                   std::to_string(joints[j.name]) + ")");
  }

  void klampt(const XMLElement* k) {
    warnUnknownAttributes(m_, k,
                          {"use_vis_geom", "flip_yz", "freeze_root_link", "world_frame", "package_root",
                           "default_mass", "default_inertia", "default_acc_max", "sensors", "controller"},
                          ctx_);
    KlamptExtension& x = m_.klampt;
    Attributes a(m_, k);
    x.useVisGeom = a.boolean("use_vis_geom", false);
    x.flipYZ = a.boolean("flip_yz", false);
    x.freezeRootLink = a.boolean("freeze_root_link", false);
    x.worldFrame = a.text("world_frame", x.worldFrame);
    if (a.has("package_root")) {
      fs::path root(a.text("package_root"));
      m_.packageRoot = (root.is_absolute() ? root : fs::path(m_.dir) / root).lexically_normal().string();
    }
    x.defaultMass = a.number("default_mass", x.defaultMass);
    x.defaultAccMax = a.number("default_acc_max", x.defaultAccMax);
    if (a.has("default_inertia")) x.defaultInertia = inertiaMatrix(a);
    for (const char* prop : {"sensors", "controller"}) {
      if (a.has(prop))
        x.properties.emplace_back(prop, propertyFile(a, prop));
      else if (const XMLElement* c = k->FirstChildElement(prop)) {
        tinyxml2::XMLPrinter printer;
        c->Accept(&printer);
        x.properties.emplace_back(prop, printer.CStr());
      }
    }
    for (const XMLElement* e = k->FirstChildElement("link"); e; e = e->NextSiblingElement("link")) linkSettings(e);
    for (const XMLElement* e = k->FirstChildElement("selfcollision"); e; e = e->NextSiblingElement("selfcollision"))
      pairs(e, x.selfCollision);
    for (const XMLElement* e = k->FirstChildElement("noselfcollision"); e;
         e = e->NextSiblingElement("noselfcollision"))
      pairs(e, x.noSelfCollision);
    for (const XMLElement* e = k->FirstChildElement("mount"); e; e = e->NextSiblingElement("mount")) mount(e);
  }

  /// default_inertia: one number (times identity), 3 (diagonal) or 9 (row-major).
  Matrix3 inertiaMatrix(const Attributes& a) const {
    std::vector<double> v = a.numbers("default_inertia");
    if (v.size() == 1) return v[0] * Matrix3::Identity();
    if (v.size() == 3) return Vector3(v[0], v[1], v[2]).asDiagonal();
    if (v.size() != 9) a.fail("attribute \"default_inertia\" needs 1, 3 or 9 numbers");
    Matrix3 H;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) H(r, c) = v[r * 3 + c];
    return H;
  }

  /// sensors="file.xml" / controller="file.xml": the file's contents. Klamp't
  /// keeps any other value as the raw string, with an error message.
  std::string propertyFile(const Attributes& a, const char* prop) {
    std::vector<std::string> names = splitNames(a.text(prop));
    std::string file = names.empty() ? std::string() : names[0];
    std::string ext = fs::path(file).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return (char)std::tolower(c); });
    if (ext != ".xml") {
      ctx_.warn(fileMessage(m_.path, a.line(), std::string("<klampt> attribute \"") + prop +
                                            "\" should name an .xml file; its value is kept as is"));
      return a.text(prop);
    }
    const std::string path = m_.resolve(file);
    std::string text;
    if (!readTextFile(path, text)) a.fail(std::string("cannot read the ") + prop + " file \"" + path + "\"");
    warnXmlNestingMistake(text, path, 1, ctx_);
    return text;
  }

  void linkSettings(const XMLElement* e) {
    warnUnknownAttributes(m_, e,
                          {"name", "physical", "accMax", "servoP", "servoI", "servoD", "dryFriction",
                           "viscousFriction"},
                          ctx_);
    Attributes a(m_, e);
    if (!a.has("name")) {
      ctx_.warn(fileMessage(m_.path, e->GetLineNum(), "<klampt><link> without a name is ignored"));
      return;
    }
    LinkSettings s;
    s.physical = a.boolean("physical", true);
    s.accMax = a.optionalNumber("accMax");
    s.servoP = a.optionalNonNegative("servoP");
    s.servoI = a.optionalNonNegative("servoI");
    s.servoD = a.optionalNonNegative("servoD");
    s.dryFriction = a.optionalNonNegative("dryFriction");
    s.viscousFriction = a.optionalNonNegative("viscousFriction");
    s.line = e->GetLineNum();
    m_.klampt.links[a.text("name")] = s;
  }

  /// pairs="a1 b1 a2 b2 ..." or group1="..." group2="..." (every a with every b).
  void pairs(const XMLElement* e, std::vector<LinkPair>& out) const {
    Attributes a(m_, e);
    const int line = e->GetLineNum();
    if (a.has("pairs")) {
      std::vector<std::string> names = splitNames(a.text("pairs"));
      if (names.size() % 2 != 0) a.fail("attribute \"pairs\" has an odd number of link names");
      for (size_t i = 0; i < names.size(); i += 2) out.push_back({names[i], names[i + 1], line});
    } else if (a.has("group1") && a.has("group2")) {
      for (const std::string& n1 : splitNames(a.text("group1")))
        for (const std::string& n2 : splitNames(a.text("group2"))) out.push_back({n1, n2, line});
    } else {
      a.fail("needs a \"pairs\" attribute or \"group1\" and \"group2\"");
    }
  }

  void mount(const XMLElement* e) {
    Attributes a(m_, e);
    Mount mt;
    mt.line = e->GetLineNum();
    mt.link = a.text("link", mt.link);
    mt.file = m_.resolve(a.text("file"));
    if (a.has("transform")) {
      // Klamp't's RigidTransform text form: R row by row, then t.
      std::vector<double> v = a.numbers("transform", 12);
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) mt.transform.R(r, c) = v[r * 3 + c];
      mt.transform.t = Vector3(v[9], v[10], v[11]);
    }
    mt.prefix = a.text("as", a.text("prefix", ""));
    m_.klampt.mounts.push_back(mt);
  }

  Model& m_;
  LoadContext& ctx_;
  std::map<std::string, std::array<float, 4>> materials_;
};

}  // namespace

Model parseUrdf(const std::string& path, LoadContext& ctx) {
  Model m;
  m.path = path;
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  m.dir = (ec ? fs::path(path) : absolute).parent_path().lexically_normal().string();
  if (m.dir.empty()) m.dir = ".";
  // Klamp't's documented default package root is "." (the URDF folder).
  m.packageRoot = m.dir;
  std::string text;
  if (!readTextFile(path, text)) throw m.error(0, "cannot read the file");
  // Klamp't reads a URDF whose elements do not nest properly up to the first
  // mistake (its human_hand.urdf closes <klampt> with <klampt/>).
  tinyxml2::XMLDocument doc;
  const XmlParse parsed = parseXmlText(doc, text, true);
  if (!parsed.ok) throw m.error(parsed.line, "malformed XML: " + parsed.error);
  if (!parsed.recovered.empty()) ctx.warn(fileMessage(path, parsed.line, parsed.recovered));
  const XMLElement* robot = doc.RootElement();
  if (!robot || std::strcmp(robot->Name(), "robot") != 0)
    throw m.error(robot ? robot->GetLineNum() : 0, "the root element is not <robot>");
  Parser(m, ctx).parse(robot);
  return m;
}

}  // namespace urdf
}  // namespace klampt
