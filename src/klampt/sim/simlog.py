"""CSV logs of a simulation (one row of state per step, one row per touching
pair of bodies per step) and their playback."""
import csv

from ..math import se3, so3, vectorops

_OBJECT_SUFFIXES = ['comx', 'comy', 'comz', 'x', 'y', 'z', 'rx', 'ry', 'rz', 'dx', 'dy', 'dz', 'wx', 'wy', 'wz']
_PLAYBACK_OBJECT_ITEMS = ['x', 'y', 'z', 'rx', 'ry', 'rz', 'dx', 'dy', 'dz', 'wx', 'wy', 'wz']


def controller_sensors(controller):
    """The sensors of a SimRobotController, in order."""
    res = []
    while True:
        s = controller.sensor(len(res))
        if s.type() == '':
            return res
        res.append(s)


class SimLogger(object):
    """Logs a simulation to CSV files.

    Args:
        sim (Simulator): the simulator to log.
        state_fn (str or None): file receiving one row of state per step.
        contact_fn (str, optional): file receiving one row per pair of
            bodies in contact per step.
        colliding: 'all' (every world ID), or a list of IDs / elements
            (anything with getID()) whose pairwise contacts are logged.
        saveheader (bool): write a header row naming each column.
    """

    def __init__(self, sim, state_fn, contact_fn=None, colliding='all', saveheader=True):
        self.saveSensors = False
        self.sim = sim
        self.fn = state_fn
        self.f = open(state_fn, 'w') if state_fn is not None else None
        self.f_contact = open(contact_fn, 'w') if contact_fn is not None else None
        if colliding == 'all':
            sim.enableContactFeedbackAll()
            self.colliding = list(range(sim.world.numIDs()))
        else:
            self.colliding = []
            for item in colliding:
                if isinstance(item, int):
                    self.colliding.append(item)
                elif hasattr(item, 'getID'):
                    self.colliding.append(item.getID())
                else:
                    raise ValueError("Invalid object in the colliding list: %r" % (item,))
            for i, a in enumerate(self.colliding):
                for b in self.colliding[i + 1:]:
                    sim.enableContactFeedback(a, b)
        if saveheader:
            # sensors only have readings after a simulation call
            sim.simulate(0)
            self.saveHeader()
            self.saveContactHeader()

    def saveHeader(self, extra=[]):
        """Writes the header row of the state file (nothing without one).

        The columns are ``time``; per robot ``NAME_cmx/cmy/cmz`` (center of
        mass), ``NAME_qcmd[LINK]``, ``NAME_dqcmd[LINK]``, ``NAME_q[LINK]``,
        ``NAME_dq[LINK]`` per link, ``NAME_t[i]`` per driver and, if
        ``saveSensors`` is set, ``NAME_SENSOR[MEASUREMENT]``; per rigid object
        ``NAME_comx/comy/comz``, ``NAME_x/y/z``, ``NAME_rx/ry/rz`` (rotation
        vector), ``NAME_dx/dy/dz`` and ``NAME_wx/wy/wz``; then ``extra``.

        Args:
            extra (list of str): names of further columns, matching the
                ``extra`` values given to :meth:`saveStep`.
        """
        if self.f is None:
            return
        world = self.sim.world
        columns = ['time']
        for i in range(world.numRobots()):
            robot = world.robot(i)
            n = robot.getName()
            links = [robot.link(j).getName() for j in range(robot.numLinks())]
            columns += [n + '_cmx', n + '_cmy', n + '_cmz']
            for prefix in ('_qcmd', '_dqcmd', '_q', '_dq'):
                columns += ['%s%s[%s]' % (n, prefix, l) for l in links]
            columns += ['%s_t[%d]' % (n, j) for j in range(robot.numDrivers())]
            if self.saveSensors:
                for s in controller_sensors(self.sim.controller(i)):
                    columns += ['%s_%s[%s]' % (n, s.name(), m) for m in s.measurementNames()]
        for i in range(world.numRigidObjects()):
            n = world.rigidObject(i).getName()
            columns += [n + '_' + suffix for suffix in _OBJECT_SUFFIXES]
        columns += list(extra)
        self.f.write(','.join(columns) + '\n')

    def saveContactHeader(self):
        """Writes the header row of the contact file (nothing without one):
        ``time, body1, body2, numContacts``, the average contact point
        ``cp*_avg`` and normal ``cn*_avg``, and the total force ``f*_avg`` and
        torque ``m*_avg`` (see :meth:`saveStep`)."""
        if self.f_contact is None:
            return
        columns = ['time', 'body1', 'body2', 'numContacts',
                   'cpx_avg', 'cpy_avg', 'cpz_avg', 'cnx_avg', 'cny_avg', 'cnz_avg',
                   'fx_avg', 'fy_avg', 'fz_avg', 'mx_avg', 'my_avg', 'mz_avg']
        self.f_contact.write(','.join(columns) + '\n')

    def saveStep(self, extra=[]):
        """Logs the simulator's current state: updates the world from the
        simulator (``sim.updateWorld()``) and appends one row to the state file
        and, for every logged pair of bodies that had contact during the last
        simulate() call, one row to the contact file (each file if open).

        State rows hold, in the order of :meth:`saveHeader`: the time (s); per
        robot its world-frame center of mass (m), commanded configuration and
        velocity (zeros if the controller has none), actual configuration,
        velocity and driver torques, and sensor measurements if
        ``saveSensors`` is set; per rigid object its world-frame center of
        mass and position (m), rotation vector (rad), and its body's
        velocity (m/s) and angular velocity (rad/s) as SimBody.getVelocity
        reports them.  Contact rows hold the body names, the
        number of contact points, their average position and normal (world
        frame, the normal not renormalized), the total contact force on body1
        (N, world frame) and its torque about body1's origin (N m).

        Args:
            extra (list): further values appended to the state row.
        """
        sim = self.sim
        world = sim.world
        sim.updateWorld()
        values = [sim.getTime()]
        for i in range(world.numRobots()):
            robot = world.robot(i)
            values += list(robot.getCom())
            controller = sim.controller(i)
            try:
                values += list(controller.getCommandedConfig())
                values += list(controller.getCommandedVelocity())
            except Exception:
                values += [0.0] * (2 * robot.numLinks())
            values += list(sim.getActualConfig(i))
            values += list(sim.getActualVelocity(i))
            values += list(sim.getActualTorques(i))
            if self.saveSensors:
                for s in controller_sensors(self.sim.controller(i)):
                    values += list(s.getMeasurements())
        for i in range(world.numRigidObjects()):
            obj = world.rigidObject(i)
            T = obj.getTransform()
            w, v = sim.body(obj).getVelocity()
            values += se3.apply(T, obj.getMass().getCom())
            values += list(T[1]) + so3.moment(T[0]) + list(v) + list(w)
        if self.f_contact is not None:
            self._saveContacts()
        values += list(extra)
        if self.f is not None:
            self.f.write(','.join(str(v) for v in values) + '\n')

    def _saveContacts(self):
        sim = self.sim
        world = sim.world
        for i, a in enumerate(self.colliding):
            for b in self.colliding[i + 1:]:
                if not sim.hadContact(a, b):
                    continue
                contacts = sim.getContacts(a, b)
                pavg, navg = [0.0] * 3, [0.0] * 3
                for c in contacts:
                    pavg = vectorops.add(pavg, list(c[0:3]))
                    navg = vectorops.add(navg, list(c[3:6]))
                if len(contacts) > 0:
                    pavg = vectorops.div(pavg, len(contacts))
                    navg = vectorops.div(navg, len(contacts))
                row = [sim.getTime(), world.getName(a), world.getName(b), len(contacts)]
                row += pavg + navg + list(sim.contactForce(a, b)) + list(sim.contactTorque(a, b))
                self.f_contact.write(','.join(str(v) for v in row) + '\n')

    def close(self):
        """Closes the log files; further calls do nothing."""
        if self.f is not None:
            self.f.close()
            self.f = None
        if self.f_contact is not None:
            self.f_contact.close()
            self.f_contact = None


def _read_csv(fn):
    with open(fn, 'r') as f:
        rows = list(csv.reader(f))
    if not rows:
        return [], []
    return rows[0], rows[1:]


class SimLogPlayback(object):
    """Replays a state log written by :class:`SimLogger` into a simulator
    holding the same robots and objects.

    Robots or objects whose columns are missing from the log are left alone
    (a RuntimeWarning names them)."""

    def __init__(self, sim, state_fn, contact_fn=None):
        import warnings
        self.sim = sim
        self.state_header, rows = _read_csv(state_fn) if state_fn is not None else ([], [])
        self.state_array = [self._floats(row, state_fn, k + 2) for k, row in enumerate(rows)]
        self.state_to_index = dict((v, i) for i, v in enumerate(self.state_header))
        self.contact_header, self.contact_rows = _read_csv(contact_fn) if contact_fn is not None else ([], [])
        self.contact_to_index = dict((v, i) for i, v in enumerate(self.contact_header))
        world = sim.world
        self.robot_indices = []
        for i in range(world.numRobots()):
            robot = world.robot(i)
            indices = {}
            for key, pattern in (('q', '%s_q[%s]'), ('dq', '%s_dq[%s]')):
                names = [pattern % (robot.getName(), robot.link(j).getName()) for j in range(robot.numLinks())]
                if all(n in self.state_to_index for n in names):
                    indices[key] = [self.state_to_index[n] for n in names]
            if len(indices) != 2:
                warnings.warn("SimLogPlayback: robot %s is not in the log" % robot.getName(), RuntimeWarning)
                indices = None
            self.robot_indices.append(indices)
        self.rigid_object_indices = []
        for i in range(world.numRigidObjects()):
            name = world.rigidObject(i).getName()
            cols = [name + '_' + item for item in _PLAYBACK_OBJECT_ITEMS]
            if all(c in self.state_to_index for c in cols):
                self.rigid_object_indices.append(dict((item, self.state_to_index[c])
                                                      for item, c in zip(_PLAYBACK_OBJECT_ITEMS, cols)))
            else:
                warnings.warn("SimLogPlayback: rigid object %s is not in the log" % name, RuntimeWarning)
                self.rigid_object_indices.append(None)

    @staticmethod
    def _floats(row, fn, line):
        try:
            return [float(v) for v in row]
        except ValueError:
            raise ValueError("%s, line %d: a value is not a number" % (fn, line))

    def updateSim(self, time=-1, timestep=-1):
        """Puts the simulator in the logged state at a time (the last row
        whose time is at most ``time``) or at a row index."""
        if not self.state_array:
            raise ValueError("The log has no rows")
        if time >= 0:
            if 'time' not in self.state_to_index:
                raise ValueError("The log has no 'time' column: can't play back by time")
            col = self.state_to_index['time']
            timestep = 0
            for k, row in enumerate(self.state_array):
                if row[col] <= time:
                    timestep = k
        timestep = max(0, min(timestep, len(self.state_array) - 1))
        state = self.state_array[timestep]
        sim = self.sim
        world = sim.world
        for i, indices in enumerate(self.robot_indices):
            if indices is None:
                continue
            robot = world.robot(i)
            robot.setConfig([state[k] for k in indices['q']])
            robot.setVelocity([state[k] for k in indices['dq']])
            for j in range(robot.numLinks()):
                link = robot.link(j)
                sim.body(link).setTransform(*link.getTransform())
                sim.body(link).setVelocity(link.getAngularVelocity(), link.getVelocity())
        for i, indices in enumerate(self.rigid_object_indices):
            if indices is None:
                continue
            obj = world.rigidObject(i)
            t = [state[indices[k]] for k in ('x', 'y', 'z')]
            R = so3.from_moment([state[indices[k]] for k in ('rx', 'ry', 'rz')])
            v = [state[indices[k]] for k in ('dx', 'dy', 'dz')]
            w = [state[indices[k]] for k in ('wx', 'wy', 'wz')]
            obj.setTransform(R, t)
            obj.setVelocity(w, v)
            sim.body(obj).setTransform(R, t)
            sim.body(obj).setVelocity(w, v)
