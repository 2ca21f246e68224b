// Internal: the text mesh formats read and written natively: OFF, Klamp't
// .tri, Wavefront OBJ (vertices and faces only) and ASCII STL (write only).
#pragma once
#include <ostream>
#include <vector>
#include "klampt/geometry/geometry.h"
#include "text_tokens.h"

namespace klampt {

/// Builds a mesh from flat vertex coordinates and triangle indices.
void setMesh(TriangleMesh& mesh, const std::vector<double>& vertices, const std::vector<int>& triangles);

/// Merges vertices at identical positions, drops unused vertices (the kept
/// ones stay in file order) and removes triangles that collapse to a segment
/// or point by index. Klamp't 0.9.2 reads OFF files through Assimp's
/// JoinIdenticalVertices, which does the same; vertex counts then agree.
void weldVertices(TriangleMesh& mesh);

/// OFF and its variants (COFF, NOFF, STOFF, ...): one vertex or face per line,
/// extra per-vertex / per-face values ignored, polygons fan-triangulated.
void readOff(TokenStream& in, TriangleMesh& mesh);
/// .tri: vertex count, vertices, triangle count, triangles. With `untilEnd`,
/// further meshes following in the file are merged in.
void readTri(TokenStream& in, TriangleMesh& mesh, bool untilEnd);
/// Wavefront OBJ: `v` and `f` statements (negative and v/t/n indices
/// accepted); everything else is ignored. Polygons are fan-triangulated. A
/// file without faces is an error.
void readObj(TokenStream& in, TriangleMesh& mesh);

void writeOff(std::ostream& out, const TriangleMesh& mesh);
void writeTri(std::ostream& out, const TriangleMesh& mesh);
void writeObj(std::ostream& out, const TriangleMesh& mesh);
void writeStl(std::ostream& out, const TriangleMesh& mesh);

}  // namespace klampt
