"""Controllers that follow trajectories: :class:`TrajectoryPositionController`
and :class:`TrajectoryWithFeedforwardTorqueController`; :func:`make` builds
one from path files."""
from .robotcontroller import RobotControllerBlock, RobotControllerIO
from ...io import loader
from ...model import trajectory


class TrajectoryPositionController(RobotControllerBlock):
    """Outputs the trajectory's position (and, when type is a pair, its
    derivative) at the time since the first step."""

    def __init__(self, traj, type=('qcmd', 'dqcmd')):
        self.traj = traj
        self.outputType = type
        self.startTime = None
        RobotControllerBlock.__init__(self)

    def advance(self, **inputs):
        t = inputs['t']
        if self.startTime is None:
            self.startTime = t
        t = t - self.startTime
        if isinstance(self.outputType, (tuple, list)):
            if len(self.outputType) != 2:
                raise ValueError("TrajectoryPositionController type must be a name or a pair of names")
            return {self.outputType[0]: self.traj.eval(t), self.outputType[1]: self.traj.deriv(t)}
        return {self.outputType: self.traj.eval(t)}

    def __getstate__(self):
        return {'startTime': self.startTime, 'traj': loader.to_json(self.traj)}

    def __setstate__(self, state):
        self.startTime = state['startTime']
        self.traj = loader.from_json(state['traj'], 'Trajectory')

    def signal(self, type, *args):
        if type == 'reset':
            self.startTime = None


class TrajectoryWithFeedforwardTorqueController(RobotControllerBlock):
    """Follows a joint trajectory with a feedforward torque trajectory
    (a feedforward PID command)."""

    def __init__(self, traj, torquetraj):
        self.traj = traj
        self.torquetraj = torquetraj
        self.startTime = None
        RobotControllerBlock.__init__(self)

    def advance(self, **inputs):
        api = RobotControllerIO(inputs)
        t = api.time()
        if self.startTime is None:
            self.startTime = t
        t = t - self.startTime
        return api.makeFeedforwardPIDCommand(self.traj.eval(t), self.traj.deriv(t), self.torquetraj.eval(t))

    def __getstate__(self):
        return {'startTime': self.startTime, 'traj': loader.to_json(self.traj),
                'torquetraj': loader.to_json(self.torquetraj)}

    def __setstate__(self, state):
        self.startTime = state['startTime']
        self.traj = loader.from_json(state['traj'], 'Trajectory')
        self.torquetraj = loader.from_json(state['torquetraj'], 'Trajectory')

    def signal(self, type, *args):
        if type == 'reset':
            self.startTime = None


def make(robot, file="mypath.path", ff_torque_file=None):
    """A trajectory controller for the path in file (a RobotTrajectory if
    robot is given), with the feedforward torques of ff_torque_file."""
    traj = trajectory.Trajectory() if robot is None else trajectory.RobotTrajectory(robot)
    traj.load(file)
    if ff_torque_file is not None:
        torques = trajectory.Trajectory()
        torques.load(ff_torque_file)
        return TrajectoryWithFeedforwardTorqueController(traj, torques)
    return TrajectoryPositionController(traj)
