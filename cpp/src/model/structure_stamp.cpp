#include "klampt/model/structure_stamp.h"

#include <atomic>

namespace klampt {

StructureStamp newStructureStamp() {
  static std::atomic<StructureStamp> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace klampt
