#include "klampt/model/use_lock.h"

namespace klampt {

bool UseLock::tryAcquire() noexcept {
  bool expected = false;
  if (!held_.compare_exchange_strong(expected, true, std::memory_order_acquire)) return false;
  owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
  return true;
}

void UseLock::release() noexcept {
  owner_.store(std::thread::id(), std::memory_order_relaxed);
  held_.store(false, std::memory_order_seq_cst);
  // A waiter counts itself before it checks held_ (both sequentially
  // consistent): either it sees the lock free, or this sees it waiting. The
  // mutex, which a waiter holds from its check until it sleeps, makes sure
  // the notification does not come in between.
  if (waiters_.load(std::memory_order_seq_cst) == 0) return;
  { std::lock_guard<std::mutex> lock(mutex_); }
  freed_.notify_all();
}

void UseLock::waitUntilFree() const {
  std::unique_lock<std::mutex> lock(mutex_);
  waiters_.fetch_add(1, std::memory_order_seq_cst);
  freed_.wait(lock, [this] { return !held_.load(std::memory_order_seq_cst); });
  waiters_.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace klampt
