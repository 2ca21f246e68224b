"""``python -m klampt.vis script.py [arguments...]``: runs a visualization
script with its GUI on the main thread (required on macOS); see
:mod:`klampt.vis._launcher`."""
import sys

from klampt.vis._launcher import main

if __name__ == '__main__':
    sys.exit(main())
