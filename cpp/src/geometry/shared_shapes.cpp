#include "klampt/geometry/shared_shapes.h"

#include <map>
#include <mutex>

namespace klampt {

namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<const GeometryData>> shapes;
};

Registry& registry() {
  // Never destroyed: worlds freed during interpreter shutdown still release into it.
  static Registry* r = new Registry();
  return *r;
}

/// Needs the registry's lock. use_count() == 1 is exact here: only the
/// registry can hand the pointer out, and it does so under the same lock.
void releaseUnusedLocked(Registry& r) {
  for (auto it = r.shapes.begin(); it != r.shapes.end();)
    it = it->second.use_count() == 1 ? r.shapes.erase(it) : std::next(it);
}

}  // namespace

std::shared_ptr<const GeometryData> sharedShape(const std::string& key,
                                                const std::function<std::shared_ptr<const GeometryData>()>& load) {
  Registry& r = registry();
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    releaseUnusedLocked(r);
    auto found = r.shapes.find(key);
    if (found != r.shapes.end()) return found->second;
  }
  std::shared_ptr<const GeometryData> loaded = load();
  if (!loaded) return nullptr;
  std::lock_guard<std::mutex> lock(r.mutex);
  // Another thread may have loaded the same file meanwhile: keep one.
  auto inserted = r.shapes.emplace(key, std::move(loaded));
  return inserted.first->second;
}

std::shared_ptr<const GeometryData> sharedChange(const std::shared_ptr<const GeometryData>& base,
                                                 const std::string& changeKey,
                                                 const std::function<void(GeometryData&)>& change) {
  auto changed = [&] {
    auto copy = std::make_shared<GeometryData>(*base);
    change(*copy);
    return std::shared_ptr<const GeometryData>(std::move(copy));
  };
  std::string baseKey;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    // A registered base cannot be freed and its address reused while registered.
    for (const auto& [key, shape] : r.shapes)
      if (shape == base) baseKey = key;
  }
  if (baseKey.empty()) return changed();
  return sharedShape(baseKey + "\n" + changeKey, changed);
}

std::string shapeChangeKey(const std::string& kind, const std::vector<double>& numbers) {
  std::string key = kind;
  key.append(reinterpret_cast<const char*>(numbers.data()), sizeof(double) * numbers.size());
  return key;
}

void releaseUnusedSharedShapes() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  releaseUnusedLocked(r);
}

std::size_t numSharedShapes() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.shapes.size();
}

}  // namespace klampt
