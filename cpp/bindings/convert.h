// Conversions between Python objects and core types, shared by the bindings.
// Vectors accept lists, tuples and numpy arrays; sizes are checked and give
// ValueError naming the argument.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <string>
#include <vector>
#include "klampt/math/types.h"

namespace klampt_py {

namespace py = pybind11;
using klampt::Matrix3;
using klampt::RigidTransform;
using klampt::Vector3;
using klampt::VectorX;

/// Reads exactly `expected` floats into `out` (no allocation for lists and tuples).
void readDoubles(py::handle obj, Py_ssize_t expected, const char* name, double* out);
/// Reads a sequence of floats into `out`; `expected` < 0 accepts any length.
void readVector(py::handle obj, int expected, const char* name, VectorX& out);
VectorX toVector(py::handle obj, int expected, const char* name);
Vector3 toVector3(py::handle obj, const char* name);
/// A column-major 9-float rotation (klampt.math.so3).
Matrix3 toRotation(py::handle obj, const char* name);
/// An integer argument (int, numpy integer, anything with __index__).
long toIndex(py::handle obj, const char* name);
std::vector<int> toIntList(py::handle obj, const char* name);

py::list toList(const VectorX& v);
py::list toList(const Vector3& v);
py::list toList(const std::vector<double>& v);
py::list rotationToList(const Matrix3& R);
/// (R, t) as Klamp't returns transforms: a tuple of two lists. T is taken by
/// value: building the lists may run Python code that moves the original.
py::tuple transformToTuple(RigidTransform T);
/// A new C-contiguous float64 array of the given shape (at most 3 dimensions).
py::array_t<double> newArray(std::initializer_list<py::ssize_t> shape);

/// A name from a file as a Python str. Bytes that are not UTF-8 decode with
/// surrogateescape (as the reference's SWIG layer does) instead of raising.
py::str nameToPython(const std::string& name);

/// Raises ValueError ("name must have expected elements, got n") unless n == expected.
void checkSize(Py_ssize_t n, Py_ssize_t expected, const char* name);

/// Raises IndexError unless 0 <= i < n.
void checkIndex(long i, long n, const char* what);

}  // namespace klampt_py
