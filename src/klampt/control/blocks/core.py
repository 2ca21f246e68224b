"""System blocks: streaming computations (filters, estimators, controllers)
that take inputs and produce outputs each time :meth:`Block.advance` runs.

Inputs and outputs are channels referred to by index or name.  Connect an
output channel to an input channel (``b.input[0].connect(a.output[0])``,
``b.input = a.output`` for single channels, or the call form
``Add()(a, b)``), gather the blocks in a :class:`SuperBlock`, and advance
it; output channels also combine with ``+ - < <= > >= == !=`` into new
blocks.
"""
import operator
import weakref
from collections import deque
from typing import Any, Dict, Sequence, Tuple, Union

from ...math import vectorops


class Block(object):
    """A streaming computation with some inputs and outputs.

    Subclasses set the inputs/outputs (a count or a list of names) and
    implement :meth:`advance`; stateful blocks also implement
    ``__getstate__``/``__setstate__``.

    Args:
        inputs (int or list of str): the number or the names of the inputs.
        outputs (int or list of str): the number or the names of the outputs.
    """

    def __init__(self, inputs=0, outputs=0) -> None:
        self._name = None
        self._inputs = _Channels(weakref.proxy(self), inputs, _InputChannel)
        self._outputs = _Channels(weakref.proxy(self), outputs, _OutputChannel)

    def advance(self, *args) -> Union[None, Any, Tuple, Dict[str, Any]]:
        """Computes the outputs from the inputs and advances one step.
        Returns None (no outputs), a value (one), a tuple, or a dict of
        named outputs."""
        return None

    def signal(self, name, *args):
        """Reacts to an asynchronous signal ('reset', 'enter', 'exit',
        'change_state', ...); most blocks ignore them."""
        return None

    def __str__(self):
        if self._name is None:
            return self.__class__.__name__
        return "%s(%s)" % (self._name, self.__class__.__name__)

    def _process(self):
        """Reads the connected inputs, advances, writes the outputs."""
        for c in self._inputs._channels:
            c.advance()
        if self._inputs._names:
            res = self.advance(**dict((k, self._inputs._channels[i]._value) for k, i in self._inputs._names.items()))
        else:
            res = self.advance(*[c._value for c in self._inputs._channels])
        outs = self._outputs
        if res is None:
            if len(outs) != 0:
                raise ValueError("Block %s has %d outputs but advance() returned None" % (self, len(outs)))
            return
        if len(outs) == 1:
            if isinstance(res, dict) and outs._names and set(res) <= set(outs._names):
                for k, v in res.items():
                    outs[k].setValue(v)
            else:
                outs[0].setValue(res)
            return
        if isinstance(res, dict):
            for k, v in res.items():
                if k not in outs._names:
                    raise ValueError("Block %s produced output %r, which it does not have" % (self, k))
                outs[k].setValue(v)
            return
        if len(res) != len(outs):
            raise ValueError("Block %s has %d outputs but advance() returned %d" % (self, len(outs), len(res)))
        for v, o in zip(res, outs._channels):
            o.setValue(v)

    def __call__(self, *args) -> 'Block':
        """Connects one single-output block or output channel to each
        input and returns self: ``Min()(filter.output, sensor.output)``.

        Reads each argument block's outputs (the reference reads a nonexistent
        _output attribute)."""
        if len(args) != len(self._inputs):
            raise ValueError("%s takes %d inputs, got %d" % (self, len(self._inputs), len(args)))
        if len(self._outputs) != 1:
            raise ValueError("Only single-output blocks can be wired by calling them")
        self._storage = []  # channels hold weak references; keep the source blocks alive
        for i, arg in enumerate(args):
            if isinstance(arg, Block):
                if len(arg._outputs) != 1:
                    raise ValueError("Argument %s does not have a single output" % (arg,))
                self._inputs[i].connect(arg._outputs[0])
                self._storage.append(arg)
            elif isinstance(arg, (_Channels, _OutputChannel)):
                self._inputs[i].connect(arg)
            else:
                raise ValueError("Argument %r must be a block or an output channel" % (arg,))
        return self

    @property
    def input(self):
        """The input channels."""
        return self._inputs

    @input.setter
    def input(self, value):
        if len(self._inputs) != 1:
            raise ValueError("block.input = x needs exactly 1 input channel")
        self._inputs[0].connect(value)

    @property
    def output(self):
        """The output channels."""
        return self._outputs

    @output.setter
    def output(self, value):
        if len(self._outputs) != 1:
            raise ValueError("block.output = x needs exactly 1 output channel")
        self._outputs[0].connect(value)

    def debug(self, type):
        """Debugging hook; 'print' prints the block."""
        if type == 'print':
            print(str(self))


class SuperBlock(Block):
    """The blocks path-connected to the seeds, run in topological order;
    its free inputs and outputs are those of the diagram."""

    def __init__(self, seeds: Union[Block, Sequence[Block]]):
        if isinstance(seeds, Block):
            seeds = [seeds]
        self.blocks = []
        self.free_inputs = []
        self.free_outputs = []
        members = self._connected(list(seeds))
        self.blocks = self._sorted(members)
        for b in self.blocks:
            self.free_inputs += [c for c in b._inputs._channels if c._upstream is None]
            self.free_outputs += [c for c in b._outputs._channels if not c._downstream]
        Block.__init__(self, [str(c) for c in self.free_inputs], [str(c) for c in self.free_outputs])

    @staticmethod
    def _key(block):
        # weak proxies compare by their referent
        return id(block.__repr__.__self__)

    def _connected(self, seeds):
        found = {}
        todo = list(seeds)
        while todo:
            b = todo.pop()
            k = self._key(b)
            if k in found:
                continue
            found[k] = b
            for c in b._outputs._channels:
                todo += [t._block for t in c._downstream]
            for c in b._inputs._channels:
                if isinstance(c._upstream, _OutputChannel):
                    todo.append(c._upstream._block)
        return list(found.values())

    def _sorted(self, members):
        keys = [self._key(b) for b in members]
        indeg = dict((k, 0) for k in keys)
        for b in members:
            for c in b._inputs._channels:
                if isinstance(c._upstream, _OutputChannel):
                    indeg[self._key(b)] += 1
        order = []
        ready = [b for b in members if indeg[self._key(b)] == 0]
        while ready:
            b = ready.pop(0)
            order.append(b)
            for c in b._outputs._channels:
                for t in c._downstream:
                    k = self._key(t._block)
                    indeg[k] -= 1
                    if indeg[k] == 0:
                        ready.append(t._block)
        if len(order) != len(members):
            raise ValueError("SuperBlock: the diagram has a cycle")
        return order

    def advance(self, *args):
        """Runs every block once; returns the free outputs' values."""
        if len(args) != len(self.free_inputs):
            raise ValueError("SuperBlock needs %d free inputs, got %d" % (len(self.free_inputs), len(args)))
        for a, c in zip(args, self.free_inputs):
            c._upstream = _Constant(a)
        try:
            for b in self.blocks:
                b._process()
        finally:
            for c in self.free_inputs:
                c._upstream = None
        return [c._value for c in self.free_outputs]

    def signal(self, name, *args):
        """Sends the signal to every block."""
        for b in self.blocks:
            b.signal(name, *args)

    def debug(self, type):
        """Debugs every block."""
        for b in self.blocks:
            b.debug(type)


class _Constant:
    """A value feeding a free input of a SuperBlock during one advance."""

    def __init__(self, value):
        self.value = value


class Source(Block):
    """A block with no inputs and one output."""

    def __init__(self):
        Block.__init__(self, 0, 1)


class Sink(Block):
    """A block with one input and no outputs."""

    def __init__(self):
        Block.__init__(self, 1, 0)


class ValueSource(Source):
    """Outputs a value set from outside with :meth:`write`."""

    def __init__(self, value):
        Source.__init__(self)
        self.value = value

    def advance(self):
        return self.value

    def write(self, value):
        """Sets the value output from the next advance on."""
        self.value = value


class ValueSink(Sink):
    """Stores its input; read it with :meth:`read`."""

    def __init__(self):
        Sink.__init__(self)
        self.value = None

    def advance(self, value):
        self.value = value

    def read(self):
        """The last input."""
        return self.value


class Counter(Source):
    """Outputs initVal, initVal+increment, ... on successive advances."""

    def __init__(self, initVal=0, increment=1):
        Source.__init__(self)
        self.value = initVal
        self.increment = increment

    def advance(self):
        res = self.value
        self.value += self.increment
        return res

    def __getstate__(self):
        return {'value': self.value, 'increment': self.increment}

    def __setstate__(self, state):
        self.value, self.increment = state['value'], state['increment']


class FIRFilter(Block):
    """A finite impulse response filter with coefficients b:
    ``y[t] = b[0] x[t] + ... + b[k-1] x[t-k+1]`` (scalars or vectors);
    ``[1/k]*k`` is a moving average."""

    def __init__(self, b):
        if not hasattr(b, '__iter__') or len(b) == 0:
            raise ValueError("FIRFilter needs a non-empty coefficient list")
        Block.__init__(self, 1, 1)
        self.b = list(b)
        self.history = deque()

    def advance(self, x):
        vector = hasattr(x, '__iter__')
        samples = [x] + list(self.history)
        if vector:
            res = [0.0] * len(x)
            for c, s in zip(self.b, samples):
                res = [r + c * v for r, v in zip(res, s)]
        else:
            res = sum(c * s for c, s in zip(self.b, samples))
        self.history.appendleft(list(x) if vector else x)
        while len(self.history) >= len(self.b):
            self.history.pop()
        return res

    def __getstate__(self):
        return {'history': list(self.history), 'b': self.b}

    def __setstate__(self, state):
        self.history = deque(state['history'])
        self.b = state['b']

    def signal(self, type, *args):
        if type == 'reset':
            self.history = deque()


def _vector_or_scalar_op(vec_op, scalar_op):
    def op(a, b):
        if hasattr(a, '__iter__') or hasattr(b, '__iter__'):
            return vec_op(a, b)
        return scalar_op(a, b)
    return op


class BinaryOp(Block):
    """Outputs func(a, b) of its two inputs."""

    def __init__(self, func):
        self.func = func
        Block.__init__(self, 2, 1)

    def advance(self, a, b):
        return self.func(a, b)


class Add(BinaryOp):
    """a + b (scalars or vectors)."""

    def __init__(self):
        BinaryOp.__init__(self, _vector_or_scalar_op(vectorops.add, operator.add))


class Sub(BinaryOp):
    """a - b (scalars or vectors)."""

    def __init__(self):
        BinaryOp.__init__(self, _vector_or_scalar_op(vectorops.sub, operator.sub))


class Min(BinaryOp):
    """The elementwise minimum of a and b."""

    def __init__(self):
        BinaryOp.__init__(self, _vector_or_scalar_op(vectorops.minimum, min))


class Max(BinaryOp):
    """The elementwise maximum of a and b."""

    def __init__(self):
        BinaryOp.__init__(self, _vector_or_scalar_op(vectorops.maximum, max))


class _Channel(object):
    """One input or output of a block: its name and declared type."""

    #: How an unnamed channel of the kind is shown: "<block>.<_label>[index]".
    _label = None

    def __init__(self, block, index, name=None):
        self._block = block
        self._index = index
        self._name = name
        self._global_name = None
        self._type = None
        self._value = None

    def __str__(self):
        if self._global_name is not None:
            return self._global_name
        return "%s.%s" % (self._block, self._name if self._name is not None else "%s[%d]" % (self._label, self._index))

    def setName(self, name):
        """Names the channel in diagrams."""
        self._global_name = name

    def setType(self, type):
        """Declares a type; connecting channels of different types fails."""
        self._type = type


class _InputChannel(_Channel):
    """One input of a block: connected to an output channel or a constant."""

    _label = 'inputs'

    def __init__(self, block, index, name=None):
        _Channel.__init__(self, block, index, name)
        self._upstream = None

    def connect(self, channel):
        """Feeds this input from an output channel (or a constant)."""
        if isinstance(channel, Block):
            channel = channel._outputs
        if isinstance(channel, _Channels):
            if channel._kind is not _OutputChannel or len(channel) != 1:
                raise ValueError("Can only connect an input to a single output channel")
            channel = channel[0]
        if isinstance(channel, _InputChannel):
            raise ValueError("Can only connect outputs to inputs")
        if isinstance(channel, _OutputChannel):
            if channel._type is not None and self._type is not None and channel._type != self._type:
                raise ValueError("Can't connect an input of type %s to an output of type %s" % (self._type, channel._type))
            channel._downstream.append(weakref.proxy(self))
        self._upstream = channel

    def read(self):
        """The current value."""
        return self._value

    def reset(self):
        """Clears the current value."""
        self._value = None

    def advance(self):
        up = self._upstream
        if isinstance(up, _OutputChannel):
            self._value = up._value
        elif isinstance(up, _Constant):
            self._value = up.value
        else:
            self._value = up


class _Operators(object):
    """Arithmetic and comparison operators that build a block from two
    outputs; the class provides _binary(rhs, func)."""

    def __add__(self, rhs):
        return self._binary(rhs, Add)

    def __sub__(self, rhs):
        return self._binary(rhs, Sub)

    def __gt__(self, rhs):
        return self._binary(rhs, operator.gt)

    def __ge__(self, rhs):
        return self._binary(rhs, operator.ge)

    def __lt__(self, rhs):
        return self._binary(rhs, operator.lt)

    def __le__(self, rhs):
        return self._binary(rhs, operator.le)

    def __eq__(self, rhs):
        return self._binary(rhs, operator.eq)

    def __ne__(self, rhs):
        return self._binary(rhs, operator.ne)

    __hash__ = object.__hash__


class _OutputChannel(_Channel, _Operators):
    """One output of a block, feeding any number of inputs."""

    _label = 'outputs'

    def __init__(self, block, index, name=None):
        _Channel.__init__(self, block, index, name)
        self._downstream = []

    def connect(self, channel):
        """Feeds an input channel from this output."""
        if isinstance(channel, Block):
            channel = channel._inputs
        if isinstance(channel, _Channels):
            if channel._kind is not _InputChannel or len(channel) == 0:
                raise ValueError("Can only connect outputs to inputs")
            channel = channel[0]
        if not isinstance(channel, _InputChannel):
            raise ValueError("Can only connect outputs to inputs")
        channel.connect(self)

    def reset(self):
        """Clears the current value."""
        self._value = None

    def setValue(self, val):
        """Sets the current value."""
        self._value = val

    def read(self):
        """The current value."""
        return self._value

    def _binary(self, other, func):
        res = func() if isinstance(func, type) else BinaryOp(func)
        res._inputs[0].connect(self)
        res._inputs[1].connect(other)
        return res



class _Channels(_Operators):
    """The inputs or the outputs of a block, by index or by name."""

    def __init__(self, block, spec, kind):
        self._block = block
        self._kind = kind
        if isinstance(spec, str):
            spec = [spec]
        if isinstance(spec, int):
            self._channels = [kind(block, i) for i in range(spec)]
            self._names = {}
        else:
            self._channels = [kind(block, i, n) for i, n in enumerate(spec)]
            self._names = dict((n, i) for i, n in enumerate(spec))

    def addChannel(self, name=None):
        """Adds a channel (named if the others are); returns its key."""
        i = len(self._channels)
        if name is None:
            if self._names:
                raise ValueError("Can't add an unnamed channel to named channels")
            self._channels.append(self._kind(self._block, i))
            return i
        if len(self._names) != len(self._channels):
            raise ValueError("Can't add a named channel to unnamed channels")
        if name in self._names:
            raise ValueError("Already have a channel named %s" % name)
        self._channels.append(self._kind(self._block, i, name))
        self._names[name] = i
        return name

    def __len__(self) -> int:
        return len(self._channels)

    def __contains__(self, key) -> bool:
        return key in self._names

    def items(self):
        """(name or index, channel) pairs."""
        if self._names:
            return [(k, self._channels[i]) for k, i in self._names.items()]
        return list(enumerate(self._channels))

    def _single(self, what):
        if len(self._channels) != 1:
            raise ValueError("%s needs exactly 1 channel" % what)
        return self._channels[0]

    def setName(self, name) -> None:
        """Names the single channel."""
        self._single('setName').setName(name)

    def setType(self, type) -> None:
        """Types the single channel."""
        self._single('setType').setType(type)

    def __getitem__(self, key):
        if isinstance(key, int):
            return self._channels[key]
        return self._channels[self._names[key]]

    def __setitem__(self, key, value) -> None:
        self[key].connect(value)

    def connect(self, channel):
        """Connects the single channel."""
        self._single('connect').connect(channel)

    def read(self):
        """The value (one channel), a list (unnamed) or a dict (named)."""
        if not self._channels:
            return None
        if len(self._channels) == 1:
            return self._channels[0].read()
        if self._names:
            return dict((k, self._channels[i].read()) for k, i in self._names.items())
        return [c.read() for c in self._channels]

    def reset(self) -> None:
        """Clears the single channel."""
        self._single('reset').reset()

    def setValue(self, val) -> None:
        """Sets the single channel's value."""
        self._single('setValue').setValue(val)

    def _binary(self, rhs, func):
        if self._kind is not _OutputChannel:
            raise ValueError("Only outputs combine into blocks")
        return self._single('An operator')._binary(rhs, func)


def self_test():
    """Runs a small diagram (a moving-average filter and a min) and returns
    the (input, output) pairs."""
    import math
    sensor = ValueSource(0.0)
    sensor.output.setName("some sensor")
    fir = FIRFilter([0.25] * 4)
    fir.input = sensor.output[0]
    fir.output.setName("filtered sensor")
    proc = Min()(fir.output, sensor.output)
    diagram = SuperBlock([sensor])
    res = []
    for k in range(10):
        sval = math.sin(k * 0.01)
        sensor.write(sval)
        diagram.advance()
        res.append((sval, proc.output.read()))
    return res
