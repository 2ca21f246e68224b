"""The top layer of :mod:`klampt.math.symbolic`: :class:`Context`, which holds
Variables, user data, named expressions and custom Functions, and turns
expressions into Python functions of plain or flattened values.
"""

import warnings

import numpy as np

from ._symbolic_types import Type, _builtin_functions, _builtin
from ._symbolic_variable import Variable
from ._symbolic_expressions import Expression, OperatorExpression, UserDataExpression, VariableExpression, _Env
from ._symbolic_expressions import expr as _to_expr  # the methods' ``expr`` arguments shadow the name
from ._symbolic_function import Function, _copy_function


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
        expr = _to_expr(expr)
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
        e = _to_expr(expr)
        derivs = []
        for v in varorder:
            d = e.deriv(v)
            if d is None:
                warnings.warn("makeFlatFunctionDeriv: derivative with respect to {} is undefined".format(v.name))
                return None, varorder
            derivs.append(_to_expr(d))
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
