"""Threaded and multiprocessing wrappers: wait() returns when the robot has
arrived, Promises resolve, close() ends the worker (acceptance
criterion 7).  These run in real time (a move of about half a second)."""
import multiprocessing
import time

import pytest

from conftest import load_shared_world
from control_helpers import max_abs_diff

import klampt
from klampt.control.robotinterfaceutils import (MultiprocessingRobotInterface, RobotInterfaceCompleter,
                                                ThreadedRobotInterface)
from klampt.control.simrobotinterface import KinematicSimControlInterface, SimFullControlInterface
from klampt.control.utils import PromiseError


def check_wait_returns_on_arrival(iface):
    assert iface.properties['asynchronous']
    q0 = iface.commandedPosition()
    assert isinstance(q0, list)
    target = list(q0)
    target[1] += 0.5
    t0 = time.monotonic()
    promise = iface.moveToPosition(target)
    assert iface.isMoving()
    waited = iface.wait(timeout=5)
    elapsed = time.monotonic() - t0
    assert max_abs_diff(iface.commandedPosition(), target) < 1e-9
    assert not iface.isMoving()
    # the move lasts 2 sqrt(0.5 / amax) with the tx90l's 6.98 rad/s^2
    duration = 2 * (0.5 / 6.981317007977318) ** 0.5
    assert elapsed >= duration
    assert waited < 5
    assert promise.available() and promise.value() is None
    return promise


def test_threaded_wait_returns_when_the_robot_has_arrived():
    w = load_shared_world('robots/tx90l.rob', quiet=True)
    iface = ThreadedRobotInterface(RobotInterfaceCompleter(KinematicSimControlInterface(w.robot(0))))
    assert iface.initialize()
    try:
        assert iface.numJoints() == 6 and iface.controlRate() == 200.0
        # the caller's model is a copy, never the worker's
        model = iface.klamptModel()
        assert model is not None and model.numLinks() == w.robot(0).numLinks()
        assert model.getConfig() == w.robot(0).getConfig()
        check_wait_returns_on_arrival(iface)
        p = iface.setPosition([0.1] * 6)
        t0 = time.monotonic()
        while not p.available():
            assert time.monotonic() - t0 < 0.1
            time.sleep(0.001)
        bad = iface.moveToPosition([0, 100, 0, 0, 0, 0])
        with pytest.raises(PromiseError, match="outside its limits"):
            bad.wait(timeout=1)
        with pytest.raises(ValueError, match="6 entries"):
            iface.setPosition([0] * 3)
        assert iface.status() == 'ok'
    finally:
        assert iface.close()
    with pytest.raises(RuntimeError, match="twice"):
        iface.close()


def test_threaded_close_before_initialize():
    w = load_shared_world('robots/tx90l.rob', quiet=True)
    iface = ThreadedRobotInterface(RobotInterfaceCompleter(KinematicSimControlInterface(w.robot(0))))
    assert iface.close()
    with pytest.raises(RuntimeError, match="closed"):
        iface.initialize()


def test_threaded_parts_and_failed_initialize():
    w = load_shared_world('robots/tx90l.rob', quiet=True)
    c = RobotInterfaceCompleter(KinematicSimControlInterface(w.robot(0)))
    c.addPart('wrist', [3, 4, 5])
    iface = ThreadedRobotInterface(c)
    assert iface.initialize()
    try:
        wrist = iface.partInterface('wrist')
        wrist.moveToPosition([0.2, 0.3, 0.4]).wait(timeout=1)
        iface.wait(timeout=5)
        assert wrist.commandedPosition() == pytest.approx([0.2, 0.3, 0.4], abs=1e-9)
        assert iface.commandedPosition()[:3] == pytest.approx([0, 0, 0])
        # the part's conversions cover the part (or one of its joints)
        q = wrist.configToKlampt([0.5, 0.6, 0.7])
        assert q[4:7] == pytest.approx([0.5, 0.6, 0.7])
        assert wrist.configFromKlampt(q) == pytest.approx([0.5, 0.6, 0.7])
        assert wrist.configFromKlampt(q, joint_idx=1) == pytest.approx([0.6])
        assert iface.configFromKlampt(q, part='wrist') == pytest.approx([0.5, 0.6, 0.7])
        # a part has no parts: naming one is an error, not ignored
        with pytest.raises(KeyError, match="no part 'elbow'"):
            wrist.configToKlampt([0.0] * 3, part='elbow')
        with pytest.raises(KeyError):
            wrist.velocityFromKlampt([0.0] * 7, part='elbow')
    finally:
        iface.close()

    class Broken(KinematicSimControlInterface):
        def initialize(self):
            return False
    failing = ThreadedRobotInterface(RobotInterfaceCompleter(Broken(w.robot(0))))
    with pytest.warns(RuntimeWarning):
        assert not failing.initialize()
    failing.close()


@pytest.mark.skipif('fork' not in multiprocessing.get_all_start_methods(), reason="needs fork")
def test_multiprocessing_wait_returns_when_the_robot_has_arrived():
    w = load_shared_world('robots/tx90l.rob', quiet=True)
    sim = klampt.Simulator(w)
    iface = MultiprocessingRobotInterface(RobotInterfaceCompleter(SimFullControlInterface(sim.controller(0), sim)))
    assert iface.initialize()
    try:
        assert iface.klamptModel() is not None
        assert iface.controlRate() == 100.0
        check_wait_returns_on_arrival(iface)
        assert iface.clock() > 0.5
        assert iface.status() == 'ok'
    finally:
        assert iface.close()
