// Archives of geometry shapes, element geometries and appearances.
#include <cstdint>

#include "archive_parts.h"
#include "klampt/geometry/heightmap.h"
#include "klampt/geometry/occupancy_grid.h"
#include "klampt/io/archive.h"

namespace klampt::archive {

namespace {

const int kMaxGroupDepth = 256;  // deeper groups are refused rather than read recursively

template <class M>
void writeMatrix(Writer& w, const M& m) {
  w.u64((std::uint64_t)m.rows());
  w.u64((std::uint64_t)m.cols());
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      if constexpr (std::is_same_v<typename M::Scalar, int>)
        w.i64(m(i, j));
      else
        w.f64(m(i, j));
    }
}

template <class M>
void readMatrix(Reader& r, M& m, Eigen::Index fixedCols) {
  const std::size_t rows = r.count(0), cols = r.count(0);
  if (fixedCols >= 0 && (Eigen::Index)cols != fixedCols) Reader::fail("a matrix has the wrong number of columns");
  if (cols > 0 && rows > r.left() / (8 * cols)) Reader::fail("a matrix exceeds the data");
  m.resize(rows, cols);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      if constexpr (std::is_same_v<typename M::Scalar, int>)
        m(i, j) = r.index(INT32_MIN, INT32_MAX);
      else
        m(i, j) = r.finite();
    }
}

void writeColor(Writer& w, const Color& c) {
  for (float x : c) w.f32(x);
}

Color readColor(Reader& r) {
  Color c;
  for (float& x : c) x = r.f32();
  return c;
}

void writeFloatGrid(Writer& w, const FloatGrid& a) {
  w.i64(a.rows());
  w.i64(a.cols());
  for (Eigen::Index k = 0; k < a.size(); ++k) w.f32(a.data()[k]);
}

void readFloatGrid(Reader& r, FloatGrid& a, int w, int h) {
  if (r.i64() != w || r.i64() != h) Reader::fail("a heightmap array does not match its size");
  if ((std::size_t)w * h > r.left() / 4) Reader::fail("a length exceeds the data");
  a.resize(w, h);
  for (Eigen::Index k = 0; k < a.size(); ++k) a.data()[k] = r.f32();
}

void writeHeightmap(Writer& w, const Heightmap& hm) {
  const HeightmapViewport& vp = hm.viewport;
  w.i64(vp.w);
  w.i64(vp.h);
  w.boolean(vp.perspective);
  for (double x : {vp.fx, vp.fy, vp.cx, vp.cy}) w.f64(x);
  w.transform(vp.pose);
  writeFloatGrid(w, hm.heights);
  w.i64(hm.colorChannels);
  w.str(std::string(hm.colors.begin(), hm.colors.end()));
  w.u64(hm.properties.size());
  for (std::size_t k = 0; k < hm.properties.size(); ++k) {
    w.str(hm.propertyNames[k]);
    writeFloatGrid(w, hm.properties[k]);
  }
}

void readHeightmap(Reader& r, Heightmap& hm) {
  HeightmapViewport& vp = hm.viewport;
  vp.w = r.index(0, 1 << 28);
  vp.h = r.index(0, 1 << 28);
  vp.perspective = r.boolean();
  for (double* x : {&vp.fx, &vp.fy, &vp.cx, &vp.cy}) *x = r.f64();
  vp.pose = r.transform();
  readFloatGrid(r, hm.heights, vp.w, vp.h);
  hm.colorChannels = r.index(0, 4);
  const std::string colors = r.str();
  hm.colors.assign(colors.begin(), colors.end());
  const std::size_t n = r.count(17);
  for (std::size_t k = 0; k < n; ++k) {
    hm.propertyNames.push_back(r.str());
    hm.properties.emplace_back();
    readFloatGrid(r, hm.properties.back(), vp.w, vp.h);
  }
  try {
    validateHeightmap(hm);
  } catch (const std::invalid_argument& e) {
    Reader::fail(e.what());
  }
}

}  // namespace

void writeGeometryData(Writer& w, const GeometryData& d) {
  w.u64((std::uint64_t)d.type);
  switch (d.type) {
    case GeometryType::Empty:
      break;
    case GeometryType::Primitive:
      w.str(d.primitive.type);
      w.u64(d.primitive.properties.size());
      w.doubles(d.primitive.properties.data(), d.primitive.properties.size());
      break;
    case GeometryType::TriangleMesh:
      writeMatrix(w, d.mesh.vertices);
      writeMatrix(w, d.mesh.indices);
      break;
    case GeometryType::PointCloud:
      writeMatrix(w, d.pointCloud.points);
      w.u64(d.pointCloud.propertyNames.size());
      for (const auto& n : d.pointCloud.propertyNames) w.str(n);
      writeMatrix(w, d.pointCloud.properties);
      w.u64(d.pointCloud.settings.size());
      for (const auto& [k, v] : d.pointCloud.settings) {
        w.str(k);
        w.str(v);
      }
      break;
    case GeometryType::VolumeGrid:
      w.v3(d.grid.bmin);
      w.v3(d.grid.bmax);
      for (int n : d.grid.dims) w.i64(n);
      w.u64(d.grid.values.size());
      w.doubles(d.grid.values.data(), d.grid.values.size());
      break;
    case GeometryType::ConvexHull:
      writeMatrix(w, d.hull.points);
      break;
    case GeometryType::Group:
      w.u64(d.group.size());
      for (const auto& g : d.group) writeGeometryData(w, *g);
      break;
    case GeometryType::Heightmap: writeHeightmap(w, d.heightmap); break;
    case GeometryType::OccupancyGrid:
      w.v3(d.occupancy.bmin);
      w.v3(d.occupancy.bmax);
      for (int n : d.occupancy.dims) w.i64(n);
      w.u64(d.occupancy.values.size());
      w.doubles(d.occupancy.values.data(), d.occupancy.values.size());
      w.f64(d.occupancy.occupancyThreshold);
      break;
  }
}

std::shared_ptr<const GeometryData> readGeometryData(Reader& r, int depth) {
  if (depth > kMaxGroupDepth) Reader::fail("geometry groups are nested too deeply");
  auto d = std::make_shared<GeometryData>();
  d->type = (GeometryType)r.index(0, (int)GeometryType::OccupancyGrid);
  switch (d->type) {
    case GeometryType::Empty:
      break;
    case GeometryType::Primitive: {
      d->primitive.type = r.str();
      d->primitive.properties.resize(r.count(8));
      for (double& x : d->primitive.properties) x = r.finite();
      break;
    }
    case GeometryType::TriangleMesh:
      readMatrix(r, d->mesh.vertices, 3);
      readMatrix(r, d->mesh.indices, 3);
      try {
        validateTriangleMesh(d->mesh);
      } catch (const std::invalid_argument& e) {
        Reader::fail(e.what());
      }
      break;
    case GeometryType::PointCloud: {
      PointCloud& pc = d->pointCloud;
      readMatrix(r, pc.points, 3);
      pc.propertyNames.resize(r.count(8));
      for (auto& n : pc.propertyNames) n = r.str();
      readMatrix(r, pc.properties, -1);
      const std::size_t n = r.count(16);
      for (std::size_t k = 0; k < n; ++k) {
        std::string key = r.str();
        pc.settings[key] = r.str();
      }
      try {
        validatePointCloud(pc);
      } catch (const std::invalid_argument& e) {
        Reader::fail(e.what());
      }
      break;
    }
    case GeometryType::VolumeGrid: {
      VolumeGrid& g = d->grid;
      g.bmin = r.v3();
      g.bmax = r.v3();
      for (int& n : g.dims) n = r.index(0, 1 << 30);
      g.values.resize(r.count(8));
      r.doubles(g.values.data(), g.values.size());
      if ((double)g.values.size() != (double)g.dims[0] * g.dims[1] * g.dims[2])
        Reader::fail("a volume grid's values do not match its dimensions");
      break;
    }
    case GeometryType::ConvexHull:
      readMatrix(r, d->hull.points, 3);
      break;
    case GeometryType::Group: {
      const std::size_t n = r.count(8);
      for (std::size_t k = 0; k < n; ++k) d->group.push_back(readGeometryData(r, depth + 1));
      break;
    }
    case GeometryType::Heightmap: readHeightmap(r, d->heightmap); break;
    case GeometryType::OccupancyGrid: {
      OccupancyGrid& g = d->occupancy;
      g.bmin = r.v3();
      g.bmax = r.v3();
      for (int& n : g.dims) n = r.index(0, 1 << 30);
      g.values.resize(r.count(8));
      r.doubles(g.values.data(), g.values.size());
      g.occupancyThreshold = r.f64();
      try {
        validateOccupancyGrid(g);
      } catch (const std::invalid_argument& e) {
        Reader::fail(e.what());
      }
      break;
    }
  }
  return d;
}

void writeGeometry(Writer& w, const Geometry& g) {
  writeGeometryData(w, *g.data);
  w.transform(g.currentTransform);
  w.f64(g.margin);
  w.str(g.sourceFile);
  w.m3(g.sourceLinear);
  w.v3(g.sourceOffset);
}

Geometry readGeometry(Reader& r) {
  Geometry g;
  g.data = readGeometryData(r);
  g.currentTransform = r.transform();
  g.margin = r.finite();
  g.sourceFile = r.str();
  g.sourceLinear = r.m3();
  g.sourceOffset = r.v3();
  return g;
}

void writeAppearance(Writer& w, const Appearance& a) {
  w.boolean(a.drawn);
  w.boolean(a.drawVertices);
  w.boolean(a.drawEdges);
  w.boolean(a.drawFaces);
  for (const Color* c : {&a.color, &a.vertexColor, &a.edgeColor, &a.emissiveColor, &a.specularColor})
    writeColor(w, *c);
  w.f32(a.shininess);
  writeColor(w, a.tintColor);
  w.f32(a.tintStrength);
  for (const auto* colors : {&a.vertexColors, &a.faceColors}) {
    w.u64(colors->size());
    for (const Color& c : *colors) writeColor(w, c);
  }
  w.f32(a.pointSize);
  w.f32(a.creaseAngle);
  w.f32(a.silhouetteRadius);
  writeColor(w, a.silhouetteColor);
  w.str(a.textureFormat);
  w.i64(a.textureWidth);
  w.i64(a.textureHeight);
  w.i64(a.textureChannels);
  w.str(std::string(a.textureData.begin(), a.textureData.end()));
  w.boolean(a.textureWrap);
  w.i64(a.texcoordDim);
  w.u64(a.texcoords.size());
  w.doubles(a.texcoords.data(), a.texcoords.size());
  w.u64(a.texgen.size());
  for (const auto& row : a.texgen) w.doubles(row.data(), 4);
  w.boolean(a.texgenWorld);
}

Appearance readAppearance(Reader& r) {
  Appearance a;
  a.drawn = r.boolean();
  a.drawVertices = r.boolean();
  a.drawEdges = r.boolean();
  a.drawFaces = r.boolean();
  for (Color* c : {&a.color, &a.vertexColor, &a.edgeColor, &a.emissiveColor, &a.specularColor}) *c = readColor(r);
  a.shininess = r.f32();
  a.tintColor = readColor(r);
  a.tintStrength = r.f32();
  for (auto* colors : {&a.vertexColors, &a.faceColors}) {
    colors->resize(r.count(16));
    for (Color& c : *colors) c = readColor(r);
  }
  a.pointSize = r.f32();
  a.creaseAngle = r.f32();
  a.silhouetteRadius = r.f32();
  a.silhouetteColor = readColor(r);
  a.textureFormat = r.str();
  a.textureWidth = r.index(0, 1 << 30);
  a.textureHeight = r.index(0, 1 << 30);
  a.textureChannels = r.index(0, 16);
  const std::string texels = r.str();
  a.textureData.assign(texels.begin(), texels.end());
  a.textureWrap = r.boolean();
  a.texcoordDim = r.index(0, 3);
  a.texcoords.resize(r.count(8));
  r.doubles(a.texcoords.data(), a.texcoords.size());
  a.texgen.resize(r.count(32));
  for (auto& row : a.texgen) r.doubles(row.data(), 4);
  a.texgenWorld = r.boolean();
  return a;
}

void writeMass(Writer& w, const Mass& m) {
  w.f64(m.mass);
  w.v3(m.com);
  w.m3(m.inertia);
}

Mass readMass(Reader& r) {
  Mass m;
  m.mass = r.finite();
  m.com = r.v3();
  m.inertia = r.m3();
  return m;
}

}  // namespace klampt::archive

namespace klampt {

namespace {
const std::uint64_t kGeometryVersion = 1;
}

std::string saveGeometryArchive(const Geometry& geometry) {
  archive::Writer w;
  w.header("geometry", kGeometryVersion);
  archive::writeGeometry(w, geometry);
  return std::move(w.bytes);
}

Geometry loadGeometryArchive(const std::string& bytes) {
  archive::Reader r(bytes);
  r.header("geometry", kGeometryVersion);
  Geometry g = archive::readGeometry(r);
  r.finish();
  return g;
}

std::string saveAppearanceArchive(const Appearance& appearance) {
  archive::Writer w;
  w.header("appearance", kGeometryVersion);
  archive::writeAppearance(w, appearance);
  return std::move(w.bytes);
}

Appearance loadAppearanceArchive(const std::string& bytes) {
  archive::Reader r(bytes);
  r.header("appearance", kGeometryVersion);
  Appearance a = archive::readAppearance(r);
  r.finish();
  return a;
}

}  // namespace klampt
