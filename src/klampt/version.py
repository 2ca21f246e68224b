"""The version of the Klamp't API this package provides."""
__version__ = "0.10.1"
