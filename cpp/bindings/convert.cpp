#include "convert.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

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

std::vector<double> toDoubleVector(py::handle obj, int expected, const char* name) {
  const VectorX v = toVector(obj, expected, name);
  return std::vector<double>(v.data(), v.data() + v.size());
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

namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

[[noreturn]] void badValue(const char* name, const char* rule, double v, Py_ssize_t element = -1) {
  std::string msg = std::string(name) + " must " + rule + ", got " + number(v);
  if (element >= 0) msg += " (element " + std::to_string(element) + ")";
  throw py::value_error(msg);
}

}  // namespace

double toFinite(double v, const char* name) {
  if (!std::isfinite(v)) badValue(name, "be finite", v);
  return v;
}

double toNotNaN(double v, const char* name) {
  if (std::isnan(v)) badValue(name, "not be NaN", v);
  return v;
}

double toNonNegative(double v, const char* name) {
  if (!(v >= 0) || !std::isfinite(v)) badValue(name, "be finite and >= 0", v);
  return v;
}

double toPositive(double v, const char* name) {
  if (!(v > 0) || !std::isfinite(v)) badValue(name, "be finite and > 0", v);
  return v;
}

void checkFinite(const double* v, Py_ssize_t n, const char* name) {
  for (Py_ssize_t i = 0; i < n; ++i)
    if (!std::isfinite(v[i])) badValue(name, "be finite", v[i], n > 1 ? i : -1);
}

void checkNotNaN(const double* v, Py_ssize_t n, const char* name) {
  for (Py_ssize_t i = 0; i < n; ++i)
    if (std::isnan(v[i])) badValue(name, "not be NaN", v[i], n > 1 ? i : -1);
}

void readFiniteVector(py::handle obj, int expected, const char* name, VectorX& out) {
  readVector(obj, expected, name, out);
  checkFinite(out.data(), out.size(), name);
}

VectorX toFiniteVector(py::handle obj, int expected, const char* name) {
  VectorX v;
  readFiniteVector(obj, expected, name, v);
  return v;
}

Vector3 toFiniteVector3(py::handle obj, const char* name) {
  Vector3 v = toVector3(obj, name);
  checkFinite(v.data(), 3, name);
  return v;
}

Vector3 toAxis(py::handle obj, const char* name) {
  Vector3 v = toFiniteVector3(obj, name);
  if (!(v.norm() > 0)) throw py::value_error(std::string(name) + " must be a nonzero vector");
  return v;
}

Matrix3 toFiniteRotation(py::handle obj, const char* name) {
  double v[9];
  readDoubles(obj, 9, name, v);
  checkFinite(v, 9, name);
  return klampt::rotationFromColumnMajor(v);
}

RigidTransform toTransform(py::handle R, py::handle t) {
  RigidTransform T;
  T.R = toFiniteRotation(R, "R");
  T.t = toFiniteVector3(t, "t");
  return T;
}

VectorX toLimits(py::handle obj, int expected, const char* name) {
  VectorX v;
  readVector(obj, expected, name, v);
  checkNotNaN(v.data(), v.size(), name);
  return v;
}

std::vector<Vector3> toPointList(py::handle obj, const char* name) {
  std::vector<Vector3> pts;
  for (py::handle p : py::iter(obj)) pts.push_back(toFiniteVector3(p, name));
  return pts;
}

RowMatrix readMatrix(py::handle obj, int cols, const char* name) {
  auto arr = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(obj);
  if (!arr) throw py::type_error(std::string(name) + " must be a 2D array of numbers");
  if (arr.ndim() == 1 && arr.shape(0) == 0) return RowMatrix(0, cols < 0 ? 0 : cols);
  if (arr.ndim() != 2 || (cols >= 0 && arr.shape(1) != cols))
    throw py::value_error(std::string(name) + " must be an n x " + (cols >= 0 ? std::to_string(cols) : "k") +
                          " array");
  checkFinite(arr.data(), arr.size(), name);
  return Eigen::Map<const RowMatrix>(arr.data(), arr.shape(0), arr.shape(1));
}

PointArray readPointArray(py::handle obj, const char* name) { return readMatrix(obj, 3, name); }

static FloatList newList(Py_ssize_t n) {
  PyObject* l = PyList_New(n);
  if (!l) throw py::error_already_set();
  return py::reinterpret_steal<FloatList>(l);
}

static void fill(FloatList& l, const double* v, Py_ssize_t n) {
  for (Py_ssize_t i = 0; i < n; ++i) PyList_SET_ITEM(l.ptr(), i, PyFloat_FromDouble(v[i]));
}

// Creating a list can run a garbage-collector finalizer, that is, Python code
// that may resize or move what is being converted: fixed-size values are
// copied before, vectors read after (and checked).
template <class Vector>
static FloatList vectorList(const Vector& v) {
  const Py_ssize_t n = (Py_ssize_t)v.size();
  FloatList l = newList(n);
  if ((Py_ssize_t)v.size() != n) throw std::runtime_error("a vector was resized while it was being read");
  fill(l, v.data(), n);
  return l;
}

FloatList toList(const VectorX& v) { return vectorList(v); }
FloatList toList(const std::vector<double>& v) { return vectorList(v); }

FloatList toList(const Vector3& v) {
  const Vector3 copy = v;
  FloatList l = newList(3);
  fill(l, copy.data(), 3);
  return l;
}

FloatList rotationToList(const Matrix3& R) {
  const Matrix3 copy = R;
  FloatList l = newList(9);
  fill(l, copy.data(), 9);  // Eigen's default storage is column-major, as klampt.math.so3 is.
  return l;
}

TransformTuple transformToTuple(RigidTransform T) {
  FloatList R = rotationToList(T.R), t = toList(T.t);
  PyObject* pair = PyTuple_New(2);
  if (!pair) throw py::error_already_set();
  PyTuple_SET_ITEM(pair, 0, R.release().ptr());
  PyTuple_SET_ITEM(pair, 1, t.release().ptr());
  return py::reinterpret_steal<TransformTuple>(pair);
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

void checkIndices(const std::vector<int>& indices, long n, const char* what) {
  for (int i : indices) checkIndex(i, n, what);
}

}  // namespace klampt_py
