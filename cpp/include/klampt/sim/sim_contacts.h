// Contacts between simulated bodies, generated the Klamp't way: padded
// bounding boxes for the broad phase, the geometry contacts query with each
// body's collision padding (boundary layers), ODE contact joints with surface
// parameters from the bodies' ContactParameters, and per-pair feedback.
#pragma once
#include <map>
#include <utility>
#include <vector>
#include <ode/ode.h>
#include "klampt/geometry/queries/contact_cache.h"
#include "klampt/math/types.h"

namespace klampt {

struct SimBody;
struct SimSettings;

/// The contacts of one body pair at one state. a and b index
/// Simulation::bodies (a always has an ODE body); normals point from b into
/// a, forces act on a.
struct PairContacts {
  int a = -1, b = -1;
  std::vector<Vector3> points, normals;
  std::vector<double> depths;
  double kFriction = 0;
  /// True when the unpadded geometries touch or overlap.
  bool penetrating = false;
  std::vector<Vector3> forces;
  /// Both bodies sleep (or are static): no contact joint, and the forces
  /// of the step before they fell asleep are kept.
  bool frozen = false;
};

/// What the contact queries of each body pair (a, b as in PairContacts)
/// remember between steps.
using ContactCaches = std::map<std::pair<int, int>, ContactCache>;

/// Contacts of every candidate pair at the bodies' current poses.
std::vector<PairContacts> generateContacts(std::vector<SimBody>& bodies, const SimSettings& settings,
                                           const std::vector<std::pair<int, int>>& candidates,
                                           ContactCaches& caches);
/// Candidate pairs whose padded bounding boxes overlap; with skipSleeping,
/// pairs of sleeping or static bodies that no awake body touches are left
/// out, and sleeping bodies a kinematic body touches wake up.
std::vector<std::pair<int, int>> broadPhase(std::vector<SimBody>& bodies, const std::vector<char>& pairAllowed,
                                            bool skipSleeping = false);

/// Contact joints for one step of length dt; `feedback` receives one entry
/// per contact point (kept alive until the step is done).
void createContactJoints(dWorldID world, dJointGroupID group, const std::vector<SimBody>& bodies,
                         const std::vector<PairContacts>& contacts, const SimSettings& settings, double dt,
                         std::vector<dJointFeedback>& feedback);

/// Accumulated over one simulate() call for a pair of world IDs.
struct ContactSummary {
  bool inContact = false;  // at the last step
  bool hadContact = false, hadSeparation = false, hadPenetration = false;
  Vector3 meanForce = Vector3::Zero();
  double weight = 0;
};

}  // namespace klampt
