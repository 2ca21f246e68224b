"""The web side of ``klampt.vis``: the scene model serialized for the
project's WebGL viewer (``viewer.js``; the messages typed in
:mod:`.protocol`), used by the Jupyter widget and the
self-contained HTML export."""
