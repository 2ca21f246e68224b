// motionplanning.CSpaceInterface: a C-space of Python callbacks
// (plan/tested_space.h) or a native robot space (plan/robot_cspace.h,
// made by motionplanning.robot_cspace), with the reference's methods.
#include "convert.h"
#include "handles.h"
#include "plan_bindings.h"
#include "reentry.h"

#include <pybind11/stl.h>
#include "klampt/plan/random.h"
#include "klampt/plan/robot_cspace_names.h"

namespace klampt_py {

namespace {

using klampt::plan::Config;
using klampt::plan::TestedSpace;

TestedSpace& tested(const CSpaceHandle& h, const char* what) { return h.get().space.callbacks(what); }

/// A configuration of the space's size (any size while a callback space
/// has not seen one yet): ValueError otherwise.
Config config(const CSpaceHandle& h, py::handle obj) { return toVector(obj, h.space().dim(), "configuration"); }

/// The space the queries use, first brought up to date with its world when
/// it is a native robot space.
std::shared_ptr<klampt::plan::CSpace> synced(const CSpaceHandle& h) {
  auto space = h.get().space.space();  // held: syncing lets other threads run, which may destroy the handle
  if (const auto robot = h.get().space.robot()) syncRobotSpace(*robot);
  return space;
}

/// Lock-free queries that may call Python: released around the native work.
template <class F>
auto withoutGil(F&& f) {
  py::gil_scoped_release release;
  return f();
}

void setDistance(TestedSpace& s, PyRef f) {
  s.setDistance([f](const Config& a, const Config& b) {
    py::gil_scoped_acquire gil;
    py::object r = (*f)(configToList(a), configToList(b));
    const double d = PyFloat_AsDouble(r.ptr());
    if (d == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      throw std::runtime_error("Python distance didn't return float");
    }
    return d;
  });
}

void setInterpolate(TestedSpace& s, PyRef f) {
  s.setInterpolate([f](const Config& a, const Config& b, double u, Config& out) {
    py::gil_scoped_acquire gil;
    py::object r = (*f)(configToList(a), configToList(b), u);
    out = configFromPython(r, "Python interpolate method did not return a list");
  });
}

void setNeighborhoodSampler(TestedSpace& s, PyRef f) {
  s.setNeighborhoodSampler([f](const Config& c, double r, Config& out) {
    py::gil_scoped_acquire gil;
    py::object x = (*f)(configToList(c), r);
    out = configFromPython(x, "Python sampleneighborhood method did not return a list");
  });
}

py::typing::List<py::str> names(const std::vector<std::string>& v) {
  py::typing::List<py::str> out;
  for (const auto& n : v) out.append(py::str(n));
  return out;
}

/// A native robot C-space over `robot` (see motionplanning.robot_cspace).
CSpaceHandle makeRobotSpace(const RobotModel& robot, FloatsArg offset, const std::vector<py::tuple>& terms,
                            const std::vector<py::tuple>& pairs, bool collider, double margin,
                            const std::string& edgeCheck, double eps) {
  if (!robot.world) throw py::value_error("robot must belong to a world");
  const int index = robot.index();
  if (index < 0) throw std::runtime_error("the robot was removed from its world");
  klampt::plan::RobotCSpaceOptions o;
  o.offset = toVector(offset, robot.get().numLinks(), "offset");
  for (const py::tuple& t : terms) {
    if (t.size() != 3) throw py::value_error("terms must be (coordinate, link, scale) triples");
    o.terms.push_back({t[0].cast<int>(), t[1].cast<int>(), t[2].cast<double>()});
  }
  o.dim = klampt::plan::coordinatesOfTerms(o.terms);
  for (const py::tuple& p : pairs) {
    if (p.size() != 4) throw py::value_error("pairs must be (link, kind, index, otherLink) tuples");
    const auto kind = klampt::plan::bodyPairKindNamed(p[1].cast<std::string>());
    o.pairs.push_back({kind, p[0].cast<int>(), p[2].cast<int>(), p[3].cast<int>()});
  }
  o.hasCollider = collider;
  o.collisionMargin = margin;
  o.conservativeEdges = klampt::plan::conservativeEdgesNamed(edgeCheck);
  o.eps = eps;
  // Built with the interpreter lock held (tens of ms on the first space of
  // a world, while the collision structures are built): it copies the
  // robot's and the other bodies' state, which other threads may edit.
  awaitWorld(*robot.world);  // and the robots of other threads' long calls
  return CSpaceHandle{registerSpace(klampt::plan::UserSpace(std::make_shared<klampt::plan::RobotCSpace>(robot.world, index, o)))};
}

}  // namespace

void bindPlanCSpace(py::module_& mp) {
  py::class_<CSpaceHandle> cls(mp, "CSpaceInterface",
                               "A configuration space for the planners: Python callbacks (feasibility tests, edge\n"
                               "tests, sampler, distance, interpolation) or a native robot space\n"
                               "(motionplanning.robot_cspace). klampt.plan.cspace.CSpace is easier to use.");
  cls.def(py::init([]() { return CSpaceHandle{registerSpace(klampt::plan::UserSpace())}; }),
          "A new, empty callback space.");
  cls.def(py::init([](const CSpaceHandle& other) { return CSpaceHandle{registerSpace(other.get().space.copy())}; }),
          py::arg("other"), "A copy of another space's callbacks and settings (a native space is shared).");
  cls.def_property_readonly("index", &CSpaceHandle::index, "The space's number (-1 once destroyed).");
  cls.def("destroy", [](CSpaceHandle& h) {
    if (h.entry) h.entry->space.release();
  }, "Frees the space; later calls raise RuntimeError.");

  cls.def("setFeasibility", [](CSpaceHandle& h, ConfigTestArg f) {
    h.get().space.setFeasibility(pyTest(keepCallable(f)));
  }, py::arg("pyFeas"), "Sets a single feasibility test f(q) -> bool (named \"feasible\").");
  cls.def("addFeasibilityTest", [](CSpaceHandle& h, const std::string& name, ConfigTestArg f) {
    h.get().space.addFeasibilityTest(name, pyTest(keepCallable(f)));
  }, py::arg("name"), py::arg("pyFeas"),
          "Adds a named feasibility test f(q) -> bool; every test must pass. On a native robot\n"
          "space it runs after the native tests.");
  cls.def("setVisibility", [](CSpaceHandle& h, EdgeTestArg f) {
    tested(h, "setVisibility").setVisibility(pyEdgeTest(keepCallable(f)));
  }, py::arg("pyVisible"), "Sets the edge test f(a, b) -> bool, replacing the bisection check.");
  cls.def("addVisibilityTest", [](CSpaceHandle& h, const std::string& name, EdgeTestArg f) {
    tested(h, "addVisibilityTest").addVisibilityTest(name, pyEdgeTest(keepCallable(f)));
  }, py::arg("name"), py::arg("pyVisible"), "Adds a named edge test f(a, b) -> bool.");
  cls.def("setVisibilityEpsilon", [](CSpaceHandle& h, double eps) {
    h.space().setVisibilityEpsilon(eps);
  }, py::arg("eps"), "Checks edges by bisection until the pieces are shorter than eps (> 0).");
  cls.def("getVisibilityEpsilon", [](const CSpaceHandle& h) { return h.space().eps(); },
          "The edge-check resolution.");
  cls.def("setSampler", [](CSpaceHandle& h, SamplerArg f) {
    tested(h, "setSampler").setSampler(pySampler(keepCallable(f), "sample"));
  }, py::arg("pySamp"), "Sets the sampler f() -> configuration.");
  cls.def("setNeighborhoodSampler", [](CSpaceHandle& h, NeighborhoodSamplerArg f) {
    setNeighborhoodSampler(tested(h, "setNeighborhoodSampler"), keepCallable(f));
  }, py::arg("pySamp"), "Sets the neighbourhood sampler f(c, r) -> configuration.");
  cls.def("setDistance", [](CSpaceHandle& h, MetricArg f) {
    setDistance(tested(h, "setDistance"), keepCallable(f));
  }, py::arg("pyDist"), "Sets the metric f(a, b) -> float.");
  cls.def("setInterpolate", [](CSpaceHandle& h, InterpolatorArg f) {
    setInterpolate(tested(h, "setInterpolate"), keepCallable(f));
  }, py::arg("pyInterp"), "Sets the interpolation f(a, b, u) -> configuration.");
  cls.def("setProperty", [](CSpaceHandle& h, const std::string& key, const std::string& value) {
    h.space().setProperty(key, value);
  }, py::arg("key"), py::arg("value"), "Sets a property (euclidean, geodesic, volume, minimum, maximum, ...).");
  cls.def("getProperty", [](const CSpaceHandle& h, const std::string& key) {
    std::string v;
    if (!h.space().property(key, v)) throw std::runtime_error("Invalid property");
    return v;
  }, py::arg("key"), "A property's value; RuntimeError if it is not set.");

  cls.def("isFeasible", [](CSpaceHandle& h, FloatsArg q) {
    auto space = synced(h);
    Reentry running(space.get(), "feasibility", "CSpaceInterface.isFeasible");
    const Config x = config(h, q);
    return withoutGil([&] { return space->isFeasible(x); });
  }, py::arg("q"), "Whether q passes every feasibility test.");
  cls.def("isVisible", [](CSpaceHandle& h, FloatsArg a, FloatsArg b) {
    auto space = synced(h);
    Reentry running(space.get(), "visibility", "CSpaceInterface.isVisible");
    const Config x = config(h, a), y = config(h, b);
    return withoutGil([&] { return space->isVisible(x, y); });
  }, py::arg("a"), py::arg("b"), "Whether the edge from a to b is feasible.");
  cls.def("testFeasibility", [](CSpaceHandle& h, const std::string& name, FloatsArg q) {
    auto space = h.get().space.space();
    Reentry running(space.get(), "feasibility", "CSpaceInterface.testFeasibility");
    const int i = space->constraintIndex(name);
    if (i < 0) throw std::runtime_error("Invalid constraint name");
    const Config x = config(h, q);
    return withoutGil([&] { return space->testFeasibility(i, x); });
  }, py::arg("name"), py::arg("q"), "Whether q passes the named test.");
  cls.def("testVisibility", [](CSpaceHandle& h, const std::string& name, FloatsArg a, FloatsArg b) {
    auto space = h.get().space.space();
    Reentry running(space.get(), "visibility", "CSpaceInterface.testVisibility");
    const Config x = config(h, a), y = config(h, b);
    return space->testVisibility(name, x, y);
  }, py::arg("name"), py::arg("a"), py::arg("b"), "Whether the edge passes the named test.");
  cls.def("feasibilityFailures", [](CSpaceHandle& h, FloatsArg q) {
    auto space = synced(h);
    Reentry running(space.get(), "feasibility", "CSpaceInterface.feasibilityFailures");
    const Config x = config(h, q);
    return names(withoutGil([&] { return space->feasibilityFailures(x); }));
  }, py::arg("q"), "Names of the tests q fails.");
  cls.def("visibilityFailures", [](CSpaceHandle& h, FloatsArg a, FloatsArg b) {
    auto space = h.get().space.space();
    Reentry running(space.get(), "visibility", "CSpaceInterface.visibilityFailures");
    const Config x = config(h, a), y = config(h, b);
    return names(space->visibilityFailures(x, y));
  }, py::arg("a"), py::arg("b"), "Names of the edge tests the edge fails.");
  cls.def("sample", [](CSpaceHandle& h) {
    auto space = h.get().space.space();
    Reentry running(space.get(), "sample", "CSpaceInterface.sample");
    klampt::plan::Rng rng(klampt::plan::drawSeed());
    Config x;
    space->sample(rng, x);
    return configToList(x);
  }, "A sample configuration.");
  cls.def("distance", [](CSpaceHandle& h, FloatsArg a, FloatsArg b) {
    Reentry running(&h.space(), "distance", "CSpaceInterface.distance");
    return h.space().distance(config(h, a), config(h, b));
  }, py::arg("a"), py::arg("b"), "The distance between two configurations.");
  cls.def("interpolate", [](CSpaceHandle& h, FloatsArg a, FloatsArg b, double u) {
    Reentry running(&h.space(), "interpolate", "CSpaceInterface.interpolate");
    Config out;
    h.space().interpolate(config(h, a), config(h, b), u, out);
    return configToList(out);
  }, py::arg("a"), py::arg("b"), py::arg("u"), "The configuration u of the way from a to b.");

  cls.def("adaptiveQueriesEnabled", [](const CSpaceHandle& h) { return h.space().adaptiveQueriesEnabled(); },
          "Whether test statistics and ordering are on.");
  cls.def("enableAdaptiveQueries", [](CSpaceHandle& h, bool enabled) { h.space().enableAdaptiveQueries(enabled); },
          py::arg("enabled") = true, "Keeps per-test statistics and runs cheap, often-failing tests first.");
  cls.def("optimizeQueryOrder", [](CSpaceHandle& h) { h.space().optimizeQueryOrder(); },
          "Re-orders the tests by their measured cost and failure rate.");
  cls.def("setFeasibilityDependency", [](CSpaceHandle& h, const std::string& name, const std::string& preceding) {
    tested(h, "setFeasibilityDependency").setDependency(name, preceding, false);
  }, py::arg("name"), py::arg("precedingTest"), "Test `name` must run after `precedingTest`.");
  cls.def("setVisibilityDependency", [](CSpaceHandle& h, const std::string& name, const std::string& preceding) {
    tested(h, "setVisibilityDependency").setDependency(name, preceding, true);
  }, py::arg("name"), py::arg("precedingTest"), "Edge test `name` must run after `precedingTest`.");
  cls.def("setFeasibilityPrior", [](CSpaceHandle& h, const std::string& name, double cost, double p, double strength) {
    tested(h, "setFeasibilityPrior").setPrior(name, cost, p, strength, false);
  }, py::arg("name"), py::arg("costPrior") = 0.0, py::arg("feasibilityProbability") = 0.0,
          py::arg("evidenceStrength") = 1.0, "Resets a test's statistics to a prior.");
  cls.def("setVisibilityPrior", [](CSpaceHandle& h, const std::string& name, double cost, double p, double strength) {
    tested(h, "setVisibilityPrior").setPrior(name, cost, p, strength, true);
  }, py::arg("name"), py::arg("costPrior") = 0.0, py::arg("visibilityProbability") = 0.0,
          py::arg("evidenceStrength") = 1.0, "Resets an edge test's statistics to a prior.");
  cls.def("feasibilityCost", [](const CSpaceHandle& h, const std::string& name) {
    return tested(h, "feasibilityCost").testCost(name, false);
  }, py::arg("name"), "The measured mean time of a test (s).");
  cls.def("feasibilityProbability", [](const CSpaceHandle& h, const std::string& name) {
    return tested(h, "feasibilityProbability").testProbability(name, false);
  }, py::arg("name"), "The measured pass rate of a test.");
  cls.def("visibilityCost", [](const CSpaceHandle& h, const std::string& name) {
    return tested(h, "visibilityCost").testCost(name, true);
  }, py::arg("name"), "The measured mean time of an edge test (s).");
  cls.def("visibilityProbability", [](const CSpaceHandle& h, const std::string& name) {
    return tested(h, "visibilityProbability").testProbability(name, true);
  }, py::arg("name"), "The measured pass rate of an edge test.");
  cls.def("feasibilityQueryOrder", [](const CSpaceHandle& h) { return names(h.space().queryOrder(false)); },
          "The feasibility tests in the order they run.");
  cls.def("visibilityQueryOrder", [](const CSpaceHandle& h) { return names(h.space().queryOrder(true)); },
          "The edge tests in the order they run.");
  cls.def("getStats", [](const CSpaceHandle& h) { return statsDict(h.space().stats()); },
          "Query statistics (values are strings): feasible_/visible_ count, probability, time, ...");

  // Native robot spaces.
  cls.def("lift", [](const CSpaceHandle& h, FloatsArg x) {
    const auto robot = h.get().space.native("lift");  // held while converting x runs Python code
    Config q;
    robot->lift(config(h, x), q);
    return configToList(q);
  }, py::arg("x"), "The robot configuration of coordinates x (native robot spaces).");
  cls.def("project", [](const CSpaceHandle& h, FloatsArg q) {
    const auto robot = h.get().space.native("project");
    Config x;
    robot->project(toVector(q, robot->robotDim(), "q"), x);
    return configToList(x);
  }, py::arg("q"), "The coordinates of robot configuration q (native robot spaces).");
  cls.def("clearance", [](CSpaceHandle& h, FloatsArg x) {
    const auto robot = h.get().space.native("clearance");
    syncRobotSpace(*robot);
    const Config q = config(h, x);
    return withoutGil([&] { return robot->clearance(q); });
  }, py::arg("x"),
          "Distance from the robot at x to the tested bodies (and half the gap of its self pairs),\n"
          "minus the collision margin; negative when colliding (native robot spaces).");
  cls.def_property("collisionMargin",
                   [](const CSpaceHandle& h) { return h.get().space.collisionMargin(); },
                   [](CSpaceHandle& h, double m) { h.get().space.native("collisionMargin")->setCollisionMargin(m); },
                   "Distances to other bodies below this (m) count as collisions (native robot spaces).");
  cls.def("isNative", [](const CSpaceHandle& h) { return (bool)h.get().space.robot(); },
          "Whether this is a native robot space.");

  mp.def("robot_cspace", &makeRobotSpace, py::arg("robot"), py::arg("offset"), py::arg("terms"), py::arg("pairs"),
         py::arg("collider") = true, py::arg("collisionMargin") = 0.0, py::arg("edgeCheck") = "bisection",
         py::arg("eps") = 1e-2,
         "A native C-space for `robot`: coordinates x map to q = offset + A x, with `terms`\n"
         "(coordinate, link, scale) giving A; `pairs` (link, 'terrain'|'object'|'robot', index,\n"
         "otherLink) are the link-body pairs to test; self collision follows the robot's\n"
         "self-collision pairs. It copies the robot's kinematic state and never changes the robot.\n"
         "klampt.plan.robotcspace builds these for RobotCSpace and its embeddings.");
}

}  // namespace klampt_py
