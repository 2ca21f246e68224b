// What a contacts query between two triangle meshes remembers for the next
// query of the same pair, so that a simulator asking again at nearly the
// same poses measures a few triangle pairs instead of selecting contacts
// anew among all the pairs in the padding.
#pragma once
#include <memory>
#include <utility>
#include <vector>
#include "klampt/math/types.h"

namespace klampt {

/// One per pair of geometries, owned by the caller (the simulator keeps one
/// per body pair) and passed to every contacts query of that pair. While
/// the two meshes have moved relative to each other by less than a
/// twentieth of the padding since the last answer was selected, the next
/// answer is the same triangle pairs measured again at the current poses:
/// its depths then differ from those of a new selection by at most that
/// motion. Other geometry types are not remembered.
struct ContactCache {
  /// The meshes of the selection, held so that their identity stays exact.
  std::shared_ptr<const void> a, b;
  /// The pose of b in a's frame when the selection was made.
  Matrix3 R = Matrix3::Identity();
  Vector3 T = Vector3::Zero();
  /// The largest distance of a vertex from its mesh's origin: a rotation
  /// by angle w moves no vertex farther than w times it.
  double reachA = 0, reachB = 0;
  /// What the selection was asked with.
  double padding = -1, normalScale = 0;
  int maxContacts = -1;
  /// The (triangle of a, triangle of b) pairs of the selected contacts.
  std::vector<std::pair<int, int>> pairs;
};

}  // namespace klampt
