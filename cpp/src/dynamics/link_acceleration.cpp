#include "klampt/dynamics/link_acceleration.h"

namespace klampt {

void linkAcceleration(const Robot& robot, int link, const Vector3& plocal, const double* dq, const double* ddq,
                      DynamicsWorkspace& ws, Vector3& angular, Vector3& linear) {
  ws.reserve(robot.numLinks());
  int depth = 0;
  for (int j = link; j >= 0; j = robot.links[j].parent) ws.chain[depth++] = j;
  // w, alpha: angular velocity and acceleration; a: acceleration of the origin p.
  Vector3 w = Vector3::Zero(), alpha = Vector3::Zero(), a = Vector3::Zero(), p = Vector3::Zero();
  for (int k = depth - 1; k >= 0; --k) {
    const int i = ws.chain[k];
    const RigidTransform& T = robot.linkTransforms[i];
    const Vector3 z = T.R * robot.links[i].axis;
    const double qd = dq[i], qdd = ddq ? ddq[i] : 0.0;
    if (k != depth - 1) {
      const Vector3 r = T.t - p;
      a += alpha.cross(r) + w.cross(w.cross(r));
    }
    p = T.t;
    if (robot.links[i].prismatic) {
      a += z * qdd + 2 * qd * w.cross(z);
    } else {
      alpha += z * qdd + qd * w.cross(z);
      w += z * qd;
    }
  }
  const Vector3 r = robot.linkTransforms[link].R * plocal;
  angular = alpha;
  linear = a + alpha.cross(r) + w.cross(w.cross(r));
}

}  // namespace klampt
