#include "klampt/model/use_lock.h"

namespace klampt {

bool UseLock::tryAcquire() noexcept {
  if (awaited()) return false;
  bool expected = false;
  if (!held_.compare_exchange_strong(expected, true, std::memory_order_acquire)) return false;
  owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
  return true;
}

void UseLock::release() noexcept {
  owner_.store(std::thread::id(), std::memory_order_relaxed);
  held_.store(false, std::memory_order_seq_cst);
  notifySleepers();
}

void UseLock::announceWait() const noexcept { announced_.fetch_add(1, std::memory_order_seq_cst); }

void UseLock::withdrawWait() const noexcept {
  if (announced_.fetch_sub(1, std::memory_order_seq_cst) == 1) notifySleepers();
}

void UseLock::notifySleepers() const noexcept {
  // A sleeper counts itself before it checks the state (both sequentially
  // consistent): either it sees the change, or this sees it sleeping. The
  // mutex, which a sleeper holds from its check until it sleeps, makes sure
  // the notification does not come in between.
  if (sleepers_.load(std::memory_order_seq_cst) == 0) return;
  { std::lock_guard<std::mutex> lock(mutex_); }
  changed_.notify_all();
}

void UseLock::waitUntilFree() const {
  std::unique_lock<std::mutex> lock(mutex_);
  sleepers_.fetch_add(1, std::memory_order_seq_cst);
  changed_.wait(lock, [this] { return !held_.load(std::memory_order_seq_cst); });
  sleepers_.fetch_sub(1, std::memory_order_relaxed);
}

void UseLock::waitUntilAvailable() const {
  std::unique_lock<std::mutex> lock(mutex_);
  sleepers_.fetch_add(1, std::memory_order_seq_cst);
  changed_.wait(lock, [this] { return !held_.load(std::memory_order_seq_cst) && !awaited(); });
  sleepers_.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace klampt
