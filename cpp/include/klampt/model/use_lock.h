// Exclusive use of a robot or a world by a long operation (a simulation step,
// an IK solve, a sensor reading) that runs while other threads go on. Other
// threads check the lock before they touch the element and wait while it is
// held; the Python bindings take and check it only while holding the GIL, so
// that a check and the access after it cannot be separated by an acquisition.
// The thread that holds the lock is not kept out: callbacks of its own long
// operation (an IK objective written in Python) may use the element.
//
// Waiting is fair: a thread that waits for the lock announces itself, and
// until it has seen the lock free no thread takes it. Without that, a thread
// that loops over long calls takes the lock back before a waiter that was
// woken gets the GIL, and the waiter never runs.
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

  /// Takes the lock for the calling thread if it is free and no thread has
  /// announced a wait for it; returns whether it did.
  bool tryAcquire() noexcept;
  void release() noexcept;
  bool held() const noexcept { return held_.load(std::memory_order_acquire); }
  /// Whether the calling thread holds the lock.
  bool heldHere() const noexcept {
    return held() && owner_.load(std::memory_order_relaxed) == std::this_thread::get_id();
  }
  /// Whether a thread has announced a wait and not yet withdrawn it.
  bool awaited() const noexcept { return announced_.load(std::memory_order_seq_cst) > 0; }

  /// Marks the calling thread as waiting for the lock to be free: tryAcquire
  /// fails for every thread until the matching withdrawWait().
  void announceWait() const noexcept;
  /// Ends an announced wait (the caller has seen the lock free, or gives up).
  void withdrawWait() const noexcept;

  /// Blocks until the lock is free (it may be taken again right after).
  void waitUntilFree() const;
  /// Blocks until the lock is free and no wait is announced, so that
  /// tryAcquire may succeed.
  void waitUntilAvailable() const;

 private:
  /// Wakes the sleepers of the wait functions, if there are any.
  void notifySleepers() const noexcept;

  std::atomic<bool> held_{false};
  std::atomic<std::thread::id> owner_{};
  /// Threads between announceWait and withdrawWait.
  mutable std::atomic<int> announced_{0};
  /// Threads inside a wait function: without them, state changes skip the notification.
  mutable std::atomic<int> sleepers_{0};
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
};

}  // namespace klampt
