// An inertia matrix given as a flat list: 3 numbers for a diagonal, or all 9.
#pragma once
#include <string>
#include <vector>
#include "klampt/math/types.h"

namespace klampt {

/// Throws std::invalid_argument("<name> must have 3 or 9 elements") for
/// another count.
void checkInertiaElementCount(size_t count, const std::string& name);
/// The matrix of 3 diagonal or 9 column-major numbers; throws as
/// checkInertiaElementCount.
Matrix3 inertiaFromElements(const std::vector<double>& v, const std::string& name);

}  // namespace klampt
