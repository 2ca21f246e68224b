#include "klampt/model/config_space.h"

#include <cmath>

namespace klampt {

namespace {

double angleDiff(double b, double a) {
  double d = std::fmod(b - a, 2 * M_PI);
  if (d > M_PI) d -= 2 * M_PI;
  if (d < -M_PI) d += 2 * M_PI;
  return d;
}

double normalizeAngle(double a) {
  double r = std::fmod(a, 2 * M_PI);
  if (r < 0) r += 2 * M_PI;
  return r;
}

// The DOFs of a multi-link joint in chain order (base side first).
std::vector<int> jointChain(const Robot& robot, const Joint& j) {
  std::vector<int> chain;
  for (int k = j.linkIndex; k >= 0 && k != j.baseIndex; k = robot.links[k].parent) chain.insert(chain.begin(), k);
  return chain;
}

// The revolute DOFs of a chain, which form its rotation.
std::vector<int> revoluteDofs(const Robot& robot, const std::vector<int>& chain) {
  std::vector<int> r;
  for (int k : chain)
    if (!robot.links[k].prismatic) r.push_back(k);
  return r;
}

// The rotation that a chain of revolute DOFs produces (relative to its base).
Matrix3 chainRotation(const Robot& robot, const std::vector<int>& rot, const VectorX& q) {
  Matrix3 R = Matrix3::Identity();
  for (int k : rot) R = R * robot.links[k].parentTransform.R * momentRotation(robot.links[k].axis * q[k]);
  return R;
}

// True if the rotation DOFs are the z, y, x Euler chain that Klamp't builds for
// floating bases, in which case angles can be recovered from a rotation.
bool isZYXChain(const Robot& robot, const std::vector<int>& rot) {
  if (rot.size() != 3) return false;
  const Vector3 axes[3] = {Vector3::UnitZ(), Vector3::UnitY(), Vector3::UnitX()};
  for (int i = 0; i < 3; ++i) {
    const Link& l = robot.links[rot[i]];
    if (!l.parentTransform.R.isIdentity(1e-12) || !l.axis.isApprox(axes[i], 1e-12)) return false;
  }
  return true;
}

// Writes (yaw, pitch, roll) of R = Rz(yaw) Ry(pitch) Rx(roll) into q, choosing
// angles nearest to `near` modulo 2 pi.
void setZYXAngles(const Matrix3& R, const std::vector<int>& rot, const VectorX& near, VectorX& q) {
  double pitch = std::atan2(-R(2, 0), std::sqrt(R(0, 0) * R(0, 0) + R(1, 0) * R(1, 0)));
  double yaw, roll;
  if (std::abs(std::cos(pitch)) > 1e-9) {
    yaw = std::atan2(R(1, 0), R(0, 0));
    roll = std::atan2(R(2, 1), R(2, 2));
  } else {  // gimbal lock: keep the previous yaw
    yaw = near[rot[0]];
    roll = std::atan2(-R(1, 2), R(1, 1)) * (pitch > 0 ? 1 : -1) + (pitch > 0 ? yaw : -yaw);
  }
  const double angles[3] = {yaw, pitch, roll};
  for (int i = 0; i < 3; ++i) q[rot[i]] = near[rot[i]] + angleDiff(angles[i], near[rot[i]]);
}

Vector3 logRotation(const Matrix3& R) {
  Eigen::AngleAxisd aa(R);
  return aa.axis() * aa.angle();
}

bool isMultiDofRotation(JointType t) {
  return t == JointType::Floating || t == JointType::BallAndSocket || t == JointType::FloatingPlanar;
}

}  // namespace

void interpolateConfig(const Robot& robot, const VectorX& a, const VectorX& b, double u, VectorX& out) {
  out = a + u * (b - a);
  for (const Joint& j : robot.joints) {
    if (j.type == JointType::Spin) {
      out[j.linkIndex] = normalizeAngle(a[j.linkIndex] + u * angleDiff(b[j.linkIndex], a[j.linkIndex]));
    } else if (isMultiDofRotation(j.type)) {
      std::vector<int> rot = revoluteDofs(robot, jointChain(robot, j));
      if (rot.size() == 1) {
        out[rot[0]] = a[rot[0]] + u * angleDiff(b[rot[0]], a[rot[0]]);
      } else if (isZYXChain(robot, rot)) {
        Matrix3 Ra = chainRotation(robot, rot, a), Rb = chainRotation(robot, rot, b);
        Matrix3 Ru = Ra * momentRotation(u * logRotation(Ra.transpose() * Rb));
        // Like the reference, report yaw and roll in [0, 2pi), pitch in [-pi/2, pi/2].
        setZYXAngles(Ru, rot, VectorX::Zero(a.size()), out);
        out[rot[0]] = normalizeAngle(out[rot[0]]);
        out[rot[2]] = normalizeAngle(out[rot[2]]);
      }
    }
  }
}

double configDistance(const Robot& robot, const VectorX& a, const VectorX& b) {
  double d2 = 0;
  std::vector<char> done(robot.numLinks(), 0);
  for (const Joint& j : robot.joints) {
    if (j.type == JointType::Weld) {
      done[j.linkIndex] = 1;
    } else if (j.type == JointType::Spin) {
      double d = angleDiff(b[j.linkIndex], a[j.linkIndex]);
      d2 += d * d;
      done[j.linkIndex] = 1;
    } else if (isMultiDofRotation(j.type)) {
      std::vector<int> chain = jointChain(robot, j);
      std::vector<int> rot = revoluteDofs(robot, chain);
      for (int k : chain) {
        done[k] = 1;
        if (robot.links[k].prismatic) d2 += (b[k] - a[k]) * (b[k] - a[k]);
      }
      double angle;
      if (rot.size() == 1)
        angle = angleDiff(b[rot[0]], a[rot[0]]);
      else
        angle = logRotation(chainRotation(robot, rot, a).transpose() * chainRotation(robot, rot, b)).norm();
      d2 += angle * angle;
    }
  }
  for (int i = 0; i < robot.numLinks(); ++i)
    if (!done[i]) d2 += (b[i] - a[i]) * (b[i] - a[i]);
  return std::sqrt(d2);
}

void interpolateDerivative(const Robot& robot, const VectorX& a, const VectorX& b, VectorX& out) {
  out = b - a;
  for (const Joint& j : robot.joints) {
    if (j.type == JointType::Spin) {
      out[j.linkIndex] = angleDiff(b[j.linkIndex], a[j.linkIndex]);
    } else if (isMultiDofRotation(j.type)) {
      std::vector<int> rot = revoluteDofs(robot, jointChain(robot, j));
      if (rot.size() == 1) {
        out[rot[0]] = angleDiff(b[rot[0]], a[rot[0]]);
      } else if (rot.size() == 3) {
        // Angular velocity of the geodesic, expressed through the chain's axes.
        Matrix3 Ra = chainRotation(robot, rot, a), Rb = chainRotation(robot, rot, b);
        Vector3 w = Ra * logRotation(Ra.transpose() * Rb);
        Matrix3 A;
        Matrix3 R = Matrix3::Identity();
        for (int i = 0; i < 3; ++i) {
          const Link& l = robot.links[rot[i]];
          R = R * l.parentTransform.R;
          A.col(i) = R * l.axis;
          R = R * momentRotation(l.axis * a[rot[i]]);
        }
        Vector3 rates = A.colPivHouseholderQr().solve(w);
        for (int i = 0; i < 3; ++i) out[rot[i]] = rates[i];
      }
    }
  }
}

namespace {
std::mutex& randomMutex() {
  static std::mutex m;
  return m;
}
}  // namespace

SharedRandom::SharedRandom() : lock_(randomMutex()) {
  static std::mt19937_64 rng(0);
  rng_ = &rng;
}

void sampleConfig(const Robot& robot, double unboundedScale, std::mt19937_64& rng, VectorX& out) {
  const int n = robot.numLinks();
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  out.resize(n);
  for (int i = 0; i < n; ++i) {
    double lo = robot.qMin[i], hi = robot.qMax[i];
    if (std::isfinite(lo) && std::isfinite(hi)) {
      out[i] = lo + (hi - lo) * unit(rng);
    } else {
      // Laplacian around the finite bound (or 0), folded into the half-line.
      std::exponential_distribution<double> expo(1.0);
      double s = expo(rng) * unboundedScale;
      if (std::isfinite(lo)) out[i] = lo + s;
      else if (std::isfinite(hi)) out[i] = hi - s;
      else out[i] = unit(rng) < 0.5 ? -s : s;
    }
  }
  for (const Joint& j : robot.joints) {
    if (j.type == JointType::Spin) {
      out[j.linkIndex] = 2 * M_PI * unit(rng);
    } else if (isMultiDofRotation(j.type)) {
      std::vector<int> rot = revoluteDofs(robot, jointChain(robot, j));
      if (isZYXChain(robot, rot)) {
        // Uniform rotation from a uniform unit quaternion.
        std::normal_distribution<double> gauss;
        Eigen::Quaterniond quat(gauss(rng), gauss(rng), gauss(rng), gauss(rng));
        quat.normalize();
        VectorX zero = VectorX::Zero(n);
        setZYXAngles(quat.toRotationMatrix(), rot, zero, out);
      } else {
        for (int k : rot) out[k] = 2 * M_PI * unit(rng) - M_PI;
      }
    }
  }
  for (int d = 0; d < (int)robot.drivers.size(); ++d)
    if (robot.drivers[d].type == DriverType::Affine) robot.setDriverValue(d, robot.driverValue(d, out), out);
}

}  // namespace klampt
