// The Sensor base class: common settings (rate, enabled) and setting lookup.
#include "klampt/sim/sensor_common.h"

namespace klampt {

Sensor::Sensor() {
  addSetting("rate", realSetting(rate));
  addSetting("enabled", boolSetting(enabled));
}

void Sensor::addSetting(const std::string& key, SensorSetting setting) { settings_[key] = std::move(setting); }

std::vector<std::string> Sensor::settingNames() const {
  std::vector<std::string> names;
  for (const auto& kv : settings_) names.push_back(kv.first);
  return names;
}

bool Sensor::getSetting(const std::string& key, std::string& value) const {
  auto it = settings_.find(key);
  if (it == settings_.end()) return false;
  value = it->second.get();
  return true;
}

bool Sensor::setSetting(const std::string& key, const std::string& value) {
  auto it = settings_.find(key);
  return it != settings_.end() && it->second.set(value);
}

}  // namespace klampt
