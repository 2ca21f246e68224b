"""Dialog editors of ``klampt.io.resource.edit`` in the reference (Qt). This
implementation has no Qt backend: :func:`run` raises RuntimeError naming
the headless alternatives."""


def run(editorObject):
    """Would run a Qt editor dialog."""
    raise RuntimeError("klampt.vis.editors needs the Qt backend, which this klampt does not include; "
                       "use vis.edit(name) in a GLFW window or the Jupyter sliders (klampt.vis.ipython)")
