// The registry of motionplanning spaces and plans (integer indices and
// destroy()), and the conversions of Python callables into core callbacks.
#include "convert.h"
#include "plan_bindings.h"

#include "handles.h"

#include <algorithm>
#include <mutex>

namespace klampt_py {

namespace {

struct Registry {
  std::vector<std::weak_ptr<SpaceEntry>> spaces;
  std::vector<std::weak_ptr<PlanEntry>> plans;
  int nextSpace = 0, nextPlan = 0;
};

/// Only touched with the interpreter lock held.
Registry& registry() {
  static Registry r;
  return r;
}

/// Drops expired entries so the lists do not grow without bound.
template <class T>
void prune(std::vector<std::weak_ptr<T>>& v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](const std::weak_ptr<T>& w) { return w.expired(); }), v.end());
}

}  // namespace

SpaceEntry& CSpaceHandle::get() const {
  if (!entry || !entry->space.space()) throw std::runtime_error("Invalid cspace index");
  return *entry;
}

klampt::plan::Plan& PlannerHandle::get() const {
  if (!entry || !entry->plan) throw std::runtime_error("Invalid plan index");
  return *entry->plan;
}

std::shared_ptr<SpaceEntry> registerSpace(klampt::plan::UserSpace space) {
  Registry& r = registry();
  auto e = std::make_shared<SpaceEntry>();
  e->index = r.nextSpace++;
  e->space = std::move(space);
  prune(r.spaces);
  r.spaces.push_back(e);
  return e;
}

std::shared_ptr<PlanEntry> registerPlan(std::shared_ptr<klampt::plan::Plan> plan, int spaceIndex) {
  Registry& r = registry();
  auto e = std::make_shared<PlanEntry>();
  e->index = r.nextPlan++;
  e->spaceIndex = spaceIndex;
  e->plan = std::move(plan);
  prune(r.plans);
  r.plans.push_back(e);
  return e;
}

void destroyAll() {
  Registry& r = registry();
  for (auto& w : r.plans)
    if (auto e = w.lock()) e->plan.reset();
  for (auto& w : r.spaces)
    if (auto e = w.lock()) e->space.release();
  r.plans.clear();
  r.spaces.clear();
}

klampt::plan::PlannerSettings& factorySettings() {
  static klampt::plan::PlannerSettings s;
  return s;
}

PyRef keepCallable(py::handle f) {
  return PyRef(new py::object(py::reinterpret_borrow<py::object>(f)), [](py::object* o) {
    py::gil_scoped_acquire gil;
    delete o;
  });
}

FloatList configToList(const klampt::plan::Config& q) { return toList(q); }

StatsDict statsDict(const std::map<std::string, std::string>& stats) {
  StatsDict d;
  for (const auto& [k, v] : stats) d[py::str(k)] = py::str(v);
  return d;
}

void syncRobotSpace(klampt::plan::RobotCSpace& space) {
  awaitWorld(space.world());
  space.syncEnvironment();
}

klampt::plan::Config configFromPython(py::handle obj, const char* error) {
  if (!PySequence_Check(obj.ptr()) && !py::isinstance<py::array>(obj)) throw std::runtime_error(error);
  return toVector(obj, -1, "configuration");
}

std::function<bool(const klampt::plan::Config&)> pyTest(PyRef f) {
  return [f](const klampt::plan::Config& q) {
    py::gil_scoped_acquire gil;
    py::object r = (*f)(configToList(q));
    const int truth = PyObject_IsTrue(r.ptr());
    if (truth < 0) throw py::error_already_set();
    return truth == 1;
  };
}

std::function<bool(const klampt::plan::Config&, const klampt::plan::Config&)> pyEdgeTest(PyRef f) {
  return [f](const klampt::plan::Config& a, const klampt::plan::Config& b) {
    py::gil_scoped_acquire gil;
    py::object r = (*f)(configToList(a), configToList(b));
    const int truth = PyObject_IsTrue(r.ptr());
    if (truth < 0) throw py::error_already_set();
    return truth == 1;
  };
}

std::function<void(klampt::plan::Config&)> pySampler(PyRef f, const char* what) {
  const std::string message = std::string("Python ") + what + " method didn't return sequence";
  return [f, message](klampt::plan::Config& out) {
    py::gil_scoped_acquire gil;
    py::object r = (*f)();
    out = configFromPython(r, message.c_str());
  };
}

}  // namespace klampt_py
