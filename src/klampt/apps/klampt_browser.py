"""Klamp't's module name of the klampt_browser app, :mod:`klampt.apps.browser`:
``python -m klampt.apps.klampt_browser`` runs it as the console script does."""
import sys

from .browser import main  # noqa: F401

if __name__ == '__main__':
    sys.exit(main())
