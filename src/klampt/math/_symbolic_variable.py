"""Symbolic :class:`Variable` objects and the Python operators (``+``,
``[]``, ``&``, ...) that Variables and Expressions share, which call the
builtin Functions through their registry. Built on the type layer only.
"""

from ._symbolic_types import Type, _Typed, _builtin_functions, _builtin


class Variable(_Typed):
    """A named variable of a given :class:`Type`.  It may be bound to a
    value, in which case expressions treat it as that constant."""

    def __init__(self, name, type, ctx=None):
        self.name = name
        self.type = Type(type)
        self.value = None
        self.ctx = ctx

    def _type(self):
        return self.type

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


_install_operators(Variable)
