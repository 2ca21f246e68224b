"""Symbolic expressions: variables, expression graphs, evaluation, simplification
and symbolic differentiation (Jacobians with respect to scalar, vector and
matrix variables).

Basic usage::

    ctx = Context()
    x = ctx.addVar("x", 'N')
    y = ctx.addVar("y", 'N')
    print(x + y)                              # x + y, an Expression
    print((x + y).eval({'x': 5, 'y': 3}))     # 8
    print(flatten(x, y).eval({'x': 5, 'y': 3}))  # [5 3]
    x.bind(5); y.bind(3)
    print((x + y).evalf())                    # 8
    x.unbind(); y.unbind()

Types are described by :class:`Type` whose ``char`` is one of N (numeric),
I (integer), B (boolean), X (index), V (vector), M (matrix), A (array),
L (list), U (user data) or None (unknown).

Python strings passed to symbolic functions refer to user data (see
:meth:`Context.addUserData`); use :func:`const` for string constants.

Derivatives (:func:`deriv`) follow the matrix-calculus convention: the
derivative of an m-vector with respect to an n-vector is an m x n matrix,
of a scalar with respect to a vector is a vector, and matrices (and other
non-vector values) are flattened row-major before differentiating.
``None`` is returned when some function in the expression has no derivative.

Unlike Klamp't 0.9.2, ``eval`` returns a plain constant (not a
ConstantExpression) when the result is constant, as 0.9.2 actually did;
``log`` is the natural logarithm in both.
"""

import sys
import types

from . import _symbolic_core
from ._symbolic_core import (  # noqa: F401
    SCALAR_TYPES, ARRAY_TYPES, BUILTIN_TYPES, VAR_DERIV_PREFIX, TYPE_CHECKING, SHAPE_CHECKING, Type, Numeric,
    Integer, Boolean, Index, Vector, Vector2, Vector3, Matrix, Matrix2, Matrix3, supertype, type_of, Context,
    Variable, Expression, Wildcard, ConstantExpression, UserDataExpression, VariableExpression, OperatorExpression,
    Function, const, is_const, to_const, is_scalar, to_scalar, is_zero, is_var, to_var, is_sparse, expr, is_expr,
    is_op, deriv, simplify, to_monomial, to_polynomial)
from ._symbolic_library import (  # noqa: F401
    range_, len_, count, shape, reshape, transpose, transpose2, dims, eye, basis, zero, diag, eq, ne, le, ge,
    not_, or_, and_, neg, abs_, sign, add, sub, mul, div, pow_, dot, outer, tensordot, if_, max_, min_, argmax,
    argmin, cos, sin, tan, arccos, arcsin, arctan, arctan2, sqrt, exp, log, ln, sum_, any_, all_, getitem, setitem,
    getattr_, setattr_, flatten, row_stack, column_stack, array, list_, tuple_, zip_, weightedsum, subs, map_,
    forall, forsome, summation, dotshape, dottype, dot_setitem_simplifier1, dot_setitem_simplifier2)
from ._symbolic_library import _builtin_functions, _infix_operators, _prefix_operators, _python_naming_changes  # noqa: F401
from ._symbolic_library import _flatten  # noqa: F401  (used by code written for Klamp't's optimize module)
from ._symbolic_engine import _derivative, _jacobian_tensor, _simplify  # noqa: F401
from . import _symbolic_print  # noqa: F401  (registers the printer of str and repr)
from ._symbolic_rules import install as _install_rules

_install_rules()

# The core's classes and functions are documented, printed and pickled as this module's.
for _obj in list(vars().values()):
    if getattr(_obj, '__module__', None) == _symbolic_core.__name__ and (isinstance(_obj, type) or callable(_obj)):
        _obj.__module__ = __name__
del _obj


class _SymbolicModule(types.ModuleType):
    """Setting the switches TYPE_CHECKING, SHAPE_CHECKING or VAR_DERIV_PREFIX
    here sets them where the core classes read them."""

    def __setattr__(self, name, value):
        if name in ('TYPE_CHECKING', 'SHAPE_CHECKING', 'VAR_DERIV_PREFIX'):
            setattr(_symbolic_core, name, value)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _SymbolicModule
