// Heightmap files (see heightmap_file.h). The description holds what Klamp't
// 0.10 reads (type, height_range, heights, xsize/ysize or xfov/yfov, offset,
// orientation rows, colors, properties) and, for an exact round trip, the
// viewport's intrinsics and the sample value that marks a missing height.
// Heights are stored as 16-bit samples spanning height_range.
#include "heightmap_file.h"
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include "file_paths.h"
#include "json_value.h"
#include "klampt/geometry/heightmap.h"
#include "klampt/io/load_error.h"
#include "pnm_image.h"

namespace klampt {

namespace {

constexpr int kSampleMax = 65535;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw LoadError(fileMessage(path, 0, what));
}

double numberField(const std::string& path, const JsonValue& v, const char* key) {
  if (!v.isNumber() || !std::isfinite(v.number)) fail(path, std::string("\"") + key + "\" must be a finite number");
  return v.number;
}

std::vector<double> numbers(const std::string& path, const JsonValue* v, size_t n, const char* key) {
  if (!v || v->kind != JsonValue::Kind::Array || v->items.size() != n)
    fail(path, std::string("\"") + key + "\" must be an array of " + std::to_string(n) + " numbers");
  std::vector<double> out;
  for (const JsonValue& x : v->items) out.push_back(numberField(path, x, key));
  return out;
}

std::string fileField(const std::string& path, const JsonValue* v, const char* key) {
  if (!v || v->kind != JsonValue::Kind::String) fail(path, std::string("\"") + key + "\" must name an image file");
  return resolveFileReference(directoryOf(path), v->text);
}

/// A grey image as a w x h grid spanning [lo, hi] (samples equal to `missing` read NaN).
FloatGrid readGreyGrid(const std::string& path, const std::string& file, int w, int h, double lo, double hi,
                       long missing) {
  const PnmImage img = readPnm(file);
  if (img.channels != 1) fail(file, "a height or property image must be grey (PGM)");
  if (w >= 0 && (img.w != w || img.h != h))
    fail(path, file + " is " + std::to_string(img.w) + " x " + std::to_string(img.h) + ", the heights are " +
                   std::to_string(w) + " x " + std::to_string(h));
  FloatGrid grid(img.w, img.h);
  for (int r = 0; r < img.h; ++r)
    for (int c = 0; c < img.w; ++c) {
      const std::uint16_t v = img.data[(size_t)r * img.w + c];
      grid(c, r) = v == missing ? std::numeric_limits<float>::quiet_NaN()
                                : (float)(lo + (hi - lo) * v / (missing >= 0 ? missing - 1 : img.maxValue));
    }
  return grid;
}

/// The grid as a 16-bit grey image spanning its finite range; NaN and
/// infinite values get the sample kSampleMax (returned in `missing`, else -1).
PnmImage greyImage(const FloatGrid& grid, double& lo, double& hi, long& missing) {
  lo = INFINITY;
  hi = -INFINITY;
  missing = -1;
  for (Eigen::Index k = 0; k < grid.size(); ++k) {
    const double v = grid.data()[k];
    if (!std::isfinite(v)) {
      missing = kSampleMax;
      continue;
    }
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (!(lo <= hi)) lo = hi = 0;
  const int top = missing >= 0 ? kSampleMax - 1 : kSampleMax;
  PnmImage img;
  img.w = (int)grid.rows();
  img.h = (int)grid.cols();
  img.maxValue = kSampleMax;
  img.data.resize((size_t)img.w * img.h);
  for (int r = 0; r < img.h; ++r)
    for (int c = 0; c < img.w; ++c) {
      const double v = grid(c, r);
      img.data[(size_t)r * img.w + c] =
          !std::isfinite(v) ? (std::uint16_t)kSampleMax
                            : (std::uint16_t)std::lround(hi > lo ? (v - lo) / (hi - lo) * top : 0.0);
    }
  return img;
}

JsonValue rangeOf(double lo, double hi) { return jsonArray({lo, hi}); }

void readViewport(const std::string& path, const JsonValue& doc, Heightmap& hm) {
  if (const JsonValue* vp = doc.find("viewport")) {
    const JsonValue* persp = vp->find("perspective");
    hm.viewport.perspective = persp && persp->kind == JsonValue::Kind::Boolean && persp->boolean;
    const std::vector<double> intr = numbers(path, vp->find("intrinsics"), 4, "viewport.intrinsics");
    hm.viewport.fx = intr[0];
    hm.viewport.fy = intr[1];
    hm.viewport.cx = intr[2];
    hm.viewport.cy = intr[3];
  } else if (doc.find("xsize")) {
    setHeightmapSize(hm, numberField(path, *doc.find("xsize"), "xsize"),
                     doc.find("ysize") ? numberField(path, *doc.find("ysize"), "ysize") : -1.0);
  } else if (doc.find("xfov")) {
    setHeightmapFOV(hm, numberField(path, *doc.find("xfov"), "xfov"),
                    doc.find("yfov") ? numberField(path, *doc.find("yfov"), "yfov") : -1.0);
  } else {
    fail(path, "a heightmap needs \"xsize\" or \"xfov\"");
  }
  if (const JsonValue* t = doc.find("offset")) {
    const std::vector<double> v = numbers(path, t, 3, "offset");
    hm.viewport.pose.t = Vector3(v[0], v[1], v[2]);
  }
  if (const JsonValue* o = doc.find("orientation")) {
    if (o->kind != JsonValue::Kind::Array || o->items.size() != 3) fail(path, "\"orientation\" must be 3 rows");
    for (int r = 0; r < 3; ++r) {
      const std::vector<double> row = numbers(path, &o->items[r], 3, "orientation");
      for (int c = 0; c < 3; ++c) hm.viewport.pose.R(r, c) = row[c];
    }
  }
}

void readColors(const std::string& path, const JsonValue& doc, Heightmap& hm) {
  const JsonValue* colors = doc.find("colors");
  if (!colors) return;
  const std::string file = fileField(path, colors, "colors");
  const PnmImage img = readPnm(file);
  if (img.w != hm.viewport.w || img.h != hm.viewport.h) fail(path, file + " does not match the height image's size");
  hm.colorChannels = img.channels;
  hm.colors.resize(img.data.size());
  for (size_t k = 0; k < img.data.size(); ++k)
    hm.colors[k] = (std::uint8_t)std::lround(255.0 * img.data[k] / img.maxValue);
}

void readProperties(const std::string& path, const JsonValue& doc, Heightmap& hm) {
  const JsonValue* props = doc.find("properties");
  if (!props) return;
  if (props->kind != JsonValue::Kind::Object) fail(path, "\"properties\" must map names to images");
  for (const auto& [name, v] : props->fields) {
    double lo = 0, hi = 1;
    long missing = -1;
    const JsonValue* image = &v;
    if (v.kind == JsonValue::Kind::Object) {
      image = v.find("image");
      if (const JsonValue* range = v.find("range")) {
        const std::vector<double> r = numbers(path, range, 2, "range");
        lo = r[0];
        hi = r[1];
      }
      if (const JsonValue* m = v.find("missing_value")) missing = (long)numberField(path, *m, "missing_value");
    }
    hm.propertyNames.push_back(name);
    hm.properties.push_back(readGreyGrid(path, fileField(path, image, "properties"), hm.viewport.w, hm.viewport.h,
                                         lo, hi, missing));
  }
}

std::string stemPath(const std::string& path) {
  const std::string dir = directoryOf(path);
  return (dir.empty() ? "" : dir + "/") + fileStem(path);
}

std::string baseName(const std::string& path) { return std::filesystem::path(path).filename().string(); }

}  // namespace

bool isHeightmapFile(const std::string& path) {
  std::string text;
  if (!readTextFile(path, text)) return false;
  try {
    const JsonValue doc = parseJson(text);
    const JsonValue* type = doc.find("type");
    return type && type->kind == JsonValue::Kind::String && type->text == "Heightmap";
  } catch (const std::runtime_error&) {
    return false;
  }
}

Heightmap readHeightmapFile(const std::string& path) {
  std::string text;
  if (!readTextFile(path, text)) fail(path, "cannot read file");
  JsonValue doc;
  try {
    doc = parseJson(text);
  } catch (const std::runtime_error& e) {
    fail(path, e.what());
  }
  const JsonValue* type = doc.find("type");
  if (!type || type->kind != JsonValue::Kind::String || type->text != "Heightmap")
    fail(path, "not a heightmap file (its \"type\" is not \"Heightmap\")");
  const std::vector<double> range = numbers(path, doc.find("height_range"), 2, "height_range");
  long missing = -1;
  if (const JsonValue* m = doc.find("missing_value")) missing = (long)numberField(path, *m, "missing_value");
  FloatGrid heights = readGreyGrid(path, fileField(path, doc.find("heights"), "heights"), -1, -1, range[0], range[1],
                                   missing);
  Heightmap hm;
  resizeHeightmap(hm, (int)heights.rows(), (int)heights.cols());
  hm.heights = std::move(heights);
  readViewport(path, doc, hm);
  readColors(path, doc, hm);
  readProperties(path, doc, hm);
  try {
    validateHeightmap(hm);
  } catch (const std::invalid_argument& e) {
    fail(path, e.what());
  }
  return hm;
}

void writeHeightmapFile(const Heightmap& hm, const std::string& path) {
  validateHeightmap(hm);
  const std::string stem = stemPath(path);
  JsonValue doc;
  doc.kind = JsonValue::Kind::Object;
  doc.fields["type"] = jsonString("Heightmap");
  const HeightmapViewport& vp = hm.viewport;
  // Klamp't 0.10 reads the size or fields of view; "viewport" keeps the exact intrinsics.
  // As setHeightmapSize / setHeightmapFOV read them: spans from the first sample to the last.
  if (vp.perspective) {
    doc.fields["xfov"] = jsonNumber(2 * std::atan(0.5 * (vp.w - 1) / std::abs(vp.fx)));
    doc.fields["yfov"] = jsonNumber(2 * std::atan(0.5 * (vp.h - 1) / std::abs(vp.fy)));
  } else {
    doc.fields["xsize"] = jsonNumber((vp.w - 1) / std::abs(vp.fx));
    doc.fields["ysize"] = jsonNumber((vp.h - 1) / std::abs(vp.fy));
  }
  JsonValue viewport;
  viewport.kind = JsonValue::Kind::Object;
  viewport.fields["perspective"].kind = JsonValue::Kind::Boolean;
  viewport.fields["perspective"].boolean = vp.perspective;
  viewport.fields["intrinsics"] = jsonArray({vp.fx, vp.fy, vp.cx, vp.cy});
  doc.fields["viewport"] = viewport;
  doc.fields["offset"] = jsonArray({vp.pose.t.x(), vp.pose.t.y(), vp.pose.t.z()});
  JsonValue rows;
  rows.kind = JsonValue::Kind::Array;
  for (int r = 0; r < 3; ++r) rows.items.push_back(jsonArray({vp.pose.R(r, 0), vp.pose.R(r, 1), vp.pose.R(r, 2)}));
  doc.fields["orientation"] = rows;

  double lo, hi;
  long missing;
  const std::string heightFile = stem + "_height.pgm";
  writePnm(greyImage(hm.heights, lo, hi, missing), heightFile);
  doc.fields["heights"] = jsonString(baseName(heightFile));
  doc.fields["height_range"] = rangeOf(lo, hi);
  if (missing >= 0) doc.fields["missing_value"] = jsonNumber((double)missing);

  if (hm.colorChannels > 0) {
    // PPM holds grey or RGB: an alpha channel is dropped.
    PnmImage img;
    img.w = vp.w;
    img.h = vp.h;
    img.channels = hm.colorChannels == 1 ? 1 : 3;
    img.data.reserve((size_t)img.w * img.h * img.channels);
    for (size_t p = 0; p < (size_t)img.w * img.h; ++p)
      for (int c = 0; c < img.channels; ++c) img.data.push_back(hm.colors[p * hm.colorChannels + c]);
    const std::string colorFile = stem + (img.channels == 1 ? "_color.pgm" : "_color.ppm");
    writePnm(img, colorFile);
    doc.fields["colors"] = jsonString(baseName(colorFile));
  }
  if (!hm.propertyNames.empty()) {
    JsonValue props;
    props.kind = JsonValue::Kind::Object;
    for (size_t k = 0; k < hm.propertyNames.size(); ++k) {
      std::string name = hm.propertyNames[k];
      for (char& c : name)
        if (!std::isalnum((unsigned char)c) && c != '-' && c != '_') c = '_';
      const std::string file = stem + "_" + name + ".pgm";
      double plo, phi;
      long pmissing;
      writePnm(greyImage(hm.properties[k], plo, phi, pmissing), file);
      JsonValue entry;
      entry.kind = JsonValue::Kind::Object;
      entry.fields["image"] = jsonString(baseName(file));
      entry.fields["range"] = rangeOf(plo, phi);
      if (pmissing >= 0) entry.fields["missing_value"] = jsonNumber((double)pmissing);
      props.fields[hm.propertyNames[k]] = entry;
    }
    doc.fields["properties"] = props;
  }
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  if (!out) fail(path, "cannot open file for writing");
  out << writeJson(doc) << '\n';
  if (!out) fail(path, "error while writing the file");
}

}  // namespace klampt
