"""Robot structure, kinematics and configuration-space geometry against the
values the reference (Klamp't 0.9.2) computed on the shared robot files."""
import os

import numpy as np
import pytest

import klampt
from conftest import GOLDEN, SHARED_DATA, assert_close, golden_files, load_golden

ROBOT_GOLDEN = golden_files((".rob.json", ".urdf.json"))
PLOCAL = [0.1, 0.05, 0.02]


@pytest.fixture(scope="module", params=ROBOT_GOLDEN or ["<missing>"])
def case(request):
    gold = load_golden(request.param)
    world = klampt.WorldModel()
    assert world.readFile(os.path.join(SHARED_DATA, gold["file"])), gold["file"]
    return gold, world.robot(0)


def test_golden_files_present():
    assert len(ROBOT_GOLDEN) >= 8, "expected the golden robot files in %s" % GOLDEN


def test_structure(case):
    gold, robot = case
    assert robot.getName() == gold["name"]
    assert robot.numLinks() == gold["numLinks"]
    assert robot.numDrivers() == gold["numDrivers"]
    for g in gold["links"]:
        link = robot.link(g["index"])
        assert link.getIndex() == g["index"]
        assert link.getName() == g["name"]
        assert link.getParent() == g["parent"]
        assert robot.getJointType(g["index"]) == g["jointType"], g["name"]
        assert link.isPrismatic() == g["isPrismatic"]
        assert link.isRevolute() == g["isRevolute"]
        assert_close(link.getAxis(), g["axis"], what="axis of " + g["name"])
        R, t = link.getParentTransform()
        assert_close(R, g["parentTransform"][0], what="parent rotation of " + g["name"])
        assert_close(t, g["parentTransform"][1], what="parent translation of " + g["name"])


def test_limits_and_initial_config(case):
    gold, robot = case
    assert_close(robot.getJointLimits(), gold["jointLimits"], what="joint limits")
    assert_close(robot.getVelocityLimits(), gold["velocityLimits"], what="velocity limits")
    assert_close(robot.getAccelerationLimits(), gold["accelerationLimits"], what="acceleration limits")
    assert_close(robot.getTorqueLimits(), gold["torqueLimits"], what="torque limits")
    assert_close(robot.getConfig(), gold["initialConfig"], what="initial config")


def test_link_masses(case):
    gold, robot = case
    for g in gold["links"]:
        m = robot.link(g["index"]).getMass()
        assert_close(m.mass, g["mass"]["mass"], what="mass of " + g["name"])
        assert_close(m.com, g["mass"]["com"], rtol=1e-6, atol=1e-9, what="com of " + g["name"])
        assert_close(m.inertia, g["mass"]["inertia"], rtol=1e-6, atol=1e-9, what="inertia of " + g["name"])


def test_drivers(case):
    gold, robot = case
    for g in gold["drivers"]:
        d = robot.driver(g["index"])
        assert d.getName() == g["name"]
        assert d.getType() == g["type"]
        assert d.getAffectedLinks() == g["affectedLinks"]
        if g["affectedLinks"]:
            assert d.getAffectedLink() == g["affectedLink"]
        scale, offset = d.getAffineCoeffs()
        assert_close(scale, g["affineCoeffs"][0], what="affine scale")
        assert_close(offset, g["affineCoeffs"][1], what="affine offset")
        assert_close(d.getLimits(), g["limits"], what="driver limits " + g["name"])
        assert_close(d.getVelocityLimits(), g["velocityLimits"], what="driver velocity limits")
        assert_close(d.getAccelerationLimits(), g["accelerationLimits"], what="driver acceleration limits")
        assert_close(d.getTorqueLimits(), g["torqueLimits"], what="driver torque limits")
        assert_close(d.getValue(), g["valueAtInitialConfig"], what="driver value")


def test_self_collision_pairs(case):
    gold, robot = case
    n = robot.numLinks()
    pairs = [[i, j] for i in range(n) for j in range(i + 1, n) if robot.selfCollisionEnabled(i, j)]
    assert pairs == gold["selfCollisionEnabledPairs"]
    for i, j in pairs:
        assert robot.selfCollisionEnabled(j, i)


def test_forward_kinematics_and_jacobians(case):
    gold, robot = case
    n = robot.numLinks()
    for c in gold["configs"]:
        robot.setConfig(c["q"])
        robot.setVelocity([0.0] * n)
        label = c["label"]
        assert_close(robot.getConfig(), c["getConfig"], what=label + " config")
        for i, T in enumerate(c["linkTransforms"]):
            R, t = robot.link(i).getTransform()
            assert_close(R, T[0], atol=1e-8, what="%s R of link %d" % (label, i))
            assert_close(t, T[1], atol=1e-8, what="%s t of link %d" % (label, i))
        full, pos = c["jacobianLastLink"], c["positionJacobianMiddleLink"]
        J = robot.link(full["link"]).getJacobian(full["plocal"])
        assert isinstance(J, np.ndarray)
        assert_close(J, full["J"], atol=1e-8, what=label + " Jacobian")
        assert_close(robot.link(pos["link"]).getPositionJacobian(pos["plocal"]), pos["J"], atol=1e-8,
                     what=label + " position Jacobian")
        last = robot.link(n - 1)
        assert_close(last.getWorldPosition(PLOCAL), c["lastLinkWorldPosition"], atol=1e-8, what=label + " point")
        assert_close(robot.getCom(), c["com"], atol=1e-8, what=label + " COM")
        assert_close(robot.getComJacobian(), c["comJacobian"], atol=1e-8, what=label + " COM Jacobian")
        assert_close(robot.getTotalInertia(), c["totalInertia"], rtol=1e-6, atol=1e-8, what=label + " total inertia")


def test_velocities_and_momenta(case):
    gold, robot = case
    n = robot.numLinks()
    for c in gold["configs"]:
        robot.setConfig(c["q"])
        robot.setVelocity(c["dq"])
        label = c["label"]
        last = robot.link(n - 1)
        assert_close(last.getVelocity(), c["lastLinkVelocity"], atol=1e-8, what=label + " link velocity")
        assert_close(last.getAngularVelocity(), c["lastLinkAngularVelocity"], atol=1e-8, what=label + " angular velocity")
        assert_close(last.getPointVelocity(PLOCAL), c["lastLinkPointVelocity"], atol=1e-8, what=label + " point velocity")
        assert_close(robot.getComVelocity(), c["comVelocity"], atol=1e-8, what=label + " COM velocity")
        assert_close(robot.getLinearMomentum(), c["linearMomentum"], rtol=1e-6, atol=1e-8, what=label + " momentum")
        assert_close(robot.getKineticEnergy(), c["kineticEnergy"], rtol=1e-6, atol=1e-8, what=label + " kinetic energy")


def test_interpolation_and_distance(case):
    gold, robot = case
    for g in gold["interpolation"]:
        what = "%s/%s" % (g["a_label"], g["b_label"])
        assert_close(robot.interpolate(g["a"], g["b"], g["u"]), g["interpolate"], atol=1e-8, what=what + " interpolate")
        assert_close(robot.distance(g["a"], g["b"]), g["distance"], atol=1e-8, what=what + " distance")


def test_ik_targets_are_forward_kinematics(case):
    """The golden IK targets are FK of their configurations: check ours agree."""
    gold, robot = case
    for p in gold["ikProblems"]:
        robot.setConfig(p["q"])
        R, t = robot.link(p["link"]).getTransform()
        assert_close(R, p["target"][0], atol=1e-8, what=p["label"])
        assert_close(t, p["target"][1], atol=1e-8, what=p["label"])
        assert_close(robot.link(p["link"]).getWorldPosition(PLOCAL), p["targetPointAtPLOCAL"], atol=1e-8)
