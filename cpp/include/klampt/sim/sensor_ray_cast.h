// Ray casts for range sensors against everything in a world (terrains, rigid
// objects, robot links) except the link the sensor is mounted on.
#pragma once
#include <vector>
#include "klampt/geometry/appearance.h"
#include "klampt/geometry/geometry.h"

namespace klampt {

struct Robot;
struct World;

class SensorRayCaster {
 public:
  /// Targets at their current transforms. If world is null, only the robot's
  /// links are targets; skipLink (of `robot`) is never hit.
  SensorRayCaster(const World* world, const Robot* robot, int skipLink);
  /// Nearest hit of the ray s + t d (t >= 0, d unit): the hit point and the
  /// appearance of the element hit (may be null).
  bool cast(const Vector3& s, const Vector3& d, Vector3& hit, const Appearance** appearance) const;

 private:
  struct Target {
    const Geometry* geometry;
    const Appearance* appearance;
    Vector3 bmin, bmax;
  };
  void addTarget(const Geometry* g, const Appearance* a);
  std::vector<Target> targets_;
};

}  // namespace klampt
