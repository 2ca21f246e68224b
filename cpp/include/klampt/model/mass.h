// Inertial and contact properties of a body.
#pragma once
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

/// How an element is drawn: kept as data here, drawing lives in klampt.vis.
struct Appearance {
  std::array<float, 4> color{0.5f, 0.5f, 0.5f, 1.0f};
};

}  // namespace klampt
