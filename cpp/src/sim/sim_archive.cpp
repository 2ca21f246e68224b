// Simulations as archives (klampt/sim/sim_archive.h).
#include "klampt/sim/sim_archive.h"
#include "../io/archive_stream.h"
#include "klampt/geometry/queries/queries.h"
#include "klampt/io/archive.h"

namespace klampt {

/// The contact state a step leaves for the next one: the contacts at the
/// current poses (used by the next step without a new query), those of the
/// last step (feedback, sleeping), the per-pair contact selections the
/// contact queries reuse, and the feedback summaries.
struct SimulationArchive {
  static void write(archive::Writer& w, const Simulation& sim);
  static void read(archive::Reader& r, Simulation& sim);
};

namespace {

const std::uint64_t kSimulationVersion = 1;

void writePoints(archive::Writer& w, const std::vector<Vector3>& v) {
  w.u64(v.size());
  for (const Vector3& p : v) w.v3(p);
}

std::vector<Vector3> readPoints(archive::Reader& r) {
  std::vector<Vector3> v(r.count(24));
  for (Vector3& p : v) p = r.v3();
  return v;
}

void writeContacts(archive::Writer& w, const std::vector<PairContacts>& cs) {
  w.u64(cs.size());
  for (const PairContacts& c : cs) {
    w.i64(c.a);
    w.i64(c.b);
    writePoints(w, c.points);
    writePoints(w, c.normals);
    w.u64(c.depths.size());
    w.doubles(c.depths.data(), c.depths.size());
    w.f64(c.kFriction);
    w.boolean(c.penetrating);
    writePoints(w, c.forces);
    w.boolean(c.frozen);
  }
}

std::vector<PairContacts> readContacts(archive::Reader& r, int bodies) {
  std::vector<PairContacts> cs(r.count(16));
  for (PairContacts& c : cs) {
    c.a = r.index(0, bodies - 1);
    c.b = r.index(0, bodies - 1);
    c.points = readPoints(r);
    c.normals = readPoints(r);
    c.depths.resize(r.count(8));
    r.doubles(c.depths.data(), c.depths.size());
    c.kFriction = r.f64();
    c.penetrating = r.boolean();
    c.forces = readPoints(r);
    c.frozen = r.boolean();
    if (c.normals.size() != c.points.size() || c.depths.size() != c.points.size() ||
        (!c.forces.empty() && c.forces.size() != c.points.size()))
      archive::Reader::fail("a contact list does not match its points");
  }
  return cs;
}

void writeSettings(archive::Writer& w, const SimSettings& s) {
  w.v3(s.gravity);
  w.f64(s.simStep);
  for (bool b : {s.autoDisable, s.boundaryLayerCollisions, s.rigidObjectCollisions, s.robotSelfCollisions,
                 s.robotRobotCollisions, s.adaptiveTimeStepping})
    w.boolean(b);
  w.f64(s.minimumAdaptiveTimeStep);
  w.i64(s.maxContacts);
  for (double x : {s.clusterNormalScale, s.errorReductionParameter, s.dampedLeastSquaresParameter,
                   s.instabilityConstantEnergyThreshold, s.instabilityLinearEnergyThreshold,
                   s.instabilityMaxEnergyThreshold, s.instabilityPostCorrectionEnergy})
    w.f64(x);
}

SimSettings readSettings(archive::Reader& r) {
  SimSettings s;
  s.gravity = r.v3();
  s.simStep = r.f64();
  for (bool* b : {&s.autoDisable, &s.boundaryLayerCollisions, &s.rigidObjectCollisions, &s.robotSelfCollisions,
                  &s.robotRobotCollisions, &s.adaptiveTimeStepping})
    *b = r.boolean();
  s.minimumAdaptiveTimeStep = r.f64();
  s.maxContacts = r.index(0, INT32_MAX);
  for (double* x : {&s.clusterNormalScale, &s.errorReductionParameter, &s.dampedLeastSquaresParameter,
                    &s.instabilityConstantEnergyThreshold, &s.instabilityLinearEnergyThreshold,
                    &s.instabilityMaxEnergyThreshold, &s.instabilityPostCorrectionEnergy})
    *x = r.f64();
  return s;
}

}  // namespace

void SimulationArchive::write(archive::Writer& w, const Simulation& sim) {
  w.boolean(sim.contactsValid_);
  writeContacts(w, sim.contacts_);
  writeContacts(w, sim.lastStepContacts_);
  w.u64(sim.contactCaches_.size());
  for (const auto& [pair, c] : sim.contactCaches_) {
    w.i64(pair.first);
    w.i64(pair.second);
    w.boolean(c.a != nullptr);
    w.m3(c.R);
    w.v3(c.T);
    for (double x : {c.reachA, c.reachB, c.padding, c.normalScale}) w.f64(x);
    w.i64(c.maxContacts);
    w.u64(c.pairs.size());
    for (const auto& [i, j] : c.pairs) {
      w.i64(i);
      w.i64(j);
    }
  }
  w.u64(sim.summaries.size());
  for (const auto& [pair, s] : sim.summaries) {
    w.i64(pair.first);
    w.i64(pair.second);
    for (bool b : {s.inContact, s.hadContact, s.hadSeparation, s.hadPenetration}) w.boolean(b);
    w.v3(s.meanForce);
    w.f64(s.weight);
  }
}

void SimulationArchive::read(archive::Reader& r, Simulation& sim) {
  const int nb = (int)sim.bodies.size();
  const bool valid = r.boolean();
  std::vector<PairContacts> contacts = readContacts(r, nb), last = readContacts(r, nb);
  ContactCaches caches;
  const std::size_t nc = r.count(16);
  for (std::size_t k = 0; k < nc; ++k) {
    const int i = r.index(0, nb - 1), j = r.index(0, nb - 1);
    ContactCache& c = caches[{i, j}];
    const bool attached = r.boolean();
    c.R = r.m3();
    c.T = r.v3();
    for (double* x : {&c.reachA, &c.reachB, &c.padding, &c.normalScale}) *x = r.f64();
    c.maxContacts = r.index(INT32_MIN, INT32_MAX);
    c.pairs.resize(r.count(16));
    for (auto& [a, b] : c.pairs) {
      a = r.index(0, INT32_MAX);
      b = r.index(0, INT32_MAX);
    }
    if (attached && !attachContactCache(c, sim.bodies[i].geometry, sim.bodies[j].geometry))
      archive::Reader::fail("a contact selection does not match the bodies' meshes");
  }
  std::map<std::pair<int, int>, ContactSummary> summaries;
  const std::size_t ns = r.count(16);
  for (std::size_t k = 0; k < ns; ++k) {
    const int a = (int)r.i64(), b = (int)r.i64();
    ContactSummary& s = summaries[{a, b}];
    for (bool* x : {&s.inContact, &s.hadContact, &s.hadSeparation, &s.hadPenetration}) *x = r.boolean();
    s.meanForce = r.v3();
    s.weight = r.f64();
  }
  sim.contactsValid_ = valid;
  sim.contacts_ = std::move(contacts);
  sim.lastStepContacts_ = std::move(last);
  sim.contactCaches_ = std::move(caches);
  sim.summaries = std::move(summaries);
}

std::string saveSimulationArchive(const Simulation& sim) {
  if (!sim.userJoints.empty())
    throw std::invalid_argument("a simulation with user joints (Simulator.addJoint) cannot be archived");
  archive::Writer w;
  w.header("simulation", kSimulationVersion);
  w.str(saveWorldArchive(*sim.world));
  w.u64(sim.builtConfigs.size());
  for (const VectorX& q : sim.builtConfigs) w.vec(q);
  writeSettings(w, sim.settings);
  w.u64(sim.bodies.size());
  for (const SimBody& b : sim.bodies) {
    w.f64(b.padding);
    w.boolean(b.preshrink);
    for (double x : {b.surface.kFriction, b.surface.kRestitution, b.surface.kStiffness, b.surface.kDamping}) w.f64(x);
  }
  w.boolean(sim.feedbackAll);
  w.u64(sim.feedbackPairs.size());
  for (const auto& [pair, on] : sim.feedbackPairs) {
    w.i64(pair.first);
    w.i64(pair.second);
    w.boolean(on);
  }
  w.str(sim.initialState);
  w.str(sim.getState());
  SimulationArchive::write(w, sim);
  return std::move(w.bytes);
}

std::shared_ptr<Simulation> loadSimulationArchive(const std::string& bytes) {
  archive::Reader r(bytes);
  r.header("simulation", kSimulationVersion);
  std::shared_ptr<World> world = loadWorldArchive(r.str());
  // The simulation is built where the original was, so that its joints
  // measure angles as the original's do; the state then moves it on.
  if (r.count(8) != world->robots.size()) archive::Reader::fail("the robots do not match the world");
  for (const auto& robot : world->robots) {
    const VectorX q = r.vec();
    if (q.size() != robot->numLinks() || !q.allFinite())
      archive::Reader::fail("a configuration does not match its robot");
    robot->setConfig(q);
  }
  const SimSettings settings = readSettings(r);
  std::shared_ptr<Simulation> sim;
  try {
    sim = std::make_shared<Simulation>(world);
  } catch (const std::runtime_error& e) {
    archive::Reader::fail(e.what());
  }
  // Every setting is taken as stored; setSetting (with a value that reads
  // back exactly) then passes gravity, ERP and CFM on to ODE and rebuilds the
  // collision filter.
  sim->settings = settings;
  sim->setSetting("maxContacts", std::to_string(settings.maxContacts));
  if (r.count(16) != sim->bodies.size()) archive::Reader::fail("the bodies do not match the world");
  for (size_t i = 0; i < sim->bodies.size(); ++i) {
    const double padding = r.f64();
    const bool preshrink = r.boolean();
    ContactParameters& s = sim->bodies[i].surface;
    for (double* x : {&s.kFriction, &s.kRestitution, &s.kStiffness, &s.kDamping}) *x = r.f64();
    sim->setPadding((int)i, padding);
    if (preshrink) sim->preshrink((int)i, false);
  }
  sim->feedbackAll = r.boolean();
  const std::size_t np = r.count(17);
  for (std::size_t k = 0; k < np; ++k) {
    const int a = (int)r.i64(), b = (int)r.i64();
    sim->feedbackPairs[{a, b}] = r.boolean();
  }
  const std::string initial = r.str();
  if (!sim->setState(r.str())) archive::Reader::fail("the simulation state does not match the world");
  sim->initialState = initial;
  SimulationArchive::read(r, *sim);
  r.finish();
  return sim;
}

}  // namespace klampt
