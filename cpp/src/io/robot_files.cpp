#include "klampt/io/robot_files.h"

#include <cctype>
#include <filesystem>
#include <vector>

namespace klampt {

namespace {

namespace fs = std::filesystem;

/// The robot files being loaded on this thread (outermost first), so that a
/// file mounting itself, directly or not, is an error rather than a stack
/// overflow. Every mount (.rob or .urdf) loads through loadRobotFile, so a
/// cycle always passes through this guard.
thread_local std::vector<std::string> filesBeingLoaded;

struct LoadingFile {
  explicit LoadingFile(const std::string& path) {
    std::error_code ec;
    std::string key = fs::weakly_canonical(fs::path(path), ec).string();
    if (ec) key = fs::absolute(fs::path(path)).lexically_normal().string();
    for (const std::string& f : filesBeingLoaded)
      if (f == key) throw LoadError(fileMessage(path, 0, "the file mounts itself (mount cycle)"));
    filesBeingLoaded.push_back(key);
  }
  ~LoadingFile() { filesBeingLoaded.pop_back(); }
};

}  // namespace

std::shared_ptr<Robot> loadRobotFile(const std::string& path, LoadContext& ctx) {
  std::string ext = fs::path(path).extension().string();
  for (char& c : ext) c = (char)std::tolower((unsigned char)c);
  if (ext != ".rob" && ext != ".urdf")
    throw LoadError(fileMessage(path, 0, "unknown robot file extension '" + ext + "' (expected .rob or .urdf)"));
  LoadingFile guard(path);
  std::shared_ptr<Robot> robot = ext == ".rob" ? loadRob(path, ctx) : loadUrdf(path, ctx);
  // The reference draws loaded robot links with a specular highlight.
  for (Link& link : robot->links) {
    link.appearance->shininess = 20.0f;
    link.appearance->specularColor = {0.2f, 0.2f, 0.2f, 1.0f};
  }
  return robot;
}

}  // namespace klampt
