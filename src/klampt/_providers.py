"""Where a lower layer reaches up: the reference's API puts some names whose
work belongs to an upper layer into a lower one (``klampt.io.resource.edit``
opens a Qt dialog, ``klampt.io.html.HTMLSharePath`` writes the web viewer's
page, ``klampt.model.create.pile.make_object_pile`` simulates).

The package's layers, bottom up: ``klampt.math``; ``klampt.model`` and
``klampt.io``; then ``klampt.sim``, ``klampt.plan``, ``klampt.control`` and
``klampt.vis``; ``klampt.apps`` on top. A module of the three lower packages
imports nothing from the upper ones, not even inside a function
(tests/test_layers.py checks every module's AST). Such a name asks
:func:`provider` for its implementation instead, by a key of
:data:`PROVIDERS`: this table is the one place that says which upper module
does the work, and it is read only when the name is used, so the lower module
imports without the upper one and reference code such as
``from klampt.io import resource; resource.edit(...)`` runs unchanged."""
import importlib

PROVIDERS = {
    'resource.visual_edit': 'klampt.vis._resource_windows:visual_edit',
    'resource.thumbnail': 'klampt.vis._resource_windows:thumbnail',
    'resource.file_dialog': 'klampt.vis._resource_windows:file_dialog',
    'resource.gui_binding': 'klampt.vis._resource_windows:gui_binding',
    'calibrate.show_and_edit': 'klampt.vis._resource_windows:show_and_edit',
    'html.world_serializer': 'klampt.vis._web.serialize:world_serializer',
    'html.page': 'klampt.vis._web.page:page',
    'pile.settle': 'klampt.sim.settle:settle',
}
"""Key -> ``'module:attribute'`` of the upper layer's implementation."""


def provider(key):
    """The implementation registered under ``key`` in :data:`PROVIDERS`,
    importing its module on first use (KeyError for an unknown key)."""
    module, attribute = PROVIDERS[key].split(':')
    return getattr(importlib.import_module(module), attribute)
