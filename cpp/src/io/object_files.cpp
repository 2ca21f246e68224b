// Element files: rigid objects (.obj key/value files) and terrains (.env),
// or any geometry file loaded as an object / a terrain.
#include <algorithm>
#include <fstream>
#include <map>
#include <stdexcept>
#include "element_files.h"
#include "klampt/geometry/shared_shapes.h"
#include "klampt/io/geometry_files.h"
#include "klampt/io/world_files.h"
#include "klampt/model/geometry_mass.h"
#include "text_tokens.h"

namespace klampt {

namespace {

// The keys of Klamp't's rigid-object files (RigidObject::Load).
const char* const kObjectKeys[] = {"mesh", "geomscale", "geomtranslate", "T", "position", "velocity",
                                   "angularVelocity", "mass", "inertia", "com", "kFriction", "kRestitution",
                                   "kStiffness", "kDamping", "autoMass"};

bool isObjectKey(const std::string& key) {
  return std::find(std::begin(kObjectKeys), std::end(kObjectKeys), key) != std::end(kObjectKeys);
}

// The last entry of each key, warning about the keys the format lacks.
std::map<std::string, KeyValueLine> indexEntries(const std::vector<KeyValueLine>& lines, const std::string& path,
                                                 bool (*known)(const std::string&), LoadContext& ctx) {
  std::map<std::string, KeyValueLine> entries;
  for (const KeyValueLine& l : lines) {
    if (known(l.key)) entries[l.key] = l;
    else ctx.warn(fileMessage(path, l.line, "unknown item \"" + l.key + "\" ignored"));
  }
  return entries;
}

// The numbers of an entry, which must have one of the allowed counts.
std::vector<double> numbers(const TokenStream& in, const KeyValueLine& e, std::initializer_list<std::size_t> counts) {
  std::vector<double> v = keyValueNumbers(in, e);
  if (std::find(counts.begin(), counts.end(), v.size()) == counts.end()) {
    std::string expected;
    for (std::size_t c : counts) expected += (expected.empty() ? "" : " or ") + std::to_string(c);
    in.failAt(e.line, e.key + " expects " + expected + (expected == "1" ? " value" : " values") + ", got " +
                          std::to_string(v.size()));
  }
  return v;
}

Vector3 vec3(const std::vector<double>& v, std::size_t offset = 0) { return Vector3(v[offset], v[offset + 1], v[offset + 2]); }

// The file named by the mesh entry, relative to the element file.
void loadMeshEntry(const TokenStream& in, const std::map<std::string, KeyValueLine>& entries, Geometry& geometry,
                   const LoadContext& ctx) {
  auto it = entries.find("mesh");
  if (it == entries.end()) in.failAt(0, "no mesh item");
  if (it->second.values.size() != 1) in.failAt(it->second.line, "mesh expects one file name");
  try {
    loadElementGeometry(resolveFileReference(directoryOf(in.file()), it->second.values[0]), geometry, ctx);
  } catch (const LoadError& e) {
    in.failAt(it->second.line, std::string("cannot load the mesh: ") + e.what());
  }
}

// Runs a geometry computation that rejects some shapes, as a LoadError at `line`.
template <class F>
void atLine(const TokenStream& in, int line, F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    in.failAt(line, e.what());
  }
}

void readObjectEntries(TokenStream& in, RigidObject& obj, LoadContext& ctx) {
  auto entries = indexEntries(readKeyValueLines(in), in.file(), isObjectKey, ctx);
  auto has = [&](const char* key) { return entries.count(key) != 0; };
  loadMeshEntry(in, entries, *obj.geometry, ctx);
  if (has("geomscale") || has("geomtranslate")) {
    Vector3 scale = Vector3::Ones();
    RigidTransform shift;
    if (has("geomscale")) {
      std::vector<double> s = numbers(in, entries["geomscale"], {1, 3});
      scale = s.size() == 1 ? Vector3::Constant(s[0]) : vec3(s);
    }
    if (has("geomtranslate")) shift.t = vec3(numbers(in, entries["geomtranslate"], {3}));
    atLine(in, entries[has("geomscale") ? "geomscale" : "geomtranslate"].line, [&] {
      std::vector<double> numbers(scale.data(), scale.data() + 3);
      numbers.insert(numbers.end(), shift.t.data(), shift.t.data() + 3);
      obj.geometry->data = sharedChange(obj.geometry->data, shapeChangeKey("scale, shift", numbers),
                                        [&](GeometryData& data) {
                                          scaleGeometryData(data, scale);
                                          transformGeometryData(data, shift);
                                        });
    });
  }
  if (has("T")) {
    // 12 values: the rotation row by row then the translation; 16: a 4x4 matrix row by row.
    std::vector<double> v = numbers(in, entries["T"], {12, 16});
    bool full = v.size() == 16;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) obj.transform.R(r, c) = v[full ? 4 * r + c : 3 * r + c];
    obj.transform.t = full ? Vector3(v[3], v[7], v[11]) : vec3(v, 9);
  }
  if (has("position")) obj.transform.t = vec3(numbers(in, entries["position"], {3}));
  if (has("velocity")) obj.velocity = vec3(numbers(in, entries["velocity"], {3}));
  if (has("angularVelocity")) obj.angularVelocity = vec3(numbers(in, entries["angularVelocity"], {3}));
  if (has("mass")) obj.mass.mass = numbers(in, entries["mass"], {1})[0];
  if (has("com")) obj.mass.com = vec3(numbers(in, entries["com"], {3}));
  if (has("inertia")) {
    std::vector<double> v = numbers(in, entries["inertia"], {3, 9});
    obj.mass.inertia = v.size() == 3 ? Matrix3(vec3(v).asDiagonal()) : Matrix3(Eigen::Map<Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(v.data()));
  }
  if (has("kFriction")) obj.contact.kFriction = numbers(in, entries["kFriction"], {1})[0];
  if (has("kRestitution")) obj.contact.kRestitution = numbers(in, entries["kRestitution"], {1})[0];
  if (has("kStiffness")) obj.contact.kStiffness = numbers(in, entries["kStiffness"], {1})[0];
  if (has("kDamping")) obj.contact.kDamping = numbers(in, entries["kDamping"], {1})[0];
  if (has("autoMass")) {
    const KeyValueLine& e = entries["autoMass"];
    double fraction = e.values.empty() ? 1.0 : numbers(in, e, {1})[0];
    atLine(in, e.line, [&] {
      if (has("com"))  // keep the given COM, compute the inertia about it
        obj.mass.inertia = geometryInertia(*obj.geometry->data, obj.mass.com, obj.mass.mass, fraction);
      else
        setMassFromGeometry(*obj.geometry->data, obj.mass.mass, fraction, obj.mass);
    });
  }
}

bool isTerrainKey(const std::string& key) { return key == "mesh" || key == "kFriction"; }

void readTerrainEntries(TokenStream& in, Terrain& terrain, LoadContext& ctx) {
  auto entries = indexEntries(readKeyValueLines(in), in.file(), isTerrainKey, ctx);
  loadMeshEntry(in, entries, *terrain.geometry, ctx);
  if (entries.count("kFriction")) {
    const KeyValueLine& e = entries["kFriction"];
    std::vector<double> v = keyValueNumbers(in, e);
    if (v.empty()) in.failAt(e.line, "kFriction expects a value");
    if (v.size() > 1)  // Klamp't allows one coefficient per triangle; the model keeps one
      ctx.warn(fileMessage(in.file(), e.line, "per-element friction is not supported; using the first value"));
    terrain.kFriction = v[0];
  }
}

void writeTransform(std::ostream& out, const RigidTransform& T) {
  out << "T";
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) out << ' ' << formatDouble(T.R(r, c));
  for (int k = 0; k < 3; ++k) out << ' ' << formatDouble(T.t[k]);
  out << '\n';
}

void writeVector(std::ostream& out, const char* key, const Vector3& v) {
  out << key << ' ' << formatDouble(v.x()) << ' ' << formatDouble(v.y()) << ' ' << formatDouble(v.z()) << '\n';
}

std::ofstream openForWriting(const std::string& path) {
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  if (!out) throw LoadError(fileMessage(path, 0, "cannot open file for writing"));
  return out;
}

void finishWriting(std::ofstream& out, const std::string& path) {
  out.close();
  if (!out) throw LoadError(fileMessage(path, 0, "error while writing the file"));
}

}  // namespace

bool isRigidObjectKeyValueFile(const std::string& path) {
  if (fileExtension(path) != "obj") return false;
  TokenStream in = TokenStream::open(path);
  return !in.atEnd() && isObjectKey(in.peek().text);
}

void loadElementGeometry(const std::string& path, Geometry& geometry, const LoadContext& ctx) {
  geometry.sourceFile = path;
  if (!ctx.loadGeometry) return;
  geometry.data = loadSharedGeometryFile(path);
}

std::shared_ptr<RigidObject> loadRigidObjectFile(const std::string& path, LoadContext& ctx) {
  auto obj = std::make_shared<RigidObject>();
  obj->name = fileStem(path);
  obj->contact.kRestitution = 0.5;
  if (isRigidObjectKeyValueFile(path)) {
    obj->appearance->color = kObjectFileColor;
    TokenStream in = TokenStream::open(path);
    readObjectEntries(in, *obj, ctx);
  } else {
    obj->appearance->color = kGeometryFileColor;
    loadElementGeometry(path, *obj->geometry, ctx);
    // A plain geometry file: unit mass spread over the shape.
    setMassFromGeometry(*obj->geometry->data, 1.0, 1.0, obj->mass);
  }
  return obj;
}

void saveRigidObjectFile(const RigidObject& obj, const std::string& path, const std::string& geometryFile) {
  std::ofstream out = openForWriting(path);
  out << "mesh \"" << geometryFile << "\"\n";
  writeTransform(out, obj.transform);
  if (!obj.velocity.isZero()) writeVector(out, "velocity", obj.velocity);
  if (!obj.angularVelocity.isZero()) writeVector(out, "angularVelocity", obj.angularVelocity);
  out << "mass " << formatDouble(obj.mass.mass) << '\n';
  writeVector(out, "com", obj.mass.com);
  out << "inertia";
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) out << ' ' << formatDouble(obj.mass.inertia(r, c));
  out << "\nkFriction " << formatDouble(obj.contact.kFriction) << "\nkRestitution "
      << formatDouble(obj.contact.kRestitution) << "\nkStiffness " << formatDouble(obj.contact.kStiffness)
      << "\nkDamping " << formatDouble(obj.contact.kDamping) << '\n';
  finishWriting(out, path);
}

std::shared_ptr<Terrain> loadTerrainFile(const std::string& path, LoadContext& ctx) {
  auto terrain = std::make_shared<Terrain>();
  terrain->name = fileStem(path);
  terrain->appearance->color = kGeometryFileColor;
  if (fileExtension(path) == "env") {
    TokenStream in = TokenStream::open(path);
    readTerrainEntries(in, *terrain, ctx);
  } else {
    loadElementGeometry(path, *terrain->geometry, ctx);
  }
  return terrain;
}

void saveTerrainFile(const Terrain& terrain, const std::string& path, const std::string& geometryFile) {
  std::ofstream out = openForWriting(path);
  out << "mesh \"" << geometryFile << "\"\nkFriction " << formatDouble(terrain.kFriction) << '\n';
  finishWriting(out, path);
}

}  // namespace klampt
