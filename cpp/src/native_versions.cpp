#include "klampt/native_versions.h"

#include <assimp/version.h>
#include <coal/shape/geometric_shapes.h>
#include <libqhull_r/libqhull_r.h>
#include <ode/common.h>
#include <tinyxml2.h>

#include <Eigen/Core>

namespace klampt {

std::map<std::string, std::string> nativeLibraryVersions() {
  std::map<std::string, std::string> v;
  v["ode"] = std::string("ODE ") + dGetConfiguration();
  // A unit box's volume from Coal itself confirms the library is usable.
  v["coal"] = std::string(COAL_VERSION) + (coal::Box(1, 1, 1).computeVolume() == 1.0 ? "" : " (unusable)");
  v["assimp"] = std::to_string(aiGetVersionMajor()) + "." + std::to_string(aiGetVersionMinor()) + "." +
                std::to_string(aiGetVersionPatch());
  v["tinyxml2"] = std::to_string(TIXML2_MAJOR_VERSION) + "." + std::to_string(TIXML2_MINOR_VERSION) + "." +
                  std::to_string(TIXML2_PATCH_VERSION);
  v["qhull"] = qh_version;
  v["eigen"] = std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
               std::to_string(EIGEN_MINOR_VERSION);
  return v;
}

}  // namespace klampt
