"""klampt.model.trajectory, klampt.math.geodesic and klampt.math.spline:
interpolation identities, finite-difference derivatives, file round trips,
time scaling within velocity/acceleration limits, controller commands."""
import math

import numpy as np
import pytest

from klampt.math import so3, se3, vectorops, spline
from klampt.math.geodesic import CartesianSpace, SO2Space, SO3Space, SE3Space, MultiGeodesicSpace
from klampt.model.trajectory import (Trajectory, RobotTrajectory, HermiteTrajectory, GeodesicHermiteTrajectory, SO3Trajectory, SE3Trajectory,
                                     SO3HermiteTrajectory, SE3HermiteTrajectory, path_to_trajectory,
                                     execute_path, execute_trajectory)

from conftest import arm6_world, assert_close


def fd(f, t, h=1e-6):
    return (np.asarray(f(t + h), dtype=float) - np.asarray(f(t - h), dtype=float)) / (2 * h)


def angvel_fd(R, t, h=1e-6):
    """World-frame angular velocity of a rotation curve by finite differences."""
    dR = (np.array(so3.matrix(R(t + h))) - np.array(so3.matrix(R(t - h)))) / (2 * h)
    W = dR @ np.array(so3.matrix(R(t))).T
    return np.array([W[2, 1], W[0, 2], W[1, 0]])


# ---------------------------------------------------------------- math helpers

def test_geodesic_difference_integrate_inverse():
    a = so3.from_rpy([0.1, 0.2, 0.3])
    b = so3.from_rpy([-0.3, 0.5, 0.1])
    S = SO3Space()
    assert_close(S.integrate(b, S.difference(a, b)), a, atol=1e-12)
    # the tangent is the world-frame rotation taking b to a
    w = so3.deskew(S.difference(a, b))
    assert_close(so3.mul(so3.from_rotation_vector(w), b), a, atol=1e-12)
    assert S.distance(a, b) == pytest.approx(vectorops.norm(w))
    E = SE3Space()
    x, y = a + [1, 2, 3], b + [0, 0, 1]
    assert_close(E.integrate(y, E.difference(x, y)), x, atol=1e-12)
    assert E.intrinsicDimension() == 6 and E.extrinsicDimension() == 12
    M = MultiGeodesicSpace(CartesianSpace(2), SO2Space())
    p, q = [0, 1, 3.0], [1, 1, -3.0]
    assert_close(M.integrate(q, M.difference(p, q)), [0, 1, 3.0], atol=1e-12)  # angles normalized to [0, 2pi)
    assert M.intrinsicDimension() == 3
    # SO2 interpolation goes the short way round the circle
    assert abs(M.interpolate(p, q, 0.5)[2]) == pytest.approx(math.pi)


def test_spline_helpers():
    x1, v1, x2, v2 = [0.0, 1.0], [3.0, 0.0], [1.0, -1.0], [0.0, 2.0]
    assert_close(spline.hermite_eval(x1, v1, x2, v2, 0), x1)
    assert_close(spline.hermite_eval(x1, v1, x2, v2, 1), x2)
    assert_close(spline.hermite_deriv(x1, v1, x2, v2, 0), v1)
    assert_close(spline.hermite_deriv(x1, v1, x2, v2, 1), v2)
    for u in (0.2, 0.7):
        assert_close(spline.hermite_deriv(x1, v1, x2, v2, u),
                     fd(lambda s: spline.hermite_eval(x1, v1, x2, v2, s), u), atol=1e-6)
        assert_close(spline.hermite_deriv(x1, v1, x2, v2, u, 2),
                     fd(lambda s: spline.hermite_deriv(x1, v1, x2, v2, s), u), atol=1e-6)
    b = spline.hermite_to_bezier(x1, v1, x2, v2)
    assert_close(spline.bezier_to_hermite(*b), [x1, v1, x2, v2])
    left, right = spline.hermite_subdivide(x1, v1, x2, v2, 0.3)
    assert_close(spline.hermite_eval(*left, 0.5), spline.hermite_eval(x1, v1, x2, v2, 0.15), atol=1e-12)
    assert_close(spline.hermite_eval(*right, 0.5), spline.hermite_eval(x1, v1, x2, v2, 0.65), atol=1e-12)
    # values computed by Klamp't 0.9.2
    assert spline.hermite_length_bound([0], [3], [1], [0]) == pytest.approx(1.0)
    assert spline.bezier_subdivide([0], [1], [2], [4]) == (([0], [0.5], [1.0], [1.625]), ([1.625], [2.25], [3.0], [4]))
    pts, params = spline.bezier_discretize([0], [1], [2], [4], 3, True)
    assert pts == [[0], [0.5], [1.0], [1.625], [2.25], [3.0], [4]] and params == [0.0, 0.5, 1.0]


# ---------------------------------------------------------------- Trajectory

@pytest.fixture
def lin():
    return Trajectory([0, 1, 3], [[0, 0], [1, 2], [3, 3]])


def test_linear_eval_deriv_and_segments(lin):
    # values of Klamp't 0.9.2
    assert lin.getSegment(-1) == (-1, 0)
    assert lin.getSegment(0.5) == (0, 0.5)
    assert lin.getSegment(2) == (1, 0.5)
    assert lin.getSegment(3) == (2, 0)
    assert lin.getSegment(4, 'loop') == (1, 0.0)
    # an infinite time is before the start or past the end; only NaN is no time
    assert lin.getSegment(-math.inf) == (-1, 0)
    assert lin.getSegment(math.inf) == (2, 0)
    with pytest.raises(ValueError, match=r"^t must not be NaN, got nan$"):
        lin.getSegment(math.nan)
    assert_close(lin.eval(0.5), [0.5, 1.0])
    assert_close(lin.eval(2), [2.0, 2.5])
    assert_close(lin.eval(-1), [0, 0])
    assert_close(lin.eval(10), [3, 3])
    assert_close(lin.eval(4, 'loop'), [1, 2])
    assert_close(lin.deriv(0.5), [1, 2])
    assert_close(lin.deriv(1), [1.0, 0.5])
    assert_close(lin.deriv(5), [0, 0])
    assert lin.duration() == 3 and lin.startTime() == 0 and lin.endTime() == 3
    assert lin.length() == pytest.approx(math.sqrt(5) + math.sqrt(5))
    with pytest.raises(ValueError):
        lin.eval(0.5, 'bounce')
    with pytest.raises(ValueError):
        Trajectory([0, 1], [[0]])
    bad = Trajectory([0, 2, 1], [[0], [1], [2]])
    with pytest.raises(ValueError):
        bad.checkValid()


def test_save_load_round_trip(tmp_path, lin):
    fn = str(tmp_path / "t.path")
    lin.milestones[1][0] = 1.0 / 3.0
    lin.save(fn)
    other = Trajectory()
    other.load(fn)
    assert other.times == lin.times and other.milestones == lin.milestones
    with open(fn, 'w') as f:
        f.write("0 2 1 2\n1 3 1 2\n")
    with pytest.raises(IOError):
        other.load(fn)


def test_split_concat_insert_remesh(lin):
    a, b = lin.split(2.0)
    assert a.endTime() == 2.0 and b.startTime() == 2.0 and a.milestones[-1] == b.milestones[0]
    joined = a.concat(b)
    for t in np.linspace(-0.5, 3.5, 17):
        assert_close(joined.eval(t), lin.eval(t))
    a, b = lin.split(1.0)
    assert a.times == [0, 1] and b.times == [1, 3]
    assert lin.before(2).times == [0, 1, 2] and lin.after(2).times == [2, 3]
    suffix = Trajectory([0, 1], [[3, 3], [6, 6]])
    assert lin.concat(suffix, relative=True).times == [0, 1, 3, 4]
    jump = Trajectory([0, 1], [[5, 5], [6, 6]])
    with pytest.raises(ValueError):
        lin.concat(jump, relative=True)
    r = lin.concat(jump, relative=True, jumpPolicy='jump')
    assert r.times == [0, 1, 3, 3, 4] and r.milestones[3] == [5, 5]
    r = lin.concat(jump, relative=True, jumpPolicy='blend')
    assert r.times == [0, 1, 3, 4] and r.milestones == [[0, 0], [1, 2], [5, 5], [6, 6]]
    with pytest.raises(ValueError):
        lin.concat(Trajectory([2, 4], [[3, 3], [6, 6]]))
    s = lin.splice(Trajectory([0, 1], [[2.0, 2.5], [6, 6]]), time=2, relative=True)
    assert s.times == [0, 1, 2, 3] and s.milestones[-1] == [6, 6]
    c = Trajectory(list(lin.times), [list(m) for m in lin.milestones])
    assert c.insert(2.0) == 2 and c.times == [0, 1, 2, 3] and c.milestones[2] == [2.0, 2.5]
    assert c.insert(1.0) == 1 and len(c.times) == 4
    r, idx = lin.remesh([0.25, 1.5, 3.0])
    assert [r.times[i] for i in idx] == [0.25, 1.5, 3.0]
    for t in np.linspace(0, 3, 13):
        assert_close(r.eval(t), lin.eval(t), atol=1e-6)
    # a collinear interior knot is dropped
    col = Trajectory([0, 1, 2], [[0], [1], [2]])
    r, idx = col.remesh([0.5])
    assert r.times == [0, 0.5, 2] and idx == [1]


def test_discretize_extract_stack(lin):
    d = lin.discretize(0.7)
    assert_close(d.times, [0, 0.7, 1.4, 2.1, 2.8, 3])
    for t, m in zip(d.times, d.milestones):
        assert_close(m, lin.eval(t))
    assert lin.extractDofs([1]).milestones == [[0], [2], [3]]
    s = Trajectory()
    s.stackDofs([Trajectory([0, 2], [[0], [2]]), Trajectory([0, 1], [[5], [6]])])
    assert s.times == [0, 1, 2] and s.milestones == [[0, 5], [1, 6], [2, 6]]


# ---------------------------------------------------------------- Hermite

def test_hermite_spline_interpolates_and_is_c1(lin):
    H = HermiteTrajectory()
    H.makeSpline(lin)
    # end velocities of Klamp't 0.9.2's spline
    assert_close(H.milestones[0][2:], [1, 3])
    assert_close(H.milestones[1][2:], [1, 1])
    assert_close(H.milestones[2][2:], [1, 0])
    for t, m in zip(lin.times, lin.milestones):
        assert_close(H.eval(t), m)
    for t in (0.3, 1.0 - 1e-3, 1.0 + 1e-3, 2.2):
        assert_close(H.deriv(t), fd(H.eval, t), atol=1e-5)
        assert_close(H.eval_accel(t), fd(H.deriv, t), atol=1e-4)
    assert_close(H.deriv(1 - 1e-9), H.deriv(1 + 1e-9), atol=1e-6)
    # arc length against a fine polyline
    pts = [H.eval(t) for t in np.linspace(0, 3, 20001)]
    poly = sum(vectorops.distance(a, b) for a, b in zip(pts[:-1], pts[1:]))
    assert H.length() == pytest.approx(poly, rel=1e-6)
    assert isinstance(H.discretize(0.1), Trajectory) and not isinstance(H.discretize(0.1), HermiteTrajectory)
    # preventOvershoot zeroes the velocity at a local extremum
    H.makeSpline(Trajectory([0, 1, 2], [[0], [1], [0]]))
    assert H.milestones[1][1] == 0.0
    assert max(H.eval(t)[0] for t in np.linspace(0, 2, 201)) <= 1.0 + 1e-12


def test_hermite_bezier_and_min_time():
    H = HermiteTrajectory()
    cps = [[0], [1], [3], [4], [5], [5], [6]]
    H.makeBezier([0, 2, 3], cps)
    for u in (0.25, 0.6):
        b = [(1 - u) ** 3 * 0 + 3 * (1 - u) ** 2 * u * 1 + 3 * (1 - u) * u * u * 3 + u ** 3 * 4]
        assert_close(H.eval(2 * u), b)
    # tangents differ at t=2 (3*(4-3)/2 vs 3*(5-4)/1): knot duplicated
    assert H.times == [0, 2, 2, 3]
    H.makeMinTimeSpline([[0, 0], [2, 1], [2, 1.05]], vmax=[1, 1], amax=[2, 2])
    # first leg: 2 units at vmax 1 with amax 2 along x: trapezoid 0.5+1.5+0.5
    assert H.times[3] == pytest.approx(2.5)
    # second leg: 0.05 units, triangular: 2*sqrt(0.05/2)
    assert H.endTime() - H.times[3] == pytest.approx(2 * math.sqrt(0.025))
    for t in np.linspace(0, H.endTime(), 301):
        v = H.deriv(t)
        a = H.eval_accel(t)
        assert max(abs(x) for x in v) <= 1 + 1e-9 and max(abs(x) for x in a) <= 2 + 1e-9
    assert_close(H.eval(H.endTime()), [2, 1.05])
    # With velocities: each leg is the time-optimal move between the states.
    H.makeMinTimeSpline([[0], [1]], velocities=[[1], [0]], vmax=[1], amax=[1])
    assert_close(H.eval(0), [0])
    assert_close(H.deriv(0), [1])
    assert_close(H.eval(H.endTime()), [1])
    assert H.endTime() == pytest.approx(1.5)  # coast 0.5 at vmax, brake 1 s
    with pytest.raises(ValueError, match=r"^milestones\[1\] must be finite, got -inf \(element 1\)$"):
        H.makeMinTimeSpline([[0, 0], [2, -math.inf]], vmax=[1, 1], amax=[2, 2])


# ---------------------------------------------------------------- SO3 / SE3

Ra = so3.from_rpy([0.1, 0.2, 0.3])
Rb = so3.from_rpy([-0.3, 0.5, 0.1])


def test_so3_se3_trajectories():
    S = SO3Trajectory([0, 2], [Ra, Rb])
    assert_close(S.eval(0), Ra)
    assert_close(S.eval(2), Rb)
    assert_close(S.eval(1), so3.interpolate(Ra, Rb, 0.5), atol=1e-12)
    for t in (0.3, 1.5):
        assert_close(S.deriv_angvel(t), angvel_fd(S.eval, t), atol=1e-6)
    assert S.length() == pytest.approx(so3.distance(Ra, Rb))
    S.checkValid()
    S.preTransform(Rb)
    assert_close(S.eval(0), so3.mul(Rb, Ra), atol=1e-12)
    assert_close(S.getPointTrajectory([1, 0, 0]).milestones[1], so3.apply(S.milestones[1], [1, 0, 0]))
    E = SE3Trajectory([0, 2], [(Ra, [0, 0, 0]), (Rb, [1, 2, 3])])
    R, t = E.eval(0.5)
    assert_close(t, [0.25, 0.5, 0.75])
    scr = E.deriv_screw(0.5)
    assert_close(scr[:3], angvel_fd(lambda s: E.eval(s)[0], 0.5), atol=1e-6)
    assert_close(scr[3:], [0.5, 1, 1.5])
    T = (so3.rotation([0, 0, 1], 0.4), [1, -1, 0])
    E2 = SE3Trajectory(E.times, E.milestones)
    E2.preTransform(T)
    assert_close(E2.eval(1.3)[1], se3.mul(T, E.eval(1.3))[1], atol=1e-12)
    assert E.getRotationTrajectory().milestones[1] == Rb
    assert E.getPositionTrajectory().milestones[1] == [1, 2, 3]
    assert_close(E.getPositionTrajectory([1, 0, 0]).milestones[1], se3.apply((Rb, [1, 2, 3]), [1, 0, 0]))


def test_geodesic_hermite_trajectories():
    # on a Cartesian space it is the ordinary Hermite curve (Klamp't 0.9.2 value)
    G = GeodesicHermiteTrajectory(CartesianSpace(1), [0, 2], [[0], [1]], [[1], [2]])
    assert G.eval(0.6) == pytest.approx([0.258])
    assert G.deriv(0.6) == pytest.approx([0.04], abs=1e-9)
    w0, w1 = [0, 0, 1], [1, 0, 0]
    S = SO3HermiteTrajectory([0, 1], [Ra, Rb], [so3.cross_product(w0), so3.cross_product(w1)])
    assert_close(S.eval(0), Ra)
    assert_close(S.eval(1), Rb, atol=1e-12)
    assert_close(angvel_fd(S.eval, 1e-5, 1e-6), w0, atol=1e-3)
    assert_close(angvel_fd(S.eval, 1 - 1e-5, 1e-6), w1, atol=1e-3)
    for t in (0.3, 0.7):
        assert_close(S.deriv_angvel(t), angvel_fd(S.eval, t), atol=1e-5)
    D = S.discretize(0.1)
    assert isinstance(D, SO3Trajectory) and len(D.times) == 11
    Rq = so3.rotation([0, 1, 0], 0.7)
    S2 = SO3HermiteTrajectory(S.times, S.milestones)
    S2.preTransform(Rq)
    for t in (0.2, 0.8):
        assert_close(S2.eval(t), so3.mul(Rq, S.eval(t)), atol=1e-9)
    S3 = SO3HermiteTrajectory(S.times, S.milestones)
    S3.postTransform(Rq)
    for t in (0.2, 0.8):
        assert_close(S3.eval(t), so3.mul(S.eval(t), Rq), atol=1e-9)
    H = SE3HermiteTrajectory([0, 1], [(Ra, [0, 0, 0]), (Rb, [1, 2, 3])],
                             [so3.cross_product(w0) + [1, 0, 0], so3.cross_product(w1) + [0, 1, 0]])
    assert len(H.milestones[0]) == 24
    assert_close(H.eval(1)[1], [1, 2, 3])
    assert_close(H.deriv_screw(0)[3:], [1, 0, 0], atol=1e-9)
    T = (so3.rotation([0, 0, 1], 0.4), [1, -1, 0.5])
    H2 = SE3HermiteTrajectory(H.times, H.milestones)
    H2.preTransform(T)
    for t in (0.25, 0.6):
        expect = se3.mul(T, H.eval(t))
        assert_close(H2.eval(t)[0], expect[0], atol=1e-9)
        assert_close(H2.eval(t)[1], expect[1], atol=1e-9)
    # rotation and translation are interpolated separately, so a
    # post-transform is exact at the knots (poses and velocities) only
    H2 = SE3HermiteTrajectory(H.times, H.milestones)
    H2.postTransform(T)
    for t in (0.0, 1.0):
        expect = se3.mul(H.eval(t), T)
        assert_close(H2.eval(t)[0], expect[0], atol=1e-9)
        assert_close(H2.eval(t)[1], expect[1], atol=1e-9)
    for t in (1e-4, 1 - 1e-4):
        assert_close(H2.deriv_screw(t)[3:], fd(lambda s: se3.mul(H.eval(s), T)[1], t), atol=1e-3)
    # makeSpline through rotations passes through them
    G = SO3HermiteTrajectory()
    G.makeSpline(SO3Trajectory([0, 1, 2], [Ra, Rb, so3.identity()]))
    assert_close(G.eval(1), Rb, atol=1e-12)
    assert_close(G.deriv(1 - 1e-7), G.deriv(1 + 1e-7), atol=1e-5)


# ---------------------------------------------------------------- robots

@pytest.fixture
def arm():
    w = arm6_world()
    return w, w.robot(0)


def test_robot_trajectory(arm):
    w, robot = arm
    n = robot.numLinks()
    q0 = [0.0] * n
    q1 = [0.0, 0.5, -0.3, 0.8, 0.2, -0.4, 1.0]
    T = RobotTrajectory(robot, [0, 2], [q0, q1])
    T.checkValid()
    assert_close(T.eval(1), vectorops.interpolate(q0, q1, 0.5))
    assert_close(T.deriv(1), vectorops.mul(vectorops.sub(q1, q0), 0.5))
    assert T.length() == pytest.approx(robot.distance(q0, q1))
    L = T.getLinkTrajectory(n - 1)
    robot.setConfig(q1)
    Rt = robot.link(n - 1).getTransform()
    assert_close(L.milestones[1], list(Rt[0]) + list(Rt[1]), atol=1e-12)
    assert isinstance(T.discretize(0.5), RobotTrajectory)
    with pytest.raises(ValueError):
        RobotTrajectory(robot, [0], [[0, 0]]).checkValid()


def _check_limits(traj, vmax, amax, tol=1e-6):
    """Finite-difference velocities/accelerations of a trajectory sampled at
    uniform dt stay within the limits (per coordinate or Euclidean norm)."""
    x = np.array(traj.milestones, dtype=float)
    t = np.array(traj.times)
    dt = np.diff(t)
    v = np.diff(x, axis=0) / dt[:, None]
    a = np.diff(v, axis=0) / (0.5 * (dt[1:] + dt[:-1]))[:, None]
    if np.isscalar(vmax):
        assert np.linalg.norm(v, axis=1).max() <= vmax * (1 + tol)
        assert np.linalg.norm(a, axis=1).max() <= amax * (1 + tol)
    else:
        assert (np.abs(v) <= np.array(vmax) * (1 + tol) + 1e-12).all()
        assert (np.abs(a) <= np.array(amax) * (1 + tol) + 1e-12).all()
    return np.abs(v).max(axis=0), np.abs(a).max(axis=0)


@pytest.mark.parametrize("smoothing", ['spline', None])
def test_path_to_trajectory_respects_limits(smoothing):
    path = [[0, 0], [1, 2], [3, 3], [3.5, 0]]
    vmax, amax = [0.8, 1.5], [2.0, 3.0]
    traj = path_to_trajectory(path, vmax=vmax, amax=amax, dt=0.005, smoothing=smoothing)
    assert traj.milestones[0] == path[0] and traj.milestones[-1] == path[-1]
    vpeak, apeak = _check_limits(traj, vmax, amax)
    # time-optimal: some limit is reached
    assert max(vpeak / vmax) > 0.9 or max(apeak / amax) > 0.9
    # the trajectory passes through the interior milestones
    for m in path[1:-1]:
        assert min(vectorops.distance(m, x) for x in traj.milestones) < 0.02
    traj = path_to_trajectory(path, vmax=1.0, amax=4.0, dt=0.005, smoothing=smoothing)
    _check_limits(traj, 1.0, 4.0)


def test_path_to_trajectory_limits_on_random_paths():
    """Random paths, limits, profiles, smoothing and stop tolerances: the
    result starts and ends at the path's ends, its times increase and its
    finite-difference velocities and accelerations stay within the limits
    (per coordinate or in norm)."""
    rng = np.random.RandomState(7)
    for trial in range(40):
        n, m = rng.randint(1, 5), rng.randint(2, 8)
        path = rng.uniform(-2, 2, size=(m, n)).tolist()
        if trial % 4 == 0:
            path.insert(1, list(path[0]))  # a zero-length segment
        if trial % 3 == 0:
            vmax, amax = float(rng.uniform(0.2, 3)), float(rng.uniform(0.5, 10))
        else:
            vmax, amax = rng.uniform(0.2, 3, n).tolist(), rng.uniform(0.5, 10, n).tolist()
        profile = ['auto', 'triangular', 'parabolic', 'cosine', 'minimum-jerk'][trial % 5]
        smoothing = 'spline' if trial % 2 else None
        stoptol = [None, 0, 0.5][trial % 3]
        traj = path_to_trajectory(path, velocities=profile, vmax=vmax, amax=amax, smoothing=smoothing,
                                  stoptol=stoptol, dt=0.005)
        assert_close(traj.milestones[0], path[0])
        assert_close(traj.milestones[-1], path[-1])
        assert all(b > a for a, b in zip(traj.times[:-1], traj.times[1:]))
        _check_limits(traj, vmax, amax)


@pytest.mark.parametrize("profile", ['triangular', 'parabolic', 'cosine', 'minimum-jerk'])
def test_path_to_trajectory_limited_profiles(profile):
    traj = path_to_trajectory([[0, 0], [2, 1]], velocities=profile, smoothing=None, vmax=[1, 1], amax=[1, 1], dt=0.002)
    vpeak, apeak = _check_limits(traj, [1, 1], [1, 1], tol=1e-3)
    assert max(max(vpeak), max(apeak)) > 0.95


def test_path_to_trajectory_heuristic_timings():
    path = [[0], [3], [4]]
    traj = path_to_trajectory(path, velocities='constant', timing='L2', smoothing=None, dt=0.01)
    assert traj.duration() == pytest.approx(4.0)
    assert_close(traj.eval(3.0), [3.0], atol=1e-9)
    traj = path_to_trajectory(path, velocities='trapezoidal', timing='uniform', smoothing=None, dt=0.01, speed=2.0)
    assert traj.duration() == pytest.approx(math.sqrt(2) / 2)
    traj = path_to_trajectory(path, velocities='minimum-jerk', timing=[1.0, 7.0], smoothing=None)
    assert traj.duration() == pytest.approx(2.0)
    # half time is half the total length 8: 3 + 3/7 along the second segment
    assert_close(traj.eval(1.0), [3 + 3.0 / 7.0], atol=1e-9)
    traj = path_to_trajectory(path, timing='L2', stoptol=0, smoothing=None, velocities='cosine')
    assert traj.duration() == pytest.approx(math.sqrt(3) + 1.0)
    assert_close(traj.eval(math.sqrt(3)), [3.0], atol=1e-9)
    with pytest.raises(ValueError):
        path_to_trajectory(path, timing='robot')
    with pytest.raises(ValueError):
        path_to_trajectory(path, velocities='fast')
    with pytest.raises(ValueError, match=r"^path\[1\] must be finite, got nan$"):
        path_to_trajectory([[0], [float('nan')]])
    # an infinite coordinate is no point of a path either
    with pytest.raises(ValueError, match=r"^path\[2\] must be finite, got inf \(element 0\)$"):
        path_to_trajectory([[0, 0], [1, 1], [math.inf, 2]], timing='uniform', smoothing=None)


def test_path_to_trajectory_robot_limits(arm):
    w, robot = arm
    n = robot.numLinks()
    path = RobotTrajectory(robot, milestones=[[0.0] * n, [0, 1.0, 0.5, -0.5, 0, 0, 1], [0, 0.2, 1.0, 0, 1, 0, 0]])
    traj = path_to_trajectory(path, dt=0.005)
    assert isinstance(traj, RobotTrajectory)
    _check_limits(traj, robot.getVelocityLimits(), robot.getAccelerationLimits())
    so3path = SO3Trajectory(milestones=[Ra, Rb, so3.identity()])
    with pytest.raises(ValueError):
        path_to_trajectory(so3path)
    traj = path_to_trajectory(so3path, smoothing=None, vmax=1.0, amax=2.0)
    assert isinstance(traj, SO3Trajectory)
    assert_close(traj.milestones[-1], so3.identity())


# ---------------------------------------------------------------- controllers

class FakeController(object):
    """Records the motion-queue commands of the SimRobotController API."""

    def __init__(self, robot):
        self.robot = robot
        self.calls = []
        self.q = [0.0] * robot.numLinks()

    def model(self):
        return self.robot

    def getCommandedConfig(self):
        return list(self.q)

    def __getattr__(self, name):
        if name in ('setMilestone', 'addMilestone', 'addMilestoneLinear', 'setLinear', 'addLinear', 'setCubic', 'addCubic'):
            return lambda *args: self.calls.append((name,) + tuple(list(a) if isinstance(a, (list, tuple)) else a for a in args))
        raise AttributeError(name)


class FakeInterface(object):
    def __init__(self):
        self.calls = []

    def setPiecewiseLinear(self, times, milestones, relative=True):
        self.calls.append(('linear', times, milestones, relative))

    def setPiecewiseCubic(self, times, milestones, velocities, relative=True):
        self.calls.append(('cubic', times, milestones, velocities, relative))


def test_execute_path_and_trajectory(arm):
    w, robot = arm
    n = robot.numLinks()
    c = FakeController(robot)
    qa, qb = [0.0] * n, [0.0, 0.5, 0, 0, 0, 0, 0]
    execute_path([qa, qb], c)
    assert c.calls == [('setMilestone', qa), ('addMilestoneLinear', qb)]
    c.calls = []
    execute_path([qa, qb, qa], c, speed=2.0, smoothing='linear')
    assert c.calls == [('setLinear', qa, 0.0), ('addLinear', qb, 0.5), ('addLinear', qa, 0.5)]
    c.calls = []
    execute_path([[0.3], [0.6]], c, smoothing='cubic', activeDofs=[robot.link(2).getName()])
    assert [k[0] for k in c.calls] == ['setCubic', 'addCubic']
    assert c.calls[1][1][2] == 0.6 and c.calls[1][1][1] == 0.0 and c.calls[1][2] == [0.0] * n
    c.calls = []
    traj = Trajectory([0, 1, 2], [qa, qb, qa])
    execute_trajectory(traj, c, smoothing='spline')
    assert [k[0] for k in c.calls] == ['setCubic', 'addCubic', 'addCubic']
    assert c.calls[1][2] == [0.0] * n  # extremum: no overshoot
    H = HermiteTrajectory([0, 2], [qa, qb], [[0.0] * n, [0.0] * n])
    c.calls = []
    execute_trajectory(H, c, speed=2.0)
    assert c.calls[1][0] == 'addCubic' and c.calls[1][3] == 1.0
    robotif = FakeInterface()
    execute_trajectory(traj, robotif, speed=0.5)
    assert robotif.calls == [('linear', [0, 2, 4], [qa, qb, qa], True)]
    robotif.calls = []
    execute_trajectory(traj, robotif, smoothing='pause')
    kind, times, qs, vs, relative = robotif.calls[0]
    assert kind == 'cubic' and times == [0, 1, 2] and vs == [[0.0] * n] * 3
    c.calls = []
    execute_path([qa, qb], c, smoothing='ramp')
    assert c.calls == [('setMilestone', qa, [0.0] * n), ('addMilestone', qb, [0.0] * n)]
    c.calls = []
    execute_path([qa, qb, qa], c, smoothing='spline', speed=0.5)
    assert [k[0] for k in c.calls] == ['setCubic', 'addCubic', 'addCubic'] and c.calls[1][3] == 2.0
    with pytest.raises(ValueError):
        execute_path([qa, qb], c, smoothing='bezier')
    with pytest.raises(ValueError):
        execute_trajectory(SO3Trajectory([0, 1], [Ra, Rb]), c)
