"""Symbolic :class:`Function` objects, which build OperatorExpressions when
called and hold their argument types, derivatives, simplifiers and printers,
and the switches they read (:data:`TYPE_CHECKING`, :data:`VAR_DERIV_PREFIX`).

Built on the type, expression and helper layers; the Jacobians of
Expression-based Functions come from the engine through ``_services``.
"""

import copy
import inspect

from ._symbolic_types import Type, _INT_TYPES, _NUMERIC_TYPES, _services, type_of
from ._symbolic_variable import Variable
from ._symbolic_expressions import (Expression, OperatorExpression, UserDataExpression, VariableExpression,
                                    _Env, _evaluate, _short, expr, is_const, to_const)
from ._symbolic_utils import is_scalar, is_op

# Switches, set through klampt.math.symbolic: argument type checking when a
# Function is called, and the prefix of the direction argument of derivatives
# (SHAPE_CHECKING is the reference API's name; no check reads it).
VAR_DERIV_PREFIX = 'D'
TYPE_CHECKING = True
SHAPE_CHECKING = True


class _InfoDoc:
    """A docstring that is the class's own on the class and ``info()`` on an
    instance, so that help(f) describes the function f."""

    def __init__(self, doc):
        self.doc = doc

    def __get__(self, obj, cls=None):
        return self.doc if obj is None else obj.info()


class Function:
    """A symbolic function.  Calling it on arguments builds an
    :class:`OperatorExpression`.

    Args:
        name (str): the name used in printing and IO.
        func (callable or Expression): the Python function, or an Expression
            whose Variables / user data named in ``argNames`` are the
            arguments.
        argNames (list of str or '...', optional): argument names; taken
            from the Python signature if omitted, '...' (or None) for a
            variable number of arguments.
        returnType (Type, str or callable, optional): the return type, or a
            function of the argument expressions returning it.

    Derivatives are declared with :meth:`setDeriv` (Jacobian-vector
    products), :meth:`setJacobian` (Jacobians) or :meth:`autoSetJacobians`
    (Expression functions).
    """

    def __init__(self, name, func, argNames=None, returnType=None):
        self.name = name
        self.description = None
        self.func = func
        self.argNames = argNames
        self.argTypes = None
        self.argDescriptions = None
        self.returnType = None
        self.returnTypeFunc = None
        self.returnTypeDescription = None
        self.setReturnType(returnType)
        if argNames is None and callable(func) and not isinstance(func, Expression):
            try:
                spec = inspect.getfullargspec(func)
                if spec.varargs is None and spec.varkw is None:
                    self.argNames = list(spec.args)
            except TypeError:
                self.argNames = None
        if self.argNames == '...':
            self.argNames = None
        if self.argNames is not None:
            self.argNames = list(self.argNames)
        self.exprArgRefs = None
        if isinstance(func, Expression):
            if self.argNames is None:
                raise ValueError("Cannot use an Expression as a function with variable arguments")
            if returnType is None:
                self.returnType = func.returnType()
            self.exprArgRefs = []
            for arg in self.argNames:
                ref = func.find(UserDataExpression(arg))
                if ref is None:
                    ref = func.find(VariableExpression(Variable(arg, None)))
                if ref is None:
                    raise ValueError("Expression-based function %s does not contain specified argument %s" % (str(func), arg))
                self.exprArgRefs.append(ref)
            self.argTypes = [None if isinstance(e, UserDataExpression) else e.returnType() for e in self.exprArgRefs]
        self.deriv = None
        if self.returnType is not None and self.returnType.char is not None and self.returnType.char in 'BI':
            self.deriv = 0
        self.colstackderiv = None
        self.rowstackderiv = None
        self.jacobian = None
        self.presimplifier = None
        self.simplifier = None
        self.presimplifierDict = dict()
        self.simplifierDict = dict()
        self.properties = dict()
        self.printers = dict()
        self.custom_eval = None
        self._symderiv = None
        self._dirderiv = None

    def __call__(self, *args):
        if self.argNames is not None and len(args) != len(self.argNames):
            raise ValueError("Invalid number of arguments passed to %s: %d, expected %d" % (self.name, len(args), len(self.argNames)))
        if TYPE_CHECKING and self.argTypes is not None:
            for i, (a, t) in enumerate(zip(args, self.argTypes)):
                if t is None:
                    continue
                at = type_of(expr(a)) if not isinstance(a, str) else Type('U')
                if at.char == 'U' and not isinstance(a, str):
                    continue
                if not t.match(at):
                    raise ValueError("Invalid argument %d (%s) passed to %s: type %s doesn't match %s" % (i, _short(a), self.name, at, t))
        return self._call(*args)

    def _call(self, *args):
        """Builds the OperatorExpression without type checking."""
        if isinstance(self.func, Expression):
            return OperatorExpression(self, args, self._expr_op)
        return OperatorExpression(self, args)

    def _expr_op(self, *argvals):
        overrides = {}
        for ref, v in zip(self.exprArgRefs, argvals):
            overrides[ref.name if isinstance(ref, UserDataExpression) else ref.var.name] = v
        return _evaluate(self.func, _Env(None, overrides), {})

    @property
    def expr(self):
        """The Expression of an Expression-based function (None otherwise)."""
        return self.func if isinstance(self.func, Expression) else None

    def optimized(self, *args):
        """Like ``self(*args).simplify(depth=1)``: applies the function
        directly to constant arguments and runs the simplifiers."""
        res = self(*args)
        return _services['simplify'](res, None, 1)

    def checkArg(self, arg):
        """Normalizes an argument index or name to ``(index, name)``."""
        if isinstance(arg, str):
            if self.argNames is None:
                raise ValueError("Can't get an argument by name for a variable-argument function")
            if arg not in self.argNames:
                raise ValueError("Function %s has no argument %s" % (self.name, arg))
            return self.argNames.index(arg), arg
        if not isinstance(arg, _INT_TYPES) or arg < 0:
            raise ValueError("Invalid argument specified: " + repr(arg))
        if self.argNames is None:
            return int(arg), 'arg_' + str(arg)
        if arg >= len(self.argNames):
            raise ValueError("Invalid argument specified: " + repr(arg))
        return int(arg), self.argNames[arg]

    def _nargs_list(self, current):
        if self.argNames is None:
            raise ValueError("Derivatives can only be declared for functions with named arguments")
        if current is None:
            return [None] * len(self.argNames)
        if isinstance(current, _NUMERIC_TYPES):
            return [0] * len(self.argNames)
        return current

    def setDeriv(self, arg, dfunc, asExpr=False, stackable=False):
        """Declares the derivative with respect to argument ``arg`` (index or
        name) as a Jacobian-vector product ``dfunc(arg1,...,argn,darg)``:
        an Expression of the argument names and 'd'+arg, a Function, a
        Python function (returning an Expression if ``asExpr``), None
        (undefined) or 0 (identically zero).  ``darg`` has the shape of the
        argument and the result the shape of the function value.
        ``stackable`` is accepted for compatibility: derivatives are always
        applied one direction at a time."""
        aindex, name = self.checkArg(arg)
        self.deriv = self._nargs_list(self.deriv)
        if isinstance(dfunc, Expression):
            refs = list(self.exprArgRefs or [UserDataExpression(a) for a in self.argNames]) + [UserDataExpression('d' + name)]
            self.deriv[aindex] = ('expr', dfunc, refs)
        elif isinstance(dfunc, Function) or dfunc is None or _is_zero_const(dfunc):
            self.deriv[aindex] = dfunc
        elif callable(dfunc):
            self.deriv[aindex] = ('asexpr', dfunc) if asExpr else Function(self.name + "_deriv_" + name, dfunc, self.argNames + [VAR_DERIV_PREFIX + name])
        else:
            raise TypeError("Unexpected type of dfunc %s" % dfunc.__class__.__name__)
        if stackable in (True, 'col'):
            self.colstackderiv = self._nargs_list(self.colstackderiv)
            self.colstackderiv[aindex] = self.deriv[aindex]
        elif stackable == 'row':
            self.rowstackderiv = self._nargs_list(self.rowstackderiv)
            self.rowstackderiv[aindex] = self.deriv[aindex]

    def setJacobian(self, arg, dfunc, asExpr=False):
        """Declares the Jacobian with respect to argument ``arg``:
        ``dfunc(arg1,...,argn)`` of shape shape(self) + shape(arg) (an
        Expression of the argument names, a Function, a Python function,
        None or 0)."""
        aindex, name = self.checkArg(arg)
        self.deriv = self._nargs_list(self.deriv)
        if self.jacobian is None:
            self.jacobian = [None] * len(self.argNames)
        if isinstance(dfunc, Expression):
            refs = list(self.exprArgRefs or [UserDataExpression(a) for a in self.argNames])
            self.jacobian[aindex] = ('expr', dfunc, refs)
        elif isinstance(dfunc, Function) or dfunc is None or _is_zero_const(dfunc):
            self.jacobian[aindex] = dfunc
        elif callable(dfunc):
            self.jacobian[aindex] = ('asexpr', dfunc) if asExpr else Function(self.name + "_jacobian_" + name, dfunc, self.argNames)
        else:
            raise TypeError("Unexpected type of dfunc %s" % dfunc.__class__.__name__)

    def autoSetJacobians(self, args=None):
        """Sets the Jacobians of an Expression-based function from the
        derivatives of its expression (all arguments, or those in ``args``)."""
        if not isinstance(self.func, Expression):
            raise ValueError("Can only auto-set jacobians for Expressions")
        for arg in (self.argNames if args is None else args):
            aindex, name = self.checkArg(arg)
            ref = self.exprArgRefs[aindex]
            if isinstance(ref, UserDataExpression):
                raise ValueError("Can't take derivatives with respect to user data argument " + name)
            J = _services['jacobian_tensor'](self.func, ref.var)
            self.setJacobian(aindex, 0 if J is None else J)

    def setReturnType(self, type):
        """Sets the return type: a Type, a type character, or a function of
        the argument expressions returning a Type."""
        if type is None:
            return
        if callable(type) and not isinstance(type, Type):
            self.returnTypeFunc = type
        else:
            self.returnType = Type(type)

    def setArgType(self, arg, type):
        """Sets the Type of an argument (index or name)."""
        index, _ = self.checkArg(arg)
        if self.argTypes is None:
            self.argTypes = [None] * len(self.argNames)
        self.argTypes[index] = Type(type)

    def getArgType(self, arg):
        """The Type of an argument (index or name), or None."""
        if self.argTypes is None:
            return None
        index, _ = self.checkArg(arg)
        return self.argTypes[index]

    def addSimplifier(self, signatures, func, pre=False):
        """Adds a simplification rule applied when the arguments match
        ``signatures``: a list with one entry per argument, each None (any),
        '_const' (constant), '_scalar' (known scalar), '_returnType' (known
        return type) or a function name (the argument is a call of it).
        ``func(*args)`` returns the replacement or None."""
        d = self.presimplifierDict if pre else self.simplifierDict
        d.setdefault(tuple(signatures), []).append(func)

    def simplify(self, args, pre=False):
        """Applies the matching simplification rules to the argument list;
        returns the simplified Expression / value or None."""
        d = self.presimplifierDict if pre else self.simplifierDict
        for sig, funcs in d.items():
            if len(sig) != len(args) and not (len(sig) == 1 and sig[0] == '*'):
                continue
            if not all(_sig_match(s, a) for s, a in zip(sig, args)):
                continue
            cargs = [to_const(a) if s in ('_const', '_scalar') else a for s, a in zip(sig, args)]
            for func in funcs:
                res = func(*cargs)
                if res is not None:
                    return res
        if not pre and self.simplifier is not None:
            return self.simplifier(*args)
        if pre and self.presimplifier is not None:
            return self.presimplifier(*args)
        return None

    def info(self):
        """A text description of the function, its arguments, return type
        and derivatives."""
        argstr = '...' if self.argNames is None else ','.join(self.argNames)
        lines = ["Function %s(%s)" % (self.name, argstr)]
        if self.description:
            lines.append("  " + self.description)
        if self.argTypes is not None:
            for n, t in zip(self.argNames, self.argTypes):
                lines.append("  - %s: %s" % (n, 'unknown' if t is None else t.info()))
        if self.returnType is not None:
            lines.append("  Returns: " + self.returnType.info())
        has = (self._symderiv is not None or self._dirderiv is not None or isinstance(self.func, Expression)
               or isinstance(self.deriv, list) or self.jacobian is not None)
        lines.append("  Derivatives: " + ("defined" if has else ("zero" if self.deriv == 0 else "undefined")))
        return '\n'.join(lines)

    __doc__ = _InfoDoc(__doc__)


def _copy_function(f):
    newf = copy.copy(f)
    newf.properties = dict(f.properties)
    newf.printers = dict(f.printers)
    newf.simplifierDict = dict(f.simplifierDict)
    newf.presimplifierDict = dict(f.presimplifierDict)
    return newf


def _is_zero_const(v):
    return isinstance(v, _NUMERIC_TYPES) and not isinstance(v, bool) and v == 0


def _sig_match(s, a):
    if s is None or s == '*':
        return True
    if s == '_const':
        return is_const(a)
    if s == '_scalar':
        return is_const(a) and is_scalar(a)
    if s == '_returnType':
        return type_of(a).char is not None
    return is_op(a, s)
