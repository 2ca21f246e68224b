// Mass and ContactParameters as the Python API holds them: plain values with
// lists for com and inertia (inertia as 3 diagonal or 9 full entries).
#pragma once
#include <vector>
#include "klampt/model/mass.h"

namespace klampt_py {

struct MassValue {
  double mass = 1.0;
  std::vector<double> com{0, 0, 0};
  std::vector<double> inertia{1, 0, 0, 0, 1, 0, 0, 0, 1};

  static MassValue from(const klampt::Mass& m);
  /// Raises ValueError if com or inertia has the wrong size.
  klampt::Mass toCore() const;
};

}  // namespace klampt_py
