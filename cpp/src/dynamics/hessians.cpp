#include "klampt/dynamics/hessians.h"

#include <algorithm>

namespace klampt {

namespace {

// Collects the chain of `link` (itself first) into ws.chain with the world
// axis of each joint in ws.axis; returns its length.
int chainAxes(const Robot& robot, int link, DynamicsWorkspace& ws) {
  ws.reserve(robot.numLinks());
  int depth = 0;
  for (int j = link; j >= 0; j = robot.links[j].parent) {
    ws.chain[depth] = j;
    ws.axis[depth] = robot.linkTransforms[j].R * robot.links[j].axis;
    ++depth;
  }
  return depth;
}

}  // namespace

void positionHessian(const Robot& robot, int link, const Vector3& plocal, DynamicsWorkspace& ws, double* H) {
  const int n = robot.numLinks();
  const size_t nn = (size_t)n * n;
  std::fill(H, H + 3 * nn, 0.0);
  const int depth = chainAxes(robot, link, ws);
  const Vector3 x = robot.linkTransforms[link].apply(plocal);
  auto& J = ws.vecA;  // position Jacobian column of each chain joint
  for (int a = 0; a < depth; ++a) {
    const int j = ws.chain[a];
    J[a] = robot.links[j].prismatic ? ws.axis[a] : Vector3(ws.axis[a].cross(x - robot.linkTransforms[j].t));
  }
  // Chain position a is a descendant of (or equal to) position b >= a.
  for (int b = 0; b < depth; ++b) {
    const int i = ws.chain[b];
    if (robot.links[i].prismatic) continue;
    for (int a = 0; a <= b; ++a) {
      const int j = ws.chain[a];
      const Vector3 h = ws.axis[b].cross(J[a]);
      for (int k = 0; k < 3; ++k) {
        H[k * nn + (size_t)i * n + j] = h[k];
        H[k * nn + (size_t)j * n + i] = h[k];
      }
    }
  }
}

void orientationHessian(const Robot& robot, int link, DynamicsWorkspace& ws, double* H) {
  const int n = robot.numLinks();
  const size_t nn = (size_t)n * n;
  std::fill(H, H + 3 * nn, 0.0);
  const int depth = chainAxes(robot, link, ws);
  for (int a = 0; a < depth; ++a) {
    const int i = ws.chain[a];
    if (robot.links[i].prismatic) continue;
    for (int b = a + 1; b < depth; ++b) {
      const int j = ws.chain[b];
      if (robot.links[j].prismatic) continue;
      const Vector3 h = ws.axis[b].cross(ws.axis[a]);
      for (int k = 0; k < 3; ++k) H[k * nn + (size_t)i * n + j] = h[k];
    }
  }
}

}  // namespace klampt
