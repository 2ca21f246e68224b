// Simulator: the physics simulation of a WorldModel, and bindSimulation,
// which registers every simulation class.
#include <pybind11/stl.h>

#include "convert.h"
#include "sim_bindings.h"
#include "use_scope.h"

namespace klampt_py {

using klampt::Simulation;
using klampt::Vector3;
using SimPtr = std::shared_ptr<Simulation>;

void checkRobotIndex(const Simulation& sim, long robot) {
  checkIndex(robot, (long)sim.robots.size(), "robot index");
}

Simulation& live(Simulation& sim) {
  awaitWorld(*sim.world);
  if (!sim.worldUnchanged())
    throw std::runtime_error(
        "the simulated world changed structure (an element was added, removed or reloaded, or a robot's links "
        "changed) after this Simulator was built: build a new Simulator");
  return sim;
}

const Simulation& live(const Simulation& sim) { return live(const_cast<Simulation&>(sim)); }

namespace {

void checkID(const Simulation& sim, int id, bool allowAny) {
  if (allowAny && id == -1) return;
  checkIndex(id, (long)sim.bodyOfID.size(), "object ID");
}

void checkSameWorld(const Simulation& sim, const std::shared_ptr<klampt::World>& w) {
  if (w.get() != sim.world.get()) throw py::value_error("the element does not belong to the simulated world");
}

py::array_t<double> contactArray(const std::vector<klampt::PairContacts>& cs, bool forces) {
  size_t n = 0;
  for (const auto& c : cs) n += c.points.size();
  auto a = newArray({(py::ssize_t)n, forces ? 3 : 7});
  auto m = a.mutable_unchecked<2>();
  size_t row = 0;
  for (const auto& c : cs) {
    for (size_t i = 0; i < c.points.size(); ++i, ++row) {
      if (forces) {
        const Vector3 f = i < c.forces.size() ? c.forces[i] : Vector3::Zero();
        for (int k = 0; k < 3; ++k) m(row, k) = f[k];
      } else {
        for (int k = 0; k < 3; ++k) {
          m(row, k) = c.points[i][k];
          m(row, 3 + k) = c.normals[i][k];
        }
        m(row, 6) = c.kFriction;
      }
    }
  }
  return a;
}

SimBodyHandle bodyOf(const SimPtr& s, int id) {
  live(*s);
  if (s->bodyOfID[id] < 0) throw std::runtime_error("world ID " + std::to_string(id) + " has no simulated body");
  return SimBodyHandle{s, id};
}

// Runs step() without the GIL, holding the use locks of the world and its
// robots (every other call on them, and on this simulation, waits).
template <class Step>
void stepped(Simulation& s, Step step) {
  UseScope use(worldLocks(*s.world));
  live(s);  // checked once the locks are held: waiting for them let other threads run
  py::gil_scoped_release release;
  step();
}

}  // namespace

void bindSimulation(py::module_& m) {
  // The Simulator class exists before the classes whose methods return it,
  // and they exist before its own methods that return them, so every
  // signature names its types.
  py::class_<Simulation, SimPtr> cls(m, "Simulator", "A dynamics simulator for a WorldModel.");
  bindSimBody(m);
  bindSimJoint(m);
  auto controllerCls = bindSimRobotController(m);
  bindSensors(m, controllerCls);
  addThisown(cls);
  // getStatus() values, plain class attributes as in the reference.
  cls.attr("STATUS_NORMAL") = (int)Simulation::Normal;
  cls.attr("STATUS_ADAPTIVE_TIME_STEPPING") = (int)Simulation::AdaptiveTimeStepping;
  cls.attr("STATUS_CONTACT_UNRELIABLE") = (int)Simulation::ContactUnreliable;
  cls.attr("STATUS_UNSTABLE") = (int)Simulation::Unstable;
  cls.attr("STATUS_ERROR") = (int)Simulation::Error;
  cls.def(py::init([](const WorldModel& w) {
            w.get();
            return std::make_shared<Simulation>(w.world);
          }),
          py::arg("model"),
          "Builds the simulation of the world; a <simulation> section of its XML file configures it. Raises "
          "RuntimeError for a malformed <simulation> section or robot sensor description.")
      .def("reset", [](Simulation& s) { live(s).reset(); }, "Returns to the initial state.")
      .def("getStatus", [](const Simulation& s) { return live(s).status; },
           "The worst status over the last simulate() call.")
      .def("getStatusString",
           [](const Simulation& s, int code) { return std::string(Simulation::statusName(code < 0 ? live(s).status : code)); },
           py::arg("s") = -1,
           "Returns the name of the status code s ('normal', 'adaptive time stepping', 'contact unreliable', "
           "'unstable', 'error'); s=-1 means the current status.")
      .def("checkObjectOverlap",
           [](Simulation& s) {
             std::vector<int> a, b;
             for (auto [i, j] : live(s).overlappingPairs()) {
               a.push_back(i);
               b.push_back(j);
             }
             return py::make_tuple(a, b);
           },
           "A pair of lists of the world IDs of overlapping bodies.")
      .def("getState", [](const Simulation& s) { return live(s).getState(); }, "The full state as a base64 string.")
      .def("setState",
           [](Simulation& s, const std::string& state) {
             if (!live(s).setState(state)) throw py::value_error("malformed simulation state");
           },
           py::arg("str"),
           "Restores a state returned by getState; ValueError if the string is malformed.")
      .def("simulate", [](Simulation& s, double t) { stepped(s, [&] { s.simulate(t); }); }, py::arg("t"),
           "Advances by t seconds and updates the world model. Runs without the GIL, holding the world and its "
           "robots: calls of other threads on them wait until it returns. Raises RuntimeError if the world "
           "changed structure since the Simulator was built.")
      .def("fakeSimulate", [](Simulation& s, double t) { stepped(s, [&] { s.fakeSimulate(t); }); }, py::arg("t"),
           "Advances by t with every robot following its commanded motion kinematically (without the GIL, as "
           "simulate).")
      .def("getTime", [](const Simulation& s) { return live(s).time; },
           "Returns the simulated time in seconds.")
      .def("updateWorld", [](Simulation& s) { live(s).updateWorld(); },
           "Copies the simulation's state into the world: robot configurations and velocities, rigid object "
           "transforms and velocities.")
      .def("getActualConfig",
           [](const Simulation& s, int r) {
             checkRobotIndex(live(s), r);
             VectorX q, dq;
             s.actualState(r, q, dq);
             return toList(q);
           },
           py::arg("robot"),
           "Returns the actual simulated configuration of the robot with the given index (one entry per link).")
      .def("getActualVelocity",
           [](const Simulation& s, int r) {
             checkRobotIndex(live(s), r);
             VectorX q, dq;
             s.actualState(r, q, dq);
             return toList(dq);
           },
           py::arg("robot"),
           "Returns the actual simulated velocity of the robot with the given index (one entry per link).")
      .def("getActualTorque",
           [](const Simulation& s, int r) {
             checkRobotIndex(live(s), r);
             return toList(s.actualTorques(r));
           },
           py::arg("robot"),
           "Returns the torques each driver of the robot with the given index applied during the last step (one "
           "entry per driver).")
      .def("getActualTorques",
           [](const Simulation& s, int r) {
             checkRobotIndex(live(s), r);
             return toList(s.actualTorques(r));
           },
           py::arg("robot"), "Deprecated: getActualTorque.")
      .def("enableContactFeedback",
           [](Simulation& s, int a, int b) {
             checkID(live(s), a, false);
             checkID(s, b, false);
             s.feedbackPairs[{std::min(a, b), std::max(a, b)}] = true;
           },
           py::arg("obj1"), py::arg("obj2"),
           "Turns on contact feedback between the elements with world IDs obj1 and obj2, so the contact queries "
           "report their contacts.")
      .def("enableContactFeedbackAll", [](Simulation& s) { live(s).feedbackAll = true; },
           "Turns on contact feedback between all pairs of elements.")
      .def("inContact",
           [](const Simulation& s, int a, int b) {
             checkID(live(s), a, false);
             checkID(s, b, true);
             return !s.lastContacts(a, b).empty();
           },
           py::arg("aid"), py::arg("bid"),
           "Returns True if the elements with world IDs aid and bid (-1: anything) touched at the last step "
           "(contact feedback must be enabled for the pair).")
      .def("getContacts",
           [](const Simulation& s, int a, int b) {
             checkID(live(s), a, false);
             checkID(s, b, true);
             return contactArray(s.lastContacts(a, b), false);
           },
           py::arg("aid"), py::arg("bid"), "n x 7 array of (point, normal into a, kFriction).")
      .def("getContactForces",
           [](const Simulation& s, int a, int b) {
             checkID(live(s), a, false);
             checkID(s, b, true);
             return contactArray(s.lastContacts(a, b), true);
           },
           py::arg("aid"), py::arg("bid"),
           "Returns the forces on aid at the contacts of the last step between world IDs aid and bid (-1: "
           "anything) as an n x 3 array (N, world frame); contact feedback must be enabled.")
      .def("contactForce",
           [](const Simulation& s, int a, int b) {
             checkID(live(s), a, false);
             checkID(s, b, true);
             Vector3 f, t;
             s.lastContactWrench(a, b, f, t);
             return toList(f);
           },
           py::arg("aid"), py::arg("bid"),
           "Returns the total contact force (3-list, N, world frame) on aid from bid (-1: anything) at the last "
           "step; contact feedback must be enabled for the pair.")
      .def("contactTorque",
           [](const Simulation& s, int a, int b) {
             checkID(live(s), a, false);
             checkID(s, b, true);
             Vector3 f, t;
             s.lastContactWrench(a, b, f, t);
             return toList(t);
           },
           py::arg("aid"), py::arg("bid"),
           "Returns the total torque (3-list, N*m, world frame) of the contact forces on aid from bid (-1: "
           "anything) at the last step, about aid's origin; contact feedback must be enabled for the pair.")
      .def("hadContact",
           [](const Simulation& s, int a, int b) {
             checkID(live(s), a, false);
             checkID(s, b, true);
             return s.summary(a, b).hadContact;
           },
           py::arg("aid"), py::arg("bid"),
           "Returns True if aid and bid (-1: anything) were in contact at any step of the last simulate() call; "
           "contact feedback must be enabled for the pair.")
      .def("hadSeparation",
           [](const Simulation& s, int a, int b) {
             checkID(live(s), a, false);
             checkID(s, b, true);
             return s.summary(a, b).hadSeparation;
           },
           py::arg("aid"), py::arg("bid"),
           "Returns True if aid and bid (-1: anything) were apart at some step of the last simulate() call; "
           "contact feedback must be enabled for the pair.")
      .def("hadPenetration",
           [](const Simulation& s, int a, int b) {
             checkID(live(s), a, true);
             checkID(s, b, true);
             return s.summary(a, b).hadPenetration;
           },
           py::arg("aid"), py::arg("bid"),
           "Returns True if aid and bid (-1: anything) penetrated at some step of the last simulate() call; "
           "contact feedback must be enabled for the pair.")
      .def("meanContactForce",
           [](const Simulation& s, int a, int b) {
             checkID(live(s), a, false);
             checkID(s, b, true);
             return toList(s.summary(a, b).meanForce);
           },
           py::arg("aid"), py::arg("bid"),
           "Returns the mean contact force (3-list, N, world frame) on aid from bid (-1: anything) over the last "
           "simulate() call; contact feedback must be enabled for the pair.")
      .def("controller",
           [](const SimPtr& s, int r) {
             checkRobotIndex(live(*s), r);
             return SimRobotControllerHandle{s, r};
           },
           py::arg("robot"),
           "Returns the controller of the robot with the given index.")
      .def("controller",
           [](const SimPtr& s, const RobotModel& r) {
             checkSameWorld(live(*s), r.world);
             return SimRobotControllerHandle{s, r.index()};
           },
           py::arg("robot"),
           "Returns the controller of the given robot of the simulated world.")
      .def("body",
           [](const SimPtr& s, const RobotModelLink& l) {
             checkSameWorld(live(*s), l.robot.world);
             l.link();
             return bodyOf(s, s->world->linkID(l.robot.index(), l.index));
           },
           py::arg("link"),
           "Returns the SimBody simulating the robot link.")
      .def("body",
           [](const SimPtr& s, const RigidObjectModel& o) {
             checkSameWorld(live(*s), o.world);
             o.get();
             return bodyOf(s, s->world->rigidObjectID(o.index()));
           },
           py::arg("object"),
           "Returns the SimBody simulating the rigid object.")
      .def("body",
           [](const SimPtr& s, const TerrainModel& t) {
             checkSameWorld(live(*s), t.world);
             t.get();
             return bodyOf(s, s->world->terrainID(t.index()));
           },
           py::arg("terrain"),
           "Returns the SimBody of the terrain.")
      .def("getJointForces",
           [](const Simulation& s, const RobotModelLink& l) {
             checkSameWorld(live(s), l.robot.world);
             l.link();
             Vector3 f, t;
             s.jointForces(l.robot.index(), l.index, f, t);
             return std::vector<double>{f[0], f[1], f[2], t[0], t[1], t[2]};
           },
           py::arg("link"), "(fx, fy, fz, mx, my, mz) in the link frame, moment about the link origin.")
      .def("setGravity", [](Simulation& s, FloatsArg g) {
             const Vector3 v = toFiniteVector3(g, "g");
             live(s).setGravity(v);
           }, py::arg("g"),
           "Sets the gravity vector g (3-list, m/s^2, world frame), by default (0,0,-9.8).")
      .def("setSimStep",
           [](Simulation& s, double dt) {
             live(s).settings.simStep = toPositive(dt, "dt");
           },
           py::arg("dt"),
           "Sets the internal simulation substep dt (seconds, > 0); a simulate(t) call takes as many substeps as "
           "needed.")
      .def("settings", [](const Simulation&) { return klampt::SimSettings::names(); },
           "Returns the names of the simulation settings (see getSetting / setSetting).")
      .def("getSetting", [](const Simulation& s, const std::string& name) { return live(s).settings.get(name); },
           py::arg("name"),
           "Returns the value of the named simulation setting as a string; ValueError for an unknown name.")
      .def("setSetting", [](Simulation& s, const std::string& n, const std::string& v) { live(s).setSetting(n, v); },
           py::arg("name"), py::arg("value"),
           "Sets the named simulation setting from the string value; ValueError for an unknown name or a "
           "malformed value.")
      .def_property_readonly("world", [](const Simulation& s) { return WorldModel{s.world}; },
          "The simulated world.")
      .def_property_readonly("index", [](const Simulation& s) { return worldNumber(s.world.get()); },
          "The number of the simulated world.")
      .def_property_readonly("sim", [](Simulation& self) -> Simulation& { return self; }, py::return_value_policy::reference,
                             "The simulator itself (the reference exposes its C++ object here).")
      .def_property("initialState", [](const Simulation& s) { return live(s).initialState; },
                    [](Simulation& s, const std::string& v) { live(s).initialState = v; },
          "The serialized state reset() returns to (as getState()); assigning sets it.");
}

}  // namespace klampt_py
