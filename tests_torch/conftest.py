"""Fixtures of the PyTorch bridge's tests (kept out of the main suite, which
does not need torch)."""
import os
import sys

import pytest

TESTS_TORCH = os.path.dirname(os.path.abspath(__file__))
SHARED_DATA = os.environ.get("KLAMPT_DATA_DIR",
                             os.path.join(os.path.dirname(os.path.dirname(TESTS_TORCH)), "shared", "klampt-data"))


@pytest.fixture(scope="module")
def robot():
    """The tx90l arm of the shared data (a failure, not a skip, if absent)."""
    from klampt import WorldModel
    path = os.path.join(SHARED_DATA, "robots", "tx90l.rob")
    assert os.path.isfile(path), "shared Klamp't data not found at %s (set KLAMPT_DATA_DIR)" % SHARED_DATA
    world = WorldModel()
    assert world.loadElement(path) >= 0, path
    yield world.robot(0)
    del world


# The main suite's helpers (test_docstrings.documented) for the checks that
# the main suite cannot run without torch.
sys.path.insert(0, os.path.join(os.path.dirname(TESTS_TORCH), "tests"))
