"""The core of :mod:`klampt.math.symbolic`: types, contexts, variables,
expressions and Functions.

This module imports none of the other symbolic modules. The builtin function
library, the differentiation and simplification engine and the printer are
built on it and register themselves in :data:`_builtin_functions` and
:data:`_services`; :mod:`klampt.math.symbolic` imports and installs them all.
"""

import math
import warnings
import inspect

import numpy as np

SCALAR_TYPES = 'NIB'
ARRAY_TYPES = 'AVM'
BUILTIN_TYPES = 'NIBAVMX'
VAR_DERIV_PREFIX = 'D'
TYPE_CHECKING = True
SHAPE_CHECKING = True

_INT_TYPES = (int, np.integer)
_FLOAT_TYPES = (float, np.floating)
_NUMERIC_TYPES = _INT_TYPES + _FLOAT_TYPES
_CONST_TYPES = _NUMERIC_TYPES + (bool, np.bool_, np.ndarray)

# Builtin Functions by name, filled by the function library.
_builtin_functions = {}
# Differentiation, simplification and printing, registered by the modules that
# implement them (they are built on this one, so it cannot import them).
_services = {}


def _builtin(name, *args):
    return _builtin_functions[name](*args)



# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------

class Type:
    """A specification of a variable / expression type.

    Attributes:
        char (str or None): N, I, B, X, A, V, M, L, U, or None (unknown).
        size: None (unspecified), the length (V and L types) or the Numpy
            shape (A and M types).
        subtype: for U, the class name; for L, a Type of the elements or a
            list of the element Types; for arrays, the element Type.
    """

    def __init__(self, type, size=None, subtype=None):
        if isinstance(type, Type):
            self.char = type.char
            self.size = type.size if size is None else size
            self.subtype = type.subtype if subtype is None else _subtype(subtype)
        else:
            if type is not None and not isinstance(type, str):
                raise TypeError("Type specifier must be a str or Type, not " + type.__class__.__name__)
            if type is not None and len(type) > 1:
                self.char, self.size, self.subtype = 'U', size, type
            else:
                if type is not None and type not in 'NIBXAVMLU':
                    raise ValueError("Invalid type character " + repr(type))
                self.char, self.size, self.subtype = type, size, _subtype(subtype)
        if isinstance(self.size, dict):
            hyper = self.size
            self.char = 'L'
            self.size = len(hyper)
            self.subtype = [Type('L', v) if isinstance(v, dict) else Type('A', v) for _, v in sorted(hyper.items())]
        elif isinstance(self.size, (list, tuple, np.ndarray)):
            self.size = tuple(int(s) for s in self.size)
        elif self.size is not None:
            if not isinstance(self.size, _INT_TYPES):
                raise TypeError("Type size must be an integer or shape, not " + repr(self.size))
            self.size = int(self.size)
        if self.char == 'A' and isinstance(self.size, int):
            self.size = (self.size,)
        if self.char == 'M' and isinstance(self.size, int):
            raise ValueError("Matrix types need a 2D shape")
        if self.char == 'V' and isinstance(self.size, tuple):
            if len(self.size) != 1:
                raise ValueError("Vector types need a length")
            self.size = self.size[0]

    def is_scalar(self):
        """True if this is a numeric, integer or boolean type."""
        return self.char is not None and self.char in SCALAR_TYPES

    def shape(self, hypershape=True):
        """The Numpy shape (tuple) of this type, or a hyper-shape (dict of
        index to shape) for lists of differently shaped items.  Raises
        ValueError if the shape is not determined."""
        if self.char is None:
            raise ValueError("Item of unknown type does not have a shape")
        if self.char in SCALAR_TYPES:
            return ()
        if self.size is None:
            raise ValueError("Item of type " + self.char + " does not have a defined size")
        if self.char == 'V':
            return (self.size,)
        if self.char in 'MA':
            return self.size
        if self.char == 'L' and hypershape and self.subtype is not None:
            if isinstance(self.subtype, list):
                shapes = [st.shape() for st in self.subtype]
            else:
                shapes = [self.subtype.shape()] * self.size
            if all(isinstance(s, tuple) and s == shapes[0] for s in shapes) and shapes:
                return (self.size,) + shapes[0]
            return dict(enumerate(shapes))
        raise ValueError("Item of type " + self.char + " does not map to a Numpy shape")

    def len(self):
        """The number of first-level items (0 for scalars), None if unknown."""
        if self.char is None:
            raise ValueError("Item of unknown type does not have a len")
        if self.char in SCALAR_TYPES:
            return 0
        if self.char in 'VL':
            return self.size
        if self.char in 'MA':
            return None if self.size is None else self.size[0]
        raise ValueError("Type " + self.char + " has no len")

    def count(self):
        """The number of numeric entries (1 for scalars), None if unknown."""
        if self.char is None:
            raise ValueError("Item of unknown type does not have a count")
        if self.char in SCALAR_TYPES:
            return 1
        if self.char == 'V':
            return self.size
        if self.char in 'MA':
            return None if self.size is None else int(np.prod(self.size))
        if self.char == 'L':
            if self.subtype is None:
                return self.size
            try:
                if isinstance(self.subtype, list):
                    return sum(st.count() for st in self.subtype)
                return self.size * self.subtype.count()
            except (TypeError, ValueError):
                return None
        raise ValueError("Type " + self.char + " has no count")

    def dims(self):
        """The number of dimensions of the shape of this type."""
        if self.char is None:
            raise ValueError("Item of unknown type does not have a dimensionality")
        if self.char in SCALAR_TYPES:
            return 0
        if self.char == 'V':
            return 1
        if self.char == 'M':
            return 2
        if self.char == 'A':
            if self.size is None:
                raise ValueError("Array of unspecified shape does not have a defined dimensionality")
            return len(self.size)
        if self.char == 'L':
            if self.subtype is None:
                raise ValueError("List of unspecified subtype does not have a defined dimensionality")
            if isinstance(self.subtype, list):
                return 1 + max(st.dims() for st in self.subtype)
            return 1 + self.subtype.dims()
        raise ValueError("Item of type " + self.char + " does not have a dimensionality")

    def match(self, obj, strict=False):
        """True if ``obj`` (a Type, a type character / class name, or a value)
        fits this specification.  Integers and booleans match numeric,
        vectors and matrices match arrays; unknown types match unless
        ``strict``."""
        if obj is None:
            return not strict
        if isinstance(obj, str):
            obj = Type(obj)
        elif not isinstance(obj, Type):
            obj = type_of(obj)
        if self.char is None:
            return True
        if obj.char is None:
            return not strict
        if obj.char == 'U' or self.char == 'U':
            if self.char != obj.char:
                return False
            return self.subtype is None or obj.subtype is None or self.subtype == obj.subtype
        if self.char == 'X':
            return obj.char in 'VIX' or (not strict and obj.char == 'N')
        if self.char in SCALAR_TYPES and obj.char in SCALAR_TYPES:
            return not strict or self.char == 'N' or self.char == obj.char
        if self.char in ARRAY_TYPES and obj.char in ARRAY_TYPES:
            if self.char != 'A' and obj.char != 'A' and self.char != obj.char:
                return False
            if self.size is None or obj.size is None:
                return self.size is None or not strict
            return _as_shape(self) == _as_shape(obj)
        if self.char == 'L' and obj.char in ARRAY_TYPES + 'L':
            if self.size is None:
                return True
            if obj.size is None:
                return not strict
            return obj.len() == self.size
        return False

    def itemtype(self, index=None):
        """The Type of x[i] for an array or list type, None otherwise."""
        if self.char == 'V':
            return Type('N') if self.subtype is None else self.subtype
        if self.char == 'M':
            return Type('V', None if self.size is None else self.size[1], self.subtype)
        if self.char == 'A':
            if self.size is None:
                return Type(None)
            if len(self.size) <= 1:
                return Type('N') if self.subtype is None else self.subtype
            return Type('M' if len(self.size) == 3 else 'A', self.size[1:], self.subtype)
        if self.char == 'L':
            if isinstance(self.subtype, list):
                return self.subtype[index] if index is not None else supertype(self.subtype)
            return self.subtype
        return None

    def __eq__(self, other):
        if not isinstance(other, Type):
            return NotImplemented
        return self.char == other.char and self.size == other.size and self.subtype == other.subtype

    def __hash__(self):
        return hash((self.char, self.size))

    def __str__(self):
        if self.char is None:
            return 'None'
        res = self.char
        if self.size is not None:
            res += ' size ' + str(self.size)
        if self.subtype is not None and self.char != 'U':
            if isinstance(self.subtype, list):
                res += ' (subtypes ' + ','.join(str(s) for s in self.subtype) + ')'
            else:
                res += ' (subtype ' + str(self.subtype) + ')'
        elif self.char == 'U' and self.subtype is not None:
            res += ' (subtype ' + str(self.subtype) + ')'
        return res

    __repr__ = __str__

    _TYPE_DESCRIPTIONS = {'N': 'numeric', 'I': 'int', 'B': 'bool', 'X': 'index (int or slice)',
                          'V': 'vector', 'M': 'matrix', 'A': 'array', 'L': 'list', 'U': 'user data'}

    def info(self):
        """A verbose, human readable description of this type."""
        if self.char is None:
            return 'unknown'
        desc = "%s (%s)" % (self._TYPE_DESCRIPTIONS[self.char], self.char)
        if self.size is not None:
            if isinstance(self.size, tuple):
                desc = 'x'.join(str(v) for v in self.size) + ' ' + desc
            else:
                desc = str(self.size) + '-' + desc
        if self.subtype is None:
            return desc
        if self.char == 'U':
            return '%s of type %s' % (desc, self.subtype)
        if isinstance(self.subtype, list):
            return '%s of subtypes [%s]' % (desc, ','.join(str(s) for s in self.subtype))
        return '%s of subtype (%s)' % (desc, self.subtype.info())


def _subtype(st):
    if st is None or isinstance(st, Type):
        return st
    if isinstance(st, list):
        return [Type(s) for s in st]
    return Type(st)


def _as_shape(t):
    return (t.size,) if t.char == 'V' else tuple(t.size)


Numeric = Type('N')
Integer = Type('I')
Boolean = Type('B')
Index = Type('X')
Vector = Type('V')
Vector2 = Type('V', 2)
Vector3 = Type('V', 3)
Matrix = Type('M')
Matrix2 = Type('M', (2, 2))
Matrix3 = Type('M', (3, 3))


def supertype(types):
    """The most specific Type that matches all of the given Types."""
    types = [Type(t) if not isinstance(t, Type) else t for t in types]
    if not types:
        raise ValueError("supertype needs at least one type")
    res = Type(types[0])
    for t in types[1:]:
        if res.char is None or t.char is None:
            return Type(None)
        if res.char == t.char:
            if res.size != t.size:
                res.size = None
            if res.subtype != t.subtype:
                res.subtype = None
        elif res.is_scalar() and t.is_scalar():
            res = Type('N')
        elif res.is_scalar() or t.is_scalar():
            return Type(None)
        else:
            res = Type('L')
    return res


def type_of(x):
    """The :class:`Type` of a value, Variable or Expression."""
    if isinstance(x, Type):
        return x
    if isinstance(x, Variable):
        return x.type
    if isinstance(x, Expression):
        return x.returnType()
    if isinstance(x, (bool, np.bool_)):
        return Type('B')
    if isinstance(x, _INT_TYPES):
        return Type('I')
    if isinstance(x, _FLOAT_TYPES):
        return Type('N')
    if isinstance(x, slice):
        return Type('X')
    if isinstance(x, np.ndarray):
        if x.ndim == 0:
            return Type('I' if x.dtype.kind in 'iu' else 'N')
        if x.ndim == 1:
            return Type('V', x.shape[0])
        if x.ndim == 2:
            return Type('M', x.shape)
        return Type('A', x.shape)
    if isinstance(x, (list, tuple)):
        if len(x) == 0:
            return Type('V', 0)
        itypes = [type_of(v) for v in x]
        it = supertype(itypes)
        if it.is_scalar():
            return Type('V', len(x))
        if it.char is not None and it.char in ARRAY_TYPES and it.size is not None:
            sh = (len(x),) + _as_shape(it)
            return Type('M', sh) if len(sh) == 2 else Type('A', sh)
        return Type('L', len(x), itypes)
    return Type(x.__class__.__name__)


# ---------------------------------------------------------------------------
# Context, Variable
# ---------------------------------------------------------------------------

class Context:
    """Holds Variables, user data, named expressions and custom Functions.
    """

    def __init__(self):
        self.variables = []
        self.variableDict = dict()
        self.userData = dict()
        self.expressions = dict()
        self.customFunctions = dict()

    def addVar(self, name, type='V', size=None):
        """Creates a new Variable with the given name, type character (V
        vector by default; M, N, B, I, A, X) and size (a length or shape, or
        None if unknown)."""
        if name in self.variableDict:
            raise ValueError("Variable " + name + " already exists")
        if name in self.userData:
            raise ValueError("Variable " + name + " conflicts with a user data")
        if name in self.expressions:
            raise ValueError("Variable " + name + " conflicts with an expression")
        v = Variable(name, Type(type, size), self)
        self.variables.append(v)
        self.variableDict[name] = v
        return v

    def addVars(self, prefix, N, type='N', size=None):
        """Creates N Variables named prefix+'1', ..., prefix+str(N)."""
        return [self.addVar(prefix + str(i + 1), type, size) for i in range(N)]

    def addUserData(self, name, value):
        """Adds a named user data object (not saved with the context) and
        returns a reference Expression to it."""
        if name in self.variableDict:
            raise ValueError("User data " + name + " conflicts with a variable")
        if name in self.expressions:
            raise ValueError("User data " + name + " conflicts with an expression")
        if name in self.customFunctions or name in _builtin_functions:
            raise ValueError("User data " + name + " conflicts with a function")
        self.userData[name] = value
        return UserDataExpression(name)

    def addExpr(self, name, expr):
        """Declares a named expression."""
        if not isinstance(name, str) or not isinstance(expr, Expression):
            raise TypeError("addExpr needs a str name and an Expression")
        if name in self.variableDict:
            raise ValueError("Expression " + name + " conflicts with a variable")
        if name in self.expressions:
            raise ValueError("Expression " + name + " already exists")
        if name in self.customFunctions or name in _builtin_functions:
            raise ValueError("Expression " + name + " conflicts with a function")
        self.expressions[name] = expr
        return expr

    def declare(self, func, fname=None, fargs=None):
        """Declares a custom Function from a Python function, an Expression
        (``fname`` and the argument names ``fargs`` are then required) or an
        existing Function, and returns it."""
        if isinstance(func, Function):
            newfunc = _copy_function(func)
            newfunc.name = func.name if fname is None else fname
            self.customFunctions[newfunc.name] = newfunc
            return newfunc
        if isinstance(func, Expression):
            if fname is None or fargs is None:
                raise ValueError("When declaring an expression as a function, the name and argument names must be given")
            self.customFunctions[fname] = Function(fname, func, fargs)
            return self.customFunctions[fname]
        if callable(func):
            if fname is None:
                fname = func.__name__
            self.customFunctions[fname] = Function(fname, func, fargs)
            return self.customFunctions[fname]
        raise ValueError("func should be a symbolic Function, symbolic Expression, or Python function")

    def include(self, context, prefix=None, modify=False):
        """Adds the variables, expressions, user data and functions of another
        context.  With a ``prefix``, names get ``prefix + '.'`` prepended and
        ``self.<prefix>`` is set to the sub-context; with ``modify=True`` the
        sub-context's own variables and functions are renamed as well."""
        if prefix is not None:
            if hasattr(self, prefix):
                raise ValueError("Can't include a new context, already have an element named " + prefix)
            setattr(self, prefix, context)
            pre = prefix + '.'
        else:
            pre = ''
            modify = False
        varmap = {}
        for v in context.variables:
            nv = self.addVar(pre + v.name, v.type)
            varmap[v.name] = nv
            if modify:
                v.name = pre + v.name
        for n, e in context.expressions.items():
            self.addExpr(pre + n, _rename(e, varmap, pre, context.userData) if pre else e)
        for n, d in context.userData.items():
            self.addUserData(pre + n, d)
        for n, f in list(context.customFunctions.items()):
            fnew = f if modify else _copy_function(f)
            fnew.name = pre + f.name
            self.customFunctions[fnew.name] = fnew
        if modify:
            context.variableDict = dict((v.name, v) for v in context.variables)
            context.userData = dict((pre + n, d) for n, d in context.userData.items())
            context.expressions = dict((pre + n, e) for n, e in context.expressions.items())
            context.customFunctions = dict((f.name, f) for f in context.customFunctions.values())

    def copy(self, copyFunctions=False):
        """A copy of this context with new Variables (expressions are rebuilt
        on them); user data is shared."""
        res = Context()
        varmap = {}
        for v in self.variables:
            varmap[v.name] = res.addVar(v.name, v.type)
            varmap[v.name].value = v.value
        res.userData = self.userData.copy()
        for n, e in self.expressions.items():
            res.expressions[n] = _rename(e, varmap, '', {})
        res.customFunctions = self.customFunctions.copy() if copyFunctions else self.customFunctions
        return res

    def bind(self, vars, values):
        """Binds each Variable (or variable name) in ``vars`` to a value."""
        for v, val in zip(vars, values):
            if isinstance(v, str):
                v = self.variableDict[v]
            v.bind(val)

    def bindFunction(self, function, remapping=None):
        """An Expression calling ``function`` (a Function or the name of a
        custom one) on the variables / user data named like its arguments,
        or as given by ``remapping`` (a dict from argument names, or a list)."""
        if isinstance(function, str):
            function = self.function(function)
        if not isinstance(function, Function) or function.argNames is None:
            raise ValueError("bindFunction needs a Function with named arguments")
        args = []
        for i, arg in enumerate(function.argNames):
            if isinstance(remapping, dict) and arg in remapping:
                args.append(remapping[arg])
            elif isinstance(remapping, (list, tuple)):
                args.append(remapping[i])
            elif arg in self.variableDict:
                args.append(self.variableDict[arg])
            elif arg in self.userData:
                args.append(arg)
            else:
                raise ValueError("Function %s argument %s does not exist in the current context" % (function.name, arg))
        return function(*args)

    def listVars(self, doprint=True, indent=0):
        """The names of the variables (printed with their types if doprint)."""
        if doprint:
            for v in self.variables:
                print(' ' * indent + "%s (type %s)" % (v.name, str(v.type)))
        return [v.name for v in self.variables]

    def listExprs(self, doprint=True, indent=0):
        """The names of the named expressions (printed if doprint)."""
        if doprint:
            for n, e in self.expressions.items():
                print(' ' * indent + n + '=' + str(e))
        return list(self.expressions.keys())

    def listFunctions(self, doprint=True, indent=0, builtins=False):
        """The names of the custom functions, plus the builtins if
        ``builtins``."""
        funcs = list(self.customFunctions.items())
        if builtins or doprint:
            funcs = list(_builtin_functions.items()) + funcs
        if doprint:
            for n, f in funcs:
                print(' ' * indent + n + '(' + ('...' if f.argNames is None else ','.join(f.argNames)) + ')')
        if builtins:
            return list(self.customFunctions.keys()) + list(_builtin_functions.keys())
        return list(self.customFunctions.keys())

    def expr(self, name):
        """The named expression ``name`` (KeyError if absent)."""
        if name not in self.expressions:
            raise KeyError("Invalid expression name " + name)
        return self.expressions[name]

    def function(self, name):
        """The builtin or custom Function named ``name``."""
        if name in _builtin_functions:
            return _builtin_functions[name]
        if name in self.customFunctions:
            return self.customFunctions[name]
        raise KeyError("Invalid function key " + name)

    def get(self, name, *args):
        """The user data or Variable named ``name``; ``get(name, default)``
        returns the default instead of raising KeyError."""
        if name in self.userData:
            return self.userData[name]
        if name in self.variableDict:
            return self.variableDict[name]
        if args:
            return args[0]
        raise KeyError("Invalid variable / userData key " + name)

    def renameVar(self, item, newname):
        """Renames a Variable (or the variable with the given name)."""
        if isinstance(item, str):
            item = self.variableDict[item]
        if item.name == newname:
            return
        if newname in self.variableDict:
            raise ValueError("Renamed variable name " + newname + " already exists")
        del self.variableDict[item.name]
        self.variableDict[newname] = item
        item.name = newname

    def renameUserData(self, itemname, newname):
        """Renames a user data item."""
        if itemname not in self.userData:
            raise KeyError("Userdata " + itemname + " does not exist")
        if itemname == newname:
            return
        if newname in self.userData:
            raise ValueError("Renamed userdata name " + newname + " already exists")
        self.userData[newname] = self.userData.pop(itemname)

    def makePyFunction(self, expr, varorder=None):
        """Returns ``(f, varorder)`` where ``f(*values)`` evaluates ``expr`` (an
        Expression or Function) with the Variables of ``varorder`` (by default
        the free Variables in context order, or a Function's arguments) bound
        to the values."""
        if isinstance(expr, Function):
            if varorder is None:
                varorder = [self.variableDict[v] for v in expr.argNames]
            else:
                varorder = [self.variableDict[v] if isinstance(v, str) else v for v in varorder]
            order = [expr.argNames.index(v.name) for v in varorder]
            func = expr

            def f(*args):
                vals = [None] * len(func.argNames)
                for i, a in zip(order, args):
                    vals[i] = a
                return func(*vals).evalf(self)
            return f, varorder
        expr = globals()['expr'](expr)
        free = expr.vars(self, bound=False)
        if varorder is None:
            index = dict((v.name, i) for i, v in enumerate(self.variables))
            varorder = sorted(free, key=lambda v: index.get(v.name, len(index)))
        else:
            varorder = [self.variableDict[v] if isinstance(v, str) else v for v in varorder]
            names = set(v.name for v in varorder)
            for v in free:
                if v.name not in names:
                    raise ValueError("Unbound variable " + v.name + " not in given variable order")
        names = [v.name for v in varorder]

        def f(*args):
            return expr.evalf(_Env(self, dict(zip(names, args))))
        return f, varorder

    def makeFlatFunction(self, expr, varorder=None, defaultsize=1):
        """Returns ``(f, varorder)`` where ``f(x)`` evaluates ``expr`` on a flat
        vector x holding the Variables of ``varorder`` one after another."""
        f, varorder = self.makePyFunction(expr, varorder)
        unflatten = self._unflattener(varorder, defaultsize)
        return (lambda x: f(*unflatten(x))), varorder

    def makeFlatFunctionDeriv(self, expr, varorder=None, defaultsize=1):
        """Returns ``(df, varorder)`` where ``df(x)`` is the Jacobian of
        ``expr`` with respect to the flat vector x (see makeFlatFunction);
        ``df`` is None if ``expr`` is not differentiable."""
        if varorder is None:
            _, varorder = self.makePyFunction(expr)
        varorder = [self.variableDict[v] if isinstance(v, str) else v for v in varorder]
        e = globals()['expr'](expr)
        derivs = []
        for v in varorder:
            d = e.deriv(v)
            if d is None:
                warnings.warn("makeFlatFunctionDeriv: derivative with respect to {} is undefined".format(v.name))
                return None, varorder
            derivs.append(globals()['expr'](d))
        f, varorder = self.makePyFunction(_builtin('array', *derivs), varorder)
        unflatten = self._unflattener(varorder, defaultsize)

        def df(x):
            blocks = f(*unflatten(x))
            cols = []
            for v, b in zip(varorder, blocks):
                b = np.asarray(b, dtype=float)
                cols.append(b.reshape(b.shape + (1,)) if v.type.is_scalar() else b)
            if all(c.ndim == 1 for c in cols):
                return np.concatenate([c.reshape(-1) for c in cols]) if len(cols) > 1 or cols[0].size > 1 else cols[0].reshape(-1)
            return np.hstack([c if c.ndim == 2 else c.reshape(1, -1) for c in cols])

        def dfv(x):
            res = df(x)
            rt = e.returnType()
            if rt.is_scalar():
                return res.reshape(-1)
            return res
        return dfv, varorder

    def _unflattener(self, varorder, defaultsize):
        ranges = self.getFlatVarRanges(varorder, defaultsize)

        def unflatten(x):
            x = np.asarray(x)
            vals = []
            for i, v in enumerate(varorder):
                seg = x[ranges[i]:ranges[i + 1]]
                if v.type.char in 'AM':
                    vals.append(seg.reshape(v.type.size))
                elif v.type.char == 'V':
                    vals.append(seg)
                else:
                    vals.append(seg[0])
            return vals
        return unflatten

    def getFlatVarRanges(self, varorder, defaultsize=1):
        """The index ranges [k0,...,kn]: Variable i of ``varorder`` is
        x[k_i:k_{i+1}] of a flat vector."""
        varorder = [self.variableDict[v] if isinstance(v, str) else v for v in varorder]
        indices = [0]
        for v in varorder:
            if v.type.char in 'AM':
                if v.type.size is None:
                    raise ValueError("Matrix and array variables need their size specified")
                indices.append(indices[-1] + v.type.count())
            elif v.type.char == 'V':
                indices.append(indices[-1] + (v.type.size if v.type.size is not None else defaultsize))
            elif v.type.is_scalar():
                indices.append(indices[-1] + 1)
            else:
                raise ValueError("Can't flatten variables of type " + str(v.type))
        return indices

    def getFlatVector(self, varorder):
        """The flat vector of the current values of the Variables of
        ``varorder`` (all must be bound)."""
        varorder = [self.variableDict[v] if isinstance(v, str) else v for v in varorder]
        if any(v.value is None for v in varorder):
            raise ValueError("All variables' values must be set")
        return np.hstack([np.asarray(v.value, dtype=float).reshape(-1) for v in varorder])


def _rename(e, varmap, prefix, userdata):
    """Rebuilds e with its Variables replaced by those of varmap and its user
    data references prefixed."""
    memo = {}

    def rec(node):
        if id(node) in memo:
            return memo[id(node)]
        if isinstance(node, VariableExpression) and node.var.name in varmap:
            res = VariableExpression(varmap[node.var.name])
        elif isinstance(node, UserDataExpression) and prefix and node.name in userdata:
            res = UserDataExpression(prefix + node.name)
        elif isinstance(node, OperatorExpression):
            res = OperatorExpression(node.functionInfo, [rec(a) for a in node.args], node.op)
        else:
            res = node
        memo[id(node)] = res
        return res
    return rec(e)


class Variable:
    """A named variable of a given :class:`Type`.  It may be bound to a
    value, in which case expressions treat it as that constant."""

    def __init__(self, name, type, ctx=None):
        self.name = name
        self.type = Type(type)
        self.value = None
        self.ctx = ctx

    def isAssigned(self):
        """True if the variable is bound to a value."""
        return self.value is not None

    def bind(self, value):
        """Binds the variable to a value."""
        self.value = value

    def unbind(self):
        """Makes the variable free again."""
        self.value = None

    def context(self):
        """The Context this variable belongs to (or None)."""
        return self.ctx

    def __str__(self):
        return self.name

    def __repr__(self):
        return "Variable(%r,%s)" % (self.name, str(self.type))

    def __len__(self):
        n = self.type.len()
        if n is None:
            raise ValueError("Variable " + self.name + " has no known length")
        return n

    __hash__ = object.__hash__

    def __getattr__(self, attr):
        if attr == 'T':
            return _builtin('transpose', self)
        if attr == 'shape':
            return _builtin('shape', self)
        raise AttributeError("'Variable' object has no attribute '%s'" % attr)


def _binop(fname, reverse=False):
    def op(self, other):
        f = _builtin_functions[fname]
        return f(other, self) if reverse else f(self, other)
    op.__name__ = fname
    return op


_OPERATORS = {'__and__': 'and', '__or__': 'or', '__eq__': 'eq', '__ne__': 'ne', '__le__': 'le', '__ge__': 'ge',
              '__add__': 'add', '__sub__': 'sub', '__mul__': 'mul', '__truediv__': 'div', '__pow__': 'pow',
              '__getitem__': 'getitem'}
_ROPERATORS = {'__radd__': 'add', '__rsub__': 'sub', '__rmul__': 'mul', '__rtruediv__': 'div', '__rpow__': 'pow',
               '__rand__': 'and', '__ror__': 'or'}


def _install_operators(cls):
    for n, f in _OPERATORS.items():
        setattr(cls, n, _binop(f))
    for n, f in _ROPERATORS.items():
        setattr(cls, n, _binop(f, True))
    cls.__neg__ = lambda self: _builtin('neg', self)
    cls.__abs__ = lambda self: _builtin('abs', self)
    cls.__invert__ = lambda self: _builtin('not', self)
    cls.__setitem__ = lambda self, index, val: _builtin('setitem', self, index, val)


# ---------------------------------------------------------------------------
# Expressions
# ---------------------------------------------------------------------------

class _Env:
    """Evaluation environment: a Context / dict / None plus substitutions."""

    def __init__(self, context=None, overrides=None):
        if isinstance(context, _Env):
            self.context = context.context
            self.overrides = dict(context.overrides)
        else:
            self.context = context
            self.overrides = {}
        if overrides:
            self.overrides.update(overrides)

    def lookup(self, name):
        if name in self.overrides:
            return True, self.overrides[name]
        if isinstance(self.context, dict):
            if name in self.context:
                return True, self.context[name]
        elif isinstance(self.context, Context):
            if name in self.context.userData:
                return True, self.context.userData[name]
            v = self.context.variableDict.get(name)
            if v is not None and v.value is not None:
                return True, v.value
        return False, None


def _env(context):
    return context if isinstance(context, _Env) else _Env(context)


class Expression:
    """Base class of symbolic expressions.  Operators (``+``, ``-``, ``*``,
    ``/``, ``**``, ``[]``, comparisons, ``&``, ``|``, ``~``) build new
    expressions; use :meth:`eval` / :meth:`evalf` to evaluate them."""

    def returnType(self):
        """The :class:`Type` of the expression's value."""
        raise NotImplementedError()

    def isConstant(self):
        """True if the expression is identically a constant."""
        raise NotImplementedError()

    def returnConstant(self, context=None):
        """True if evaluating in ``context`` gives a constant."""
        return not any(True for _ in self.vars(context, bound=False)) and not self._has_free_userdata(context)

    def _has_free_userdata(self, context):
        return False

    def eval(self, context=None):
        """Evaluates the expression, substituting bound Variables and the
        values in ``context`` (a dict of names to values, or a Context).
        Returns a constant, or an Expression if something stays free."""
        return _evaluate(self, _env(context), {})

    def evalf(self, context=None):
        """Like :meth:`eval`, but raises ValueError unless the result is a
        constant."""
        r = self.eval(context)
        if isinstance(r, ConstantExpression):
            return r.value
        if isinstance(r, Expression):
            raise ValueError("Expression.evalf: result of %s is not a constant, result is %s" % (str(self), str(r)))
        return r

    def deriv(self, var, context=None):
        """The derivative (Jacobian) of this expression with respect to
        ``var`` (a Variable or variable name), or None if it is undefined.
        ``var`` may also be a dict {name: dvalue}, giving the directional
        derivative sum_i df/dx_i * dx_i."""
        return _services['derivative'](self, var, context)

    def vars(self, context=None, bound=False):
        """The free Variables under this expression (also those bound to a
        value if ``bound``)."""
        res, seen, memo = [], set(), set()

        def rec(node):
            if id(node) in memo:
                return
            memo.add(id(node))
            if isinstance(node, VariableExpression):
                v = node.var
                if v.name in seen:
                    return
                if not bound:
                    if v.value is not None:
                        return
                    if context is not None and _env(context).lookup(v.name)[0]:
                        return
                seen.add(v.name)
                res.append(v)
            elif isinstance(node, OperatorExpression):
                for a in node.args:
                    rec(a)
        rec(self)
        return res

    def depth(self, cache=True):
        """The height of the expression tree (1 for a leaf)."""
        memo = {}

        def rec(node):
            if id(node) not in memo:
                kids = node.args if isinstance(node, OperatorExpression) else []
                memo[id(node)] = 1 + max((rec(a) for a in kids), default=0)
            return memo[id(node)]
        return rec(self)

    def match(self, val):
        """True if self is syntactically the same expression as ``val``."""
        return isinstance(val, Wildcard)

    def find(self, val):
        """The sub-expression matching ``val``, or None."""
        if self.match(val):
            return self
        if isinstance(self, OperatorExpression):
            for a in self.args:
                r = a.find(val)
                if r is not None:
                    return r
        return None

    def replace(self, val, valReplace, error_no_match=False):
        """A copy with every sub-expression matching ``val`` replaced by
        ``valReplace``."""
        found = [False]
        valReplace = expr(valReplace)
        memo = {}

        def rec(node):
            if id(node) in memo:
                return memo[id(node)]
            if node.match(val):
                found[0] = True
                res = valReplace
            elif isinstance(node, OperatorExpression):
                nargs = [rec(a) for a in node.args]
                res = node if all(a is b for a, b in zip(nargs, node.args)) else OperatorExpression(node.functionInfo, nargs, node.op)
            else:
                res = node
            memo[id(node)] = res
            return res
        res = rec(self)
        if error_no_match and not found[0]:
            raise ValueError("Unable to find term %s in expression %s" % (str(val), str(self)))
        return res

    def simplify(self, context=None, depth=None):
        """A simplified expression of the same value (constant folding,
        identities such as x+0, x*1, --x, and the functions' simplifiers).
        Names in ``context`` are substituted by their values."""
        return _services['simplify'](self, None if context is None else _env(context), depth)

    def _signature(self):
        return ()

    def __bool__(self):
        raise ValueError("Can't test the truth value of an Expression; did you mean to use if_(...)?")

    __hash__ = object.__hash__

    def __str__(self):
        return _services['exprToStr'](self, parseCompatible=False)

    def __repr__(self):
        return _services['exprToStr'](self, parseCompatible=True)

    def __getattr__(self, attr):
        if attr == 'T':
            return _builtin('transpose', self)
        if attr == 'shape':
            return _builtin('shape', self)
        raise AttributeError("'%s' object has no attribute '%s'" % (self.__class__.__name__, attr))


_install_operators(Expression)
_install_operators(Variable)


class Wildcard(Expression):
    """Matches any expression in :meth:`Expression.match` / find / replace."""

    def __init__(self, name="*"):
        self.name = name

    def match(self, val):
        return True

    def returnType(self):
        return Type(None)

    def isConstant(self):
        return False


class ConstantExpression(Expression):
    """A constant value (number, bool, string, list, Numpy array, slice,
    or any object)."""

    def __init__(self, value):
        if value is None:
            raise ValueError("Can't initialize a ConstantExpression with None")
        if isinstance(value, ConstantExpression):
            value = value.value
        elif isinstance(value, (Expression, Variable)):
            raise ValueError("Can't initialize a ConstantExpression with a non-constant Expression")
        self.value = value

    def returnType(self):
        return type_of(self.value)

    def isConstant(self):
        return True

    def returnConstant(self, context=None):
        return True

    def match(self, val):
        if isinstance(val, Wildcard):
            return True
        if isinstance(val, ConstantExpression):
            val = val.value
        elif isinstance(val, Expression):
            return False
        try:
            return _same_value(self.value, val)
        except (ValueError, TypeError):
            return False

    def __len__(self):
        return len(self.value)

    def _signature(self):
        if isinstance(self.value, np.ndarray):
            return tuple(self.value.flatten())
        return (self.value,)

    def __bool__(self):
        return bool(self.value)

    def _do_binary(self, rhs, fname):
        f = _builtin_functions[fname]
        if isinstance(rhs, ConstantExpression):
            return ConstantExpression(f.func(self.value, rhs.value))
        if isinstance(rhs, (Expression, Variable)):
            return f(self, rhs)
        return ConstantExpression(f.func(self.value, rhs))

    def __eq__(self, rhs):
        return self._do_binary(rhs, 'eq')

    def __ne__(self, rhs):
        return self._do_binary(rhs, 'ne')

    def __le__(self, rhs):
        return self._do_binary(rhs, 'le')

    def __ge__(self, rhs):
        return self._do_binary(rhs, 'ge')

    def __neg__(self):
        return ConstantExpression(-self.value)

    __hash__ = Expression.__hash__

    def __getattr__(self, attr):
        if attr.startswith('_'):
            raise AttributeError(attr)
        if attr in ('T', 'shape') or not hasattr(self.value, attr):
            return Expression.__getattr__(self, attr)
        return getattr(self.value, attr)


def _same_value(a, b):
    if isinstance(a, (np.ndarray, list, tuple)) or isinstance(b, (np.ndarray, list, tuple)):
        try:
            a2, b2 = np.asarray(a), np.asarray(b)
        except ValueError:
            return False
        return a2.shape == b2.shape and a2.dtype.kind != 'O' and bool(np.all(a2 == b2))
    if type(a) is not type(b) and not (isinstance(a, _NUMERIC_TYPES) and isinstance(b, _NUMERIC_TYPES)):
        return False
    return bool(a == b)


class UserDataExpression(Expression):
    """A reference, by name, to a user data object of a Context."""

    def __init__(self, name):
        self.name = name

    def returnType(self):
        return Type('U')

    def isConstant(self):
        return False

    def returnConstant(self, context=None):
        return context is not None and _env(context).lookup(self.name)[0]

    def _has_free_userdata(self, context):
        return not self.returnConstant(context)

    def match(self, val):
        if isinstance(val, Wildcard):
            return True
        if isinstance(val, str):
            return val == self.name
        return isinstance(val, UserDataExpression) and val.name == self.name

    def _signature(self):
        return ('$' + self.name,)

    def __getattr__(self, attr):
        if attr.startswith('_'):
            raise AttributeError("UserData object has no attribute '%s'" % attr)
        if attr in ('T', 'shape'):
            return Expression.__getattr__(self, attr)
        return _builtin('getattr', self, const(attr))


class VariableExpression(Expression):
    """A reference to a :class:`Variable`."""

    def __init__(self, var):
        if not isinstance(var, Variable):
            raise TypeError("VariableExpression needs a Variable")
        self.var = var

    def returnType(self):
        return self.var.type

    def isConstant(self):
        return False

    def returnConstant(self, context=None):
        return self.var.value is not None or (context is not None and _env(context).lookup(self.var.name)[0])

    def match(self, val):
        if isinstance(val, Wildcard):
            return True
        if isinstance(val, Variable):
            return val.name == self.var.name
        return isinstance(val, VariableExpression) and val.var.name == self.var.name

    def _signature(self):
        return (self.var.name,)

    def __len__(self):
        return len(self.var)


class OperatorExpression(Expression):
    """The application of a :class:`Function` to argument expressions."""

    def __init__(self, finfo, args, op=None):
        self.functionInfo = finfo
        self.op = finfo.func if op is None else op
        self.args = [expr(a) for a in args]
        self._rtype = None

    def _do(self, constargs):
        """Applies the function to constant argument values."""
        try:
            return self.op(*constargs)
        except Exception as e:
            raise ValueError("Error evaluating %s(%s): %s" % (self.functionInfo.name, ','.join(_short(v) for v in constargs), e)) from e

    def returnType(self):
        if self._rtype is None:
            f = self.functionInfo
            rt = None
            if f.returnTypeFunc is not None:
                try:
                    rt = f.returnTypeFunc(*self.args)
                except (ValueError, TypeError, IndexError):
                    rt = None
            if rt is None:
                rt = f.returnType if f.returnType is not None else Type(None)
            self._rtype = Type(rt) if not isinstance(rt, Type) else rt
        return self._rtype

    def isConstant(self):
        return all(a.isConstant() for a in self.args) and not self.functionInfo.properties.get('impure', False)

    def returnConstant(self, context=None):
        return all(a.returnConstant(context) for a in self.args)

    def match(self, val):
        if isinstance(val, Wildcard):
            return True
        if not isinstance(val, OperatorExpression) or val.functionInfo.name != self.functionInfo.name:
            return False
        return len(val.args) == len(self.args) and all(a.match(b) for a, b in zip(self.args, val.args))

    def _signature(self):
        return (self.functionInfo.name,) + tuple(a._signature() for a in self.args)

    def __len__(self):
        n = self.returnType().len() if self.returnType().char is not None else None
        if n is None:
            raise ValueError("Length of %s is not known before evaluation" % self.functionInfo.name)
        return n


def _short(v):
    s = str(v)
    return s if len(s) < 60 else s[:57] + '...'


def _evaluate(node, env, memo):
    """Evaluates node in env; returns a plain constant or an Expression."""
    key = id(node)
    if key in memo:
        return memo[key]
    if isinstance(node, ConstantExpression):
        res = node.value
    elif isinstance(node, VariableExpression):
        if node.var.name in env.overrides:
            res = env.overrides[node.var.name]
        elif node.var.value is not None:
            res = node.var.value
        else:
            found, val = env.lookup(node.var.name)
            res = val if found else node
    elif isinstance(node, UserDataExpression):
        found, val = env.lookup(node.name)
        res = val if found else node
    elif isinstance(node, OperatorExpression):
        f = node.functionInfo
        if f.custom_eval is not None:
            res = f.custom_eval(env, memo, *node.args)
        else:
            vals = [_evaluate(a, env, memo) for a in node.args]
            if any(isinstance(v, Expression) for v in vals):
                if all(v is a for v, a in zip(vals, node.args)):
                    res = node
                else:
                    res = OperatorExpression(f, [_as_expr(v) for v in vals], node.op)
            else:
                res = node._do(vals)
    elif isinstance(node, Wildcard):
        raise ValueError("Can't evaluate Wildcard expressions")
    else:
        raise TypeError("Unknown expression class " + node.__class__.__name__)
    if isinstance(res, ConstantExpression):
        res = res.value
    memo[key] = res
    return res


def _as_expr(v):
    """Wraps an evaluated value (which may be a string constant) as an
    Expression."""
    if isinstance(v, Expression):
        return v
    if isinstance(v, Variable):
        return VariableExpression(v)
    return ConstantExpression(v)


# ---------------------------------------------------------------------------
# Functions
# ---------------------------------------------------------------------------

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
    import copy
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


# ---------------------------------------------------------------------------
# Utility functions
# ---------------------------------------------------------------------------

def const(v):
    """A ConstantExpression of v (also for strings)."""
    return ConstantExpression(v)


def is_const(v, context=None, shallow=False):
    """True if v is a constant value or constant expression (in ``context``,
    bound Variables and given names count as constants)."""
    if isinstance(v, Variable):
        return v.value is not None
    if isinstance(v, Expression):
        if isinstance(v, ConstantExpression):
            return True
        if shallow and isinstance(v, OperatorExpression):
            return False
        if context is None:
            return v.isConstant()
        return v.isConstant() or v.returnConstant(context)
    if isinstance(v, (list, tuple)):
        return all(is_const(x, context) for x in v)
    if isinstance(v, dict):
        return all(is_const(x, context) for x in v.values())
    return True


def to_const(v, context=None, shallow=False):
    """The constant value of v if :func:`is_const`, otherwise None."""
    if isinstance(v, Variable):
        return v.value
    if isinstance(v, ConstantExpression):
        return v.value
    if isinstance(v, Expression):
        if not is_const(v, context, shallow):
            return None
        return v.evalf(context)
    if isinstance(v, (list, tuple)):
        vc = [to_const(x, context, shallow) for x in v]
        if any(x is None for x in vc):
            return None
        return v.__class__(vc)
    return v


def is_scalar(v, value=None):
    """True if v evaluates to a scalar (equal to ``value`` if given)."""
    if isinstance(v, Variable):
        if not v.type.is_scalar():
            return False
        return value is None or (v.value is not None and v.value == value)
    if isinstance(v, ConstantExpression):
        return is_scalar(v.value, value)
    if isinstance(v, Expression):
        return v.returnType().is_scalar() and value is None
    if isinstance(v, (bool, np.bool_) + _NUMERIC_TYPES) or (isinstance(v, np.ndarray) and v.shape == ()):
        return value is None or bool(v == value)
    return False


def to_scalar(v):
    """The value of v if it is a constant scalar, otherwise None."""
    if isinstance(v, ConstantExpression):
        return to_scalar(v.value)
    if isinstance(v, (Expression, Variable)):
        return None
    if isinstance(v, (bool, np.bool_) + _NUMERIC_TYPES) or (isinstance(v, np.ndarray) and v.shape == ()):
        return v
    return None


def is_zero(v):
    """True if v is a zero(...) expression or a constant equal to 0."""
    if is_op(v, 'zero'):
        return True
    if isinstance(v, ConstantExpression):
        v = v.value
    elif isinstance(v, (Expression, Variable)):
        return False
    if isinstance(v, (bool, str)):
        return False
    try:
        arr = np.asarray(v)
        return arr.dtype.kind in 'iuf' and bool(np.all(arr == 0))
    except (ValueError, TypeError):
        return False


def is_var(v):
    """True if v is a Variable or a VariableExpression."""
    return isinstance(v, (Variable, VariableExpression))


def to_var(v):
    """The Variable of a Variable / VariableExpression, otherwise None."""
    if isinstance(v, Variable):
        return v
    if isinstance(v, VariableExpression):
        return v.var
    return None


def is_sparse(v, threshold='auto'):
    """True if the constant array v has fewer nonzeros than ``threshold``
    ('auto': 3*sqrt(size), a number, or a function of the shape)."""
    if isinstance(v, ConstantExpression):
        v = v.value
    if isinstance(v, (Expression, Variable)):
        raise ValueError("is_sparse can only be run on constants")
    arr = np.asarray(v)
    nnz = np.count_nonzero(arr)
    if callable(threshold):
        threshold = threshold(arr.shape)
    elif threshold == 'auto':
        threshold = 3 * math.sqrt(arr.size)
    return nnz < threshold


def expr(x):
    """Converts x to an Expression: Variables to VariableExpressions,
    strings to UserDataExpressions (references to user data), lists holding
    expressions to ``array(...)`` expressions, other values to
    ConstantExpressions; Expressions are returned as they are."""
    if isinstance(x, Expression):
        return x
    if isinstance(x, Variable):
        return VariableExpression(x)
    if isinstance(x, str):
        return UserDataExpression(x)
    if isinstance(x, list):
        if any(isinstance(v, (Expression, Variable, str)) and not isinstance(v, ConstantExpression) for v in _walk(x)):
            return _builtin('array', *[expr(v) for v in x])
        return ConstantExpression([to_const(v) for v in x])
    return ConstantExpression(x)


def _walk(x):
    for v in x:
        if isinstance(v, list):
            yield from _walk(v)
        else:
            yield v


def is_expr(x):
    """True if x is an Expression."""
    return isinstance(x, Expression)


def is_op(x, opname=None):
    """True if x is an OperatorExpression (of the function named ``opname``
    if given)."""
    if not isinstance(x, OperatorExpression):
        return False
    return opname is None or x.functionInfo.name == opname


def deriv(e, var):
    """The derivative of e with respect to var; see :meth:`Expression.deriv`."""
    return expr(e).deriv(var)


def simplify(e, context=None, depth=None):
    """A simplified version of e; see :meth:`Expression.simplify`."""
    return expr(e).simplify(context, depth)


def to_monomial(v):
    """``(x, d)`` if v is the monomial x**d of a single Variable x, else None."""
    if isinstance(v, Variable):
        return (v, 1)
    if isinstance(v, VariableExpression):
        return (v.var, 1)
    if is_op(v, 'pow'):
        res = to_monomial(v.args[0])
        d = to_const(v.args[1])
        if res is None or d is None:
            return None
        return (res[0], res[1] * d)
    if is_op(v, 'mul') and len(v.args) == 2:
        r1, r2 = to_monomial(v.args[0]), to_monomial(v.args[1])
        if r1 is None or r2 is None or r1[0].name != r2[0].name:
            return None
        return (r1[0], r1[1] + r2[1])
    return None


def to_polynomial(e, x=None, const_only=True):
    """``(x, [c1..cn], [d1..dn])`` with e = sum ci x**di if e is a polynomial
    with constant coefficients in a single Variable (x if given), else
    None."""
    if not const_only:
        raise NotImplementedError("Polynomials with non-constant coefficients are not extracted")
    e = expr(e)
    c = to_const(e)
    if c is not None:
        return None if x is None else (x, [c], [0])
    mon = to_monomial(e)
    if mon is not None:
        if x is None or mon[0].name == x.name:
            return (mon[0], [1], [mon[1]])
        return None
    uvars = e.vars()
    if len(uvars) != 1 or (x is not None and uvars[0].name != x.name):
        return None
    x = uvars[0]
    if not is_op(e) or e.functionInfo.name not in ('add', 'sum', 'sub', 'neg', 'mul'):
        return None
    polys = []
    for a in e.args:
        p = to_polynomial(a, x)
        if p is None:
            return None
        polys.append(dict(zip(p[2], p[1])))
    name = e.functionInfo.name
    if name == 'neg':
        res = dict((d, -c) for d, c in polys[0].items())
    elif name in ('add', 'sum', 'sub'):
        res = {}
        for i, p in enumerate(polys):
            sgn = -1 if (name == 'sub' and i == 1) else 1
            for d, c in p.items():
                res[d] = res.get(d, 0) + sgn * c
    else:
        res = {0: 1}
        for p in polys:
            nres = {}
            for d1, c1 in res.items():
                for d2, c2 in p.items():
                    nres[d1 + d2] = nres.get(d1 + d2, 0) + c1 * c2
            res = nres
    ds = sorted(res.keys())
    return (x, [res[d] for d in ds], ds)
