// Methods on the hottest paths (forward kinematics, Jacobians, dynamics) are
// installed as plain CPython METH_FASTCALL method descriptors: for a robot of
// a few links, pybind11's generic dispatcher costs more than the computation.
// They keep pybind11's exception translation and accept keyword arguments.
#pragma once
#include <pybind11/pybind11.h>

#include <array>
#include <cstddef>

namespace klampt_py {

namespace py = pybind11;

/// The positional arguments and keyword names of a METH_FASTCALL call.
struct FastArgs {
  PyObject* const* args;
  Py_ssize_t nargs;
  PyObject* kwnames;

  /// The arguments of `method(names...)`, matched by position or keyword; the
  /// first `required` are mandatory, missing optional ones are nullptr.
  template <std::size_t N>
  std::array<PyObject*, N> get(const char* method, const char* const (&names)[N], std::size_t required = N) const {
    std::array<PyObject*, N> out{};
    match(method, names, N, required, out.data());
    return out;
  }

 private:
  void match(const char* method, const char* const* names, std::size_t n, std::size_t required,
             PyObject** out) const;
};

/// The C++ object held by a pybind11 instance. The method descriptor has
/// already checked the instance's type.
template <class T>
T& selfAs(PyObject* self) {
  auto* inst = reinterpret_cast<py::detail::instance*>(self);
  void* value = inst->simple_layout ? inst->simple_value_holder[0] : inst->nonsimple.values_and_holders[0];
  if (!value) throw py::type_error("the object was not initialized (its __init__ was not called)");
  return *static_cast<T*>(value);
}

/// Runs body() -> py::object, turning C++ exceptions into Python errors as
/// pybind11's dispatcher does.
template <class Body>
PyObject* translateErrors(Body&& body) noexcept {
  try {
    return body().release().ptr();
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (...) {
    py::detail::try_translate_exceptions();
  }
  return nullptr;
}

/// Entry point of a method with arguments: Body(self, args).
template <class Self, py::object (*Body)(Self&, const FastArgs&)>
PyObject* fastMethod(PyObject* self, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames) noexcept {
  return translateErrors([&] { return Body(selfAs<Self>(self), FastArgs{args, PyVectorcall_NARGS(nargsf), kwnames}); });
}

/// Entry point of a method without arguments: Body(self).
template <class Self, py::object (*Body)(Self&)>
PyObject* fastMethodNoArgs(PyObject* self, PyObject*) noexcept {
  return translateErrors([&] { return Body(selfAs<Self>(self)); });
}

/// A method table entry. The doc string starts with "name($self, ...)\n--\n\n"
/// so that inspect.signature and help() show the parameters, then the typed
/// signature as pybind11 writes it, "name(self, q: ...) -> ...", which
/// scripts/gen_stubs.py copies into the stubs; then the description.
template <class Self, py::object (*Body)(Self&, const FastArgs&)>
PyMethodDef fastDef(const char* name, const char* doc) {
  return {name, reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&fastMethod<Self, Body>)),
          METH_FASTCALL | METH_KEYWORDS, doc};
}
template <class Self, py::object (*Body)(Self&)>
PyMethodDef fastDef(const char* name, const char* doc) {
  return {name, &fastMethodNoArgs<Self, Body>, METH_NOARGS, doc};
}

/// Installs the methods of `defs` (terminated by a {nullptr} entry, with static
/// storage: Python keeps pointers to it) on the bound class `cls`.
void addFastMethods(py::handle cls, PyMethodDef* defs);

}  // namespace klampt_py
