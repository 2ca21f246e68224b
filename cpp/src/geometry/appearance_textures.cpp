#include "klampt/geometry/appearance_textures.h"

#include <algorithm>
#include <stdexcept>

namespace klampt {

void setPackedTexture(Appearance& app, const std::string& format, const std::uint32_t* texels, int width, int height,
                      bool topdown) {
  const std::size_t count = (std::size_t)std::max(width, 0) * std::max(height, 0);
  std::vector<std::uint8_t> bytes(4 * count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint32_t v = texels[i];
    bytes[4 * i] = (v >> 16) & 255;
    bytes[4 * i + 1] = (v >> 8) & 255;
    bytes[4 * i + 2] = v & 255;
    bytes[4 * i + 3] = v >> 24;
  }
  setTexture(app, format, bytes.data(), width, height, 4, topdown);
}

void setTexcoords(Appearance& app, const double* values, std::size_t count, int dim) {
  if (count == 0) {
    app.texcoords.clear();
    app.texcoordDim = 0;
    return;
  }
  if (dim != 1 && dim != 2) throw std::invalid_argument("texture coordinates must be an N or N x 2 array");
  app.texcoordDim = dim;
  app.texcoords.assign(values, values + count);
}

void setTexgen(Appearance& app, const std::vector<std::array<double, 4>>& rows, bool world) {
  if (rows.size() > 4) throw std::invalid_argument("texture generation takes at most 4 rows");
  app.texgen = rows;
  app.texgenWorld = world;
}

}  // namespace klampt
