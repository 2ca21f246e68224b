// Geometry3D and Appearance handles: a standalone geometry or a reference to
// an element's, keeping that element's world alive.
#pragma once
#include <memory>
#include "klampt/geometry/geometry.h"
#include "klampt/model/world.h"

namespace klampt_py {

struct Geometry3D {
  std::shared_ptr<klampt::Geometry> geom = std::make_shared<klampt::Geometry>();
  std::shared_ptr<klampt::World> owner;  // keeps an element's world alive
};

struct Appearance {
  std::shared_ptr<klampt::Appearance> app = std::make_shared<klampt::Appearance>();
  std::shared_ptr<klampt::World> owner;
};

inline Geometry3D elementGeometry(const std::shared_ptr<klampt::Geometry>& g, const std::shared_ptr<klampt::World>& w) {
  return Geometry3D{g, w};
}

}  // namespace klampt_py
