"""The import path :mod:`klampt.model.sensing` takes GLViewport from; the
camera and viewport classes live in :mod:`klampt._viewport`."""
from klampt._viewport import GLViewport, orbit, orientation_matrix  # noqa: F401
