#include "klampt/io/robot_files.h"

#include <cctype>
#include <filesystem>

namespace klampt {

std::shared_ptr<Robot> loadRobotFile(const std::string& path, LoadContext& ctx) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = (char)std::tolower((unsigned char)c);
  if (ext == ".rob") return loadRob(path, ctx);
  if (ext == ".urdf") return loadUrdf(path, ctx);
  throw LoadError(fileMessage(path, 0, "unknown robot file extension '" + ext + "' (expected .rob or .urdf)"));
}

}  // namespace klampt
