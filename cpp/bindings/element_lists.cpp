// Klamp't 0.10's collection accessors: a robot's links and drivers and a
// world's robots, rigid objects and terrains as tuples (links, getLinks()) and
// as read-only name -> element mappings (linksDict, getLinksDict()).
#include <cctype>

#include "convert.h"
#include "handles.h"
#include "typed_args.h"

namespace klampt_py {

namespace {

/// A tuple of make(0), ..., make(n - 1).
template <class Make>
py::tuple tupleOf(std::size_t n, Make make) {
  py::tuple t(n);
  for (std::size_t i = 0; i < n; ++i) t[i] = py::cast(make(i));
  return t;
}

/// A types.MappingProxyType over {name(i): make(i)}; a repeated name keeps
/// its last element, as the reference's dict comprehension does.
template <class Name, class Make>
py::object mappingOf(std::size_t n, Name name, Make make) {
  py::dict d;
  for (std::size_t i = 0; i < n; ++i) d[nameToPython(name(i))] = py::cast(make(i));
  return py::module_::import("types").attr("MappingProxyType")(d);
}

KLAMPT_TYPE_HINT(LinkTuple, "tuple[RobotModelLink, ...]");
KLAMPT_TYPE_HINT(LinkMapping, "typing.Mapping[str, RobotModelLink]");
KLAMPT_TYPE_HINT(DriverTuple, "tuple[RobotModelDriver, ...]");
KLAMPT_TYPE_HINT(DriverMapping, "typing.Mapping[str, RobotModelDriver]");
KLAMPT_TYPE_HINT(RobotTuple, "tuple[RobotModel, ...]");
KLAMPT_TYPE_HINT(RobotMapping, "typing.Mapping[str, RobotModel]");
KLAMPT_TYPE_HINT(ObjectTuple, "tuple[RigidObjectModel, ...]");
KLAMPT_TYPE_HINT(ObjectMapping, "typing.Mapping[str, RigidObjectModel]");
KLAMPT_TYPE_HINT(TerrainTuple, "tuple[TerrainModel, ...]");
KLAMPT_TYPE_HINT(TerrainMapping, "typing.Mapping[str, TerrainModel]");

/// Adds `plural`, `plural + "Dict"` (read-only properties) and the get...
/// methods returning the same values.
template <class Cls, class Tuple, class Dict>
void addCollection(Cls& cls, const std::string& plural, const std::string& what, Tuple tuple, Dict dict) {
  std::string getter = "get" + plural;
  getter[3] = (char)std::toupper((unsigned char)getter[3]);
  const std::string tupleDoc = "A tuple of all " + what + " (index order).";
  const std::string dictDoc = "A read-only mapping (types.MappingProxyType) from " + what + " names to " + what +
                              " (a repeated name maps to its last element).";
  cls.def(getter.c_str(), tuple, tupleDoc.c_str());
  cls.def((getter + "Dict").c_str(), dict, dictDoc.c_str());
  cls.def_property_readonly(plural.c_str(), tuple, tupleDoc.c_str());
  cls.def_property_readonly((plural + "Dict").c_str(), dict, dictDoc.c_str());
}

}  // namespace

void bindElementLists(py::module_& m) {
  auto robotCls = py::reinterpret_borrow<py::class_<RobotModel>>(m.attr("RobotModel"));
  addCollection(
      robotCls, "links", "the robot's links",
      [](const RobotModel& r) { return TypedArg<LinkTuple>(tupleOf(r.get().links.size(), [&](std::size_t i) { return RobotModelLink{r, (int)i}; })); },
      [](const RobotModel& r) {
        const klampt::Robot& rb = r.get();
        return TypedArg<LinkMapping>(mappingOf(rb.links.size(), [&](std::size_t i) { return rb.links[i].name; },
                         [&](std::size_t i) { return RobotModelLink{r, (int)i}; }));
      });
  addCollection(
      robotCls, "drivers", "the robot's drivers",
      [](const RobotModel& r) { return TypedArg<DriverTuple>(tupleOf(r.get().drivers.size(), [&](std::size_t i) { return RobotModelDriver{r, (int)i}; })); },
      [](const RobotModel& r) {
        const klampt::Robot& rb = r.get();
        return TypedArg<DriverMapping>(mappingOf(rb.drivers.size(), [&](std::size_t i) { return rb.drivers[i].name; },
                         [&](std::size_t i) { return RobotModelDriver{r, (int)i}; }));
      });

  auto worldCls = py::reinterpret_borrow<py::class_<WorldModel>>(m.attr("WorldModel"));
  addCollection(
      worldCls, "robots", "the world's robots",
      [](const WorldModel& w) {
        const auto& v = w.get().robots;
        return TypedArg<RobotTuple>(tupleOf(v.size(), [&](std::size_t i) { return RobotModel{w.world, v[i]}; }));
      },
      [](const WorldModel& w) {
        const auto& v = w.get().robots;
        return TypedArg<RobotMapping>(mappingOf(v.size(), [&](std::size_t i) { return v[i]->name; },
                         [&](std::size_t i) { return RobotModel{w.world, v[i]}; }));
      });
  addCollection(
      worldCls, "rigidObjects", "the world's rigid objects",
      [](const WorldModel& w) {
        const auto& v = w.get().rigidObjects;
        return TypedArg<ObjectTuple>(tupleOf(v.size(), [&](std::size_t i) { return RigidObjectModel{w.world, v[i]}; }));
      },
      [](const WorldModel& w) {
        const auto& v = w.get().rigidObjects;
        return TypedArg<ObjectMapping>(mappingOf(v.size(), [&](std::size_t i) { return v[i]->name; },
                         [&](std::size_t i) { return RigidObjectModel{w.world, v[i]}; }));
      });
  addCollection(
      worldCls, "terrains", "the world's terrains",
      [](const WorldModel& w) {
        const auto& v = w.get().terrains;
        return TypedArg<TerrainTuple>(tupleOf(v.size(), [&](std::size_t i) { return TerrainModel{w.world, v[i]}; }));
      },
      [](const WorldModel& w) {
        const auto& v = w.get().terrains;
        return TypedArg<TerrainMapping>(mappingOf(v.size(), [&](std::size_t i) { return v[i]->name; },
                         [&](std::size_t i) { return TerrainModel{w.world, v[i]}; }));
      });
}

}  // namespace klampt_py
