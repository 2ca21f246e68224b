"""The registries of the symbolic modules: the builtin Functions by name and
the differentiation, simplification and printing services, which the modules
implementing them fill in, and the Python operators of Expressions and
Variables, which call the builtin Functions through them.
"""

# Builtin Functions by name, filled by the function library.
_builtin_functions = {}
# Differentiation, simplification and printing, registered by the modules that
# implement them (they are built on this one, so it cannot import them).
_services = {}


def _builtin(name, *args):
    return _builtin_functions[name](*args)


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
