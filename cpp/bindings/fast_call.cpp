#include "fast_call.h"

#include <cstring>
#include <string>

namespace klampt_py {

void FastArgs::match(const char* method, const char* const* names, std::size_t n, std::size_t required,
                     PyObject** out) const {
  if ((std::size_t)nargs > n)
    throw py::type_error(std::string(method) + "() takes " + std::to_string(n) + " argument" + (n == 1 ? "" : "s") +
                         " (" + std::to_string(nargs) + " given)");
  for (Py_ssize_t i = 0; i < nargs; ++i) out[i] = args[i];
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    const char* key = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
    if (!key) throw py::error_already_set();
    std::size_t i = 0;
    while (i < n && std::strcmp(key, names[i]) != 0) ++i;
    if (i == n) throw py::type_error(std::string(method) + "() got an unexpected keyword argument '" + key + "'");
    if (out[i]) throw py::type_error(std::string(method) + "() got multiple values for argument '" + key + "'");
    out[i] = args[nargs + k];
  }
  for (std::size_t i = 0; i < required; ++i)
    if (!out[i]) throw py::type_error(std::string(method) + "() missing required argument '" + names[i] + "'");
}

void addFastMethods(py::handle cls, PyMethodDef* defs) {
  auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  for (PyMethodDef* d = defs; d->ml_name; ++d) {
    py::object descriptor = py::reinterpret_steal<py::object>(PyDescr_NewMethod(type, d));
    if (!descriptor) throw py::error_already_set();
    py::setattr(cls, d->ml_name, descriptor);
  }
}

}  // namespace klampt_py
