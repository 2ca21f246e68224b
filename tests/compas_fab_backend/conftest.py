"""Fixtures of the COMPAS FAB backend tests: one klampt client and planner for the whole run."""
import pytest

pytest.importorskip("compas_fab")

from klampt.compas_fab import KlamptClient, KlamptPlanner  # noqa: E402


@pytest.fixture(scope="session")
def client():
    with KlamptClient() as c:
        yield c


@pytest.fixture(scope="session")
def planner(client):
    return KlamptPlanner(client)


@pytest.fixture
def cone(planner):
    """The UR5 cone-tool cell, set on the planner: (cell, state)."""
    from .fab_cells import library_cell, use
    cell, state = library_cell("ur5_cone_tool")
    use(planner, cell)
    return cell, state
