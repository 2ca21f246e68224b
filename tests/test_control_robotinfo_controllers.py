"""Robot-info files naming ``klampt.control.simrobotinterface`` as their
controller, written as Klampt-examples writes them (link-index parts that
include the undriven base link, end effectors) for the shared robots:
``RobotInfo.load(json).controller()`` builds an interface that initializes,
whose parts take commands independently and whose ``isMoving()`` works
(acceptance criterion 8)."""
import json
import os
import warnings

import pytest

from conftest import SHARED_DATA, require_shared_data
from control_helpers import run_until, step

from klampt.control.robotinterfaceutils import OmniRobotInterface, RobotInterfaceCompleter
from klampt.model.robotinfo import RobotInfo

ROBOTS = {
    # name: (model file, parts as link indices, end effector link)
    'UR5e': ('ur5.rob', None, 7),
    'KinovaGen3': ('kinova_gen3_7dof.urdf', None, 8),
    'TX90L with PR2 gripper': ('tx90pr2.rob', {'arm': list(range(7)), 'gripper': list(range(7, 12))}, 6),
    'Kinova with Robotiq 85': ('kinova_with_robotiq_85.urdf',
                               {'arm': list(range(9)), 'gripper': list(range(9, 18))}, 8),
    'Robotiq 85': ('robotiq_85.rob', None, 0),
}


def write_info(tmp_path, name):
    model, parts, ee = ROBOTS[name]
    info = {'name': name, 'modelFile': os.path.join(SHARED_DATA, 'robots', model), 'baseType': 'fixed',
            'controllerFile': 'klampt.control.simrobotinterface',
            'properties': {'description': 'kinematically simulated ' + name},
            'endEffectors': {'wrist': {'link': ee, 'activeLinks': list(range(1, ee + 1)), 'ikObjective': None}}}
    if parts:
        info['parts'] = parts
    fn = tmp_path / (name.replace(' ', '_') + '.json')
    fn.write_text(json.dumps(info))
    return str(fn)


def midpoint_target(robot, indices, fraction):
    """Driver values a fraction of the way from 0 toward each driver's
    upper limit (inside the limits)."""
    out = []
    for d in indices:
        lo, hi = robot.driver(d).getLimits()
        hi = min(hi, 3.0)
        x0 = min(max(0.0, lo), hi)
        out.append(x0 + fraction * (hi - x0))
    return out


@pytest.mark.parametrize('name', sorted(ROBOTS))
def test_robotinfo_controller_builds_a_working_interface(tmp_path, name):
    require_shared_data()
    fn = write_info(tmp_path, name)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        info = RobotInfo.load(fn)
        try:
            iface = info.controller()
        finally:
            RobotInfo.all_robots.pop(name, None)
    assert iface.properties['klamptModelFile'] == os.path.abspath(info.modelFile)
    assert iface.initialize()
    robot = iface.klamptModel()
    assert iface.numJoints() == robot.numDrivers()
    assert not step(iface, lambda i: i.isMoving())
    parts = ROBOTS[name][1]
    if parts is None:
        assert isinstance(iface, RobotInterfaceCompleter)
        target = midpoint_target(robot, range(robot.numDrivers()), 0.3)
        step(iface, lambda i: i.moveToPosition(target))
        assert step(iface, lambda i: i.isMoving())
        run_until(iface, lambda i: not i.isMoving(), 5.0)
        assert step(iface, lambda i: i.commandedPosition()) == pytest.approx(target, abs=1e-9)
        assert step(iface, lambda i: i.sensedPosition()) == pytest.approx(target, abs=1e-9)
        return
    assert isinstance(iface, OmniRobotInterface)
    assert set(iface.parts()) == {None, 'robot'} | set(parts)
    # the undriven base link is skipped; every driver belongs to one part
    arm, gripper = iface.indices('arm'), iface.indices('gripper')
    assert sorted(arm + gripper) == list(range(robot.numDrivers()))
    q0 = step(iface, lambda i: i.commandedPosition())
    arm_target = midpoint_target(robot, arm, 0.3)
    grip_target = midpoint_target(robot, gripper, 0.5)
    a, g = iface.partInterface('arm'), iface.partInterface('gripper')
    # the arm moves smoothly while the gripper takes a set-point
    step(iface, lambda i: a.moveToPosition(arm_target))
    step(iface, lambda i: g.setPosition(grip_target))
    assert step(iface, lambda i: a.isMoving())
    assert step(iface, lambda i: g.commandedPosition()) == pytest.approx(grip_target, abs=1e-9)
    run_until(iface, lambda i: not i.isMoving(), 5.0)
    q = step(iface, lambda i: i.commandedPosition())
    assert [q[k] for k in arm] == pytest.approx(arm_target, abs=1e-9)
    assert [q[k] for k in gripper] == pytest.approx(grip_target, abs=1e-9)
    # then the gripper alone goes back; the arm stays
    step(iface, lambda i: g.moveToPosition([q0[k] for k in gripper]))
    run_until(iface, lambda i: not g.isMoving(), 5.0)
    q = step(iface, lambda i: i.commandedPosition())
    assert [q[k] for k in arm] == pytest.approx(arm_target, abs=1e-9)
    assert [q[k] for k in gripper] == pytest.approx([q0[k] for k in gripper], abs=1e-9)
    assert iface.close()
