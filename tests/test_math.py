"""Tests for klampt.math: vectorops, so2, so3 and se3."""

import math
import random

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

from klampt.math import se3, so2, so3, vectorops

from conftest import assert_close

settings.register_profile("klampt_math", deadline=None, max_examples=150)
settings.load_profile("klampt_math")

PI = math.pi
TWOPI = 2.0 * math.pi


# ---------------------------------------------------------------- helpers

def assert_abs_close(a, b, tol=1e-9):
    """|a - b| <= tol elementwise, shapes equal: conftest's assert_close with
    an absolute tolerance only (and no infinity ever matching)."""
    assert_close(a, b, rtol=0, atol=tol, equal_inf=False)


def np_rot(axis, angle):
    """Independent numpy Rodrigues formula, returns a 3x3 row-major array."""
    k = np.asarray(axis, dtype=float)
    k = k / np.linalg.norm(k)
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + math.sin(angle) * K + (1 - math.cos(angle)) * K @ K


def np_of(R):
    """Column-major 9-list -> 3x3 numpy array, independently of so3."""
    return np.asarray(R, dtype=float).reshape(3, 3).T


def flat(M):
    """3x3 numpy array -> column-major 9-list, independently of so3."""
    return np.asarray(M, dtype=float).T.reshape(9).tolist()


def assert_rotation(R, tol=1e-9):
    M = np_of(R)
    assert_abs_close(M.T @ M, np.eye(3), tol)
    assert abs(np.linalg.det(M) - 1.0) < tol


def geodesic(R1, R2):
    """Angle of R1^T R2 computed with numpy (independent of so3)."""
    M = np_of(R1).T @ np_of(R2)
    return math.acos(max(-1.0, min(1.0, (np.trace(M) - 1) / 2)))


# ---------------------------------------------------------------- strategies

finite = st.floats(-100, 100, allow_nan=False, allow_infinity=False)
vec3 = st.lists(finite, min_size=3, max_size=3)
unit_comp = st.floats(-1, 1, allow_nan=False, allow_infinity=False)
axes = st.lists(unit_comp, min_size=3, max_size=3).filter(
    lambda v: np.linalg.norm(v) > 1e-3).map(lambda v: list(np.asarray(v) / np.linalg.norm(v)))
# angles in [0, pi] with emphasis on the singular ends
special_angles = st.sampled_from([0.0, 1e-15, 1e-12, 1e-8, 1e-5, 1e-3, PI / 2,
                                  PI - 1e-2, PI - 1e-5, PI - 1e-8, PI - 1e-12, PI])
angles = st.one_of(st.floats(0, PI), special_angles)
signed_angles = st.floats(-10, 10, allow_nan=False)


@st.composite
def rotations(draw):
    axis = draw(axes)
    theta = draw(angles)
    if draw(st.booleans()):
        theta = -theta
    return flat(np_rot(axis, theta))


@st.composite
def transforms(draw):
    return (draw(rotations()), draw(vec3))


CONTAINERS = [list, tuple, np.array]


# ================================================================ vectorops

class TestVectorops:
    def test_add(self):
        assert vectorops.add([1, 2, 3], [4, 5, 6]) == [5, 7, 9]
        assert vectorops.add([1, 2], [3, 4], [5, 6]) == [9, 12]
        assert vectorops.add([1.5, 2]) == [1.5, 2]
        assert vectorops.add() == 0
        with pytest.raises(RuntimeError):
            vectorops.add([1, 2], [1, 2, 3])

    def test_sub_mul_div_scalar_and_vector(self):
        assert vectorops.sub([5, 7], [1, 2]) == [4, 5]
        assert vectorops.sub([5, 7], 2) == [3, 5]
        assert vectorops.mul([1, 2, 3], 2) == [2, 4, 6]
        assert vectorops.mul([1, 2, 3], [4, 5, 6]) == [4, 10, 18]
        assert vectorops.div([2, 4], 2) == [1, 2]
        assert vectorops.div([2, 9], [4, 3]) == [0.5, 3]
        # numpy scalars (incl. 0-d arrays) are scalars, numpy arrays vectors
        assert vectorops.mul([1, 2], np.float64(3)) == [3, 6]
        assert vectorops.mul([1, 2], np.array(3.0)) == [3, 6]
        assert vectorops.mul((1, 2), np.array([3, 4])) == [3, 8]
        with pytest.raises(RuntimeError):
            vectorops.mul([1, 2], [1, 2, 3])
        with pytest.raises(RuntimeError):
            vectorops.sub([1, 2], [1, 2, 3])
        with pytest.raises(RuntimeError):
            vectorops.div([1, 2], [1, 2, 3])

    def test_results_are_new_lists(self):
        a = [1.0, 2.0, 3.0]
        for res in (vectorops.add(a), vectorops.mul(a, 1), vectorops.sub(a, 0),
                    vectorops.unit([0.0, 0.0, 0.0]), vectorops.div(a, 1)):
            assert isinstance(res, list)
            assert res is not a
        z = [0.0, 0.0, 0.0]
        u = vectorops.unit(z)
        assert u == z and u is not z
        assert a == [1.0, 2.0, 3.0]

    def test_madd_dot_minmax_neg(self):
        assert vectorops.madd([1, 1], [1, 2], 3) == [4, 7]
        assert vectorops.dot([1, 2, 3], [4, -5, 6]) == 12
        assert vectorops.maximum([1, 5, 3], [4, 2, 3]) == [4, 5, 3]
        assert vectorops.minimum([1, 5, 3], [4, 2, 3]) == [1, 2, 3]
        assert vectorops.maximum([1, 5, -3], 0) == [1, 5, 0]
        assert vectorops.minimum([1, 5, -3], 2) == [1, 2, -3]
        assert vectorops.neg([1, -2]) == [-1, 2]
        with pytest.raises(RuntimeError):
            vectorops.dot([1, 2], [1, 2, 3])
        with pytest.raises(RuntimeError):
            vectorops.madd([1, 2], [1, 2, 3], 1.0)

    def test_norms_distances(self):
        v = [3, -4, 12]
        assert vectorops.norm(v) == 13
        assert vectorops.norm_L2(v) == 13
        assert vectorops.normSquared(v) == 169
        assert vectorops.norm_L1(v) == 19
        assert vectorops.norm_Linf(v) == 12
        assert vectorops.distance([1, 1, 1], [4, 5, 1]) == 5
        assert vectorops.distanceSquared([1, 1, 1], [4, 5, 1]) == 25
        # no overflow / underflow
        assert vectorops.norm([3e200, 4e200]) == pytest.approx(5e200)
        assert vectorops.norm([3e-200, 4e-200]) == pytest.approx(5e-200)
        with pytest.raises(RuntimeError):
            vectorops.distance([1, 2], [1, 2, 3])

    def test_unit(self):
        assert_abs_close(vectorops.unit([3, 4]), [0.6, 0.8], 1e-15)
        # norm <= epsilon (default 1e-5): returned unchanged
        assert vectorops.unit([1e-6, 0, 0]) == [1e-6, 0, 0]
        assert_abs_close(vectorops.unit([1e-6, 0, 0], 0.0), [1, 0, 0])
        assert vectorops.unit([3, 4], epsilon=10) == [3, 4]

    def test_cross(self):
        c = vectorops.cross([1, 0, 0], [0, 1, 0])
        assert isinstance(c, tuple) and c == (0, 0, 1)
        assert vectorops.cross([1, 2], [3, 4]) == -2
        with pytest.raises(RuntimeError):
            vectorops.cross([1, 2, 3, 4], [1, 2, 3, 4])
        with pytest.raises(RuntimeError):
            vectorops.cross([1, 2, 3], [1, 2])

    def test_interpolate_and_angle(self):
        a, b = [1, 2, 3], [3, 6, -1]
        assert vectorops.interpolate(a, b, 0) == a
        assert vectorops.interpolate(a, b, 1) == b
        assert vectorops.interpolate(a, b, 0.5) == [2, 4, 1]
        assert vectorops.angle([1, 0, 0], [0, 2, 0]) == pytest.approx(PI / 2)
        assert vectorops.angle([1, 0, 0], [-3, 0, 0]) == pytest.approx(PI)
        assert vectorops.angle([1, 0], [1, 1e-10]) == pytest.approx(1e-10, rel=1e-6)

    @pytest.mark.parametrize("conv", CONTAINERS)
    def test_accepts_containers(self, conv):
        a, b = conv([1.0, 2.0, 3.0]), conv([4.0, 5.0, 6.0])
        assert vectorops.add(a, b) == [5, 7, 9]
        assert vectorops.sub(a, b) == [-3, -3, -3]
        assert vectorops.dot(a, b) == 32
        assert vectorops.cross(a, b) == (-3, 6, -3)
        assert vectorops.distance(a, b) == pytest.approx(math.sqrt(27))
        assert vectorops.norm(a) == pytest.approx(math.sqrt(14))

    @given(vec3, vec3, finite)
    def test_matches_numpy(self, a, b, c):
        na, nb = np.array(a), np.array(b)
        assert vectorops.dot(a, b) == pytest.approx(np.dot(na, nb), abs=1e-9)
        assert vectorops.norm(a) == pytest.approx(np.linalg.norm(na), abs=1e-12)
        assert_abs_close(vectorops.cross(a, b), np.cross(na, nb), 1e-9)
        assert_abs_close(vectorops.madd(a, b, c), na + c * nb, 1e-9)
        assert vectorops.distance(a, b) == pytest.approx(np.linalg.norm(na - nb), abs=1e-9)
        cr = vectorops.cross(a, b)
        scale = 1 + vectorops.norm(a) * vectorops.norm(b)
        assert abs(vectorops.dot(cr, a)) <= 1e-10 * scale * (1 + vectorops.norm(a))
        assert abs(vectorops.dot(cr, b)) <= 1e-10 * scale * (1 + vectorops.norm(b))

    @given(vec3)
    def test_unit_has_norm_one(self, a):
        assume(vectorops.norm(a) > 1e-5)
        u = vectorops.unit(a)
        assert vectorops.norm(u) == pytest.approx(1.0, abs=1e-12)
        assert vectorops.dot(u, a) == pytest.approx(vectorops.norm(a), rel=1e-12)


# ================================================================ so2

class TestSO2:
    def test_identity_inv_compose(self):
        assert so2.identity() == 0
        assert so2.inv(0.3) == -0.3
        assert so2.compose(0.3, 0.4) == pytest.approx(0.7)

    def test_normalize_wrapping(self):
        assert so2.normalize(-0.5) == pytest.approx(TWOPI - 0.5)
        assert so2.normalize(7.0) == pytest.approx(7.0 - TWOPI)
        assert so2.normalize(TWOPI) == pytest.approx(0.0)
        assert so2.normalize(3 * PI) == pytest.approx(PI)
        assert 0 <= so2.normalize(-1e-20) < TWOPI

    @given(signed_angles)
    def test_normalize_range(self, a):
        n = so2.normalize(a)
        assert 0 <= n < TWOPI
        assert math.cos(n) == pytest.approx(math.cos(a), abs=1e-9)
        assert math.sin(n) == pytest.approx(math.sin(a), abs=1e-9)

    def test_diff_wraps(self):
        assert so2.diff(0.1, TWOPI - 0.1) == pytest.approx(0.2)
        assert so2.diff(TWOPI - 0.1, 0.1) == pytest.approx(-0.2)
        assert so2.diff(3.0, -3.0) == pytest.approx(6.0 - TWOPI)
        assert so2.interp(TWOPI - 0.1, 0.1, 0.5) == pytest.approx(TWOPI)
        assert so2.interp(0.2, 0.6, 0.25) == pytest.approx(0.3)

    @given(signed_angles, signed_angles)
    def test_diff_property(self, a, b):
        d = so2.diff(a, b)
        assert -PI - 1e-12 <= d <= PI + 1e-12
        # b rotated by d gives a
        assert math.cos(b + d) == pytest.approx(math.cos(a), abs=1e-9)
        assert math.sin(b + d) == pytest.approx(math.sin(a), abs=1e-9)

    def test_apply_known(self):
        assert_abs_close(so2.apply(PI / 2, [1, 0]), [0, 1], 1e-15)
        assert_abs_close(so2.apply(PI, (1, 2)), [-1, -2], 1e-15)

    @given(signed_angles, finite, finite)
    def test_matrix_roundtrip(self, a, x, y):
        M = so2.matrix(a)
        assert_abs_close(np.array(M) @ [x, y], so2.apply(a, [x, y]), 1e-9)
        assert so2.diff(so2.from_matrix(M), a) == pytest.approx(0, abs=1e-12)
        assert -PI <= so2.from_matrix(M) <= PI
        nd = so2.ndarray(a)
        assert isinstance(nd, np.ndarray) and nd.shape == (2, 2)
        assert_abs_close(nd, M, 0)
        assert so2.from_ndarray(nd) == pytest.approx(so2.from_matrix(M))


# ================================================================ so3

class TestSO3Basics:
    def test_column_major(self):
        R = [1., 2., 3., 4., 5., 6., 7., 8., 9.]
        M = so3.matrix(R)
        for i in range(3):
            for j in range(3):
                assert M[i][j] == R[j * 3 + i]
        assert so3.from_matrix(M) == R
        assert so3.inv(R) == [1., 4., 7., 2., 5., 8., 3., 6., 9.]
        assert so3.diag(R) == [1., 5., 9.]
        assert so3.trace(R) == 15.
        assert so3.apply(R, [1, 0, 0]) == (1., 2., 3.)  # first column
        assert so3.det(R) == pytest.approx(0.0)
        assert so3.det([2, 0, 0, 1, 3, 0, 5, 7, 4]) == pytest.approx(24.0)

    def test_ndarray_roundtrip(self):
        R = so3.rotation([1, 2, 3], 0.7)
        A = so3.ndarray(R)
        assert isinstance(A, np.ndarray) and A.shape == (3, 3)
        assert_abs_close(A, so3.matrix(R), 0)
        back = so3.from_ndarray(A)
        assert isinstance(back, list) and all(type(x) is float for x in back)
        assert back == R

    def test_known_values(self):
        Rz = so3.rotation([0, 0, 1], PI / 2)
        assert_abs_close(so3.apply(Rz, [1, 0, 0]), [0, 1, 0], 1e-15)
        assert_abs_close(so3.apply(Rz, [0, 1, 0]), [-1, 0, 0], 1e-15)
        assert_abs_close(so3.from_rpy((0, 0, PI / 2)), Rz, 1e-15)
        assert_abs_close(so3.from_rpy((PI / 2, 0, 0)), so3.rotation([1, 0, 0], PI / 2), 1e-15)
        assert_abs_close(so3.from_rpy((0, PI / 2, 0)), so3.rotation([0, 1, 0], PI / 2), 1e-15)
        assert_abs_close(so3.from_axis_angle(([0, 0, 1], PI / 2)), Rz, 0)
        assert_abs_close(so3.moment(Rz), [0, 0, PI / 2], 1e-15)
        assert_abs_close(so3.quaternion(Rz), [math.cos(PI / 4), 0, 0, math.sin(PI / 4)], 1e-15)
        assert_abs_close(so3.from_quaternion((0, 1, 0, 0)), [1, 0, 0, 0, -1, 0, 0, 0, -1], 0)
        assert_abs_close(so3.quaternion([1, 0, 0, 0, -1, 0, 0, 0, -1]), [0, 1, 0, 0], 1e-15)
        assert so3.angle(Rz) == pytest.approx(PI / 2)
        assert so3.angle(so3.identity()) == 0
        assert so3.rpy(so3.identity()) == (0, 0, 0)
        assert so3.moment(so3.identity()) == [0, 0, 0]
        assert so3.axis_angle(so3.identity()) == ([0, 0, 0], 0)
        assert so3.quaternion(so3.identity()) == [1, 0, 0, 0]
        assert so3.from_moment([0, 0, 0]) == so3.identity()
        assert so3.is_rotation(so3.identity())
        assert so3.is_rotation(Rz)
        assert so3.det(Rz) == pytest.approx(1.0)

    def test_rotation_about_axes_matches_numpy(self):
        for axis in ([1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]):
            for th in (0.3, -1.2, 2.9):
                assert_abs_close(np_of(so3.rotation(vectorops.unit(axis), th)), np_rot(axis, th), 1e-14)
        # non-unit axes are normalized; zero axis gives identity
        assert_abs_close(so3.rotation([0, 0, 5], 0.4), so3.rotation([0, 0, 1], 0.4), 1e-15)
        assert so3.rotation([0, 0, 0], 0.4) == so3.identity()

    def test_cross_product_deskew(self):
        w, v = [1., -2., 3.], [0.5, 4., -1.]
        C = so3.cross_product(w)
        assert_abs_close(so3.apply(C, v), vectorops.cross(w, v), 1e-14)
        assert_abs_close(np_of(C), -np_of(C).T, 0)
        assert so3.deskew(C) == w
        R = so3.rotation(vectorops.unit(w), 0.5)
        assert_abs_close(so3.deskew(R), vectorops.mul(vectorops.unit(w), math.sin(0.5)), 1e-14)

    def test_mul_length_checks(self):
        with pytest.raises(ValueError):
            so3.mul(so3.identity(), [1, 2, 3])
        with pytest.raises(ValueError):
            so3.mul([1, 2, 3], so3.identity())

    def test_is_rotation_negative(self):
        assert not so3.is_rotation([1, 0, 0, 0, 1, 0, 0, 0, -1])  # reflection
        assert not so3.is_rotation([2, 0, 0, 0, 1, 0, 0, 0, 1])
        assert not so3.is_rotation([1, 0, 0, 0, 1, 0, 0, 0])
        R = so3.rotation([0, 0, 1], 0.3)
        Rp = list(R)
        Rp[0] += 1e-4
        assert not so3.is_rotation(Rp)
        assert so3.is_rotation(Rp, tol=1e-3)
        Rp[0] = R[0] + 1e-7
        assert so3.is_rotation(Rp)

    @pytest.mark.parametrize("conv", CONTAINERS)
    def test_accepts_containers(self, conv):
        R = so3.rotation([0, 0, 1], PI / 2)
        Rc = conv(R)
        assert_abs_close(so3.apply(Rc, conv([1.0, 0.0, 0.0])), [0, 1, 0], 1e-15)
        assert_abs_close(so3.mul(Rc, Rc), so3.rotation([0, 0, 1], PI), 1e-15)
        assert_abs_close(so3.moment(Rc), [0, 0, PI / 2], 1e-15)
        assert_abs_close(so3.quaternion(Rc), so3.quaternion(R), 0)
        assert_abs_close(so3.rpy(Rc), (0, 0, PI / 2), 1e-15)
        assert_abs_close(so3.from_moment(conv([0.0, 0.0, PI / 2])), R, 1e-15)
        assert_abs_close(so3.from_quaternion(conv([1.0, 0.0, 0.0, 0.0])), so3.identity(), 0)
        assert_abs_close(so3.canonical(conv([0.0, 2.0, 0.0]))[:3], [0, 1, 0], 0)
        assert_abs_close(so3.apply(so3.align(conv([1.0, 0, 0]), conv([0, 0, 1.0])), [1, 0, 0]), [0, 0, 1], 1e-15)
        assert so3.is_rotation(Rc)
        assert so3.distance(Rc, so3.identity()) == pytest.approx(PI / 2)


class TestSO3Properties:
    @given(rotations(), rotations(), vec3)
    def test_apply_mul_match_numpy(self, A, B, x):
        assert_abs_close(so3.apply(A, x), np_of(A) @ np.array(x), 1e-9)
        AB = so3.mul(A, B)
        assert_abs_close(np_of(AB), np_of(A) @ np_of(B), 1e-12)
        assert_abs_close(so3.apply(AB, x), so3.apply(A, so3.apply(B, x)), 1e-9)
        assert_abs_close(so3.ndarray(AB), so3.ndarray(A) @ so3.ndarray(B), 1e-12)

    @given(rotations(), rotations(), rotations())
    def test_group_laws(self, A, B, C):
        assert_abs_close(so3.mul(so3.mul(A, B), C), so3.mul(A, so3.mul(B, C)), 1e-12)
        assert_abs_close(so3.mul(so3.inv(A), A), so3.identity(), 1e-12)
        assert_abs_close(so3.mul(A, so3.inv(A)), so3.identity(), 1e-12)
        assert_abs_close(so3.mul(A, so3.identity()), A, 0)
        assert_abs_close(so3.inv(so3.mul(A, B)), so3.mul(so3.inv(B), so3.inv(A)), 1e-12)
        assert so3.det(so3.mul(A, B)) == pytest.approx(1.0, abs=1e-12)
        assert so3.is_rotation(so3.mul(A, B))

    @given(rotations())
    def test_matrix_roundtrip(self, R):
        assert so3.from_matrix(so3.matrix(R)) == R
        assert so3.from_ndarray(so3.ndarray(R)) == R

    @given(axes, angles)
    def test_moment_roundtrip(self, axis, theta):
        R = so3.rotation(axis, theta)
        w = so3.moment(R)
        assert so3.rotation_vector(R) == w
        assert vectorops.norm(w) == pytest.approx(theta, abs=1e-7)
        assert_abs_close(so3.from_moment(w), R, 1e-12)
        assert_abs_close(so3.from_rotation_vector(w), R, 1e-12)
        assert_rotation(so3.from_moment(w), 1e-12)
        if theta < PI - 1e-6:  # the sign is ambiguous only at pi
            assert_abs_close(w, vectorops.mul(axis, theta), 1e-7)

    @given(vec3)
    def test_from_moment_matches_numpy(self, w):
        n = vectorops.norm(w)
        R = so3.from_moment(w)
        assert_rotation(R, 1e-12)
        if n > 1e-12:
            assert_abs_close(np_of(R), np_rot(w, n), 1e-12)
        # the principal log returns an equivalent vector with norm <= pi
        w2 = so3.moment(R)
        assert vectorops.norm(w2) <= PI + 1e-12
        assert_abs_close(so3.from_moment(w2), R, 1e-9)

    def test_moment_near_pi_and_zero(self):
        axis = vectorops.unit([0.3, -0.5, 0.8])
        for theta in (PI, PI - 1e-14, PI - 1e-10, PI - 1e-7, PI - 1e-4, 3.0, 1e-10, 1e-14, 0.0):
            R = so3.rotation(axis, theta)
            w = so3.moment(R)
            assert vectorops.norm(w) == pytest.approx(theta, abs=1e-12)
            assert_abs_close(so3.from_moment(w), R, 1e-13)
            if 0 < theta < PI - 1e-8:
                assert_abs_close(w, vectorops.mul(axis, theta), 1e-12)
            aa = so3.axis_angle(R)
            assert_abs_close(so3.from_axis_angle(aa), R, 1e-13)
        # full double precision for small rotation vectors (second-order terms)
        for t in (9e-7, 3e-7, 1e-5):
            R = so3.from_moment([0, t, 0])
            assert_abs_close(R, [math.cos(t), 0, -math.sin(t), 0, 1, 0,
                             math.sin(t), 0, math.cos(t)], 1e-16)
        # both signs at pi give the same rotation; either answer is valid
        R = so3.rotation([0, 1, 0], PI)
        w = so3.moment(R)
        assert_abs_close([abs(x) for x in w], [0, PI, 0], 1e-15)
        # a slightly non-orthonormal matrix near pi must not crash
        Rp = list(so3.rotation(axis, PI))
        Rp[0] -= 1e-9
        assert vectorops.norm(so3.moment(Rp)) == pytest.approx(PI, abs=1e-4)

    @given(rotations())
    def test_axis_angle_roundtrip(self, R):
        axis, theta = so3.axis_angle(R)
        assert 0 <= theta <= PI
        if theta > 0:
            assert vectorops.norm(axis) == pytest.approx(1.0, abs=1e-12)
        else:
            assert axis == [0, 0, 0]
        assert_abs_close(so3.from_axis_angle((axis, theta)), R, 1e-12)
        assert so3.angle(R) == pytest.approx(theta, abs=1e-7)

    @given(rotations())
    def test_quaternion_roundtrip(self, R):
        q = so3.quaternion(R)
        assert len(q) == 4
        assert vectorops.norm(q) == pytest.approx(1.0, abs=1e-14)
        assert q[0] >= 0
        assert_abs_close(so3.from_quaternion(q), R, 1e-12)
        assert_abs_close(so3.from_quaternion([-x for x in q]), R, 1e-12)
        # w = cos(theta/2)
        assert q[0] == pytest.approx(math.cos(geodesic(R, so3.identity()) / 2), abs=1e-7)

    @given(st.lists(unit_comp, min_size=4, max_size=4))
    def test_from_quaternion(self, q):
        n = vectorops.norm(q)
        assume(n > 1e-3)
        R = so3.from_quaternion(vectorops.unit(q))
        assert_rotation(R, 1e-12)
        # non-unit quaternions are normalized
        assert_abs_close(so3.from_quaternion(q), R, 1e-12)
        q2 = so3.quaternion(R)
        qu = vectorops.unit(q)
        s = 1.0 if vectorops.dot(q2, qu) >= 0 else -1.0
        assert_abs_close(q2, vectorops.mul(qu, s), 1e-9)
        # rotation by quaternion == numpy quaternion sandwich (Hamilton, (w,x,y,z))
        w, x, y, z = qu
        M = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                      [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                      [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])
        assert_abs_close(np_of(R), M, 1e-12)

    def test_from_quaternion_zero(self):
        with pytest.raises(ValueError):
            so3.from_quaternion([0, 0, 0, 0])

    @given(st.floats(-10, 10), st.floats(-10, 10), st.floats(-10, 10))
    def test_from_rpy_matches_numpy(self, r, p, y):
        R = so3.from_rpy((r, p, y))
        M = np_rot([0, 0, 1], y) @ np_rot([0, 1, 0], p) @ np_rot([1, 0, 0], r)
        assert_abs_close(np_of(R), M, 1e-12)
        assert_rotation(R, 1e-12)

    @given(rotations())
    def test_rpy_roundtrip(self, R):
        roll, pitch, yaw = so3.rpy(R)
        assert 0 <= roll < TWOPI
        assert 0 <= yaw < TWOPI
        assert -PI / 2 <= pitch <= PI / 2
        assert_abs_close(so3.from_rpy((roll, pitch, yaw)), R, 1e-9)

    @given(st.floats(0.01, TWOPI - 0.01), st.floats(-PI / 2 + 0.01, PI / 2 - 0.01),
           st.floats(0.01, TWOPI - 0.01))
    def test_rpy_recovers_angles(self, r, p, y):
        rpy = so3.rpy(so3.from_rpy((r, p, y)))
        assert_abs_close(rpy, (r, p, y), 1e-9)

    def test_rpy_wrap_and_gimbal(self):
        assert_abs_close(so3.rpy(so3.from_rpy((-0.1, 0.2, -0.3))), (TWOPI - 0.1, 0.2, TWOPI - 0.3), 1e-12)
        for pitch in (PI / 2, -PI / 2):
            R = so3.from_rpy((0.4, pitch, 1.1))
            roll, p, yaw = so3.rpy(R)
            assert roll == 0
            assert p == pytest.approx(pitch, abs=1e-7)
            assert_abs_close(so3.from_rpy((roll, p, yaw)), R, 1e-9)

    @given(rotations(), rotations())
    def test_error_distance(self, R1, R2):
        e = so3.error(R1, R2)
        d = so3.distance(R1, R2)
        assert 0 <= d <= PI
        assert vectorops.norm(e) == pytest.approx(d, abs=1e-9)
        assert d == pytest.approx(geodesic(R1, R2), abs=1e-7)
        assert so3.distance(R2, R1) == pytest.approx(d, abs=1e-12)
        assert_abs_close(so3.mul(so3.from_moment(e), R2), R1, 1e-9)
        assert so3.distance(R1, R1) == pytest.approx(0, abs=1e-12)
        assert so3.angle(so3.mul(R1, so3.inv(R2))) == pytest.approx(d, abs=1e-12)

    def test_error_known(self):
        R1 = so3.rotation([0, 0, 1], 0.5)
        R2 = so3.rotation([0, 0, 1], 0.2)
        assert_abs_close(so3.error(R1, R2), [0, 0, 0.3], 1e-15)
        assert so3.distance(R1, R2) == pytest.approx(0.3)

    @given(rotations(), rotations())
    def test_interpolate(self, R1, R2):
        assert_abs_close(so3.interpolate(R1, R2, 0), R1, 1e-12)
        assert_abs_close(so3.interpolate(R1, R2, 1), R2, 1e-9)
        d = so3.distance(R1, R2)
        assume(d < PI - 1e-3)  # geodesic unique
        mid = so3.interpolate(R1, R2, 0.5)
        assert_rotation(mid, 1e-12)
        assert so3.distance(R1, mid) == pytest.approx(d / 2, abs=1e-9)
        assert so3.distance(mid, R2) == pytest.approx(d / 2, abs=1e-9)
        q = so3.interpolate(R1, R2, 0.25)
        assert so3.distance(R1, q) == pytest.approx(d / 4, abs=1e-9)
        f = so3.interpolator(R1, R2)
        for u in (0, 0.25, 0.5, 1, 1.5):
            assert_abs_close(f(u), so3.interpolate(R1, R2, u), 1e-12)

    def test_interpolate_known(self):
        R = so3.interpolate(so3.identity(), so3.rotation([1, 0, 0], 1.0), 0.3)
        assert_abs_close(R, so3.rotation([1, 0, 0], 0.3), 1e-15)
        same = so3.rotation([0, 1, 0], 0.7)
        assert so3.interpolate(same, same, 0.5) == same

    @given(vec3)
    def test_canonical(self, v):
        assume(vectorops.norm(v) > 1e-6)
        R = so3.canonical(v)
        assert_rotation(R, 1e-12)
        assert_abs_close(R[:3], vectorops.unit(v, 0), 1e-12)
        assert_abs_close(so3.apply(R, [1, 0, 0]), vectorops.unit(v, 0), 1e-12)

    def test_canonical_edge_cases(self):
        assert so3.canonical([1, 0, 0]) == so3.identity()
        for v in ([-1, 0, 0], [-1, 1e-9, 0], [-1, 1e-9, -2e-9], [-1, 0, 1e-170],
                  [1, 1e-9, 0], [0, 0, 1], [0, -1, 0]):
            R = so3.canonical(v)
            assert_rotation(R, 1e-12)
            assert_abs_close(R[:3], vectorops.unit(v, 0), 1e-12)
        with pytest.raises(RuntimeError):
            so3.canonical([0, 0, 0])

    @given(vec3, vec3)
    def test_align(self, a, b):
        assume(vectorops.norm(a) > 1e-6 and vectorops.norm(b) > 1e-6)
        R = so3.align(a, b)
        assert_rotation(R, 1e-12)
        ua, ub = vectorops.unit(a, 0), vectorops.unit(b, 0)
        assert_abs_close(so3.apply(R, ua), ub, 1e-9)
        # minimal angle: equals the angle between a and b
        assert so3.angle(R) == pytest.approx(vectorops.angle(a, b), abs=1e-7)

    def test_align_edge_cases(self):
        for a in ([1, 0, 0], [0, 0, 1], [0, 0, -2], [1, 2, 3], [0, 1e-9, 1]):
            na = vectorops.mul(a, -3.0)
            R = so3.align(a, na)
            assert_rotation(R, 1e-12)
            assert_abs_close(so3.apply(R, vectorops.unit(a, 0)), vectorops.unit(na, 0), 1e-12)
            assert so3.angle(R) == pytest.approx(PI)
            assert_abs_close(so3.align(a, vectorops.mul(a, 2.0)), so3.identity(), 1e-15)
        # nearly antiparallel
        R = so3.align([1, 0, 0], [-1, 1e-7, 0])
        assert_abs_close(so3.apply(R, [1, 0, 0]), vectorops.unit([-1, 1e-7, 0]), 1e-14)
        assert so3.align([0, 0, 0], [1, 0, 0]) == so3.identity()
        assert so3.align([1, 0, 0], [0, 0, 0]) == so3.identity()

    def test_sample(self):
        random.seed(1234)
        n = 4000
        traces = []
        acc = np.zeros(9)
        for _ in range(n):
            R = so3.sample()
            assert so3.is_rotation(R, 1e-12)
            traces.append(so3.trace(R))
            acc += np.array(R)
        # Haar measure on SO(3): E[trace] = 0, E[R] = 0, Var[trace] = 1
        assert abs(np.mean(traces)) < 0.08
        assert abs(np.var(traces) - 1.0) < 0.15
        assert np.all(np.abs(acc / n) < 0.06)
        # the angle density is (1-cos t)/pi: P(angle < pi/2) = (pi/2 - 1)/pi
        angles_ = [math.acos(max(-1, min(1, (t - 1) / 2))) for t in traces]
        frac = sum(1 for t in angles_ if t < PI / 2) / n
        assert frac == pytest.approx((PI / 2 - 1) / PI, abs=0.03)

    def test_str(self):
        s = so3.__str__(so3.identity())
        assert s.splitlines() == ['1.0 0.0 0.0', '0.0 1.0 0.0', '0.0 0.0 1.0']


# ================================================================ se3

def np_h(T):
    R, t = T
    H = np.eye(4)
    H[:3, :3] = np_of(R)
    H[:3, 3] = t
    return H


class TestSE3:
    def test_basics(self):
        T = (so3.rotation([0, 0, 1], PI / 2), [1., 2., 3.])
        assert se3.identity() == (so3.identity(), [0, 0, 0])
        assert_abs_close(se3.apply(T, [1, 0, 0]), [1, 3, 3], 1e-15)
        assert_abs_close(se3.apply_rotation(T, [1, 0, 0]), [0, 1, 0], 1e-15)
        assert se3.rotation(T) == so3.matrix(T[0])
        assert se3.translation(T) == [1, 2, 3]
        assert se3.from_rotation(so3.matrix(T[0])) == (T[0], [0, 0, 0])
        Tt = se3.from_translation((4, 5, 6))
        assert Tt == (so3.identity(), [4, 5, 6]) and isinstance(Tt[1], list)
        H = se3.homogeneous(T)
        assert len(H) == 4 and H[3] == [0, 0, 0, 1]
        assert [r[3] for r in H[:3]] == [1, 2, 3]
        assert se3.from_homogeneous(H) == T
        nd = se3.ndarray(T)
        assert isinstance(nd, np.ndarray) and nd.shape == (4, 4)
        assert_abs_close(nd, H, 0)
        back = se3.from_ndarray(nd)
        assert back == T and all(type(x) is float for x in back[0] + back[1])
        with pytest.raises(ValueError):
            se3.mul(T, [1, 2, 3])

    @given(transforms(), transforms(), transforms(), vec3)
    def test_group_laws(self, A, B, C, x):
        AB = se3.mul(A, B)
        assert_abs_close(se3.apply(AB, x), se3.apply(A, se3.apply(B, x)), 1e-9)
        assert_abs_close(np_h(AB), np_h(A) @ np_h(B), 1e-9)
        L, Rr = se3.mul(se3.mul(A, B), C), se3.mul(A, se3.mul(B, C))
        assert_abs_close(L[0], Rr[0], 1e-12)
        assert_abs_close(L[1], Rr[1], 1e-9)
        for I in (se3.mul(se3.inv(A), A), se3.mul(A, se3.inv(A))):
            assert_abs_close(I[0], so3.identity(), 1e-12)
            assert_abs_close(I[1], [0, 0, 0], 1e-9)
        assert_abs_close(np_h(se3.inv(A)), np.linalg.inv(np_h(A)), 1e-9)
        assert_abs_close(se3.apply(A, x), (np_h(A) @ np.array(list(x) + [1.0]))[:3], 1e-9)

    @given(transforms())
    def test_homogeneous_roundtrip(self, T):
        assert se3.from_homogeneous(se3.homogeneous(T)) == (T[0], T[1])
        assert_abs_close(se3.homogeneous(T), np_h(T), 0)
        R2, t2 = se3.from_ndarray(se3.ndarray(T))
        assert R2 == T[0] and t2 == T[1]

    @given(transforms(), transforms(), st.floats(0, 10), st.floats(0, 10))
    def test_distance_error(self, T1, T2, wr, wt):
        d = se3.distance(T1, T2)
        assert d == pytest.approx(so3.distance(T1[0], T2[0]) + vectorops.distance(T1[1], T2[1]), abs=1e-9)
        assert se3.distance(T1, T2, Rweight=wr, tweight=wt) == pytest.approx(
            wr * so3.distance(T1[0], T2[0]) + wt * vectorops.distance(T1[1], T2[1]), abs=1e-9)
        e = se3.error(T1, T2)
        assert isinstance(e, list) and len(e) == 6
        assert_abs_close(e[:3], so3.error(T1[0], T2[0]), 1e-12)
        assert_abs_close(e[3:], vectorops.sub(T1[1], T2[1]), 1e-12)
        assert se3.distance(T1, T1) == pytest.approx(0, abs=1e-12)

    def test_distance_known(self):
        T1 = (so3.rotation([1, 0, 0], 0.5), [0., 0., 0.])
        T2 = (so3.identity(), [3., 4., 0.])
        assert se3.distance(T1, T2) == pytest.approx(5.5)
        assert se3.distance(T1, T2, Rweight=2.0, tweight=0.5) == pytest.approx(3.5)
        assert_abs_close(se3.error(T1, T2), [0.5, 0, 0, -3, -4, 0], 1e-15)

    @given(transforms(), transforms())
    def test_interpolate(self, T1, T2):
        A = se3.interpolate(T1, T2, 0)
        assert_abs_close(A[0], T1[0], 1e-12)
        assert_abs_close(A[1], T1[1], 1e-12)
        B = se3.interpolate(T1, T2, 1)
        assert_abs_close(B[0], T2[0], 1e-9)
        assert_abs_close(B[1], T2[1], 1e-9)
        M = se3.interpolate(T1, T2, 0.5)
        assert_abs_close(M[1], vectorops.mul(vectorops.add(T1[1], T2[1]), 0.5), 1e-9)
        assert_abs_close(M[0], so3.interpolate(T1[0], T2[0], 0.5), 0)
        f = se3.interpolator(T1, T2)
        for u in (0, 0.3, 1):
            Fu, Iu = f(u), se3.interpolate(T1, T2, u)
            assert_abs_close(Fu[0], Iu[0], 1e-12)
            assert_abs_close(Fu[1], Iu[1], 1e-9)

    @pytest.mark.parametrize("conv", CONTAINERS)
    def test_accepts_containers(self, conv):
        T = (conv(so3.rotation([0, 0, 1], PI / 2)), conv([1.0, 2.0, 3.0]))
        assert_abs_close(se3.apply(T, conv([1.0, 0.0, 0.0])), [1, 3, 3], 1e-15)
        Ti = se3.inv(T)
        assert_abs_close(se3.apply(Ti, se3.apply(T, [0.3, 0.2, 0.1])), [0.3, 0.2, 0.1], 1e-15)
        assert_abs_close(se3.mul(T, Ti)[1], [0, 0, 0], 1e-15)
        assert se3.distance(T, T) == pytest.approx(0)
        assert_abs_close(se3.from_translation(conv([1.0, 2.0, 3.0]))[1], [1, 2, 3], 0)


def test_package_exports():
    import klampt.math as km
    assert set(km.__all__) == {'vectorops', 'so2', 'so3', 'se3'}
    for mod in (km.vectorops, km.so2, km.so3, km.se3):
        for name in mod.__all__:
            assert callable(getattr(mod, name)), name
    assert so3.moment is so3.rotation_vector
    assert so3.from_moment is so3.from_rotation_vector
    assert vectorops.norm_L2 is vectorops.norm
