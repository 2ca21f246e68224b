// Small fixed-size math types of the core: 3-vectors, 3x3 matrices and rigid
// transforms on Eigen, with the conversions to Klamp't's flat conventions.
#pragma once
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <array>

namespace klampt {

using Vector3 = Eigen::Vector3d;
using Matrix3 = Eigen::Matrix3d;
using VectorX = Eigen::VectorXd;
using MatrixX = Eigen::MatrixXd;

/// A rigid transform x -> R x + t.
struct RigidTransform {
  Matrix3 R = Matrix3::Identity();
  Vector3 t = Vector3::Zero();

  static RigidTransform identity() { return {}; }
  Vector3 apply(const Vector3& p) const { return R * p + t; }
  RigidTransform operator*(const RigidTransform& b) const { return {R * b.R, R * b.t + t}; }
  RigidTransform inverse() const { return {R.transpose(), -(R.transpose() * t)}; }
};

/// Rotation by `angle` about the unit vector `axis`.
inline Matrix3 axisAngleRotation(const Vector3& axis, double angle) {
  return Eigen::AngleAxisd(angle, axis).toRotationMatrix();
}

/// The rotation exp([m]x) for a rotation vector (moment) m: by |m| about m/|m|.
/// Joint axes are used as given, so a slightly non-unit axis scales the angle
/// exactly as the reference does.
inline Matrix3 momentRotation(const Vector3& m) {
  const double angle = m.norm();
  if (angle == 0.0) return Matrix3::Identity();
  return Eigen::AngleAxisd(angle, m / angle).toRotationMatrix();
}

/// Klamp't's so3 convention: 9 floats, column-major.
inline Matrix3 rotationFromColumnMajor(const double* m) {
  Matrix3 R;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) R(r, c) = m[c * 3 + r];
  return R;
}
inline std::array<double, 9> rotationToColumnMajor(const Matrix3& R) {
  std::array<double, 9> m;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) m[c * 3 + r] = R(r, c);
  return m;
}

}  // namespace klampt
