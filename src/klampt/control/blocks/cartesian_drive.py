"""A :class:`~klampt.control.cartesian_drive.CartesianDriveSolver` as a
robot controller block."""
import copy

from .robotcontroller import RobotControllerBlock
from ..cartesian_drive import CartesianDriveSolver


class CartesianDriveController(RobotControllerBlock):
    """Drives the commanded configuration with the solver from inputs
    'wdes', 'vdes' (angular and linear velocities) and 'dt'; outputs 'qcmd'
    and 'progress'.  With start=False it waits for the 'enter' or 'start'
    signal before starting the solver."""

    def __init__(self, solver, links, baseLinks=None, endEffectorPositions=None, start=True):
        if not isinstance(solver, CartesianDriveSolver):
            raise ValueError("CartesianDriveController needs a CartesianDriveSolver")
        self.solver = solver
        self.links = links
        self.baseLinks = baseLinks
        self.endEffectorPositions = endEffectorPositions
        self.start = start
        self._qcmd = None
        RobotControllerBlock.__init__(self)
        self._inputs.addChannel('wdes')
        self._inputs.addChannel('vdes')
        self._outputs.addChannel('progress')

    def signal(self, type, *args):
        if type in ('enter', 'start'):
            self.start = True

    def advance(self, **inputs):
        if inputs.get('qcmd') is not None:
            self._qcmd = inputs['qcmd']
        if self._qcmd is None:
            self._qcmd = inputs.get('q')
        if self._qcmd is None:
            raise ValueError("CartesianDriveController needs input q or qcmd")
        if self.start:
            self.solver.start(self._qcmd, self.links, self.baseLinks, self.endEffectorPositions)
            self.start = False
        progress, qcmd = self.solver.drive(self._qcmd, inputs['wdes'], inputs['vdes'], inputs['dt'])
        self._qcmd = qcmd
        return {'progress': progress, 'qcmd': qcmd}

    def __getstate__(self):
        return copy.deepcopy({'driveTransforms': self.solver.driveTransforms,
                              'driveSpeedAdjustment': self.solver.driveSpeedAdjustment})

    def __setstate__(self, state):
        self.solver.driveTransforms = state['driveTransforms']
        self.solver.driveSpeedAdjustment = state['driveSpeedAdjustment']
