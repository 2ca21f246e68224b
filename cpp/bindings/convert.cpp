#include "convert.h"

#include <algorithm>
#include <cmath>

namespace klampt_py {

static std::string sizeMessage(const char* name, int expected, Py_ssize_t got) {
  return std::string(name) + " must have " + std::to_string(expected) + " elements, got " + std::to_string(got);
}

namespace {

// One element of a list or tuple; floats are read without a call, ints
// without the temporary float PyFloat_AsDouble would make.
inline double itemAsDouble(PyObject* item, const char* name) {
  if (PyFloat_CheckExact(item)) return PyFloat_AS_DOUBLE(item);
  double v = PyLong_CheckExact(item) ? PyLong_AsDouble(item) : PyFloat_AsDouble(item);
  if (v == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    throw py::type_error(std::string(name) + " must contain only numbers");
  }
  return v;
}

using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

DoubleArray asVectorArray(py::handle obj, const char* name) {
  DoubleArray arr;
  try {
    arr = DoubleArray::ensure(obj);
  } catch (py::error_already_set&) {
    arr = {};
  }
  if (!arr || arr.ndim() == 0) throw py::type_error(std::string(name) + " must be a sequence of numbers");
  if (arr.ndim() != 1) throw py::value_error(std::string(name) + " must be one-dimensional");
  return arr;
}

}  // namespace

void readDoubles(py::handle obj, Py_ssize_t expected, const char* name, double* out) {
  if (PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr())) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(obj.ptr());
    if (n != expected) throw py::value_error(sizeMessage(name, (int)expected, n));
    PyObject** items = PySequence_Fast_ITEMS(obj.ptr());
    for (Py_ssize_t i = 0; i < n; ++i) out[i] = itemAsDouble(items[i], name);
    return;
  }
  DoubleArray arr = asVectorArray(obj, name);
  if (arr.shape(0) != expected) throw py::value_error(sizeMessage(name, (int)expected, arr.shape(0)));
  std::copy(arr.data(), arr.data() + expected, out);
}

void readVector(py::handle obj, int expected, const char* name, VectorX& out) {
  // Lists and tuples are read directly: no numpy round trip for short vectors.
  if (PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr())) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(obj.ptr());
    if (expected >= 0 && n != expected) throw py::value_error(sizeMessage(name, expected, n));
    PyObject** items = PySequence_Fast_ITEMS(obj.ptr());
    out.resize(n);
    for (Py_ssize_t i = 0; i < n; ++i) out[i] = itemAsDouble(items[i], name);
    return;
  }
  DoubleArray arr = asVectorArray(obj, name);
  Py_ssize_t n = arr.shape(0);
  if (expected >= 0 && n != expected) throw py::value_error(sizeMessage(name, expected, n));
  out = Eigen::Map<const VectorX>(arr.data(), n);
}

VectorX toVector(py::handle obj, int expected, const char* name) {
  VectorX v;
  readVector(obj, expected, name, v);
  return v;
}

Vector3 toVector3(py::handle obj, const char* name) {
  Vector3 v;
  readDoubles(obj, 3, name, v.data());
  return v;
}

Matrix3 toRotation(py::handle obj, const char* name) {
  double v[9];
  readDoubles(obj, 9, name, v);
  return klampt::rotationFromColumnMajor(v);
}

long toIndex(py::handle obj, const char* name) {
  long i = PyLong_AsLong(obj.ptr());  // accepts anything with __index__
  if (i == -1 && PyErr_Occurred()) {
    if (!PyErr_ExceptionMatches(PyExc_TypeError)) throw py::error_already_set();
    PyErr_Clear();
    throw py::type_error(std::string(name) + " must be an integer");
  }
  return i;
}

std::vector<int> toIntList(py::handle obj, const char* name) {
  std::vector<int> out;
  try {
    for (py::handle h : py::iter(obj)) out.push_back(py::cast<int>(h));
  } catch (py::cast_error&) {
    throw py::type_error(std::string(name) + " must be a sequence of integers");
  }
  return out;
}

static py::list newList(Py_ssize_t n) {
  PyObject* l = PyList_New(n);
  if (!l) throw py::error_already_set();
  return py::reinterpret_steal<py::list>(l);
}

static void fill(py::list& l, const double* v, Py_ssize_t n) {
  for (Py_ssize_t i = 0; i < n; ++i) PyList_SET_ITEM(l.ptr(), i, PyFloat_FromDouble(v[i]));
}

// Creating a list can run a garbage-collector finalizer, that is, Python code
// that may resize or move what is being converted: fixed-size values are
// copied before, vectors read after (and checked).
template <class Vector>
static py::list vectorList(const Vector& v) {
  const Py_ssize_t n = (Py_ssize_t)v.size();
  py::list l = newList(n);
  if ((Py_ssize_t)v.size() != n) throw std::runtime_error("a vector was resized while it was being read");
  fill(l, v.data(), n);
  return l;
}

py::list toList(const VectorX& v) { return vectorList(v); }
py::list toList(const std::vector<double>& v) { return vectorList(v); }

py::list toList(const Vector3& v) {
  const Vector3 copy = v;
  py::list l = newList(3);
  fill(l, copy.data(), 3);
  return l;
}

py::list rotationToList(const Matrix3& R) {
  const Matrix3 copy = R;
  py::list l = newList(9);
  fill(l, copy.data(), 9);  // Eigen's default storage is column-major, as klampt.math.so3 is.
  return l;
}

py::tuple transformToTuple(RigidTransform T) {
  py::list R = rotationToList(T.R), t = toList(T.t);
  PyObject* pair = PyTuple_New(2);
  if (!pair) throw py::error_already_set();
  PyTuple_SET_ITEM(pair, 0, R.release().ptr());
  PyTuple_SET_ITEM(pair, 1, t.release().ptr());
  return py::reinterpret_steal<py::tuple>(pair);
}

py::array_t<double> newArray(std::initializer_list<py::ssize_t> shape) {
  // Straight to numpy's allocator: array_t's generic constructor builds shape
  // and stride vectors, which costs as much as a small Jacobian itself.
  auto& api = py::detail::npy_api::get();
  Py_intptr_t dims[3];
  int nd = 0;
  if (shape.size() > 3) throw std::invalid_argument("newArray supports at most 3 dimensions");
  for (py::ssize_t d : shape) dims[nd++] = d;
  PyObject* descr = api.PyArray_DescrFromType_(py::detail::npy_api::NPY_DOUBLE_);
  PyObject* arr = api.PyArray_NewFromDescr_(api.PyArray_Type_, descr, nd, dims, nullptr, nullptr, 0, nullptr);
  if (!arr) throw py::error_already_set();
  return py::reinterpret_steal<py::array_t<double>>(arr);
}

py::str nameToPython(const std::string& name) {
  PyObject* s = PyUnicode_DecodeUTF8(name.data(), (Py_ssize_t)name.size(), "surrogateescape");
  if (!s) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(s);
}

void checkSize(Py_ssize_t n, Py_ssize_t expected, const char* name) {
  if (n != expected) throw py::value_error(sizeMessage(name, (int)expected, n));
}

void checkIndex(long i, long n, const char* what) {
  if (i < 0 || i >= n)
    throw py::index_error(std::string(what) + " index " + std::to_string(i) + " out of range [0, " +
                          std::to_string(n) + ")");
}

}  // namespace klampt_py
