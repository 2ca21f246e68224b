// The pieces of the archive format that several archives share: geometry
// shapes, geometries as elements hold them, appearances and masses.
#pragma once
#include "archive_stream.h"
#include "klampt/geometry/appearance.h"
#include "klampt/geometry/geometry.h"
#include "klampt/model/mass.h"

namespace klampt::archive {

void writeGeometryData(Writer& w, const GeometryData& data);
std::shared_ptr<const GeometryData> readGeometryData(Reader& r, int depth = 0);
void writeGeometry(Writer& w, const Geometry& g);
Geometry readGeometry(Reader& r);
void writeAppearance(Writer& w, const Appearance& a);
Appearance readAppearance(Reader& r);
void writeMass(Writer& w, const Mass& m);
Mass readMass(Reader& r);

}  // namespace klampt::archive
