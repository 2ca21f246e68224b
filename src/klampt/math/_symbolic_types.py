"""The bottom layer of :mod:`klampt.math.symbolic`: the type characters, the
registries through which the upper layers reach each other, :class:`Type`,
:func:`supertype` and :func:`type_of`.

The builtin function library fills :data:`_builtin_functions`; the
differentiation and simplification engine and the printer register
themselves in :data:`_services`. The expression classes derive from
:class:`_Typed`, so that :func:`type_of` reads their Type without knowing them.
"""

import numpy as np

SCALAR_TYPES = 'NIB'
ARRAY_TYPES = 'AVM'
BUILTIN_TYPES = 'NIBAVMX'

_INT_TYPES = (int, np.integer)
_FLOAT_TYPES = (float, np.floating)
_NUMERIC_TYPES = _INT_TYPES + _FLOAT_TYPES

# Builtin Functions by name, filled by the function library.
_builtin_functions = {}
# Differentiation, simplification and printing, registered by the modules that
# implement them (they are built on the expression classes, which cannot import them).
_services = {}


def _builtin(name, *args):
    return _builtin_functions[name](*args)


class _Typed:
    """Base of the symbolic objects (Variables, Expressions) that know their
    own :class:`Type`."""

    def _type(self):
        raise NotImplementedError()


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
    if isinstance(x, _Typed):
        return x._type()
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
