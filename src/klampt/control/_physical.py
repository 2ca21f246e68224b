"""A base interface of a Completer with the DOFs it drives and what it
implements (:class:`_Physical`), and the whole-robot queries gathered
from several; :data:`_MISSING` marks an unimplemented query."""

_MISSING = object()


class _Physical:
    """A base interface driving some DOFs, with what it implements."""

    def __init__(self, name, iface, indices):
        self.name = name
        self.iface = iface
        self.indices = indices
        self.has = dict()
        self.modes = dict()
        self.lastMode = None

    def call(self, name, *args):
        """iface.name(*args), or _MISSING if it is not implemented."""
        if self.has.get(name) is False:
            return _MISSING
        try:
            res = getattr(self.iface, name)(*args)
        except NotImplementedError:
            self.has[name] = False
            return _MISSING
        self.has[name] = True
        return res


def gather(physicals, n, name, fallback=None, partial=False, emulatedWhen=()):
    """The whole-robot vector (n DOFs) of query name from the bases
    physicals.  A base lacking it (or whose last command mode is in
    emulatedWhen) contributes fallback(physical) (if given and not
    _MISSING), else None entries when partial; otherwise the result is
    None."""
    res = [None] * n
    for p in physicals:
        v = _MISSING if p.lastMode in emulatedWhen else p.call(name)
        if v is _MISSING and fallback is not None:
            v = fallback(p)
        if v is _MISSING:
            if not partial:
                return None
            continue
        if len(v) != len(p.indices):
            raise ValueError("%s.%s() returned %d values for %d DOFs" % (p.iface, name, len(v), len(p.indices)))
        for i, x in zip(p.indices, v):
            res[i] = float(x)
    return res


def clock_and_rate(physicals):
    """(clock, control rate) of the bases physicals: the first clock, the
    fastest rate (None where no base has one)."""
    clock = None
    rate = None
    for p in physicals:
        c = p.call('clock')
        if c is not _MISSING and clock is None:
            clock = c
        r = p.call('controlRate')
        if r is not _MISSING:
            rate = r if rate is None else max(rate, r)
    return clock, rate
