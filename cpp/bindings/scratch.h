// Reusable per-thread buffers for the bindings' hot paths, handed out one per
// active call. Converting an argument can run Python code (__float__,
// __index__, a garbage-collector finalizer) that calls back into the library;
// the inner call then gets a buffer of its own instead of overwriting the one
// the interrupted call is filling.
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

namespace klampt_py {

/// A buffer of type T leased for the lifetime of this object. Leases nest
/// (they are scoped objects, released in reverse order), so slot k of the
/// calling thread's pool serves the k-th call in progress; a slot keeps its
/// capacity, so steady-state calls do not allocate.
template <class T>
class Scratch {
 public:
  Scratch() : pool_(pool()) {
    if (pool_.used == pool_.slots.size()) pool_.slots.push_back(std::make_unique<T>());
    item_ = pool_.slots[pool_.used++].get();
  }
  ~Scratch() { --pool_.used; }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  T& operator*() const { return *item_; }
  T* operator->() const { return item_; }

 private:
  struct Pool {
    std::vector<std::unique_ptr<T>> slots;  // unique_ptr: slots stay put when the pool grows
    std::size_t used = 0;
  };
  static Pool& pool() {
    static thread_local Pool p;
    return p;
  }
  Pool& pool_;
  T* item_;
};

}  // namespace klampt_py
