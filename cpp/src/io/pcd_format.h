// Internal: PCD point clouds (v0.7, DATA ascii or binary). The x, y, z fields
// become the points, every other field a property; VERSION, WIDTH, HEIGHT and
// VIEWPOINT are kept in the settings.
#pragma once
#include <ostream>
#include "klampt/geometry/geometry.h"
#include "text_tokens.h"

namespace klampt {

void readPcd(TokenStream& in, PointCloud& cloud);
/// Writes DATA ascii: x y z and the properties as doubles, rgb / rgba as
/// unsigned integers.
void writePcd(std::ostream& out, const PointCloud& cloud);

}  // namespace klampt
