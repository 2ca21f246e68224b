// Auto-disable (the autoDisable setting): idle rigid objects sleep, and the
// contacts of sleeping pairs stay in the contact records.
#include <algorithm>
#include "klampt/sim/simulation.h"

namespace klampt {

namespace {
// A rigid object slower than these for this many consecutive steps falls
// asleep. The angular threshold and the step count are ODE's defaults; the
// linear one is tighter so that soft contacts settle before the body sleeps.
constexpr double kSleepLinearSpeed = 0.002, kSleepAngularSpeed = 0.01;
constexpr int kSleepIdleSteps = 10;
}  // namespace

void Simulation::updateSleep() {
  if (!settings.autoDisable) return;
  for (SimBody& b : bodies) {
    if (b.rigidObject < 0 || !b.body || !b.enabled || dBodyIsKinematic(b.body)) continue;
    if (b.asleep) {
      if (!dBodyIsEnabled(b.body)) continue;
      b.asleep = false;  // an awake body's contact woke it during the step
      b.idleSteps = 0;
    }
    Vector3 w, v;
    b.velocity(w, v);
    if (v.norm() > kSleepLinearSpeed || w.norm() > kSleepAngularSpeed) {
      b.idleSteps = 0;
      continue;
    }
    if (++b.idleSteps < kSleepIdleSteps) continue;
    b.asleep = true;
    dBodySetLinearVel(b.body, 0, 0, 0);
    dBodySetAngularVel(b.body, 0, 0, 0);
    dBodyDisable(b.body);
    b.lastKineticEnergy = 0;
  }
}

void Simulation::keepSleepingContacts() {
  if (!settings.autoDisable) return;
  const int64_t n = (int64_t)bodies.size();
  auto key = [n](const PairContacts& pc) { return std::min(pc.a, pc.b) * n + std::max(pc.a, pc.b); };
  auto sleeping = [&](const PairContacts& pc) { return !bodies[pc.a].active() && !bodies[pc.b].active(); };
  std::vector<std::pair<int64_t, size_t>> last;
  for (size_t i = 0; i < lastStepContacts_.size(); ++i)
    if (sleeping(lastStepContacts_[i])) last.emplace_back(key(lastStepContacts_[i]), i);
  if (last.empty()) return;
  std::sort(last.begin(), last.end());
  std::vector<char> used(last.size(), 0);
  auto find = [&](int64_t k) {
    auto it = std::lower_bound(last.begin(), last.end(), std::make_pair(k, size_t(0)));
    return it != last.end() && it->first == k ? (size_t)(it - last.begin()) : last.size();
  };
  // A pair whose bodies fell asleep in this step keeps the step's contacts
  // and forces; pairs asleep before keep theirs.
  for (PairContacts& pc : contacts_) {
    if (!sleeping(pc)) continue;
    const size_t f = find(key(pc));
    if (f == last.size()) continue;
    used[f] = 1;
    pc = lastStepContacts_[last[f].second];
    pc.frozen = true;
  }
  for (size_t f = 0; f < last.size(); ++f) {
    if (used[f]) continue;
    contacts_.push_back(lastStepContacts_[last[f].second]);
    contacts_.back().frozen = true;
  }
}

}  // namespace klampt
