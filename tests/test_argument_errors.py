"""Every binding reads its arguments with the converters of
cpp/bindings/convert.h: one wording per kind of mistake, whichever class
raises it, and nothing is changed by a call that raises.  The Python
modules that check numbers (klampt._checks) word them the same way."""
import math

import pytest

import klampt
from conftest import arm_table_world
from klampt.equilibrium import com_equilibrium, force_closure
from klampt.model.trajectory import Trajectory, path_to_trajectory

NAN, INF = float("nan"), float("inf")
IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1]


@pytest.fixture
def robot():
    return arm_table_world().robot(0)


def test_non_finite_vectors_name_the_argument_and_element(robot):
    n = robot.numLinks()
    q0 = robot.getConfig()
    with pytest.raises(ValueError, match=r"^q must be finite, got nan \(element 2\)$"):
        robot.setConfig([0.0, 0.0, NAN] + [0.0] * (n - 3))
    assert robot.getConfig() == q0
    link = robot.link(n - 1)
    with pytest.raises(ValueError, match=r"^t must be finite, got inf \(element 1\)$"):
        link.setTransform(IDENTITY, [0, INF, 0])
    with pytest.raises(ValueError, match=r"^R must be finite, got nan \(element 4\)$"):
        klampt.Geometry3D().setCurrentTransform([1, 0, 0, 0, NAN, 0, 0, 0, 1], [0, 0, 0])
    goal = klampt.IKObjective()
    with pytest.raises(ValueError, match=r"^pworld must be finite, got -inf \(element 0\)$"):
        goal.setFixedPoint(n - 1, [0, 0, 0], [-INF, 0, 0])


def test_scalars_say_the_rule_and_the_value():
    g = klampt.Geometry3D()
    with pytest.raises(ValueError, match=r"^margin must be finite and >= 0, got -1$"):
        g.setCollisionMargin(-1)
    assert g.getCollisionMargin() == 0
    with pytest.raises(ValueError, match=r"^s must be finite, got nan$"):
        g.scale(NAN)
    world = arm_table_world()
    sim = klampt.Simulator(world)
    with pytest.raises(ValueError, match=r"^dt must be finite and > 0, got 0$"):
        sim.setSimStep(0)


def test_limits_allow_infinity_but_not_nan(robot):
    n = robot.numLinks()
    robot.setJointLimits([-INF] * n, [INF] * n)
    lo, hi = robot.getJointLimits()
    assert all(math.isinf(v) for v in lo + hi)
    with pytest.raises(ValueError, match=r"^qmax must not be NaN, got nan \(element 0\)$"):
        robot.setJointLimits([-1.0] * n, [NAN] + [1.0] * (n - 1))
    assert robot.getJointLimits() == (lo, hi)
    solver = klampt.IKSolver(robot)
    with pytest.raises(ValueError, match=r"^qmin must not be NaN, got nan \(element 1\)$"):
        solver.setJointLimits([0.0, NAN] + [0.0] * (n - 2), [1.0] * n)


def _rule(call, name):
    """The ValueError message of call() less its leading argument name."""
    with pytest.raises(ValueError) as e:
        call()
    msg = str(e.value)
    assert msg.startswith(name + " "), msg
    return msg[len(name):]


def test_python_checks_word_non_finite_numbers_as_the_bindings_do(robot):
    n = robot.numLinks()
    geom = klampt.Geometry3D()
    one_contact = [0, 0, 0, 0, 0, 1, 0.5]
    # (bound call, its argument's name, Python call, its argument's name, the rest they share)
    cases = [
        (lambda: robot.setConfig([0.0, 0.0, NAN] + [0.0] * (n - 3)), "q",
         lambda: path_to_trajectory([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.0, 0.0, NAN]]), "path[2]",
         " must be finite, got nan (element 2)"),
        (lambda: robot.link(n - 1).setTransform(IDENTITY, [0, INF, 0]), "t",
         lambda: com_equilibrium([one_contact], [0, INF, -9.8], None), "fext",
         " must be finite, got inf (element 1)"),
        # the flat index of an N x 7 array, as for a bound N x k argument
        (lambda: geom.setCurrentTransform([1, 0, 0, 0, 1, 0, 0, 0, -NAN], [0, 0, 0]), "R",
         lambda: force_closure([one_contact, [0, -NAN, 1, 0, 0, -1, 0.5]]), "contacts",
         " must be finite, got -nan (element 8)"),
        (lambda: geom.scale(-INF), "s",
         lambda: path_to_trajectory([[0.0], [-INF]]), "path[1]",
         " must be finite, got -inf"),
        (lambda: geom.withinDistance(klampt.Geometry3D(), NAN), "tol",
         lambda: Trajectory([0.0, 1.0], [[0.0], [1.0]]).getSegment(NAN), "t",
         " must not be NaN, got nan"),
    ]
    for bound, bound_name, python, python_name, rest in cases:
        assert _rule(bound, bound_name) == _rule(python, python_name) == rest


def test_sizes_and_kinds(robot):
    with pytest.raises(ValueError, match=r"^q must have %d elements, got 2$" % robot.numLinks()):
        robot.setConfig([0.0, 0.0])
    with pytest.raises(TypeError, match=r"^t must be a sequence of numbers$"):
        klampt.Geometry3D().translate("abc")
    with pytest.raises(ValueError, match=r"^axis must be a nonzero vector$"):
        robot.link(1).setAxis([0, 0, 0])
