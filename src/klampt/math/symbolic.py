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

from . import (_symbolic_types, _symbolic_variable, _symbolic_expressions, _symbolic_utils, _symbolic_function,
               _symbolic_context)
from ._symbolic_types import (  # noqa: F401
    SCALAR_TYPES, ARRAY_TYPES, BUILTIN_TYPES, Type, Numeric, Integer, Boolean, Index, Vector, Vector2, Vector3, Matrix,
    Matrix2, Matrix3, supertype, type_of)
from ._symbolic_variable import Variable  # noqa: F401
from ._symbolic_expressions import (  # noqa: F401
    Expression, Wildcard, ConstantExpression, UserDataExpression, VariableExpression, OperatorExpression,
    const, is_const, to_const, expr)
from ._symbolic_utils import (  # noqa: F401
    is_scalar, to_scalar, is_zero, is_var, to_var, is_sparse, is_expr, is_op, deriv, simplify, to_monomial,
    to_polynomial)
from ._symbolic_function import VAR_DERIV_PREFIX, TYPE_CHECKING, SHAPE_CHECKING, Function  # noqa: F401
from ._symbolic_context import Context  # noqa: F401
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

# The layers' classes and functions are documented, printed and pickled as this module's.
_LAYERS = {m.__name__ for m in (_symbolic_types, _symbolic_variable, _symbolic_expressions, _symbolic_utils,
                                _symbolic_function, _symbolic_context)}
for _obj in list(vars().values()):
    if getattr(_obj, '__module__', None) in _LAYERS and (isinstance(_obj, type) or callable(_obj)):
        _obj.__module__ = __name__
del _obj


class _SymbolicModule(types.ModuleType):
    """Setting the switches TYPE_CHECKING, SHAPE_CHECKING or VAR_DERIV_PREFIX
    here sets them where Function reads them."""

    def __setattr__(self, name, value):
        if name in ('TYPE_CHECKING', 'SHAPE_CHECKING', 'VAR_DERIV_PREFIX'):
            setattr(_symbolic_function, name, value)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _SymbolicModule
