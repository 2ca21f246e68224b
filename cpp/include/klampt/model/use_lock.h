// Exclusive use of a robot or a world by a long operation (a simulation step,
// an IK solve, a sensor reading) that runs while other threads go on. Other
// threads check the lock before they touch the element and wait while it is
// held; the Python bindings take and check it only while holding the GIL, so
// that a check and the access after it cannot be separated by an acquisition.
// The thread that holds the lock is not kept out: callbacks of its own long
// operation (an IK objective written in Python) may use the element.
#pragma once
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace klampt {

class UseLock {
 public:
  UseLock() = default;
  /// A copied element is another element, not in use.
  UseLock(const UseLock&) {}
  UseLock& operator=(const UseLock&) { return *this; }

  /// Takes the lock for the calling thread if it is free; returns whether it did.
  bool tryAcquire() noexcept;
  void release() noexcept;
  bool held() const noexcept { return held_.load(std::memory_order_acquire); }
  /// Whether the calling thread holds the lock.
  bool heldHere() const noexcept {
    return held() && owner_.load(std::memory_order_relaxed) == std::this_thread::get_id();
  }
  /// Blocks until the lock is free (it may be taken again right after).
  void waitUntilFree() const;

 private:
  std::atomic<bool> held_{false};
  std::atomic<std::thread::id> owner_{};
  /// Threads in waitUntilFree: release() skips the notification without them.
  mutable std::atomic<int> waiters_{0};
  mutable std::mutex mutex_;
  mutable std::condition_variable freed_;
};

}  // namespace klampt
