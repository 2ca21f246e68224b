// Texture formats and storage of Appearance textures.
#include "klampt/geometry/appearance.h"
#include <algorithm>
#include <stdexcept>

namespace klampt {

int textureFormatChannels(const std::string& format) {
  if (format.empty()) return 0;
  if (format == "l8") return 1;
  if (format == "rgb8" || format == "bgr8") return 3;
  if (format == "rgba8" || format == "bgra8") return 4;
  throw std::invalid_argument("unknown texture format \"" + format + "\" (use '', l8, rgb8, bgr8, rgba8 or bgra8)");
}

void setTexture(Appearance& app, const std::string& format, const std::uint8_t* texels, int width, int height,
                int channels, bool topdown) {
  int expected = textureFormatChannels(format);
  if (expected == 0) {
    app.textureFormat.clear();
    app.textureWidth = app.textureHeight = app.textureChannels = 0;
    app.textureData.clear();
    return;
  }
  if (channels != expected)
    throw std::invalid_argument("texture format " + format + " needs " + std::to_string(expected) +
                                " channels, the array has " + std::to_string(channels));
  if (width <= 0 || height <= 0) throw std::invalid_argument("texture must not be empty");
  std::size_t row = (std::size_t)width * channels;
  app.textureData.resize(row * height);
  for (int y = 0; y < height; ++y) {
    const std::uint8_t* src = texels + row * (topdown ? y : height - 1 - y);
    std::copy(src, src + row, app.textureData.begin() + row * y);
  }
  app.textureFormat = format;
  app.textureWidth = width;
  app.textureHeight = height;
  app.textureChannels = channels;
}

}  // namespace klampt
