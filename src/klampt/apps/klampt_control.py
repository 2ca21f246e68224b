"""Klamp't's module name of the klampt_control app, :mod:`klampt.apps.control`:
``python -m klampt.apps.klampt_control`` runs it as the console script does."""
import sys

from .control import main  # noqa: F401

if __name__ == '__main__':
    sys.exit(main())
