#include "klampt/dynamics/mass_matrix_deriv.h"

#include <algorithm>

#include "klampt/dynamics/body_state.h"

namespace klampt {

void massMatrixDerivFromComposites(const Robot& robot, DynamicsWorkspace& ws, RowMatrixMap dB, int dof) {
  const int n = robot.numLinks();
  const auto& links = robot.links;
  // For a single DOF: relation of each link to it (see massMatrixDeriv).
  enum { kOther = 0, kInSubtree = 1, kAncestor = 2 };
  auto& relation = ws.chain;
  if (dof >= 0) {
    for (int k = 0; k < n; ++k)
      relation[k] = k == dof ? kInSubtree : (k > dof && links[k].parent >= 0 && relation[links[k].parent] == kInSubtree)
                                                ? kInSubtree
                                                : kOther;
    for (int k = links[dof].parent; k >= 0; k = links[k].parent) relation[k] = kAncestor;
  }
  dB.setZero();
  for (int k = 0; k < n; ++k) {
    int first = k;  // rows j = first and its ancestors
    if (dof >= 0) {
      if (relation[k] == kOther) continue;
      if (relation[k] == kInSubtree) first = links[dof].parent;
    }
    // B(j,k) = z_j . (H + (c - p_j) x L) with (L, H) the unit momentum of
    // subtree k about its center c (just L for a prismatic j).
    const CompositeBody& body = ws.composite[k];
    const Vector3& zk = ws.axis[k];
    const Vector3 zkDot = ws.angularVelocity[k].cross(zk);
    Vector3 L, Ldot, H, Hdot;
    if (links[k].prismatic) {
      L = body.mass * zk;
      Ldot = body.mass * zkDot;
      H.setZero();
      Hdot.setZero();
    } else {
      const Vector3 r = body.com - ws.origin[k];
      const Vector3 rDot = body.comVelocity - ws.originVelocity[k];
      L = body.mass * zk.cross(r);
      Ldot = body.mass * (zkDot.cross(r) + zk.cross(rDot));
      H = body.inertia * zk;
      Hdot = body.inertiaRate * zk + body.inertia * zkDot;
    }
    for (int j = first; j >= 0; j = links[j].parent) {
      const Vector3& zj = ws.axis[j];
      const Vector3 zjDot = ws.angularVelocity[j].cross(zj);
      double d;
      if (links[j].prismatic) {
        d = zjDot.dot(L) + zj.dot(Ldot);
      } else {
        const Vector3 r = body.com - ws.origin[j];
        const Vector3 rDot = body.comVelocity - ws.originVelocity[j];
        d = zjDot.dot(H + r.cross(L)) + zj.dot(Hdot + rDot.cross(L) + r.cross(Ldot));
      }
      dB(j, k) = d;
      dB(k, j) = d;
    }
  }
}

void massMatrixDirectionalDeriv(const Robot& robot, const double* v, DynamicsWorkspace& ws, RowMatrixMap dB) {
  computeBodies(robot, ws);
  computeVelocities(robot, v, ws);
  computeComposites(robot, ws, true);
  massMatrixDerivFromComposites(robot, ws, dB);
}

void massMatrixDeriv(const Robot& robot, int i, DynamicsWorkspace& ws, RowMatrixMap dB) {
  const int n = robot.numLinks();
  computeBodies(robot, ws, false);
  // With v = e_i only the subtree of i moves. The other links' inertias enter
  // only terms multiplied by the zero angular velocity of a joint outside that
  // subtree, so they are left at zero instead of being rotated to the world.
  auto& inSubtree = ws.chain;
  for (int k = 0; k < n; ++k) {
    const int p = robot.links[k].parent;
    inSubtree[k] = k == i || (k > i && p >= 0 && inSubtree[p]);
    if (inSubtree[k])
      ws.inertia[k] = worldInertia(robot.links[k], robot.linkTransforms[k]);
    else
      ws.inertia[k].setZero();
  }
  auto& v = ws.vec2;
  std::fill(v.begin(), v.begin() + n, 0.0);
  v[i] = 1.0;
  computeVelocities(robot, v.data(), ws, i);
  computeComposites(robot, ws, true);
  massMatrixDerivFromComposites(robot, ws, dB, i);
}

}  // namespace klampt
