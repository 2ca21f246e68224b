// Scratch memory of the dynamics algorithms, kept apart from the robot model.
// It only grows: once sized for the largest robot used, repeated calls do not
// allocate.
#pragma once
#include <vector>
#include "klampt/math/types.h"
#include "klampt/model/kinematics.h"

namespace klampt {

/// A subtree of links lumped into one rigid body: its mass, center of mass and
/// rotational inertia about that center (world coordinates), and, when
/// requested, their rates of change.
struct CompositeBody {
  double mass = 0;
  Vector3 com = Vector3::Zero();
  Matrix3 inertia = Matrix3::Zero();
  Vector3 comVelocity = Vector3::Zero();
  Matrix3 inertiaRate = Matrix3::Zero();
};

struct DynamicsWorkspace {
  // Each link in world coordinates (see body_state.h).
  std::vector<Vector3> axis;        // joint axis z_i = R_i * Link::axis
  std::vector<Vector3> origin;      // frame origin p_i (on the axis of a revolute joint)
  std::vector<Vector3> com;         // center of mass c_i
  std::vector<Matrix3> inertia;     // inertia about c_i, R_i I_i R_i^T
  // Velocities for a given joint velocity vector (see body_state.h).
  std::vector<Vector3> angularVelocity;
  std::vector<Vector3> originVelocity;
  std::vector<Vector3> comVelocity;
  std::vector<CompositeBody> composite;
  // Per-link accumulators of the recursive passes (forces, moments, accelerations).
  std::vector<Vector3> vecA, vecB, vecC, vecD;
  // Link indices: a chain of ancestors, or per-link marks.
  std::vector<int> chain;
  // n x n and length-n scratch.
  std::vector<double> matA, matB;
  std::vector<double> vec1, vec2;

  /// Makes room for a robot of n links (no allocation if it already fits).
  void reserve(int n);
  RowMatrixMap matrixA(int n) { return RowMatrixMap(matA.data(), n, n); }
  RowMatrixMap matrixB(int n) { return RowMatrixMap(matB.data(), n, n); }
};

}  // namespace klampt
