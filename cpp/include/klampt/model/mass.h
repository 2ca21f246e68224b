// Inertial and contact properties of a body.
#pragma once
#include <limits>
#include "klampt/geometry/appearance.h"
#include "klampt/math/types.h"

namespace klampt {

/// Mass, center of mass and inertia matrix about the COM, in the body frame.
struct Mass {
  double mass = 1.0;
  Vector3 com = Vector3::Zero();
  Matrix3 inertia = Matrix3::Identity();
};

/// Surface parameters used by the simulator's contact model.
struct ContactParameters {
  double kFriction = 0.5;
  double kRestitution = 0.0;
  double kStiffness = std::numeric_limits<double>::infinity();
  double kDamping = std::numeric_limits<double>::infinity();
};

}  // namespace klampt
