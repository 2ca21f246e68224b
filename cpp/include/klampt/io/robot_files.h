// Robot files: .rob (Klamp't's own format) and .urdf (with the <klampt> extension).
#pragma once
#include <memory>
#include <string>
#include "klampt/io/load_error.h"
#include "klampt/model/robot.h"

namespace klampt {

/// Loads a .rob file. Throws LoadError naming the file and line.
std::shared_ptr<Robot> loadRob(const std::string& path, LoadContext& ctx);
/// Loads a .urdf file. Throws LoadError naming the file.
std::shared_ptr<Robot> loadUrdf(const std::string& path, LoadContext& ctx);
/// Dispatches on the extension (.rob or .urdf, case-insensitive).
std::shared_ptr<Robot> loadRobotFile(const std::string& path, LoadContext& ctx);

/// Writes a .rob file that loadRob reads back identically. When
/// geometryPrefix is non-empty, each link's geometry is written to
/// geometryPrefix + file name and referenced from the .rob; otherwise links
/// reference the files they were loaded from. Throws LoadError on I/O failure.
void saveRob(const Robot& robot, const std::string& path, const std::string& geometryPrefix);

}  // namespace klampt
