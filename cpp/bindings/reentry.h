// Re-entrancy guards for objects whose methods call back into Python: a
// callback that calls back into the object running it would wait for itself
// (a planner's lock) or change what the running call iterates over, so such a
// call raises RuntimeError at once, naming both calls.
#pragma once

namespace klampt_py {

/// Marks `object` as running `call` in the calling thread (a call that may
/// run Python callbacks) for the guard's lifetime. `kind` tells apart
/// independent activities of one object (e.g. a space's feasibility and
/// visibility queries); calls of the same object and kind may not nest.
class Reentry {
 public:
  /// RuntimeError if `object` is running a call of `kind` in this thread.
  Reentry(const void* object, const char* kind, const char* call);
  ~Reentry();
  Reentry(const Reentry&) = delete;
  Reentry& operator=(const Reentry&) = delete;

  /// RuntimeError if `object` is running a call of `kind` in this thread,
  /// without marking it.
  static void check(const void* object, const char* kind, const char* call);
};

}  // namespace klampt_py
