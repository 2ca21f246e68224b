#include "klampt/plan/roadmap_tgf.h"

#include <fstream>

namespace klampt {
namespace plan {

bool writeRoadmapTGF(const std::string& path, const std::vector<Config>& vertices, const std::vector<Edge>& edges) {
  std::ofstream out(path);
  if (!out) return false;
  for (size_t i = 0; i < vertices.size(); ++i) {
    out << i;
    for (Eigen::Index k = 0; k < vertices[i].size(); ++k) out << " " << vertices[i][k];
    out << "\n";
  }
  out << "#\n";
  for (const auto& e : edges) out << e.first << " " << e.second << "\n";
  return true;
}

}  // namespace plan
}  // namespace klampt
