"""Klamp't's module name of the klampt_sim app, :mod:`klampt.apps.sim`:
``python -m klampt.apps.klampt_sim`` runs it as the console script does."""
import sys

from .sim import main  # noqa: F401

if __name__ == '__main__':
    sys.exit(main())
