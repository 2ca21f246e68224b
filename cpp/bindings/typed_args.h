// Argument types that say, in the generated stubs, what a binding taking a raw
// Python object accepts. Each is a py::object that loads any value (the
// converters in convert.h check it) and is named in the signature pybind11
// writes, which pybind11-stubgen copies into src/klampt/_robotsim.pyi.
#pragma once
#include <pybind11/pybind11.h>
#include <pybind11/typing.h>

namespace klampt_py {

namespace py = pybind11;

namespace detail {
inline bool anyValue(PyObject*) { return true; }
}  // namespace detail

/// A py::object whose signature name is Hint::name.
template <class Hint>
class TypedArg : public py::object {
 public:
  PYBIND11_OBJECT_DEFAULT(TypedArg, object, detail::anyValue)
};

/// Declares hints::Name, whose `name` is the type text a TypedArg shows in signatures.
#define KLAMPT_TYPE_HINT(Name, text)                               \
  struct Name {                                                \
    static constexpr auto name = py::detail::const_name(text); \
  }

namespace hints {
KLAMPT_TYPE_HINT(Floats, "collections.abc.Sequence[float] | numpy.ndarray");
KLAMPT_TYPE_HINT(Ints, "collections.abc.Sequence[int] | numpy.ndarray");
KLAMPT_TYPE_HINT(Array, "numpy.typing.ArrayLike");
KLAMPT_TYPE_HINT(FloatRows, "collections.abc.Sequence[collections.abc.Sequence[float]]");
KLAMPT_TYPE_HINT(OptionalStr, "str | None");
KLAMPT_TYPE_HINT(IndexOrName, "typing.SupportsIndex | str");
KLAMPT_TYPE_HINT(OptionalArray, "numpy.typing.ArrayLike | None");
KLAMPT_TYPE_HINT(Viewport, "klampt._viewport.Viewport");
}  // namespace hints

/// A vector of floats: a list, a tuple or a 1-D array (points, directions,
/// rotations as 9 column-major floats, configurations, gains, colors).
using FloatsArg = TypedArg<hints::Floats>;
/// A sequence of integers (link or driver indices).
using IntsArg = TypedArg<hints::Ints>;
/// Anything numpy.asarray takes (point arrays, images, grids).
using ArrayArg = TypedArg<hints::Array>;
/// A sequence of 3-vectors.
using PointsArg = TypedArg<hints::FloatRows>;
/// A string or None.
using OptionalStrArg = TypedArg<hints::OptionalStr>;
/// An element given by index or by name.
using IndexOrNameArg = TypedArg<hints::IndexOrName>;
/// An array, or None.
using OptionalArrayArg = TypedArg<hints::OptionalArray>;
/// A klampt.Viewport (a Python class): taken and returned by heightmaps.
using ViewportArg = TypedArg<hints::Viewport>;

/// A Python object that is an instance of the bound class T, and is named T
/// in signatures: what a binding returns when it hands back an existing
/// object, or a copy carrying the original's Python attributes.
template <class T>
class InstanceOf : public py::object {
 public:
  PYBIND11_OBJECT_DEFAULT(InstanceOf, object, detail::anyValue)
};

/// What toList returns: a list of floats.
using FloatList = py::typing::List<float>;

}  // namespace klampt_py

namespace pybind11::detail {
template <class Hint>
struct handle_type_name<klampt_py::TypedArg<Hint>> {
  static constexpr auto name = Hint::name;
};
template <class T>
struct handle_type_name<klampt_py::InstanceOf<T>> {
  static constexpr auto name = make_caster<T>::name;
};
}  // namespace pybind11::detail
