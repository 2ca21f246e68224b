// Internal to io: Netpbm images (PGM grey and PPM colour, text P2/P3 and
// binary P5/P6, 8 or 16 bits), the image files of Klamp't 0.10's heightmaps.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace klampt {

struct PnmImage {
  int w = 0, h = 0;
  int channels = 1;     // 1 (grey) or 3 (RGB)
  int maxValue = 255;   // 1 .. 65535
  std::vector<std::uint16_t> data;  // h x w x channels, top row first
};

/// Reads a P2, P3, P5 or P6 file. Throws LoadError naming the file.
PnmImage readPnm(const std::string& path);
/// Writes P5 (grey) or P6 (RGB), 16-bit big-endian samples when maxValue > 255.
void writePnm(const PnmImage& image, const std::string& path);

}  // namespace klampt
