#include "klampt/ik/ik_objective.h"

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace klampt {

namespace {

Matrix3 cross(const Vector3& v) {
  Matrix3 m;
  m << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return m;
}

// Two unit vectors completing the unit vector d to an orthonormal basis.
void orthogonalBasis(const Vector3& d, Vector3& x, Vector3& y) {
  Vector3 ref = std::abs(d.x()) < 0.9 ? Vector3::UnitX() : Vector3::UnitY();
  x = d.cross(ref).normalized();
  y = d.cross(x);
}

Vector3 unit(const Vector3& v, const char* what) {
  const double n = v.norm();
  if (!(n > 0) || !std::isfinite(n)) throw std::invalid_argument(std::string(what) + " must be a nonzero finite vector");
  return v / n;
}

// The smallest rotation taking unit vector a onto unit vector b.
Matrix3 minimalRotation(const Vector3& a, const Vector3& b) {
  return Eigen::Quaterniond::FromTwoVectors(a, b).toRotationMatrix();
}

Matrix3 uniformRotation(std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  Eigen::Quaterniond q(g(rng), g(rng), g(rng), g(rng));
  q.normalize();
  return q.toRotationMatrix();
}

// Shortest decimal text that reads back as the same double.
std::string num(double v) {
  char buf[32];
  for (int prec = 6; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

std::string vec(const Vector3& v) { return num(v.x()) + " " + num(v.y()) + " " + num(v.z()); }

bool readVec(std::istream& in, Vector3& v) { return bool(in >> v.x() >> v.y() >> v.z()); }

}  // namespace

Vector3 rotationLog(const Matrix3& R) {
  Eigen::AngleAxisd aa(R);
  return aa.axis() * aa.angle();
}

Matrix3 leftJacobianInverse(const Vector3& m) {
  const double th = m.norm();
  const Matrix3 K = cross(m);
  // Coefficient of K^2: 1/th^2 - (1 + cos th) / (2 th sin th), -> 1/12 at 0.
  const double c = th < 1e-4 ? 1.0 / 12.0 + th * th / 720.0
                             : 1.0 / (th * th) - (1.0 + std::cos(th)) / (2.0 * th * std::sin(th));
  return Matrix3::Identity() - 0.5 * K + c * K * K;
}

int IKGoal::numPosDims() const {
  switch (posType) {
    case IKPosType::Free: return 0;
    case IKPosType::Planar: return 1;
    case IKPosType::Linear: return 2;
    default: return 3;
  }
}

int IKGoal::numRotDims() const {
  switch (rotType) {
    case IKRotType::Free: return 0;
    case IKRotType::Axis: return 2;
    default: return 3;
  }
}

void IKGoal::setFixedTransform(const RigidTransform& T) {
  posType = IKPosType::Fixed;
  localPosition.setZero();
  endPosition = T.t;
  rotType = IKRotType::Fixed;
  endRotation = T.R;
}

void IKGoal::setPlanar(const Vector3& plocal, const Vector3& normal, double offset) {
  const double n2 = normal.squaredNorm();
  if (!(n2 > 0) || !std::isfinite(n2)) throw std::invalid_argument("plane normal must be a nonzero finite vector");
  posType = IKPosType::Planar;
  localPosition = plocal;
  direction = normal;
  endPosition = normal * (offset / n2);
}

void IKGoal::checkPointLists(const std::vector<Vector3>& local, const std::vector<Vector3>& target) {
  if (local.size() != target.size())
    throw std::invalid_argument("the local and world point lists must have the same length");
  if (local.empty()) throw std::invalid_argument("at least one point is needed");
}

void IKGoal::setFromPoints(const std::vector<Vector3>& local, const std::vector<Vector3>& target) {
  checkPointLists(local, target);
  const size_t n = local.size();
  Vector3 lc = Vector3::Zero(), wc = Vector3::Zero();
  for (size_t i = 0; i < n; ++i) {
    lc += local[i];
    wc += target[i];
  }
  lc /= double(n);
  wc /= double(n);
  posType = IKPosType::Fixed;
  localPosition = lc;
  endPosition = wc;
  rotType = IKRotType::Free;
  // Spread of the local points decides how much rotation they pin down.
  Matrix3 H = Matrix3::Zero(), C = Matrix3::Zero();
  for (size_t i = 0; i < n; ++i) {
    H += (local[i] - lc) * (target[i] - wc).transpose();
    C += (local[i] - lc) * (local[i] - lc).transpose();
  }
  Eigen::SelfAdjointEigenSolver<Matrix3> eig(C);
  const Vector3 ev = eig.eigenvalues();  // ascending
  const double tol = 1e-12 * std::max(1.0, ev[2]);
  if (ev[2] <= tol) return;  // all points coincide: position only
  if (ev[1] <= tol) {        // collinear: the line's direction is fixed
    const Vector3 la = eig.eigenvectors().col(2);
    Vector3 wa = Vector3::Zero();
    for (size_t i = 0; i < n; ++i) wa += (target[i] - wc) * la.dot(local[i] - lc);
    if (wa.norm() <= 1e-12) return;
    rotType = IKRotType::Axis;
    localAxis = la;
    endAxis = wa.normalized();
    return;
  }
  // Kabsch: R minimizing sum |R (l - lc) - (w - wc)|^2.
  Eigen::JacobiSVD<Matrix3> svd(H, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Matrix3 D = Matrix3::Identity();
  if ((svd.matrixV() * svd.matrixU().transpose()).determinant() < 0) D(2, 2) = -1;
  rotType = IKRotType::Fixed;
  endRotation = svd.matrixV() * D * svd.matrixU().transpose();
}

void IKGoal::transform(const RigidTransform& T) {
  endPosition = T.apply(endPosition);
  direction = T.R * direction;
  endRotation = T.R * endRotation;
  endAxis = T.R * endAxis;
}

void IKGoal::transformLocal(const RigidTransform& T) {
  localPosition = T.apply(localPosition);
  localAxis = T.R * localAxis;
  // The constrained frame becomes link * T: its rotation R T.R must equal the
  // old target, so the link's own target rotation is Rend T.R^T.
  endRotation = endRotation * T.R.transpose();
}

void IKGoal::matchDestination(const RigidTransform& Trel) {
  endPosition = Trel.apply(localPosition);
  endRotation = Trel.R;
  endAxis = Trel.R * localAxis;
}

RigidTransform IKGoal::closestMatch(const RigidTransform& T0) const {
  RigidTransform T;
  if (rotType == IKRotType::Fixed)
    T.R = endRotation;
  else if (rotType == IKRotType::Axis)
    T.R = minimalRotation(unit(T0.R * localAxis, "local axis"), unit(endAxis, "world axis")) * T0.R;
  else
    T.R = T0.R;
  const Vector3 p0 = T0.apply(localPosition);
  Vector3 p = p0;
  if (posType == IKPosType::Fixed) {
    p = endPosition;
  } else if (posType == IKPosType::Planar) {
    const Vector3 n = unit(direction, "plane normal");
    p = p0 - n * n.dot(p0 - endPosition);
  } else if (posType == IKPosType::Linear) {
    const Vector3 d = unit(direction, "line direction");
    p = endPosition + d * d.dot(p0 - endPosition);
  }
  T.t = p - T.R * localPosition;
  return T;
}

RigidTransform IKGoal::sampleTransform(std::mt19937_64& rng) const {
  std::normal_distribution<double> g;
  std::uniform_real_distribution<double> angle(-M_PI, M_PI);
  RigidTransform T;
  if (rotType == IKRotType::Fixed) {
    T.R = endRotation;
  } else if (rotType == IKRotType::Axis) {
    const Vector3 a = unit(endAxis, "world axis");
    T.R = axisAngleRotation(a, angle(rng)) * minimalRotation(unit(localAxis, "local axis"), a);
  } else {
    T.R = uniformRotation(rng);
  }
  Vector3 p;
  if (posType == IKPosType::Fixed) {
    p = endPosition;
  } else if (posType == IKPosType::Planar) {
    Vector3 x, y;
    orthogonalBasis(unit(direction, "plane normal"), x, y);
    p = endPosition + g(rng) * x + g(rng) * y;
  } else if (posType == IKPosType::Linear) {
    p = endPosition + g(rng) * unit(direction, "line direction");
  } else {
    p = Vector3(g(rng), g(rng), g(rng));
  }
  T.t = p - T.R * localPosition;
  return T;
}

std::string IKGoal::save() const {
  std::string s = std::to_string(link) + " " + std::to_string(destLink) + "\n";
  switch (posType) {
    case IKPosType::Free: s += "N\n"; break;
    case IKPosType::Planar: s += "P " + vec(localPosition) + "   " + vec(endPosition) + "   " + vec(direction) + "\n"; break;
    case IKPosType::Linear: s += "L " + vec(localPosition) + "   " + vec(endPosition) + "   " + vec(direction) + "\n"; break;
    case IKPosType::Fixed: s += "F " + vec(localPosition) + "   " + vec(endPosition) + "\n"; break;
  }
  switch (rotType) {
    case IKRotType::Free: s += "N\n"; break;
    case IKRotType::Axis: s += "A " + vec(localAxis) + "   " + vec(endAxis) + "\n"; break;
    case IKRotType::Fixed: s += "F " + vec(rotationLog(endRotation)) + "\n"; break;
  }
  return s;
}

bool IKGoal::load(const std::string& text) {
  std::istringstream in(text);
  IKGoal g = *this;
  char pt, rt;
  if (!(in >> g.link >> g.destLink >> pt)) return false;
  if (pt == 'N') {
    g.posType = IKPosType::Free;
  } else if (pt == 'P' || pt == 'L') {
    g.posType = pt == 'P' ? IKPosType::Planar : IKPosType::Linear;
    if (!readVec(in, g.localPosition) || !readVec(in, g.endPosition) || !readVec(in, g.direction)) return false;
  } else if (pt == 'F') {
    g.posType = IKPosType::Fixed;
    if (!readVec(in, g.localPosition) || !readVec(in, g.endPosition)) return false;
  } else {
    return false;
  }
  if (!(in >> rt)) return false;
  Vector3 m;
  if (rt == 'N') {
    g.rotType = IKRotType::Free;
  } else if (rt == 'A') {
    g.rotType = IKRotType::Axis;
    if (!readVec(in, g.localAxis) || !readVec(in, g.endAxis)) return false;
  } else if (rt == 'F') {
    g.rotType = IKRotType::Fixed;
    if (!readVec(in, m)) return false;
    g.endRotation = momentRotation(m);
  } else {
    return false;
  }
  if (g.link < 0 || g.destLink < -1 || g.link == g.destLink) return false;
  *this = g;
  return true;
}

void IKGoal::residual(const RigidTransform& Trel, double* out) const {
  int k = 0;
  const Vector3 e = Trel.apply(localPosition) - endPosition;
  if (posType == IKPosType::Fixed) {
    for (int i = 0; i < 3; ++i) out[k++] = positionScale * e[i];
  } else if (posType == IKPosType::Linear) {
    Vector3 x, y;
    orthogonalBasis(direction.normalized(), x, y);
    out[k++] = positionScale * x.dot(e);
    out[k++] = positionScale * y.dot(e);
  } else if (posType == IKPosType::Planar) {
    out[k++] = positionScale * direction.dot(e);
  }
  if (rotType == IKRotType::Fixed) {
    const Vector3 m = rotationLog(Trel.R * endRotation.transpose());
    for (int i = 0; i < 3; ++i) out[k++] = rotationScale * m[i];
  } else if (rotType == IKRotType::Axis) {
    // The rotation vector turning the target axis onto the current one,
    // (angle / sin) (a x c): zero only when aligned, unlike a x c itself.
    const Vector3 a = endAxis.normalized(), c = Trel.R * localAxis.normalized();
    const Vector3 s = a.cross(c);
    const double sn = s.norm(), th = std::atan2(sn, a.dot(c));
    Vector3 x, y;
    orthogonalBasis(a, x, y);
    if (sn < 1e-12 && a.dot(c) < 0) {  // opposite: any turn axis, angle pi
      out[k++] = rotationScale * M_PI;
      out[k++] = 0.0;
      return;
    }
    const double f = sn < 1e-12 ? 1.0 : th / sn;
    out[k++] = rotationScale * f * x.dot(s);
    out[k++] = rotationScale * f * y.dot(s);
  }
}

void IKGoal::linearize(const RigidTransform& Trel, Eigen::Matrix<double, 6, 3>& P,
                       Eigen::Matrix<double, 6, 3>& Q) const {
  int k = 0;
  const int np = numPosDims();
  P.topRows(numDims()).setZero();
  Q.topRows(numDims()).setZero();
  if (posType == IKPosType::Fixed) {
    P.topRows<3>() = positionScale * Matrix3::Identity();
  } else if (posType == IKPosType::Linear) {
    Vector3 x, y;
    orthogonalBasis(direction.normalized(), x, y);
    P.row(0) = positionScale * x.transpose();
    P.row(1) = positionScale * y.transpose();
  } else if (posType == IKPosType::Planar) {
    P.row(0) = positionScale * direction.transpose();
  }
  k = np;
  if (rotType == IKRotType::Fixed) {
    const Vector3 m = rotationLog(Trel.R * endRotation.transpose());
    Q.block<3, 3>(k, 0) = rotationScale * leftJacobianInverse(m);
  } else if (rotType == IKRotType::Axis) {
    const Vector3 a = endAxis.normalized(), c = Trel.R * localAxis.normalized();
    const Vector3 s = a.cross(c);
    const double sn = s.norm(), cs = a.dot(c), th = std::atan2(sn, cs);
    const double f = sn < 1e-12 ? 1.0 : th / sn;
    // g = f'(th) / sin(th) = (sin - th cos) / sin^3, -> 1/3 at 0.
    const double g = th < 1e-3 ? 1.0 / 3.0 + 2.0 * th * th / 15.0 : (sn - th * cs) / (sn * sn * sn);
    // dc = -[c]x w; ds = [a]x dc; d(th) = -(a . dc) / sin.
    const Matrix3 Cx = cross(c);
    const Matrix3 M = -f * cross(a) * Cx + g * s * (a.transpose() * Cx);
    Vector3 x, y;
    orthogonalBasis(a, x, y);
    Q.row(k) = rotationScale * (x.transpose() * M);
    Q.row(k + 1) = rotationScale * (y.transpose() * M);
  }
}

}  // namespace klampt
