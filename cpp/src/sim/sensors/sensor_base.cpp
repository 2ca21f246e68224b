// The Sensor base class: common settings (rate, enabled) and setting lookup.
#include "klampt/sim/sensor_common.h"

#include <stdexcept>

namespace klampt {

Sensor::Sensor() {
  addSetting("rate", realSetting(rate));
  addSetting("enabled", boolSetting(enabled));
}

void Sensor::addSetting(const std::string& key, SensorSetting setting) { settings_[key] = std::move(setting); }

std::vector<std::string> Sensor::settingNames() const {
  std::vector<std::string> names;
  for (const auto& kv : settings_)
    if (kv.second.listed) names.push_back(kv.first);
  return names;
}

std::string Sensor::getSetting(const std::string& key) const {
  auto it = settings_.find(key);
  if (it == settings_.end()) throw std::runtime_error("Setting " + key + " not supported");
  return it->second.get();
}

bool Sensor::trySetSetting(const std::string& key, const std::string& value) {
  auto it = settings_.find(key);
  return it != settings_.end() && it->second.set(value);
}

void Sensor::setSetting(const std::string& key, const std::string& value) {
  if (trySetSetting(key, value)) return;
  auto it = settings_.find(key);
  if (it != settings_.end() && !it->second.accepts.empty())
    throw std::runtime_error("Setting " + key + " refuses " + value + ": it must be " + it->second.accepts);
  throw std::runtime_error("Setting " + key + " not supported or value not formatted correctly");
}

}  // namespace klampt
