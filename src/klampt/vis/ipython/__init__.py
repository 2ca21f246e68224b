"""The Jupyter side of ``klampt.vis``: ``KlamptWidget`` (an anywidget
carrying the project's WebGL viewer, nothing else to install), the editors
``EditConfig``, ``EditPoint``, ``EditTransform`` and ``Playback``.
Importing this module needs no ipywidgets; using the classes needs
``pip install klampt[jupyter]``."""

_NAMES = ('KlamptWidget', 'EditConfig', 'EditPoint', 'EditTransform', 'Playback')


def __getattr__(name):
    if name in _NAMES:
        try:
            from . import widgets  # lazy: it imports anywidget and ipywidgets
        except ImportError as e:
            raise ImportError("klampt.vis.ipython.%s needs anywidget and ipywidgets: pip install klampt[jupyter] "
                              "(%s)" % (name, e)) from e
        return getattr(widgets, name)
    raise AttributeError("module 'klampt.vis.ipython' has no attribute %r" % name)


__all__ = list(_NAMES)
