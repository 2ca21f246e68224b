// Internal to the queries: a few values per thread, each kept for a pair of
// Coal shapes (what a query learnt about the pair last time). A pair is
// recognised by its shapes' owners: a weak reference keeps an owner's control
// block, so a shape freed and another built at the same address is a
// different owner.
#pragma once
#include <array>
#include <memory>
#include "leaf.h"

namespace klampt {
namespace detail {

/// N values of type T kept for pairs of shapes, the oldest replaced first;
/// a query loop revisits the same few pairs. Meant as a thread_local.
template <class T, size_t N = 8>
class PairMemory {
 public:
  /// The value kept for the shapes of a and b (in that order), or null.
  T* find(const Leaf& a, const Leaf& b) {
    for (Entry& e : kept)
      if (sameOwner(e.a, a.cache->shape) && sameOwner(e.b, b.cache->shape)) return &e.value;
    return nullptr;
  }

  /// Keeps `value` for the shapes of a and b, in place of the pair's old one
  /// or else of the oldest.
  void keep(const Leaf& a, const Leaf& b, T value) {
    if (T* old = find(a, b)) {
      *old = std::move(value);
      return;
    }
    kept[next] = Entry{a.cache->shape, b.cache->shape, std::move(value)};
    next = (next + 1) % N;
  }

 private:
  struct Entry {
    std::weak_ptr<const coal::CollisionGeometry> a, b;
    T value;
  };

  static bool sameOwner(const std::weak_ptr<const coal::CollisionGeometry>& w,
                        const std::shared_ptr<coal::CollisionGeometry>& s) {
    return !w.owner_before(s) && !s.owner_before(w);
  }

  std::array<Entry, N> kept;
  size_t next = 0;
};

}  // namespace detail
}  // namespace klampt
