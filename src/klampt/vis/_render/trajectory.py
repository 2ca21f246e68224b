"""``vis.drawTrajectory`` and ``vis.drawRobotTrajectory``: a path of
points drawn into the current OpenGL context as a line through its
milestones with a dot at each (a Hermite path as a fine line through its
curve), for 3D and 2D points and rigid transforms (their positions)."""
from klampt.model.trajectory import SE3HermiteTrajectory, SE3Trajectory, Trajectory

from .gl import require_context


def _curve(traj, position):
    """Points along a curved trajectory, ten per milestone interval."""
    n = 10 * (len(traj.milestones) - 1)
    t0, t1 = traj.times[0], traj.times[-1]
    return [position(traj.eval(t0 + (t1 - t0) * k / n)) for k in range(n + 1)] if n > 0 else []


def _points(traj):
    """(the points of the line, the points of the dots) of a trajectory."""
    if isinstance(traj, (list, tuple)):
        return [list(p) for p in traj], [list(p) for p in traj]
    if isinstance(traj, SE3Trajectory):
        pts = [list(m[9:12]) for m in traj.milestones]
        return pts, pts
    if not traj.milestones:
        return [], []
    if isinstance(traj, SE3HermiteTrajectory):
        return _curve(traj, lambda T: list(T[1])), [list(traj.waypoint(m)[1]) for m in traj.milestones]
    first = traj.waypoint(traj.milestones[0])
    if len(first) not in (2, 3):
        raise ValueError("drawTrajectory draws paths of 2D or 3D points or of transforms, not of %d-vectors"
                         % len(first))
    dots = [list(traj.waypoint(m)) for m in traj.milestones]
    if len(first) == len(traj.milestones[0]):
        return dots, dots
    return _curve(traj, list), dots  # a Hermite curve


def _vertices(GL, mode, pts):
    GL.glBegin(mode)
    for p in pts:
        GL.glVertex3f(float(p[0]), float(p[1]), float(p[2]) if len(p) > 2 else 0.0)
    GL.glEnd()


def drawTrajectory(traj, width, color, pointSize=None, pointColor=None) -> None:
    """Draws a path into the current OpenGL context: a list of 3D (or 2D,
    at z = 0) points, or a Trajectory of them (a HermiteTrajectory follows
    its curve), or an SE3Trajectory / SE3HermiteTrajectory (its positions).
    A line of ``width`` pixels in ``color`` (RGBA) through the milestones,
    and dots of ``pointSize`` pixels (default width + 2; 0: none) in
    ``pointColor`` (default 3/4 of the color) at them. RuntimeError
    without a current OpenGL context."""
    line, dots = _points(traj)
    GL = require_context("drawTrajectory")
    if not dots:
        return
    color = [float(c) for c in color] + [1.0] * (4 - len(color))
    if pointSize is None:
        pointSize = width + 2
    if pointColor is None:
        pointColor = (color[0] * 0.75, color[1] * 0.75, color[2] * 0.75, color[3])
    GL.glPushAttrib(GL.GL_ENABLE_BIT | GL.GL_CURRENT_BIT | GL.GL_LINE_BIT | GL.GL_POINT_BIT | GL.GL_DEPTH_BUFFER_BIT)
    try:
        GL.glDisable(GL.GL_LIGHTING)
        GL.glColor4f(*color)
        if len(dots) == 1:
            GL.glPointSize(max(width, pointSize, 1))
            _vertices(GL, GL.GL_POINTS, dots)
            return
        if width > 0:
            GL.glLineWidth(width)
            _vertices(GL, GL.GL_LINE_STRIP, line)
        if pointSize > 0:
            GL.glDepthFunc(GL.GL_LEQUAL)  # the dots over the line's ends, at the same depth
            GL.glColor4f(*pointColor)
            GL.glPointSize(pointSize)
            _vertices(GL, GL.GL_POINTS, dots)
    finally:
        GL.glPopAttrib()


def drawRobotTrajectory(traj, robot, ees, width=2, color=(1, 0.5, 0, 1), pointSize=None, pointColor=None) -> None:
    """Draws the paths of the robot's links ``ees`` (indices; -1 is the
    last link) over the milestones of ``traj`` (a Trajectory or a list of
    configurations), as :func:`drawTrajectory` does. No finer sampling is
    done (use ``traj.discretize`` first for that); the robot keeps its
    configuration."""
    n = robot.numLinks()
    links = [n - 1 if int(ee) < 0 else int(ee) for ee in ees]
    if any(i >= n for i in links):
        raise ValueError("drawRobotTrajectory: link index out of range [0, %d)" % n)
    configs = traj.milestones if isinstance(traj, Trajectory) else traj
    saved = robot.getConfig()
    paths = [[] for _ in links]
    try:
        for q in configs:
            robot.setConfig(q)
            for path, i in zip(paths, links):
                path.append(robot.link(i).getTransform()[1])
    finally:
        robot.setConfig(saved)
    for path in paths:
        drawTrajectory(path, width, color, pointSize, pointColor)
