#include "klampt/model/inertia_elements.h"

#include <stdexcept>

namespace klampt {

void checkInertiaElementCount(size_t count, const std::string& name) {
  if (count != 3 && count != 9) throw std::invalid_argument(name + " must have 3 or 9 elements");
}

Matrix3 inertiaFromElements(const std::vector<double>& v, const std::string& name) {
  checkInertiaElementCount(v.size(), name);
  if (v.size() == 3) return Vector3(v[0], v[1], v[2]).asDiagonal();
  return Eigen::Map<const Matrix3>(v.data());
}

}  // namespace klampt
