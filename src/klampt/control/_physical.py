"""A base interface of a Completer with the DOFs it drives and what it
implements (:class:`_Physical`); :data:`_MISSING` marks an unimplemented
query."""

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
