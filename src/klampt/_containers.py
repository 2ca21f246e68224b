"""The container classes of the reference's SWIG module (``stringMap``,
``stringVector``, ``intVector``, ``floatVector``, ``doubleVector``,
``doubleMatrix``, ``SwigPyIterator`` and the C arrays ``intArray``,
``floatArray``, ``doubleArray``), for code that builds or reads them.

Nothing in this package returns them: its functions take and give Python
lists, tuples and dicts. These are plain Python containers with the C++
methods SWIG gave them (``push_back``, ``begin``/``end`` iterators, ...).
"""
import bisect
from collections.abc import MutableMapping, MutableSequence


class SwigPyIterator:
    """A position in a container, as the reference's C++ iterators: ``value``
    reads the element there, ``incr``/``decr`` move, ``next``/``previous``
    read and move as Python iterators do. A reverse iterator (``rbegin``)
    walks the container backwards."""

    def __init__(self, container, position, reverse=False):
        self._container = container
        self._position = position
        self._reverse = reverse

    def _index(self):
        n = self._container.size()
        return n - 1 - self._position if self._reverse else self._position

    def _check_same(self, other):
        if not isinstance(other, SwigPyIterator) or other._container is not self._container \
                or other._reverse != self._reverse:
            raise TypeError("the iterators are not of the same container and direction")

    def value(self):
        """The element at this position (a map gives its (key, value) pair)."""
        if not 0 <= self._position < self._container.size():
            raise StopIteration("the iterator is past the end")
        return self._container._element(self._index())

    def incr(self, n=1):
        """Moves n steps forward and returns this iterator."""
        self._position += n
        return self

    def decr(self, n=1):
        """Moves n steps back and returns this iterator."""
        self._position -= n
        return self

    def advance(self, n):
        """Moves n steps (back when n < 0) and returns this iterator."""
        return self.incr(n)

    def distance(self, other):
        """The number of steps from this iterator to other."""
        self._check_same(other)
        return other._position - self._position

    def equal(self, other):
        """Whether both iterators are at the same position of the same container."""
        self._check_same(other)
        return other._position == self._position

    def copy(self):
        """An independent iterator at the same position."""
        return SwigPyIterator(self._container, self._position, self._reverse)

    def next(self):
        """The element here, then moves forward; StopIteration at the end."""
        v = self.value()
        self._position += 1
        return v

    def previous(self):
        """Moves back, then returns the element there; StopIteration before the beginning."""
        if self._position <= 0:
            raise StopIteration("the iterator is at the beginning")
        self._position -= 1
        return self.value()

    __next__ = next

    def __iter__(self):
        return self

    def __eq__(self, other):
        return isinstance(other, SwigPyIterator) and other._container is self._container \
            and other._reverse == self._reverse and other._position == self._position

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def __add__(self, n):
        return self.copy().incr(n)

    def __sub__(self, other):
        if isinstance(other, SwigPyIterator):
            return -self.distance(other)
        return self.copy().decr(other)

    def __iadd__(self, n):
        return self.incr(n)

    def __isub__(self, n):
        return self.decr(n)


def _as_int(x):
    if isinstance(x, bool) or not isinstance(x, int):
        try:
            import numpy
            if isinstance(x, numpy.integer):
                return int(x)
        except ImportError:
            pass
        raise TypeError("expected an int, got %r" % (x,))
    return x


def _as_float(x):
    if isinstance(x, (str, bytes)):
        raise TypeError("expected a number, got %r" % (x,))
    try:
        return float(x)
    except (TypeError, ValueError):
        raise TypeError("expected a number, got %r" % (x,)) from None


def _as_str(x):
    if not isinstance(x, str):
        raise TypeError("expected a str, got %r" % (x,))
    return x


def _as_float_tuple(x):
    if isinstance(x, (str, bytes)):
        raise TypeError("expected a sequence of numbers, got %r" % (x,))
    try:
        return tuple(_as_float(v) for v in x)
    except TypeError:
        raise TypeError("expected a sequence of numbers, got %r" % (x,)) from None


class _Iterators:
    """The C++ iterator methods of a container holding its items in _data
    (a map's item is its (key, value))."""

    def begin(self):
        """An iterator at the first item."""
        return SwigPyIterator(self, 0)

    def end(self):
        """An iterator past the last item."""
        return SwigPyIterator(self, len(self._data))

    def rbegin(self):
        """A reverse iterator at the last item."""
        return SwigPyIterator(self, 0, reverse=True)

    def rend(self):
        """A reverse iterator before the first item."""
        return SwigPyIterator(self, len(self._data), reverse=True)


class _Vector(_Iterators, MutableSequence):
    """A std::vector: a list whose elements are converted to one type."""

    _convert = staticmethod(_as_float)
    _default = 0.0

    def __init__(self, *args):
        """``()``, ``(sequence)`` (a copy), ``(n)`` (n default elements) or ``(n, value)``."""
        if not args:
            self._data = []
        elif len(args) == 1 and isinstance(args[0], int) and not isinstance(args[0], bool):
            self._data = [self._default] * self._count(args[0])
        elif len(args) == 1:
            self._data = [self._convert(v) for v in args[0]]
        elif len(args) == 2:
            self._data = [self._convert(args[1])] * self._count(args[0])
        else:
            raise TypeError("%s() takes a sequence, a size, or a size and a value" % type(self).__name__)

    @staticmethod
    def _count(n):
        if n < 0:
            raise ValueError("a size must be >= 0, got %d" % n)
        return n

    def _element(self, i):
        return self._data[i]

    def __len__(self):
        return len(self._data)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return type(self)(self._data[i])
        return self._data[i]

    def __setitem__(self, i, value):
        if isinstance(i, slice):
            self._data[i] = [self._convert(v) for v in value]
        else:
            self._data[i] = self._convert(value)

    def __delitem__(self, i):
        del self._data[i]

    def __eq__(self, other):
        if isinstance(other, (_Vector, list, tuple)):
            return self._data == list(other)
        return NotImplemented

    __hash__ = None

    def __repr__(self):
        return "%s(%r)" % (type(self).__name__, self._data)

    def _position(self, where):
        if isinstance(where, SwigPyIterator):
            if where._container is not self or where._reverse:
                raise TypeError("the iterator is not a forward iterator of this vector")
            return where._position
        return _as_int(where)

    def insert(self, where, *args):
        """``insert(position, value)`` or ``insert(position, n, value)``; a position is an
        index or an iterator of this vector. Returns an iterator at the first inserted
        element when given an iterator, as the C++ method."""
        i = self._position(where)
        if len(args) == 1:
            values = [self._convert(args[0])]
        elif len(args) == 2:
            values = [self._convert(args[1])] * self._count(_as_int(args[0]))
        else:
            raise TypeError("insert takes (position, value) or (position, n, value)")
        self._data[i:i] = values
        return SwigPyIterator(self, i) if isinstance(where, SwigPyIterator) else None

    def erase(self, first, last=None):
        """Removes the element at an iterator (or index), or those of [first, last);
        returns an iterator at the element after them."""
        i = self._position(first)
        j = i + 1 if last is None else self._position(last)
        if not 0 <= i < len(self._data) or j < i:
            raise IndexError("erase position out of range")
        del self._data[i:j]
        return SwigPyIterator(self, i)

    def push_back(self, value):
        """Appends value."""
        self._data.append(self._convert(value))

    def pop_back(self):
        """Removes the last element."""
        if not self._data:
            raise IndexError("pop from an empty vector")
        self._data.pop()

    def pop(self, index=-1):
        """Removes and returns the last element (or the one at index)."""
        if not self._data:
            raise IndexError("pop from an empty vector")
        return self._data.pop(index)

    def back(self):
        """The last element."""
        return self._data[-1]

    def front(self):
        """The first element."""
        return self._data[0]

    def size(self):
        """The number of elements."""
        return len(self._data)

    def empty(self):
        """Whether there are no elements."""
        return not self._data

    def clear(self):
        """Removes every element."""
        self._data.clear()

    def capacity(self):
        """The number of elements held without reallocating (here, the size)."""
        return len(self._data)

    def reserve(self, n):
        """Accepted for compatibility: a Python list grows as needed."""
        self._count(_as_int(n))

    def resize(self, n, value=None):
        """Makes the size n, cutting the end or padding with value (the default element)."""
        n = self._count(_as_int(n))
        pad = self._default if value is None else self._convert(value)
        del self._data[n:]
        self._data.extend([pad] * (n - len(self._data)))

    def assign(self, n, value):
        """Replaces the contents with n copies of value."""
        self._data = [self._convert(value)] * self._count(_as_int(n))

    def swap(self, other):
        """Exchanges the contents with another vector of the same type."""
        if type(other) is not type(self):
            raise TypeError("swap needs another %s" % type(self).__name__)
        self._data, other._data = other._data, self._data

    def get_allocator(self):
        """The element type (the reference returns an opaque C++ allocator)."""
        return type(self._default)

    def iterator(self):
        """An iterator over the elements (as iter(self), with the iterator methods)."""
        return self.begin()


class intVector(_Vector):
    """A std::vector<int>."""
    _convert = staticmethod(_as_int)
    _default = 0


class floatVector(_Vector):
    """A std::vector<float> (Python floats)."""


class doubleVector(_Vector):
    """A std::vector<double>."""


class stringVector(_Vector):
    """A std::vector<std::string>."""
    _convert = staticmethod(_as_str)
    _default = ""


class doubleMatrix(_Vector):
    """A std::vector<std::vector<double>>: its rows are tuples of floats."""
    _convert = staticmethod(_as_float_tuple)
    _default = ()


class _KeyNotFound(KeyError, IndexError):
    """A missing key: the reference raises IndexError, Python code expects KeyError."""


class stringMap(_Iterators, MutableMapping):
    """A std::map<std::string, std::string>: a dict of strings in key order."""

    def __init__(self, items=()):
        """``()`` or ``(mapping)``, whose keys and values must be strings."""
        self._data = {}
        for k, v in dict(items).items():
            self[k] = v

    def _keys(self):
        return sorted(self._data)

    def _element(self, i):
        k = self._keys()[i]
        return (k, self._data[k])

    def __getitem__(self, key):
        try:
            return self._data[key]
        except KeyError:
            raise _KeyNotFound("key not found") from None

    def __setitem__(self, key, value):
        self._data[_as_str(key)] = _as_str(value)

    def __delitem__(self, key):
        try:
            del self._data[key]
        except KeyError:
            raise _KeyNotFound("key not found") from None

    def __contains__(self, key):
        return key in self._data

    def __iter__(self):
        return iter(self._keys())

    def __len__(self):
        return len(self._data)

    def __repr__(self):
        return "stringMap(%r)" % self.asdict()

    def asdict(self):
        """The contents as a dict."""
        return {k: self._data[k] for k in self._keys()}

    def keys(self):
        """The keys in order, as a list."""
        return self._keys()

    def values(self):
        """The values in key order, as a list."""
        return [self._data[k] for k in self._keys()]

    def items(self):
        """The (key, value) pairs in key order, as a list."""
        return [(k, self._data[k]) for k in self._keys()]

    def has_key(self, key):
        """Whether key is in the map."""
        return key in self._data

    def count(self, key):
        """1 if key is in the map, else 0."""
        return int(key in self._data)

    def size(self):
        """The number of entries."""
        return len(self._data)

    def empty(self):
        """Whether the map has no entries."""
        return not self._data

    def erase(self, key):
        """Removes a key (or the entry at an iterator); returns the number removed."""
        if isinstance(key, SwigPyIterator):
            key = key.value()[0]
        return int(self._data.pop(key, None) is not None)

    def swap(self, other):
        """Exchanges the contents with another stringMap."""
        if not isinstance(other, stringMap):
            raise TypeError("swap needs another stringMap")
        self._data, other._data = other._data, self._data

    def get_allocator(self):
        """The element type, (key, value) (the reference returns an opaque C++ allocator)."""
        return tuple

    def find(self, key):
        """An iterator at key's entry, or end() when it is missing."""
        keys = self._keys()
        i = bisect.bisect_left(keys, key)
        return SwigPyIterator(self, i if i < len(keys) and keys[i] == key else len(keys))

    def lower_bound(self, key):
        """An iterator at the first entry whose key is >= key."""
        return SwigPyIterator(self, bisect.bisect_left(self._keys(), key))

    def upper_bound(self, key):
        """An iterator at the first entry whose key is > key."""
        return SwigPyIterator(self, bisect.bisect_right(self._keys(), key))

    def iterator(self):
        """An iterator over the keys."""
        return iter(self._keys())

    key_iterator = iterkeys = iterator

    def value_iterator(self):
        """An iterator over the values in key order."""
        return iter(self.values())

    itervalues = value_iterator

    def iteritems(self):
        """An iterator over the (key, value) pairs in key order."""
        return iter(self.items())


class _Array:
    """A C array of fixed size; ``cast()`` gives the array to pass on and
    ``frompointer`` an array over the same elements."""

    _convert = staticmethod(_as_float)
    _default = 0.0

    def __init__(self, nelements):
        """An array of nelements default elements."""
        n = _as_int(nelements)
        if n < 0:
            raise ValueError("an array size must be >= 0, got %d" % n)
        self._data = [self._default] * n

    def _index(self, i):
        i = _as_int(i)
        if not 0 <= i < len(self._data):
            raise IndexError("array index %d out of range [0, %d)" % (i, len(self._data)))
        return i

    def __getitem__(self, i):
        return self._data[self._index(i)]

    def __setitem__(self, i, value):
        self._data[self._index(i)] = self._convert(value)

    def __len__(self):
        return len(self._data)

    def cast(self):
        """The array itself, standing for the C pointer to its elements."""
        return self

    @classmethod
    def frompointer(cls, pointer):
        """An array over the same elements as pointer (an array or its cast())."""
        if not isinstance(pointer, _Array):
            raise TypeError("frompointer needs an array, got %r" % (pointer,))
        out = cls.__new__(cls)
        out._data = pointer._data
        return out


class intArray(_Array):
    """A C int array."""
    _convert = staticmethod(_as_int)
    _default = 0


class floatArray(_Array):
    """A C float array (Python floats)."""


class doubleArray(_Array):
    """A C double array."""


def intArray_frompointer(pointer):
    """``intArray.frompointer``."""
    return intArray.frompointer(pointer)


def floatArray_frompointer(pointer):
    """``floatArray.frompointer``."""
    return floatArray.frompointer(pointer)


def doubleArray_frompointer(pointer):
    """``doubleArray.frompointer``."""
    return doubleArray.frompointer(pointer)
