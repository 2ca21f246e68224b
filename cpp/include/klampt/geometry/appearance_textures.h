// An Appearance's texture inputs in the forms the Python API takes them:
// packed 32-bit texels, texture coordinates and texture generation rows.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>
#include "klampt/geometry/appearance.h"

namespace klampt {

/// setTexture from texels packed one per uint32: 0xaarrggbb for rgba8
/// (0xaabbggrr for bgra8), unpacked to 4 bytes each.
void setPackedTexture(Appearance& app, const std::string& format, const std::uint32_t* texels, int width, int height,
                      bool topdown);

/// Per-vertex texture coordinates, `dim` (1 or 2) finite values each (the
/// caller's converter checks them); none clears them. Throws
/// std::invalid_argument for another dim.
void setTexcoords(Appearance& app, const double* values, std::size_t count, int dim);

/// Texture generation: up to 4 rows of plane coefficients, in world or local
/// coordinates. Throws std::invalid_argument for more rows.
void setTexgen(Appearance& app, const std::vector<std::array<double, 4>>& rows, bool world);

}  // namespace klampt
