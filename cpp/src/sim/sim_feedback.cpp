// Contact feedback queries of the Simulation (world IDs, normals into a,
// forces on a).
#include <algorithm>
#include "klampt/sim/simulation.h"

namespace klampt {

bool Simulation::feedbackEnabled(int a, int b) const {
  if (feedbackAll) return true;
  if (b < 0) {
    for (const auto& [key, on] : feedbackPairs)
      if (on && (key.first == a || key.second == a)) return true;
    return false;
  }
  const auto it = feedbackPairs.find({std::min(a, b), std::max(a, b)});
  return it != feedbackPairs.end() && it->second;
}

std::vector<PairContacts> Simulation::lastContacts(int a, int b) const {
  std::vector<PairContacts> out;
  for (const PairContacts& pc : lastStepContacts_) {
    const int ida = bodies[pc.a].objectID, idb = bodies[pc.b].objectID;
    const bool direct = ida == a && (b < 0 || idb == b);
    const bool reversed = idb == a && (b < 0 || ida == b);
    if (!direct && !reversed) continue;
    if (!feedbackEnabled(ida, idb)) continue;
    PairContacts c = pc;
    if (!direct) {
      std::swap(c.a, c.b);
      for (auto& n : c.normals) n = -n;
      for (auto& f : c.forces) f = -f;
    }
    out.push_back(std::move(c));
  }
  return out;
}

void Simulation::lastContactWrench(int a, int b, Vector3& f, Vector3& t) const {
  f.setZero();
  t.setZero();
  const int body = bodyOfID[a];
  const Vector3 origin = body >= 0 ? bodies[body].objectTransform().t : Vector3::Zero();
  for (const PairContacts& c : lastContacts(a, b)) {
    for (size_t i = 0; i < c.points.size() && i < c.forces.size(); ++i) {
      f += c.forces[i];
      t += (c.points[i] - origin).cross(c.forces[i]);
    }
  }
}

ContactSummary Simulation::summary(int a, int b) const {
  ContactSummary out;
  bool any = false, allSeparated = true;
  for (const auto& [key, s] : summaries) {
    const bool match = (a < 0 && b < 0) || (b < 0 ? (key.first == a || key.second == a)
                                                  : key == std::make_pair(std::min(a, b), std::max(a, b)));
    if (!match) continue;
    any = true;
    out.inContact |= s.inContact;
    out.hadContact |= s.hadContact;
    out.hadPenetration |= s.hadPenetration;
    allSeparated &= s.hadSeparation;
    if (a >= 0 && s.weight > 0) out.meanForce += (key.first == a ? s.meanForce : Vector3(-s.meanForce)) / s.weight;
  }
  out.hadSeparation = any ? allSeparated : true;
  return out;
}

}  // namespace klampt
