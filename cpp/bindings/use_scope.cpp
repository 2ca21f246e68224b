#include "use_scope.h"

#include <algorithm>
#include <pybind11/pybind11.h>

namespace klampt_py {

namespace {

/// Ends an announced wait however the waiting ends.
struct AnnouncedWait {
  explicit AnnouncedWait(const klampt::UseLock& lock) : lock(lock) { lock.announceWait(); }
  ~AnnouncedWait() { lock.withdrawWait(); }
  const klampt::UseLock& lock;
};

}  // namespace

void waitFree(const klampt::UseLock& lock) {
  if (!lock.held() || lock.heldHere()) return;
  // No thread takes the lock until this one has seen it free with the GIL.
  AnnouncedWait announced(lock);
  // Another thread may take the lock between the wake-up and getting the GIL
  // back: check again while holding it.
  while (lock.held() && !lock.heldHere()) {
    pybind11::gil_scoped_release release;
    lock.waitUntilFree();
  }
}

UseScope::UseScope(klampt::UseLock& lock) : single_(&lock), locks_(&single_), count_(lock.heldHere() ? 0 : 1) {
  acquire();
}

UseScope::UseScope(std::vector<klampt::UseLock*> locks) : many_(std::move(locks)) {
  // Locks this thread holds already stay with their holder, which releases
  // them after this (inner) scope ends.
  many_.erase(std::remove_if(many_.begin(), many_.end(), [](klampt::UseLock* l) { return l->heldHere(); }),
              many_.end());
  std::sort(many_.begin(), many_.end());
  many_.erase(std::unique(many_.begin(), many_.end()), many_.end());
  locks_ = many_.data();
  count_ = many_.size();
  acquire();
}

void UseScope::acquire() {
  for (;;) {
    std::size_t k = 0;
    while (k < count_ && locks_[k]->tryAcquire()) ++k;
    if (k == count_) return;
    // Hold none while waiting: no thread then waits for a lock this one holds.
    for (std::size_t j = 0; j < k; ++j) locks_[j]->release();
    if (locks_[k]->held()) {
      waitFree(*locks_[k]);
    } else {
      // Free, but another thread waits for its turn: let it have it.
      pybind11::gil_scoped_release release;
      locks_[k]->waitUntilAvailable();
    }
  }
}

UseScope::~UseScope() {
  for (std::size_t j = 0; j < count_; ++j) locks_[j]->release();
}

}  // namespace klampt_py
