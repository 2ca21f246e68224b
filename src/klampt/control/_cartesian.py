"""Cartesian kinematics of a robot part with a tool point: poses,
velocities and forces in the RIL frames (the public ``klamptCartesian*``
helpers), frame conversions of targets, and the IK solve behind Cartesian
commands."""
import math
import random
import warnings

import numpy as np

from ..math import so3, se3, vectorops
from ..robotsim import IKObjective, IKSolver
from . import _checks


def part_links(model, part_indices):
    """The links moved by the drivers part_indices, in order."""
    links = []
    for i in part_indices:
        for l in model.driver(i).getAffectedLinks():
            if l not in links:
                links.append(l)
    return links


def default_tool_link(model, part_indices):
    """The end-effector link of a part: the link of its last driver."""
    return model.driver(part_indices[-1]).getAffectedLinks()[-1]


def default_base_link(model, part_indices):
    """The parent of the part's first link (-1: the world)."""
    first = model.driver(part_indices[0]).getAffectedLinks()[0]
    return model.link(first).getParent()


def resolve_link(model, link):
    """A link index from an index or a name."""
    if isinstance(link, str):
        idx = model.link(link).index
        if idx < 0:
            raise ValueError("Unknown link %r" % link)
        return idx
    return int(link)


def _set_drivers(model, q):
    q = _checks.vector(q, model.numDrivers(), 'klamptCartesian', 'q')
    model.setConfig(model.configFromDrivers(q))


def klamptCartesianPosition(model, q, part_indices, tool_coordinates, tool_link_index, frame, base_link_index=None):
    """The tool transform of a part at whole-robot driver values q.

    Args:
        model (RobotModel): the Klamp't model (its configuration changes).
        q (list of float): the driver values of the whole robot.
        part_indices (list of int): the part's driver indices.
        tool_coordinates (3-vector): the tool point on the tool link.
        tool_link_index (int): the end-effector link.
        frame (str): 'world', 'base', 'end effector' (the tool in the link
            frame) or 'tool' (the identity).
        base_link_index (int, optional): the base link (default: the parent
            of the part's first link).
    """
    _checks.frame(frame, 'cartesianPosition')
    if frame == 'tool':
        return se3.identity()
    if frame == 'end effector':
        return (so3.identity(), [float(x) for x in tool_coordinates])
    _set_drivers(model, q)
    R, t = model.link(tool_link_index).getTransform()
    T = (list(R), list(se3.apply((R, t), tool_coordinates)))
    if frame == 'base':
        if base_link_index is None:
            base_link_index = default_base_link(model, part_indices)
        if base_link_index >= 0:
            return se3.mul(se3.inv(model.link(base_link_index).getTransform()), T)
    return T


def klamptCartesianVelocity(model, q, dq, part_indices, tool_coordinates, tool_link_index, frame,
                            base_link_index=None):
    """The tool's (angular, linear) velocity at driver values q and driver
    velocities dq.  'base' gives the velocity relative to the base link
    (the drivers before the part held still), in base coordinates; 'end
    effector' and 'tool' give the tool point's velocity in end-effector
    coordinates."""
    _checks.frame(frame, 'cartesianVelocity')
    n = model.numDrivers()
    dq = _checks.vector(dq, n, 'cartesianVelocity', 'dq')
    if frame == 'base':
        first = min(part_indices)
        dq = [0.0 if i < first else v for i, v in enumerate(dq)]
    _set_drivers(model, q)
    model.setVelocity(model.velocityFromDrivers(dq))
    ee = model.link(tool_link_index)
    w = list(ee.getAngularVelocity())
    v = list(ee.getPointVelocity(tool_coordinates))
    if frame == 'base':
        if base_link_index is None:
            base_link_index = default_base_link(model, part_indices)
        if base_link_index < 0:
            return (w, v)
        Rinv = so3.inv(model.link(base_link_index).getTransform()[0])
        return (so3.apply(Rinv, w), so3.apply(Rinv, v))
    if frame in ('end effector', 'tool'):
        Rinv = so3.inv(ee.getTransform()[0])
        return (so3.apply(Rinv, w), so3.apply(Rinv, v))
    return (w, v)


def klamptCartesianForce(model, q, t, part_indices, tool_coordinates, tool_link_index, frame, base_link_index=None):
    """The (torque, force) at the tool point that the part's joint torques t
    (driver torques of the whole robot) balance: the least-squares solution
    of J^T f = t with the tool Jacobian J of the part's links.

    The reference computes J t, dimensionally wrong."""
    _checks.frame(frame, 'cartesianForce')
    n = model.numDrivers()
    t = _checks.vector(t, n, 'cartesianForce', 't')
    _set_drivers(model, q)
    ee = model.link(tool_link_index)
    J = np.asarray(ee.getJacobian(tool_coordinates))
    cols, tau = [], []
    for i in part_indices:
        for l in model.driver(i).getAffectedLinks()[:1]:
            cols.append(l)
            tau.append(t[i])
    f = np.linalg.lstsq(J[:, cols].T, np.asarray(tau), rcond=None)[0]
    torque, force = f[:3].tolist(), f[3:].tolist()
    if frame == 'base':
        if base_link_index is None:
            base_link_index = default_base_link(model, part_indices)
        if base_link_index >= 0:
            Rinv = so3.inv(model.link(base_link_index).getTransform()[0])
            return (so3.apply(Rinv, torque), so3.apply(Rinv, force))
    elif frame in ('end effector', 'tool'):
        Rinv = so3.inv(ee.getTransform()[0])
        return (so3.apply(Rinv, torque), so3.apply(Rinv, force))
    return (torque, force)


class PartKinematics:
    """The Cartesian description of a part: model, driver indices, tool
    link, tool point and base link."""

    def __init__(self, model, indices, tool_link=None):
        self.model = model
        self.indices = list(indices)
        self.toolLink = default_tool_link(model, self.indices) if tool_link is None else resolve_link(model, tool_link)
        self.baseLink = default_base_link(model, self.indices)
        self.toolCoordinates = [0.0, 0.0, 0.0]
        self.links = part_links(model, self.indices)

    def position(self, q, frame='world'):
        """klamptCartesianPosition for this part."""
        return klamptCartesianPosition(self.model, q, self.indices, self.toolCoordinates, self.toolLink, frame,
                                       self.baseLink)

    def velocity(self, q, dq, frame='world'):
        """klamptCartesianVelocity for this part."""
        return klamptCartesianVelocity(self.model, q, dq, self.indices, self.toolCoordinates, self.toolLink, frame,
                                       self.baseLink)

    def force(self, q, t, frame='world'):
        """klamptCartesianForce for this part."""
        return klamptCartesianForce(self.model, q, t, self.indices, self.toolCoordinates, self.toolLink, frame,
                                    self.baseLink)

    def frameTransform(self, qcmd, frame):
        """The world transform of frame at driver values qcmd."""
        if frame == 'world':
            return se3.identity()
        if frame == 'base':
            if self.baseLink < 0:
                return se3.identity()
            _set_drivers(self.model, qcmd)
            return self.model.link(self.baseLink).getTransform()
        if frame == 'tool':
            return self.position(qcmd, 'world')
        _set_drivers(self.model, qcmd)
        return self.model.link(self.toolLink).getTransform()

    def targetToWorld(self, target, frame, qcmd):
        """A point or transform given in frame as world coordinates."""
        T = self.frameTransform(qcmd, frame)
        if _checks.is_transform(target):
            return se3.mul(T, target)
        return se3.apply(T, target)

    def velocityToWorld(self, dx, frame, qcmd):
        """A velocity (w, v) or v given in frame, rotated to world."""
        R = self.frameTransform(qcmd, frame)[0]
        if len(dx) == 2:
            return (so3.apply(R, dx[0]), so3.apply(R, dx[1]))
        return so3.apply(R, dx)

    def error(self, q_links, target):
        """(position error, rotation error) of the tool at link config
        q_links with respect to a world point or transform."""
        self.model.setConfig(q_links)
        link = self.model.link(self.toolLink)
        p = link.getWorldPosition(self.toolCoordinates)
        if _checks.is_transform(target):
            return (vectorops.distance(p, target[1]), so3.distance(link.getTransform()[0], target[0]))
        return (vectorops.distance(p, target), 0.0)


POSITION_TOLERANCE = 1e-3
ROTATION_TOLERANCE = 1e-3


def solve_ik(kin, target, qstart_links, restarts=True, rng=None):
    """Driver values of the part reaching a world target (point or
    transform) from link configuration qstart_links.

    A local solve of up to 100 iterations first; if it misses the
    tolerances (1 mm, 1 mrad) and restarts is True, solves from perturbed
    starts and random restarts, keeping the success closest to the start;
    without a success, the local solve is the best effort.  Returns
    (q_links, (position error, rotation error)); the model is left at
    q_links."""
    model = kin.model
    obj = IKObjective()
    obj.setLinks(kin.toolLink)
    if _checks.is_transform(target):
        obj.setFixedPosConstraint(kin.toolCoordinates, target[1])
        obj.setFixedRotConstraint(target[0])
    else:
        obj.setFixedPosConstraint(kin.toolCoordinates, target)
        obj.setFreeRotConstraint()
    solver = IKSolver(model)
    solver.add(obj)
    solver.setActiveDofs(kin.links)
    solver.setMaxIters(100)
    solver.setTolerance(1e-8)
    qstart = [float(v) for v in qstart_links]
    qmin, qmax = [list(v) for v in model.getJointLimits()]

    def attempt(q0):
        model.setConfig(q0)
        solver.solve()
        q = [float(v) for v in model.getConfig()]
        return q, kin.error(q, target)

    def ok(err):
        return err[0] <= POSITION_TOLERANCE and err[1] <= ROTATION_TOLERANCE

    q, err = attempt(qstart)
    if ok(err) or not restarts:
        return q, err
    rng = rng or random.Random(0)
    # without a success, the local solve from the start is the best effort: it
    # reaches toward the target from where the robot is
    local = (q, err)
    successes = []
    starts = []
    for scale in (0.1, 0.3, 0.6, 1.0, 1.5):
        for _ in range(2):
            q0 = list(qstart)
            for l in kin.links:
                q0[l] = min(max(q0[l] + rng.uniform(-scale, scale), qmin[l]), qmax[l])
            starts.append(q0)
    for _ in range(10):
        q0 = list(qstart)
        for l in kin.links:
            lo, hi = qmin[l], qmax[l]
            if not (math.isfinite(lo) and math.isfinite(hi)):
                lo, hi = q0[l] - math.pi, q0[l] + math.pi
            q0[l] = rng.uniform(lo, hi)
        starts.append(q0)
    for q0 in starts:
        q, err = attempt(q0)
        if ok(err):
            successes.append(q)
            if len(successes) >= 3:
                break
    if successes:
        q = min(successes, key=lambda qs: sum((a - b) ** 2 for a, b in zip(qs, qstart)))
        err = kin.error(q, target)
        return q, err
    model.setConfig(local[0])
    return local


def warn_unreachable(method, err):
    """The RuntimeWarning of a best-effort Cartesian move."""
    warnings.warn("%s: Cartesian target not reached, moving to the closest pose found "
                  "(position error %.4g m, rotation error %.4g rad)" % (method, err[0], err[1]), RuntimeWarning,
                  stacklevel=4)
