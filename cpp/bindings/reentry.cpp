#include "reentry.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace klampt_py {

namespace {

struct Running {
  const void* object;
  const char* kind;
  const char* call;
};

/// The guarded calls the calling thread is inside, innermost last.
thread_local std::vector<Running> running;

}  // namespace

void Reentry::check(const void* object, const char* kind, const char* call) {
  for (const Running& r : running) {
    if (r.object == object && std::string(r.kind) == kind)
      throw std::runtime_error(std::string(call) + " was called from inside a callback of " + r.call +
                               " on the same object: a callback cannot re-enter the call that runs it");
  }
}

Reentry::Reentry(const void* object, const char* kind, const char* call) {
  check(object, kind, call);
  running.push_back({object, kind, call});
}

Reentry::~Reentry() { running.pop_back(); }

}  // namespace klampt_py
