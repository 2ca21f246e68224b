// Versions of the native libraries the core links (ODE, Coal, Assimp,
// TinyXML-2, Qhull, Eigen), reported by klampt._robotsim.native_library_versions().
#pragma once
#include <map>
#include <string>

namespace klampt {

std::map<std::string, std::string> nativeLibraryVersions();

}  // namespace klampt
