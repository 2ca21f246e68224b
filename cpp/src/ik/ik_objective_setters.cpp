// The IKGoal setters that make a whole constraint between two links, and the
// position and rotation constraints that need a nonzero direction.
#include <stdexcept>
#include <string>

#include "klampt/ik/ik_objective.h"

namespace klampt {

void IKGoal::setLinks(int l, int dest) {
  if (l < 0) throw std::out_of_range("link must be a non-negative link index");
  if (dest < -1) throw std::out_of_range("link2 must be a link index or -1 (world)");
  if (dest == l) throw std::invalid_argument("link and link2 must differ");
  link = l;
  destLink = dest;
}

void IKGoal::setFixedPoint(int l, int dest, const Vector3& local, const Vector3& target) {
  setLinks(l, dest);
  posType = IKPosType::Fixed;
  localPosition = local;
  endPosition = target;
  rotType = IKRotType::Free;
}

void IKGoal::setFixedPoints(int l, int dest, const std::vector<Vector3>& local, const std::vector<Vector3>& target) {
  checkPointLists(local, target);
  setLinks(l, dest);
  setFromPoints(local, target);
}

void IKGoal::setFixedTransform(int l, int dest, const RigidTransform& T) {
  setLinks(l, dest);
  setFixedTransform(T);
}

void IKGoal::setLinear(const Vector3& local, const Vector3& point, const Vector3& dir) {
  if (!(dir.norm() > 0)) throw std::invalid_argument("dworld must be nonzero");
  posType = IKPosType::Linear;
  localPosition = local;
  endPosition = point;
  direction = dir;
}

void IKGoal::setAxial(const Vector3& local, const Vector3& target) {
  if (!(local.norm() > 0) || !(target.norm() > 0)) throw std::invalid_argument("rotation axes must be nonzero");
  rotType = IKRotType::Axis;
  localAxis = local;
  endAxis = target;
}

}  // namespace klampt
