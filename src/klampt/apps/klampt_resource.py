"""Klamp't's module name of the klampt_resource app, :mod:`klampt.apps.resource`:
``python -m klampt.apps.klampt_resource`` runs it as the console script does."""
import sys

from .resource import main  # noqa: F401

if __name__ == '__main__':
    sys.exit(main())
