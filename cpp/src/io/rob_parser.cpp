// Text -> RobSpec: one branch per .rob keyword (Klamp't's 52, matched after
// lower-casing). Post-processing lives in rob_reader.cpp.
#include <tinyxml2.h>

#include <cctype>
#include <cmath>
#include <filesystem>

#include "file_paths.h"
#include "klampt/io/xml_text.h"
#include "rob_lexer.h"
#include "rob_spec.h"

namespace klampt {

namespace {

namespace fs = std::filesystem;

std::string lowercase(std::string s) {
  for (char& c : s) c = (char)std::tolower((unsigned char)c);
  return s;
}

constexpr double kDegToRad = M_PI / 180.0;

/// Parses one line's keyword arguments into the spec.
class RobLineParser {
 public:
  RobLineParser(RobSpec& spec, RobTokens& t, LoadContext& ctx, const std::string& dir)
      : spec_(spec), t_(t), ctx_(ctx), dir_(dir) {}

  void parse(const std::string& keyword);

 private:
  /// The numbers up to the end of the line. Klamp't stops reading a list at
  /// the first word (e.g. a keyword pulled in by a stray `\` continuation);
  /// that text is ignored with a warning. A malformed number is an error.
  std::vector<double> numbers(const std::string& keyword);
  /// Numbers in groups of k; the count must be a multiple of k.
  std::vector<double> groups(const std::string& keyword, size_t k);
  std::vector<std::string> strings();
  void append(RobList<double>& list, const std::vector<double>& v, double factor = 1.0);
  /// qmindeg / qmaxdeg: degrees, except where jointtype already says prismatic.
  void appendAngleLimits(RobList<double>& list, const std::vector<double>& v);
  void warnTrailing(const std::string& keyword);
  void parseJoint();
  void parseDriver();
  void parseMount();
  void parseProperty();
  template <class T>
  void mark(RobList<T>& list) { list.line = t_.line(); }

  RobSpec& spec_;
  RobTokens& t_;
  LoadContext& ctx_;
  const std::string& dir_;
};

std::vector<double> RobLineParser::numbers(const std::string& keyword) {
  std::vector<double> v;
  while (!t_.atEnd()) {
    if (t_.nextIsWord()) {
      ctx_.warn(fileMessage(t_.file(), t_.line(), "ignored '" + t_.rest() + "' after the numbers of '" + keyword + "'"));
      break;
    }
    v.push_back(t_.number(keyword));
  }
  return v;
}

std::vector<double> RobLineParser::groups(const std::string& keyword, size_t k) {
  std::vector<double> v = numbers(keyword);
  if (v.size() % k != 0)
    t_.fail("'" + keyword + "' needs groups of " + std::to_string(k) + " numbers, got " + std::to_string(v.size()));
  return v;
}

std::vector<std::string> RobLineParser::strings() {
  std::vector<std::string> v;
  std::string s;
  while (t_.nextString(s)) v.push_back(s);
  return v;
}

void RobLineParser::append(RobList<double>& list, const std::vector<double>& v, double factor) {
  for (double x : v) list.values.push_back(factor == 1.0 ? x : x * factor);
  mark(list);
}

void RobLineParser::appendAngleLimits(RobList<double>& list, const std::vector<double>& v) {
  for (double x : v) {
    size_t i = list.size();
    bool prismatic = i < spec_.jointTypes.size() && spec_.jointTypes.values[i] == 'p';
    list.values.push_back(prismatic ? x : x * kDegToRad);
  }
  mark(list);
}

void RobLineParser::warnTrailing(const std::string& keyword) {
  if (!t_.atEnd())
    ctx_.warn(fileMessage(t_.file(), t_.line(), "ignored '" + t_.rest() + "' at the end of '" + keyword + "'"));
}

void RobLineParser::parse(const std::string& kw) {
  if (kw == "parents") {
    std::string s;
    while (t_.nextString(s)) {
      int p;
      if (!parseRobInteger(s, p)) t_.fail("malformed parent index '" + s + "'");
      spec_.parents.values.push_back(p);
    }
    mark(spec_.parents);
  } else if (kw == "links") {
    for (auto& s : strings()) spec_.linkNames.values.push_back(s);
    mark(spec_.linkNames);
  } else if (kw == "drivers") {
    for (auto& s : strings()) spec_.driverNames.values.push_back(s);
    mark(spec_.driverNames);
  } else if (kw == "jointtype") {
    for (auto& s : strings()) {
      if (s != "r" && s != "p") t_.fail("invalid joint type '" + s + "' (expected r or p)");
      spec_.jointTypes.values.push_back(s[0]);
    }
    mark(spec_.jointTypes);
  } else if (kw == "qmin") {
    append(spec_.qMin, numbers(kw));
  } else if (kw == "qmindeg") {
    appendAngleLimits(spec_.qMin, numbers(kw));
  } else if (kw == "qmax") {
    append(spec_.qMax, numbers(kw));
  } else if (kw == "qmaxdeg") {
    appendAngleLimits(spec_.qMax, numbers(kw));
  } else if (kw == "q") {
    append(spec_.q, numbers(kw));
  } else if (kw == "qdeg") {
    append(spec_.q, numbers(kw), kDegToRad);
  } else if (kw == "velmax") {
    append(spec_.velMax, numbers(kw));
  } else if (kw == "velmaxdeg") {
    append(spec_.velMax, numbers(kw), kDegToRad);
  } else if (kw == "velmin") {
    append(spec_.velMin, numbers(kw));
  } else if (kw == "velmindeg") {
    append(spec_.velMin, numbers(kw), kDegToRad);
  } else if (kw == "torquemax") {
    append(spec_.torqueMax, numbers(kw));
  } else if (kw == "accmax") {
    append(spec_.accMax, numbers(kw));
  } else if (kw == "accmaxdeg") {
    append(spec_.accMax, numbers(kw), kDegToRad);
  } else if (kw == "powermax") {
    append(spec_.powerMax, numbers(kw));
  } else if (kw == "servop") {
    append(spec_.servoP, numbers(kw));
  } else if (kw == "servoi") {
    append(spec_.servoI, numbers(kw));
  } else if (kw == "servod") {
    append(spec_.servoD, numbers(kw));
  } else if (kw == "dryfriction") {
    append(spec_.dryFriction, numbers(kw));
  } else if (kw == "viscousfriction") {
    append(spec_.viscousFriction, numbers(kw));
  } else if (kw == "tparent") {
    std::vector<double> v = groups(kw, 12);
    for (size_t k = 0; k < v.size(); k += 12) {
      RigidTransform T;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) T.R(r, c) = v[k + 3 * r + c];  // row-major
      T.t = Vector3(v[k + 9], v[k + 10], v[k + 11]);
      spec_.tParent.values.push_back(T);
    }
    mark(spec_.tParent);
  } else if (kw == "axis" || kw == "com" || kw == "inertiadiag") {
    std::vector<double> v = groups(kw, 3);
    for (size_t k = 0; k < v.size(); k += 3) {
      Vector3 x(v[k], v[k + 1], v[k + 2]);
      if (kw == "axis") spec_.axes.values.push_back(x);
      else if (kw == "com") spec_.com.values.push_back(x);
      else spec_.inertia.values.push_back(x.asDiagonal());
    }
    if (kw == "axis") mark(spec_.axes);
    else if (kw == "com") mark(spec_.com);
    else mark(spec_.inertia);
  } else if (kw == "inertia") {
    std::vector<double> v = groups(kw, 9);
    // Three columns, as Klamp't reads them (the same as rows for a symmetric matrix).
    for (size_t k = 0; k < v.size(); k += 9) spec_.inertia.values.push_back(Eigen::Map<const Matrix3>(&v[k]));
    mark(spec_.inertia);
  } else if (kw == "alpha") {
    append(spec_.alpha, numbers(kw));
  } else if (kw == "alphadeg") {
    append(spec_.alpha, numbers(kw), kDegToRad);
  } else if (kw == "a") {
    append(spec_.a, numbers(kw));
  } else if (kw == "d") {
    append(spec_.d, numbers(kw));
  } else if (kw == "theta") {
    append(spec_.theta, numbers(kw));
  } else if (kw == "thetadeg") {
    append(spec_.theta, numbers(kw), kDegToRad);
  } else if (kw == "translation") {
    for (int k = 0; k < 3; ++k) spec_.baseTransform.t[k] = t_.number(kw);
    warnTrailing(kw);
  } else if (kw == "rotation") {
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) spec_.baseTransform.R(r, c) = t_.number(kw);
    warnTrailing(kw);
  } else if (kw == "mass") {
    append(spec_.mass, numbers(kw));
  } else if (kw == "automass") {
    spec_.autoMass = true;
    if (!t_.atEnd()) spec_.surfaceFraction = t_.number("the automass surface fraction");
    if (!(spec_.surfaceFraction >= 0 && spec_.surfaceFraction <= 1))
      t_.fail("the automass surface fraction must be in [0, 1]");
    warnTrailing(kw);
  } else if (kw == "autotorque") {
    spec_.autoTorque = t_.number(kw);
    warnTrailing(kw);
  } else if (kw == "geometry") {
    for (auto& s : strings()) spec_.geometry.values.push_back(s);
    mark(spec_.geometry);
  } else if (kw == "scale") {
    spec_.scale = t_.number(kw);
    spec_.scaleLine = t_.line();
    warnTrailing(kw);
  } else if (kw == "geomscale") {
    append(spec_.geomScale, numbers(kw));
  } else if (kw == "geommargin") {
    append(spec_.geomMargin, numbers(kw));
  } else if (kw == "collision" || kw == "nocollision") {
    RobList<std::string>& list = kw == "collision" ? spec_.collision : spec_.noCollision;
    for (auto& s : strings()) list.values.push_back(s);
    mark(list);
  } else if (kw == "selfcollision" || kw == "noselfcollision") {
    std::vector<std::string> v = strings();
    if (v.size() % 2 != 0) t_.fail("'" + kw + "' needs pairs of links, got " + std::to_string(v.size()) + " entries");
    auto& pairs = kw == "selfcollision" ? spec_.selfCollision : spec_.noSelfCollision;
    for (size_t k = 0; k < v.size(); k += 2) pairs.push_back({v[k], v[k + 1], t_.line()});
  } else if (kw == "geomtransform") {
    RobGeomTransform g;
    g.line = t_.line();
    g.link = t_.integer("the geomtransform link");
    double m[16];
    for (double& x : m) x = t_.number("the geomtransform matrix");
    if (m[12] != 0 || m[13] != 0 || m[14] != 0 || m[15] != 1)
      t_.fail("the last row of a geomtransform must be 0 0 0 1");
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) g.linear(r, c) = m[4 * r + c];
      g.offset[r] = m[4 * r + 3];
    }
    spec_.geomTransforms.push_back(g);
    warnTrailing(kw);
  } else if (kw == "joint") {
    parseJoint();
  } else if (kw == "driver") {
    parseDriver();
  } else if (kw == "mount") {
    parseMount();
  } else if (kw == "property") {
    parseProperty();
  } else {
    t_.fail("invalid robot property '" + kw + "'");
  }
}

void RobLineParser::parseJoint() {
  std::string type;
  if (!t_.nextString(type)) t_.fail("missing joint type");
  type = lowercase(type);
  RobJointLine j;
  j.line = t_.line();
  const JointType types[] = {JointType::Weld, JointType::Normal, JointType::Spin,
                             JointType::Floating, JointType::BallAndSocket, JointType::FloatingPlanar};
  bool known = false;
  for (JointType jt : types)
    if (type == jointTypeName(jt)) {
      j.joint.type = jt;
      known = true;
    }
  if (!known) t_.fail("invalid joint type '" + type + "'");
  const bool chain = j.joint.type == JointType::Floating || j.joint.type == JointType::BallAndSocket ||
                     j.joint.type == JointType::FloatingPlanar;
  j.joint.linkIndex = t_.integer("the joint link");
  if (chain && j.joint.linkIndex <= 0) t_.fail("invalid " + type + " joint link " + std::to_string(j.joint.linkIndex));
  // Optional base link (default -1); only multi-link joints use it, but it is
  // kept for every type so that saved files round-trip.
  if (parseRobInteger(t_.peek(), j.joint.baseIndex)) t_.integer("the joint base");
  warnTrailing("joint");
  spec_.joints.push_back(j);
}

void RobLineParser::parseDriver() {
  std::string type;
  if (!t_.nextString(type)) t_.fail("missing driver type");
  RobDriverLine dl;
  dl.line = t_.line();
  Driver& d = dl.driver;
  // Driver type names are case-sensitive, as in Klamp't.
  if (type == "normal") {
    d.type = DriverType::Normal;
    d.linkIndices = {t_.integer("the driver link")};
  } else if (type == "translation" || type == "rotation") {
    d.type = type == "translation" ? DriverType::Translation : DriverType::Rotation;
    int l0 = t_.integer("the driver link");
    int l1 = t_.integer("the driver's second link");
    d.linkIndices = {l0, l1};
  } else if (type == "affine") {
    d.type = DriverType::Affine;
    int n = t_.integer("the number of affine driver links");
    if (n <= 0) t_.fail("invalid number of affine driver links " + std::to_string(n));
    for (int k = 0; k < n; ++k) d.linkIndices.push_back(t_.integer("an affine driver link"));
    for (int k = 0; k < n; ++k) d.affScaling.push_back(t_.number("an affine driver scale"));
    for (int k = 0; k < n; ++k) d.affOffset.push_back(t_.number("an affine driver offset"));
    double* limits[6] = {&d.qmin, &d.qmax, &d.vmin, &d.vmax, &d.tmin, &d.tmax};
    for (double* l : limits) {
      if (t_.atEnd() || t_.nextIsWord()) break;
      *l = t_.number("an affine driver limit");
    }
  } else {
    t_.fail("invalid driver type '" + type + "' (normal, affine, translation or rotation; case-sensitive)");
  }
  warnTrailing("driver");
  spec_.drivers.push_back(dl);
}

void RobLineParser::parseMount() {
  RobMount m;
  m.line = t_.line();
  if (!t_.nextString(m.link)) t_.fail("missing mount link");
  if (!t_.nextString(m.file)) t_.fail("missing mount file");
  if (!t_.atEnd() && t_.peek() != "as") {
    double v[12];
    for (double& x : v) x = t_.number("the mount transform");
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) m.transform.R(r, c) = v[3 * r + c];
    m.transform.t = Vector3(v[9], v[10], v[11]);
  }
  if (t_.peek() == "as") {
    std::string as;
    t_.nextString(as);
    if (!t_.nextString(m.name)) t_.fail("missing mount name after 'as'");
  }
  warnTrailing("mount");
  spec_.mounts.push_back(m);
}

/// Splits `"..." rest` into the translated contents of the quotes; false if
/// `value` is not quoted or the quote is not closed.
bool unquote(const std::string& value, std::string& inner) {
  if (value.empty() || value[0] != '"') return false;
  for (size_t i = 1; i < value.size(); ++i) {
    if (value[i] == '\\' && i + 1 < value.size()) {
      ++i;
    } else if (value[i] == '"') {
      inner = translateEscapes(value.substr(1, i - 1));
      return true;
    }
  }
  return false;
}

void RobLineParser::parseProperty() {
  std::string name;
  if (!t_.nextString(name)) t_.fail("missing property name");
  std::string raw = t_.rest(), value;
  bool quoted = unquote(raw, value);
  if (name == "controller" || name == "sensors") {
    // An .xml file name (relative to the .rob folder), or the XML itself.
    std::string first = quoted ? value : raw.substr(0, raw.find_first_of(" \t"));
    std::string ext = lowercase(fs::path(first).extension().string());
    if (ext == ".xml") {
      std::string file = (fs::path(dir_) / first).string();
      if (!readTextFile(file, value)) t_.fail("unable to read the " + name + " file " + file);
      warnXmlNestingMistake(value, file, 1, ctx_);
    } else {
      if (!quoted) value = translateEscapes(raw);
      tinyxml2::XMLDocument doc;
      const XmlParse parsed = parseXmlText(doc, value, true);
      if (!parsed.ok)
        ctx_.warn(fileMessage(t_.file(), t_.line(), "property " + name + " is not valid XML: " + parsed.error));
      else if (!parsed.recovered.empty())
        ctx_.warn(fileMessage(t_.file(), t_.line(), "property " + name + ": " + parsed.recovered));
    }
  } else if (!quoted) {
    value = raw;
  }
  for (auto& kv : spec_.properties)
    if (kv.first == name) {
      kv.second = value;
      return;
    }
  spec_.properties.emplace_back(name, value);
}

}  // namespace

RobSpec parseRobFile(const std::string& path, LoadContext& ctx) {
  std::string contents;
  if (!readTextFile(path, contents)) throw LoadError(fileMessage(path, 0, "unable to read robot file"));
  RobSpec spec;
  spec.path = path;
  const std::string dir = fs::path(path).parent_path().string();
  for (const RobLine& line : splitRobLines(contents)) {
    RobTokens t(line, path);
    std::string keyword;
    t.nextString(keyword);
    RobLineParser(spec, t, ctx, dir).parse(lowercase(keyword));
  }
  return spec;
}

}  // namespace klampt
