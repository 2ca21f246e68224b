#include <cctype>

#include "klampt/io/world_files.h"

namespace klampt {

namespace {

bool hasXmlExtension(const std::string& path) {
  if (path.size() < 4) return false;
  std::string ext = path.substr(path.size() - 4);
  for (char& c : ext) c = (char)std::tolower((unsigned char)c);
  return ext == ".xml";
}

}  // namespace

void loadWorldFile(World& world, const std::string& path, LoadContext& ctx) {
  if (hasXmlExtension(path))
    loadWorldXml(world, path, ctx);
  else
    loadElement(world, path, ctx);
}

}  // namespace klampt
