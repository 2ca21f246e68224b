"""klampt.math.rootfind and klampt.math.vectorfield: Newton root finding on
fields with known roots (the reference's status codes, read from its
documentation and runs of Klamp't 0.9.2's C++ module)."""
import math

import pytest

from klampt.math import rootfind
from klampt.math.vectorfield import CompositeVectorFieldFunction, VectorFieldFunction


class Circle(VectorFieldFunction):
    """x^2 + y^2 = r^2."""

    def __init__(self, r=1.0):
        super().__init__()
        self.n, self.m, self.r = 2, 1, r

    def eval(self, x):
        return [x[0] ** 2 + x[1] ** 2 - self.r ** 2]

    def jacobian(self, x):
        return [[2 * x[0], 2 * x[1]]]


class Diagonal(VectorFieldFunction):
    """x = y, with the default (numeric) Jacobian."""

    def __init__(self):
        super().__init__()
        self.n, self.m = 2, 1

    def eval(self, x):
        return [x[0] - x[1]]


class Lifted(VectorFieldFunction):
    """x^2 + 1: no real root, and a vanishing gradient at 0."""

    def __init__(self):
        super().__init__()
        self.n, self.m = 1, 1

    def eval(self, x):
        return [x[0] ** 2 + 1]

    def jacobian(self, x):
        return [[2 * x[0]]]


@pytest.fixture(autouse=True)
def clean_state():
    yield
    rootfind.destroy()
    rootfind.setFTolerance(1e-4)
    rootfind.setXTolerance(1e-7)


def test_circle_and_line_meet_at_the_root_nearest_the_start():
    field = CompositeVectorFieldFunction([Circle(), Diagonal()])
    assert (field.n, field.m) == (2, 2)
    assert rootfind.setVectorField(field) == 1
    s = math.sqrt(0.5)
    status, x, iters = rootfind.findRoots([2, 0.5], 20)
    assert status == 1 and 0 < iters < 20
    assert abs(x[0] - s) < 1e-4 and abs(x[1] - s) < 1e-4
    assert max(abs(v) for v in field.eval(x)) <= 1e-4
    status, x, _ = rootfind.findRoots([-2, -0.5], 20)
    assert status == 1 and abs(x[0] + s) < 1e-4 and abs(x[1] + s) < 1e-4
    rootfind.setFTolerance(1e-12)
    status, x, _ = rootfind.findRoots([2, 0.5], 50)
    assert status in (0, 1) and abs(x[0] - s) < 1e-10 and abs(x[1] - s) < 1e-10


def test_bounds_keep_the_search_in_the_box():
    rootfind.setVectorField(CompositeVectorFieldFunction([Circle(), Diagonal()]))
    # from the negative quadrant, the box holds only the positive root
    status, x, _ = rootfind.findRootsBounded([-2, -0.5], [(0.1, 3), (0.1, 3)], 50)
    assert status == 1 and min(x) >= 0 and abs(x[0] - math.sqrt(0.5)) < 1e-4
    # a box of one point: x stays there
    status, x, _ = rootfind.findRootsBounded([2, 0.5], [(0, 0), (3, 3)], 20)
    assert x == [0.0, 3.0] and status in (0, 3)
    with pytest.raises(ValueError):
        rootfind.findRootsBounded([2, 0.5], [(0, 3)], 20)
    with pytest.raises(ValueError):
        rootfind.findRootsBounded([2, 0.5], [(3, 0), (0, 3)], 20)


def test_underdetermined_field_takes_the_minimum_norm_step():
    rootfind.setVectorField(Diagonal())
    status, x, iters = rootfind.findRoots([5.0, 3.0], 20)
    # the step from (5, 3) to the line x = y orthogonally lands on (4, 4)
    assert status == 1 and iters == 1 and x == pytest.approx([4.0, 4.0], abs=1e-6)


def test_status_codes_for_no_root_iteration_limit_and_nan():
    rootfind.setVectorField(Lifted())
    status, x, _ = rootfind.findRoots([1.0], 50)
    assert status == 3 and abs(x[0]) < 1e-6
    rootfind.setVectorField(CompositeVectorFieldFunction([Circle(), Diagonal()]))
    status, x, iters = rootfind.findRoots([2, 0.5], 1)
    assert status == 4 and iters == 1

    class Nan(Lifted):
        def eval(self, x):
            return [float("nan")]
    rootfind.setVectorField(Nan())
    assert rootfind.findRoots([1.0], 5)[0] == 5


def test_bad_input_raises_clear_errors():
    assert rootfind.setVectorField(None) == 0
    with pytest.raises(RuntimeError, match="no vector field"):
        rootfind.findRoots([0.0], 5)
    with pytest.raises(TypeError):
        rootfind.setVectorField(object())
    rootfind.setVectorField(Circle())
    with pytest.raises(ValueError, match="2 variables"):
        rootfind.findRoots([0.0], 5)
    with pytest.raises(ValueError):
        rootfind.setFTolerance(-1)
    with pytest.raises(ValueError):
        rootfind.findRoots([1.0, 1.0], -1)


def test_vector_field_helpers():
    c = Circle(2.0)
    J = c.jacobian_numeric([1.0, 0.5], 1e-5)
    assert len(J) == 1 and J[0] == pytest.approx([2.0, 1.0], abs=1e-6)
    assert Diagonal().jacobian([0.3, 0.1])[0] == pytest.approx([1.0, -1.0], abs=1e-6)
    both = CompositeVectorFieldFunction([c, Diagonal()])
    assert both.eval([1.0, 1.0]) == pytest.approx([-2.0, 0.0])
    assert both.eval_i([1.0, 1.0], 1) == 0.0 and both.jacobian_ij([1.0, 3.0], 0, 1) == 6.0
    with pytest.raises(IndexError):
        both.eval_i([1.0, 1.0], 2)
    with pytest.raises(ValueError):
        CompositeVectorFieldFunction([c, Lifted()])
    with pytest.raises(NotImplementedError):
        VectorFieldFunction().eval([0.0])
