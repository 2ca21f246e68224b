// Internal: Klamp't's text geometry format (.geom), as AnyGeometry3D writes
// it: a type name followed by the data. "Primitive <Type> <params...>" (the
// GeometricPrimitive.saveString layout), "TriangleMesh <.tri or OFF data>",
// "PointCloud <PCD ascii>", "ImplicitSurface <volume grid>", "ConvexHull N
// <points>" and "Group N <geometry>...". Also the .vol volume grid text.
#pragma once
#include <ostream>
#include "klampt/geometry/geometry.h"
#include "text_tokens.h"

namespace klampt {

/// Reads one geometry. A bare primitive ("Sphere 0 0 0 1") is accepted too.
void readGeom(TokenStream& in, GeometryData& data);
void writeGeom(std::ostream& out, const GeometryData& data);

/// bmin, bmax, then the dimensions m n p and the m*n*p values (x-major).
void readVolumeGrid(TokenStream& in, VolumeGrid& grid);
void writeVolumeGrid(std::ostream& out, const VolumeGrid& grid);
/// The volume grid layout (bounds, dims, values) of an occupancy grid; the
/// threshold is not stored (0.5 when read).
void readOccupancyGrid(TokenStream& in, OccupancyGrid& grid);
void writeOccupancyGrid(std::ostream& out, const OccupancyGrid& grid);

}  // namespace klampt
