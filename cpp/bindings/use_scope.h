// The use locks (klampt/model/use_lock.h) around the GIL: a call waits, with
// the GIL released, for long calls of other threads to finish with what it
// touches; a long call takes the locks of what it uses before it releases the
// GIL. Both check and take the locks only while holding the GIL, so nothing
// can take a lock between a call's check and its access.
#pragma once
#include <cstddef>
#include <vector>
#include "klampt/model/use_lock.h"

namespace klampt_py {

/// Returns once `lock` is free or held by the calling thread (called with the
/// GIL, which it releases while it waits). The caller then touches the element
/// without releasing the GIL.
void waitFree(const klampt::UseLock& lock);
inline void awaitFree(const klampt::UseLock& lock) {
  if (lock.held()) waitFree(lock);
}

/// Holds the locks of everything a long call reads or writes, from its
/// construction (with the GIL) to its destruction. It takes all of them or
/// none, waiting without the GIL while any is held, so two calls that need
/// overlapping sets cannot deadlock. Locks the calling thread holds already
/// (a long call made from a callback of another) are left to their holder.
/// Release the GIL after constructing it.
class UseScope {
 public:
  explicit UseScope(klampt::UseLock& lock);
  /// Duplicates are allowed.
  explicit UseScope(std::vector<klampt::UseLock*> locks);
  ~UseScope();
  UseScope(const UseScope&) = delete;
  UseScope& operator=(const UseScope&) = delete;

 private:
  void acquire();
  klampt::UseLock* single_ = nullptr;
  std::vector<klampt::UseLock*> many_;
  klampt::UseLock* const* locks_;
  std::size_t count_;
};

}  // namespace klampt_py
