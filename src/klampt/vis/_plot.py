"""Live plots of the visualization (``vis.addPlot``) as data: traces of
(time, value) samples kept over a time window, with events. Drawing is in
:mod:`klampt.vis._render.overlay`."""
import math
from klampt.model import config
from klampt.model.trajectory import Trajectory

_COLORS = [(1, 0, 0), (0, 0.6, 0), (0, 0, 1), (1, 0.5, 0), (0.6, 0, 0.6), (0, 0.6, 0.6), (0.5, 0.5, 0.5)]


class VisPlotItem:
    """One plotted quantity: a scene item's configuration (``linkitem``) or
    values logged by name; ``traces`` holds one list of (t, v) per channel."""

    def __init__(self, itemname, linkitem=None):
        self.name = itemname
        self.itemnames = []
        self.linkitem = linkitem
        self.traces = []
        self.hidden = []
        self.traceRanges = []
        self.luminosity = []
        if linkitem is not None:
            q = config.getConfig(linkitem.item)
            try:
                self.itemnames = [str(n) for n in config.getConfigNames(linkitem.item)]
            except Exception:
                self.itemnames = []
            if len(self.itemnames) != len(q):
                self.itemnames = [str(i) for i in range(len(q))]
            self.itemnames = [itemname + '[' + n + ']' for n in self.itemnames]
            self.traces = [[] for _ in q]
            self.hidden = [False] * len(q)

    def customUpdate(self, item, t, v):
        """Logs value v of channel ``item`` (an index) at time t."""
        while item >= len(self.traces):
            self.traces.append([])
            self.hidden.append(False)
            self.itemnames.append(self.name if len(self.traces) == 1 else '%s[%d]' % (self.name, len(self.traces) - 1))
        self.traces[item].append((t, v))

    def update(self, t):
        """Samples the linked item's configuration at time t."""
        if self.linkitem is None:
            return
        q = config.getConfig(self.linkitem.item)
        for i, v in enumerate(q):
            self.customUpdate(i, t, v)

    def discard(self, tstart):
        """Drops the samples older than tstart (keeping one before it)."""
        for trace in self.traces:
            k = 0
            while k + 1 < len(trace) and trace[k + 1][0] < tstart:
                k += 1
            if k:
                del trace[:k]


class VisPlot:
    """A plot: items (one per quantity), events (name, t, color) and the
    time of the newest sample."""

    def __init__(self):
        self.items = []
        self.events = {}
        self.eventColors = {}
        self.outfile = None
        self.outformat = None
        self.tlast = 0.0

    def __len__(self):
        return len(self.items)

    def update(self, t, duration, compressThreshold):
        """Samples the linked items and forgets what is older than the window."""
        self.tlast = t
        for item in self.items:
            item.update(t)
            item.discard(t - duration)
        for name in list(self.events):
            self.events[name] = [e for e in self.events[name] if e >= t - duration]

    def addEvent(self, name, t, color=None):
        """Marks an event at time t."""
        self.events.setdefault(name, []).append(t)
        if color is not None:
            self.eventColors[name] = color
        elif name not in self.eventColors:
            self.eventColors[name] = _COLORS[len(self.eventColors) % len(_COLORS)]

    def channels(self):
        """(label, color, samples) of every visible trace."""
        out = []
        k = 0
        for item in self.items:
            for i, trace in enumerate(item.traces):
                if not item.hidden[i]:
                    out.append((item.itemnames[i] if i < len(item.itemnames) else item.name,
                                _COLORS[k % len(_COLORS)], trace))
                k += 1
        return out

    def value_range(self, vmin=None, vmax=None):
        """The plotted value range: the given bounds, else the data's."""
        values = [v for _, _, trace in self.channels() for _, v in trace if math.isfinite(v)]
        lo = vmin if vmin is not None else (min(values) if values else 0.0)
        hi = vmax if vmax is not None else (max(values) if values else 1.0)
        if hi <= lo:
            hi = lo + 1.0
        return lo, hi

    def dump(self, fn):
        """Saves the traces: ``.csv`` (time column, then one per trace) or
        ``.traj`` (a Trajectory of the samples)."""
        channels = self.channels()
        times = sorted({t for _, _, trace in channels for t, _ in trace})
        columns = []
        for _, _, trace in channels:
            lookup = dict(trace)
            columns.append([lookup.get(t, float('nan')) for t in times])
        if str(fn).endswith('.traj'):
            Trajectory(times, [list(row) for row in zip(*columns)] if columns else [[] for _ in times]).save(fn)
            return
        with open(fn, 'w') as f:
            f.write(','.join(['time'] + [label for label, _, _ in channels]) + '\n')
            for i, t in enumerate(times):
                f.write(','.join([repr(t)] + [repr(c[i]) for c in columns]) + '\n')
