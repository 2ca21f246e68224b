// Internal to io: Klamp't 0.10's heightmap files, a JSON description naming
// image files beside it (geometry_files dispatches ".json" here).
#pragma once
#include <string>
#include "klampt/geometry/geometry.h"

namespace klampt {

/// Whether the file is a JSON object whose "type" is "Heightmap".
bool isHeightmapFile(const std::string& path);
/// Reads the description and its images (paths relative to the file's folder).
Heightmap readHeightmapFile(const std::string& path);
/// Writes path (the description) and <stem>_height.pgm, <stem>_color.ppm (or
/// .pgm for grey colours) and <stem>_<property>.pgm beside it.
void writeHeightmapFile(const Heightmap& hm, const std::string& path);

}  // namespace klampt
