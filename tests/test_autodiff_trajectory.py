"""klampt.math.autodiff.trajectory_ad: Hermite curves, geodesics and
trajectories.  Values agree with klampt.math.spline / geodesic and
klampt.model.trajectory; derivatives with central finite differences, and
forward with reverse mode."""
import numpy as np
import pytest

from conftest import load_shared_world
from klampt.math import geodesic, so3, spline
from klampt.math.autodiff import trajectory_ad as TA
from klampt.math.autodiff.ad import check_derivatives, var
from klampt.model import trajectory

TIMES = [0.0, 1.0, 2.5]


def assert_derivatives(func, args, tol=1e-5):
    assert check_derivatives(func, list(args), rtol=tol, atol=tol)
    names = ["a%d" % i for i in range(len(args))]
    expr = func(*[var(n) for n in names])
    check_derivatives(expr, dict(zip(names, args)), rtol=tol, atol=tol)


def test_hermite_matches_spline_with_first_and_second_derivatives():
    rng = np.random.default_rng(0)
    x1, v1, x2, v2 = (rng.normal(size=3) for _ in range(4))
    for u in (0.0, 0.3, 1.0):
        np.testing.assert_allclose(TA.hermite.eval(x1, v1, x2, v2, u),
                                   spline.hermite_eval(list(x1), list(v1), list(x2), list(v2), u))
        np.testing.assert_allclose(TA.hermite.derivative(4, x1, v1, x2, v2, u)[:, 0],
                                   spline.hermite_deriv(list(x1), list(v1), list(x2), list(v2), u))
        assert_derivatives(TA.hermite, [x1, v1, x2, v2, u])
    # the curve passes through x1 and x2 with velocities v1 and v2
    np.testing.assert_allclose(TA.hermite.derivative(4, x1, v1, x2, v2, 1.0)[:, 0], v2)
    expr = TA.hermite(var('a'), v1, x2, v2, var('u'))
    H = expr.gen_derivative(['a', 'u'], a=x1, u=0.3)
    np.testing.assert_allclose(H[:, :, 0], (6 * 0.09 - 6 * 0.3) * np.eye(3), atol=1e-12)


@pytest.mark.parametrize("space,a,b", [
    (geodesic.CartesianSpace(3), np.array([0.1, -0.4, 2.0]), np.array([1.0, 0.5, -1.0])),
    (geodesic.SO2Space(), np.array([0.3]), np.array([2.9])),
    (geodesic.SO3Space(), np.array(so3.from_rpy([0.1, 0.2, 0.3])), np.array(so3.from_rpy([1.1, 0.2, -0.3]))),
    (geodesic.MultiGeodesicSpace(geodesic.CartesianSpace(2), geodesic.SO2Space()),
     np.array([0.1, 0.2, 0.3]), np.array([1.0, -1.0, 2.5])),
], ids=["cartesian", "so2", "so3", "multi"])
def test_geodesic_functions(space, a, b):
    interp, dist = TA.GeodesicInterpolate(space), TA.GeodesicDistance(space)
    np.testing.assert_allclose(interp.eval(a, b, 0.3), space.interpolate(list(a), list(b), 0.3))
    assert dist.eval(a, b) == pytest.approx(space.distance(list(a), list(b)))
    for u in (0.3, 0.8):
        assert_derivatives(interp, [a, b, u], tol=1e-4)
    assert_derivatives(dist, [a, b], tol=1e-4)


def test_trajectory_eval_of_each_kind():
    rng = np.random.default_rng(1)
    trajs = [trajectory.Trajectory(TIMES, [list(rng.normal(size=3)) for _ in TIMES]),
             trajectory.SO3Trajectory(TIMES, [so3.from_rpy(list(rng.normal(size=3))) for _ in TIMES]),
             trajectory.SE3Trajectory(TIMES, [so3.from_rpy(list(rng.normal(size=3))) + list(rng.normal(size=3))
                                              for _ in TIMES]),
             trajectory.HermiteTrajectory(TIMES, [list(rng.normal(size=3)) for _ in TIMES],
                                          [list(rng.normal(size=3)) for _ in TIMES])]
    for traj in trajs:
        f = TA.TrajectoryEval(traj)
        value = traj.eval(1.7)
        flat = list(value[0]) + list(value[1]) if isinstance(value, tuple) else list(value)
        np.testing.assert_allclose(f.eval(1.7), flat)
        for t in (0.3, 1.7):
            assert_derivatives(f, [t], tol=1e-4)
    with pytest.raises(ValueError):
        TA.TrajectoryEval("not a trajectory")


def test_piecewise_linear_trajectory_in_times_milestones_and_time():
    rng = np.random.default_rng(2)
    func = TA.Trajectory(2)
    ts, xs = np.array(TIMES), rng.normal(size=6)
    # halfway through the second segment
    np.testing.assert_allclose(func.eval(ts, xs, 1.75), 0.5 * (xs[2:4] + xs[4:6]))
    # an array of times stacks the values; past the end the last milestone holds
    np.testing.assert_allclose(func.eval(ts, xs, np.array([0.5, 3.0])),
                               np.hstack([0.5 * (xs[0:2] + xs[2:4]), xs[4:6]]))
    for t in (0.3, 1.7, np.array([0.2, 1.1, 2.0]), 3.0, -1.0):
        assert_derivatives(func, [ts, xs, t])
    with pytest.raises(ValueError, match="milestones"):
        func.eval(ts, xs[:5], 0.5)


def test_robot_trajectory():
    world = load_shared_world("robots/tx90l.rob", quiet=True)
    robot = world.robot(0)
    rng = np.random.default_rng(3)
    n = robot.numLinks()
    func = TA.Trajectory(robot)
    ts, xs = np.array(TIMES), rng.uniform(-1, 1, 3 * n)
    np.testing.assert_allclose(func.eval(ts, xs, 0.5), robot.interpolate(list(xs[:n]), list(xs[n:2 * n]), 0.5))
    assert_derivatives(func, [ts, xs, 1.2], tol=1e-4)
