// Pickling of WorldModel, RobotModel, Geometry3D, Appearance, IKObjective and
// Simulator through the archive format (klampt/io/archive.h,
// klampt/sim/sim_archive.h): __reduce__ gives a module function and the bytes.
#include <pybind11/pybind11.h>

#include "geometry_handle.h"
#include "handles.h"
#include "klampt/io/archive.h"
#include "klampt/sim/sim_archive.h"
#include "sim_handles.h"

namespace klampt_py {

namespace {

template <class T>
py::class_<T> classOf() {
  return py::reinterpret_borrow<py::class_<T>>(py::type::of<T>());
}

template <class T, class Holder>
py::class_<T, Holder> classOf() {
  return py::reinterpret_borrow<py::class_<T, Holder>>(py::type::of<T>());
}

/// What __reduce__ returns: a loader of `m` and the bytes it reads, plus the
/// instance's attribute dict when it has one.
py::tuple reduced(py::module_& m, const char* loader, const std::string& bytes, py::handle self = py::handle()) {
  py::tuple args = py::make_tuple(py::bytes(bytes));
  if (self && py::hasattr(self, "__dict__")) {
    py::dict attrs = self.attr("__dict__");
    if (attrs.size() > 0) return py::make_tuple(m.attr(loader), args, attrs);
  }
  return py::make_tuple(m.attr(loader), args);
}

/// Malformed archives are ValueErrors.
template <class F>
auto loading(F load) {
  try {
    return load();
  } catch (const std::invalid_argument& e) {
    throw py::value_error(e.what());
  }
}

}  // namespace

void bindPickling(py::module_& m) {
  m.def("_world_from_archive", [](py::bytes b) {
    return loading([&] { return WorldModel{klampt::loadWorldArchive(b)}; });
  }, py::arg("data"), "The WorldModel of a pickled world's bytes.");
  m.def("_robot_from_archive", [](py::bytes b) {
    return loading([&] {
      RobotModel h;
      h.robot = klampt::loadRobotArchive(b);
      return h;
    });
  }, py::arg("data"), "The standalone RobotModel of a pickled robot's bytes.");
  m.def("_geometry_from_archive", [](py::bytes b) {
    return loading([&] {
      Geometry3D g;
      *g.geom = klampt::loadGeometryArchive(b);
      return g;
    });
  }, py::arg("data"), "The standalone Geometry3D of a pickled geometry's bytes.");
  m.def("_appearance_from_archive", [](py::bytes b) {
    return loading([&] {
      Appearance a;
      *a.app = klampt::loadAppearanceArchive(b);
      return a;
    });
  }, py::arg("data"), "The standalone Appearance of a pickled appearance's bytes.");
  m.def("_ikobjective_from_archive", [](py::bytes b) {
    return loading([&] { return klampt::loadIKGoalArchive(b); });
  }, py::arg("data"), "The IKObjective of a pickled objective's bytes.");
  m.def("_simulator_from_archive", [](py::bytes b) {
    return loading([&] { return klampt::loadSimulationArchive(b); });
  }, py::arg("data"), "The Simulator (of a new world) of a pickled simulator's bytes.");

  classOf<WorldModel>().def("__reduce__", [m](const WorldModel& w) mutable {
    return reduced(m, "_world_from_archive", klampt::saveWorldArchive(w.get()));
  }, "Pickles every element of the world (a new world, with copies of them, is unpickled).");
  classOf<RobotModel>().def("__reduce__", [m](const RobotModel& r) mutable {
    return reduced(m, "_robot_from_archive", klampt::saveRobotArchive(r.get()));
  }, "Pickles the robot; it unpickles as a standalone robot.");
  classOf<Geometry3D>().def("__reduce__", [m](const Geometry3D& g) mutable {
    return reduced(m, "_geometry_from_archive", klampt::saveGeometryArchive(g.get()));
  }, "Pickles the shape, transform and margin; it unpickles as a standalone geometry.");
  classOf<Appearance>().def("__reduce__", [m](const Appearance& a) mutable {
    return reduced(m, "_appearance_from_archive", klampt::saveAppearanceArchive(a.get()));
  }, "Pickles the appearance; it unpickles as a standalone appearance.");
  classOf<klampt::IKGoal>().def("__reduce__", [m](py::object self) mutable {
    return reduced(m, "_ikobjective_from_archive", klampt::saveIKGoalArchive(self.cast<const klampt::IKGoal&>()), self);
  }, "Pickles the objective (and attributes set on it).");
  classOf<klampt::Simulation, std::shared_ptr<klampt::Simulation>>().def(
      "__reduce__",
      [m](const klampt::Simulation& s) mutable {
        try {
          return reduced(m, "_simulator_from_archive", klampt::saveSimulationArchive(live(s)));
        } catch (const std::invalid_argument& e) {
          throw py::value_error(e.what());
        }
      },
      "Pickles the world, settings and full state; the unpickled simulator (of a new world) continues "
      "exactly as this one would.");
}

}  // namespace klampt_py
