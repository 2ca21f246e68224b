#include "file_paths.h"
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace klampt {

namespace fs = std::filesystem;

std::string resolveFileReference(const std::string& baseDir, const std::string& file) {
  if (file.empty() || fs::path(file).is_absolute() || file.find("://") != std::string::npos || baseDir.empty())
    return file;
  fs::path joined = fs::path(baseDir) / file;
  std::error_code ec;
  return fs::exists(joined, ec) ? joined.lexically_normal().string() : file;
}

std::string directoryOf(const std::string& path) { return fs::path(path).parent_path().string(); }

std::string fileStem(const std::string& path) { return fs::path(path).stem().string(); }

std::string fileExtension(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  if (!ext.empty()) ext.erase(0, 1);
  for (char& c : ext) c = (char)std::tolower((unsigned char)c);
  return ext;
}

bool readTextFile(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return !in.bad();
}

}  // namespace klampt
