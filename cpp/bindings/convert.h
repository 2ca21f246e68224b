// Conversions between Python objects and core types, shared by the bindings:
// the one vocabulary every binding uses to read its arguments. Vectors accept
// lists, tuples and numpy arrays. Errors name the argument with one wording:
// TypeError "<name> must be a sequence of numbers" (and the like) for a value
// of the wrong kind, ValueError "<name> must have n elements, got m" for a
// size and "<name> must be finite, got nan (element i)" for a value.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <string>
#include <vector>
#include "klampt/math/types.h"
#include "typed_args.h"

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
/// toVector as a std::vector, for the core functions that take one.
std::vector<double> toDoubleVector(py::handle obj, int expected, const char* name);
Vector3 toVector3(py::handle obj, const char* name);
/// A column-major 9-float rotation (klampt.math.so3).
Matrix3 toRotation(py::handle obj, const char* name);
/// An integer argument (int, numpy integer, anything with __index__).
long toIndex(py::handle obj, const char* name);
std::vector<int> toIntList(py::handle obj, const char* name);

// ---- values that must be finite (NaNs must not reach the core)

/// Raises ValueError ("name must be finite, got nan") unless v is finite; returns v.
double toFinite(double v, const char* name);
/// A number that is not NaN (infinity allowed: bounds, tolerances): "name must not be NaN, got nan".
double toNotNaN(double v, const char* name);
/// A finite v >= 0 (sizes, margins, radii, durations): "name must be finite and >= 0, got v".
double toNonNegative(double v, const char* name);
/// A finite v > 0 (time steps): "name must be finite and > 0, got v".
double toPositive(double v, const char* name);
/// Raises ValueError ("name must be finite, got inf (element i)") unless all n values are finite.
void checkFinite(const double* v, Py_ssize_t n, const char* name);
/// Raises ValueError ("name must not be NaN, got nan (element i)") if a value is NaN; infinities
/// pass (limits: an unbounded joint has infinite limits).
void checkNotNaN(const double* v, Py_ssize_t n, const char* name);
/// readVector, then checkFinite.
void readFiniteVector(py::handle obj, int expected, const char* name, VectorX& out);
VectorX toFiniteVector(py::handle obj, int expected, const char* name);
Vector3 toFiniteVector3(py::handle obj, const char* name);
/// A finite nonzero 3-vector (an axis): ValueError "name must be a nonzero vector" for zero.
Vector3 toAxis(py::handle obj, const char* name);
Matrix3 toFiniteRotation(py::handle obj, const char* name);
/// A finite transform from its rotation (argument "R") and translation ("t").
RigidTransform toTransform(py::handle R, py::handle t);
/// A limit vector: infinite entries allowed, NaN not.
VectorX toLimits(py::handle obj, int expected, const char* name);
/// A sequence of finite 3-vectors.
std::vector<Vector3> toPointList(py::handle obj, const char* name);

// ---- arrays

using PointArray = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
/// An n x cols array of finite floats (any nested sequence or array); cols < 0
/// accepts any width; an empty sequence is an empty array.
RowMatrix readMatrix(py::handle obj, int cols, const char* name);
/// An n x 3 array of finite floats (any sequence of 3-sequences).
PointArray readPointArray(py::handle obj, const char* name);

FloatList toList(const VectorX& v);
FloatList toList(const Vector3& v);
FloatList toList(const std::vector<double>& v);
FloatList rotationToList(const Matrix3& R);
/// Two lists of floats: a transform (R, t), R column-major 9 floats, or a
/// bounding box (bmin, bmax).
using ListPair = py::typing::Tuple<FloatList, FloatList>;
using TransformTuple = ListPair;
/// (a, b) as a tuple of two lists (a and b: anything toList takes).
template <class A, class B>
ListPair toListPair(const A& a, const B& b) {
  FloatList la = toList(a), lb = toList(b);
  return py::reinterpret_steal<ListPair>(py::make_tuple(std::move(la), std::move(lb)).release());
}
/// (R, t) as Klamp't returns transforms: a tuple of two lists. T is taken by
/// value: building the lists may run Python code that moves the original.
TransformTuple transformToTuple(RigidTransform T);
/// A new C-contiguous float64 array of the given shape (at most 3 dimensions).
py::array_t<double> newArray(std::initializer_list<py::ssize_t> shape);

/// A name from a file as a Python str. Bytes that are not UTF-8 decode with
/// surrogateescape (as the reference's SWIG layer does) instead of raising.
py::str nameToPython(const std::string& name);

/// Raises ValueError ("name must have expected elements, got n") unless n == expected.
void checkSize(Py_ssize_t n, Py_ssize_t expected, const char* name);

/// Raises IndexError unless 0 <= i < n.
void checkIndex(long i, long n, const char* what);
/// checkIndex for each of a list of indices. Check after converting every
/// argument: a conversion may run Python code that changes n.
void checkIndices(const std::vector<int>& indices, long n, const char* what);

}  // namespace klampt_py
