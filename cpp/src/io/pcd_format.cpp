#include "pcd_format.h"
#include <cctype>
#include <cstdint>
#include <cstring>

namespace klampt {

namespace {

struct PcdField {
  std::string name;
  char type = 'F';
  int size = 4;
};

std::string changeCase(std::string s, bool toUpper) {
  for (char& c : s) c = (char)(toUpper ? std::toupper((unsigned char)c) : std::tolower((unsigned char)c));
  return s;
}

std::string join(const std::vector<std::string>& values) {
  std::string s;
  for (const std::string& v : values) s += (s.empty() ? "" : " ") + v;
  return s;
}

bool isColorField(const std::string& name) { return name == "rgb" || name == "rgba"; }

// A field's COUNT above this is refused: PCL's widest descriptors hold a few
// hundred values, and each one becomes a property of every point.
constexpr long kMaxFieldCount = 65536;

std::vector<int> positiveInts(TokenStream& in, const std::vector<std::string>& values, const char* what,
                              long maxValue) {
  std::vector<int> result;
  for (const std::string& v : values) {
    long x;
    if (!parseInt(v, x) || x <= 0 || x > maxValue)
      in.fail(std::string("invalid ") + what + " \"" + v + "\" (1 to " + std::to_string(maxValue) + ")");
    result.push_back((int)x);
  }
  return result;
}

// The fields after expanding COUNT > 1 into name_0, name_1, ... as Klamp't does.
std::vector<PcdField> makeFields(TokenStream& in, const std::vector<std::string>& names, const std::vector<int>& sizes,
                                 const std::string& types, const std::vector<int>& counts) {
  if (names.empty()) in.fail("PCD header has no FIELDS");
  if ((!sizes.empty() && sizes.size() != names.size()) || (!types.empty() && types.size() != names.size()) ||
      (!counts.empty() && counts.size() != names.size()))
    in.fail("PCD SIZE / TYPE / COUNT do not match FIELDS");
  std::vector<PcdField> fields;
  for (std::size_t i = 0; i < names.size(); ++i) {
    PcdField f;
    f.type = types.empty() ? 'F' : types[i];
    f.size = sizes.empty() ? 4 : sizes[i];
    bool sizeOk = f.type == 'F' ? (f.size == 4 || f.size == 8) : (f.size == 1 || f.size == 2 || f.size == 4 || f.size == 8);
    if (!sizeOk) in.fail("unsupported PCD field size " + std::to_string(f.size) + " for " + names[i]);
    int count = counts.empty() ? 1 : counts[i];
    for (int c = 0; c < count; ++c) {
      f.name = count == 1 ? names[i] : names[i] + "_" + std::to_string(c);
      fields.push_back(f);
    }
  }
  return fields;
}

double decodeBinary(const char* p, const PcdField& f) {
  if (f.type == 'F') {
    if (f.size == 4) {
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
    double v;
    std::memcpy(&v, p, 8);
    return v;
  }
  // Integers, little-endian like the files PCL writes on common hosts.
  std::uint64_t bits = 0;
  std::memcpy(&bits, p, f.size);
  if (f.type == 'U') return (double)bits;
  int shift = 64 - 8 * f.size;
  return (double)((std::int64_t)(bits << shift) >> shift);
}

// PCL stores colors as float-typed fields holding packed bytes; as Klamp't,
// reinterpret the float bits as an integer when the values look packed.
void unpackFloatColors(const std::vector<PcdField>& fields, std::vector<double>& values) {
  std::size_t n = fields.size();
  for (std::size_t j = 0; j < n; ++j) {
    if (fields[j].type != 'F' || !isColorField(fields[j].name)) continue;
    bool packed = false;
    for (std::size_t i = j; i < values.size(); i += n) {
      float f = (float)values[i];
      if (f > 0.0f && f < 1.0f) packed = true;
    }
    if (!packed) continue;
    for (std::size_t i = j; i < values.size(); i += n) {
      float f = (float)values[i];
      std::uint32_t bits;
      std::memcpy(&bits, &f, 4);
      values[i] = bits;
    }
  }
}

}  // namespace

void readPcd(TokenStream& in, PointCloud& cloud) {
  cloud = PointCloud();
  std::vector<std::string> names;
  std::vector<int> sizes, counts;
  std::string types, format;
  long numPoints = -1;
  while (format.empty()) {
    std::string key = changeCase(in.next("PCD header line or DATA").text, true);
    if (key == "DATA") {
      // Nothing may be peeked past this token: binary data follows the line.
      format = in.next("DATA format").text;
      break;
    }
    std::vector<std::string> values;
    while (in.moreOnLine()) values.push_back(in.next("value").text);
    if (key == "VERSION") {
      cloud.settings["pcd_version"] = join(values);
    } else if (key == "FIELDS") {
      names = values;
    } else if (key == "SIZE") {
      sizes = positiveInts(in, values, "SIZE", 8);
    } else if (key == "COUNT") {
      counts = positiveInts(in, values, "COUNT", kMaxFieldCount);
    } else if (key == "TYPE") {
      for (const std::string& t : values) {
        if (t != "F" && t != "U" && t != "I") in.fail("invalid PCD TYPE \"" + t + "\"");
        types += t[0];
      }
    } else if (key == "WIDTH" || key == "HEIGHT" || key == "VIEWPOINT") {
      cloud.settings[changeCase(key, false)] = join(values);
    } else if (key == "POINTS") {
      if (values.size() != 1 || !parseInt(values[0], numPoints) || numPoints < 0)
        in.fail("invalid POINTS \"" + join(values) + "\"");
    } else {
      in.fail("unknown PCD header keyword \"" + key + "\"");
    }
  }
  std::vector<PcdField> fields = makeFields(in, names, sizes, types, counts);
  if (numPoints < 0) in.fail("PCD header has no POINTS");
  int xyz[3] = {-1, -1, -1};
  for (std::size_t j = 0; j < fields.size(); ++j)
    for (int k = 0; k < 3; ++k)
      if (fields[j].name == std::string(1, char('x' + k))) xyz[k] = (int)j;
  if (xyz[0] < 0 || xyz[1] < 0 || xyz[2] < 0) in.fail("PCD file has no x, y, z fields");

  std::size_t n = fields.size();
  std::size_t total = (std::size_t)numPoints * n;
  std::vector<double> values;
  if (format == "ascii") {
    if (total > in.content().size()) in.fail("POINTS exceeds the data in the file");
    values.resize(total);
    for (double& v : values) v = in.nextDouble("point value");
  } else if (format == "binary") {
    in.skipLine();
    std::size_t pointSize = 0;
    for (const PcdField& f : fields) pointSize += f.size;
    std::size_t start = in.position();
    if ((in.content().size() - start) / pointSize < (std::size_t)numPoints) in.fail("binary PCD data is truncated");
    values.resize(total);
    const char* p = in.content().data() + start;
    for (std::size_t i = 0; i < total; ++i) {
      const PcdField& f = fields[i % n];
      values[i] = decodeBinary(p, f);
      p += f.size;
    }
  } else {
    in.fail("unsupported PCD DATA format \"" + format + "\"");
  }
  unpackFloatColors(fields, values);

  cloud.points.resize(numPoints, 3);
  std::vector<std::size_t> propertyColumns;
  for (std::size_t j = 0; j < n; ++j)
    if ((int)j != xyz[0] && (int)j != xyz[1] && (int)j != xyz[2]) {
      propertyColumns.push_back(j);
      cloud.propertyNames.push_back(fields[j].name);
    }
  cloud.properties.resize(numPoints, (Eigen::Index)propertyColumns.size());
  for (long i = 0; i < numPoints; ++i) {
    const double* row = values.data() + i * n;
    for (int k = 0; k < 3; ++k) cloud.points(i, k) = row[xyz[k]];
    for (std::size_t c = 0; c < propertyColumns.size(); ++c) cloud.properties(i, (Eigen::Index)c) = row[propertyColumns[c]];
  }
}

void writePcd(std::ostream& out, const PointCloud& cloud) {
  Eigen::Index n = cloud.points.rows();
  std::string fields = "x y z", sizes = "8 8 8", types = "F F F", counts = "1 1 1";
  for (const std::string& name : cloud.propertyNames) {
    bool color = isColorField(name);
    fields += " " + name;
    sizes += color ? " 4" : " 8";
    types += color ? " U" : " F";
    counts += " 1";
  }
  // Keep the structured width x height only if it still matches the points.
  std::string width = std::to_string(n), height = "1", viewpoint = "0 0 0 1 0 0 0";
  auto setting = [&](const char* key) {
    auto it = cloud.settings.find(key);
    return it == cloud.settings.end() ? std::string() : it->second;
  };
  long w, h;
  if (parseInt(setting("width"), w) && parseInt(setting("height"), h) && w * h == n) {
    width = std::to_string(w);
    height = std::to_string(h);
  }
  if (!setting("viewpoint").empty()) viewpoint = setting("viewpoint");
  out << "# .PCD v0.7 - Point Cloud Data file format\nVERSION 0.7\n"
      << "FIELDS " << fields << "\nSIZE " << sizes << "\nTYPE " << types << "\nCOUNT " << counts << "\nWIDTH "
      << width << "\nHEIGHT " << height << "\nVIEWPOINT " << viewpoint << "\nPOINTS " << n << "\nDATA ascii\n";
  for (Eigen::Index i = 0; i < n; ++i) {
    out << formatDouble(cloud.points(i, 0)) << ' ' << formatDouble(cloud.points(i, 1)) << ' '
        << formatDouble(cloud.points(i, 2));
    for (std::size_t j = 0; j < cloud.propertyNames.size(); ++j) {
      double v = cloud.properties(i, (Eigen::Index)j);
      if (isColorField(cloud.propertyNames[j]))
        out << ' ' << (unsigned long long)(v < 0 ? 0 : v);
      else
        out << ' ' << formatDouble(v);
    }
    out << '\n';
  }
}

}  // namespace klampt
