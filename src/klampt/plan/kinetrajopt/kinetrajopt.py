"""Kinematic trajectory optimisation by sequential convex programming (the
TrajOpt method of Schulman et al.): the trajectory's points are optimised
together, collisions of the links' convex hulls with obstacles (at each
point and swept between consecutive points) are linearised from signed
distances, closest points and link Jacobians, and each convex subproblem is
solved by cvxpy inside a trust region with an exact L1 penalty."""
from collections.abc import Iterable

import cvxpy as cp
import numpy as np

from klampt import Geometry3D, DistanceQuerySettings
from klampt.math import se3

from .utils import CostInterface, ConstrInterface, ConstrContainer, JointLimitsConstr, MaskedRobot, MaskedTerrain
from .trajopt_task_space import PoseConstraint, DirectionConstraint, PositionConstraint, OrientationConstraint

__all__ = ["TrajOptSettings", "JointObjectInfo", "SweepJointObjectInfo", "QPException", "KineTrajOpt",
           "CostInterface", "ConstrInterface", "ConstrContainer", "JointLimitsConstr", "MaskedRobot", "MaskedTerrain",
           "PoseConstraint", "DirectionConstraint", "PositionConstraint", "OrientationConstraint",
           "Geometry3D", "DistanceQuerySettings", "se3"]


class TrajOptSettings(object):
    """The settings of :class:`KineTrajOpt`, given as keywords:

    - dsafe (0.05): the distance to keep from obstacles.
    - dcheck (0.1): pairs closer than this enter the subproblem.
    - ctol (1e-3): kept for Klamp't's code; the final check uses
      cnt_tolerance.
    - max_iter (40): convexifications per penalty coefficient.
    - min_approx_improve_frac (0.001), min_approx_improve (1e-4): a step
      whose predicted merit improvement is below this fraction of the merit,
      or below this value, ends the convexifications.
    - improve_ratio_threshold (0.2): a step is accepted when the true merit
      improvement is at least this fraction of the predicted one.
    - merit_error_coeff (20): the initial penalty coefficient mu.
    - min_trust_box_size (1e-4), trust_box_size (0.1): the smallest and the
      initial trust region (max joint change per step, radians).
    - trust_region_expand_decrease ((1.5, 0.2)): the trust region factors
      after an accepted and a rejected step (stored as ``taus``).
    - cnt_tolerance (1e-4): the tolerance of the final feasibility check.
    - max_merit_coeff_increase (5): how many penalty coefficients are tried.
    - merit_coeff_increase_ratio (10): the penalty's growth factor.
    - cvxpy_args ({}): keywords of ``cvxpy.Problem.solve`` (e.g. solver).
    - verbose (False): print the progress.
    - limit_joint (True): respect the joint limits.
    - joint_limits_by_bound (True): as bounds of the subproblem (else as
      penalised inequality constraints).
    """

    _DEFAULTS = dict(dsafe=0.05, dcheck=0.1, ctol=1e-3, max_iter=40, min_approx_improve_frac=0.001,
                     improve_ratio_threshold=0.2, merit_error_coeff=20, min_trust_box_size=1e-4,
                     min_approx_improve=1e-4, cnt_tolerance=1e-4, max_merit_coeff_increase=5,
                     merit_coeff_increase_ratio=10, trust_box_size=0.1, verbose=False,
                     joint_limits_by_bound=True, limit_joint=True)

    def __init__(self, **kw):
        unknown = set(kw) - set(self._DEFAULTS) - {"trust_region_expand_decrease", "cvxpy_args"}
        if unknown:
            raise TypeError("unknown TrajOptSettings keywords: %s" % ", ".join(sorted(unknown)))
        for name, value in self._DEFAULTS.items():
            setattr(self, name, kw.get(name, value))
        self.taus = tuple(kw.get("trust_region_expand_decrease", (1.5, 0.2)))
        self.cvxpy_args = dict(kw.get("cvxpy_args", {}))


class JointObjectInfo(object):
    """A link (or mounted geometry) near an obstacle at one point of the
    trajectory.

    Attributes:
        linkid (int): the link's index (-1 - i for the i'th mounted geometry).
        objid (int): the terrain's index.
        theta (ndarray): the configuration.
        qid (int): the point's index in the trajectory.
        jacobian (ndarray): the position Jacobian of the link's closest point.
        normal (ndarray): the unit direction in which moving that point
            increases the distance.
        distance (float): the signed distance (negative: penetration).
    """

    def __init__(self, linkid, objid, theta, qid, jacobian, normal, distance):
        self.linkid = linkid
        self.objid = objid
        self.theta = theta
        self.qid = qid
        self.jacobian = jacobian
        self.normal = normal
        self.distance = distance


class SweepJointObjectInfo(object):
    """A link's sweep between points qid1 and qid1 + 1 of the trajectory (the
    convex hull of its two poses) near an obstacle.

    Attributes:
        linkid, objid: as in :class:`JointObjectInfo`.
        theta1, theta2 (ndarray): the two configurations.
        qid1 (int): the index of the first.
        alpha (float): the weight of the first pose in the swept closest
            point (1 - alpha for the second).
        jacobian1, jacobian2 (ndarray): the position Jacobians of the link's
            support points toward the obstacle in its two poses.
        normal (ndarray): the unit direction away from the obstacle.
        distance (float): the signed distance of the swept hull.
        point1, point2 (ndarray): the two support points.
        pswept, pobs (ndarray): the closest points on the swept hull and on
            the obstacle.
    """

    def __init__(self, linkid, objid, theta1, theta2, qid1, alpha, jacobian1, jacobian2, normal, distance):
        self.linkid = linkid
        self.objid = objid
        self.theta1 = theta1
        self.theta2 = theta2
        self.qid1 = qid1
        self.alpha = alpha
        self.jacobian1 = jacobian1
        self.jacobian2 = jacobian2
        self.normal = normal
        self.distance = distance
        self.point1 = None
        self.point2 = None
        self.pswept = None
        self.pobs = None


class QPException(Exception):
    """A convex subproblem could not be solved."""


def _normal(rst):
    """The unit direction moving the first geometry's closest point away
    from the second."""
    if rst.hasGradients and len(rst.grad1) == 3:
        n = np.array(rst.grad1, dtype=float)
    else:
        n = np.subtract(rst.cp1, rst.cp2)
        if rst.d < 0:
            n = -n
    norm = np.linalg.norm(n)
    return n / norm if norm > 1e-12 else None


class KineTrajOpt:
    r"""Optimises a robot's trajectory (N configurations of the optimised
    joints) for smoothness, away from obstacles and under constraints.

    Args:
        world (WorldModel): the world whose terrains are the obstacles.
        robot (RobotModel): the robot.
        q0 (array-like, optional): the fixed start (of the optimised joints).
        qf (array-like, optional): the fixed end.
        config (TrajOptSettings, optional): the solver's settings.
        link_index (array-like, optional): the optimised joints (default all);
            the others keep the robot's configuration at construction.
        geom_index (array-like, optional): the links whose geometries are
            kept away from obstacles (default: every link with a geometry
            that an optimised joint moves).
        obs_index (array-like, optional): the terrains that are obstacles
            (default all).
        mounted (list, optional): (link index, relative se3 transform,
            Geometry3D) triples of geometries rigidly attached to links.
        constrs (ConstrContainer, optional): constraints of the trajectory.
        losses (CostInterface or list, optional): the costs of the flattened
            trajectory, approximated to second order; by default
            :math:`\sum_i \|q_i - q_{i-1}\|^2`.

    Collisions are computed between convex hulls, so a trajectory that keeps
    `dsafe` between hulls keeps it between the true geometries.
    """

    def __init__(self, world, robot, q0=None, qf=None, config=None, link_index=None, geom_index=None,
                 obs_index=None, mounted=None, constrs=None, losses=None):
        n_links = robot.numLinks()
        link_index = np.arange(n_links) if link_index is None else np.asarray(link_index, dtype=int)
        if len(link_index) == 0 or np.any(link_index < 0) or np.any(link_index >= n_links):
            raise ValueError("link_index has to list links of the robot (0..%d)" % (n_links - 1))
        self.dimq = len(link_index)
        self.config = config if config is not None else TrajOptSettings()
        if not isinstance(self.config, TrajOptSettings):
            raise TypeError("config has to be a TrajOptSettings")
        self.constrs = ConstrContainer()
        if constrs is not None:
            self.constrs.merge(constrs)
        self.fixedq0 = self.fixedqf = False
        if q0 is not None:
            self.set_q0(q0)
        if qf is not None:
            self.set_qf(qf)
        if losses is not None and not isinstance(losses, Iterable):
            losses = [losses]
        if losses is not None and not all(isinstance(l, CostInterface) for l in losses):
            raise TypeError("losses have to be CostInterface instances")
        self.losses = list(losses) if losses is not None else None
        qmin, qmax = robot.getJointLimits()
        self.qmin = np.array(qmin)[link_index]
        self.qmax = np.array(qmax)[link_index]
        if self.config.limit_joint and not self.config.joint_limits_by_bound:
            self.constrs.add_ineq(None, JointLimitsConstr(self.qmin, self.qmax))
        obs_index = np.arange(world.numTerrains()) if obs_index is None else np.asarray(obs_index, dtype=int)
        self.mounted = list(mounted) if mounted is not None else []
        self.world = MaskedTerrain(world, obs_index)
        self.robot = MaskedRobot(robot, link_index)
        self.compute_point_collision = True
        self.compute_sweep_collision = True
        self.logs = []
        self.N = None
        self.cp_cache = None
        self.create_geometry_cache(robot, link_index, geom_index)

    def _config_of(self, q, name):
        q = np.array(q, dtype=float).ravel()
        if q.shape != (self.dimq,):
            raise ValueError("%s has %d entries, the optimised joints are %d" % (name, q.size, self.dimq))
        return q

    def set_q0(self, q0):
        """Fixes the trajectory's start configuration."""
        self.q0 = self._config_of(q0, "q0")
        self.fixedq0 = True

    def set_qf(self, qf):
        """Fixes the trajectory's end configuration."""
        self.qf = self._config_of(qf, "qf")
        self.fixedqf = True

    def add_pose_constraint(self, index, linkid, pose):
        """At point index of the trajectory, robot link linkid is at pose (R, t)."""
        self.constrs.add_eq(index, PoseConstraint(self.robot, linkid, pose))

    def add_position_constraint(self, index, linkid, lcl_pos, world_pos):
        """At point index, the local point lcl_pos of link linkid is at world_pos."""
        self.constrs.add_eq(index, PositionConstraint(self.robot, linkid, lcl_pos, world_pos))

    def add_orientation_constraint(self, index, linkid, R):
        """At point index, link linkid has rotation R."""
        self.constrs.add_eq(index, OrientationConstraint(self.robot, linkid, R))

    def add_direction_constraint(self, index, linkid, lcl_dir, world_dir):
        """At point index, the local direction lcl_dir of link linkid points along world_dir."""
        self.constrs.add_eq(index, DirectionConstraint(self.robot, linkid, lcl_dir, world_dir))

    def _start(self, theta0):
        theta = np.array(theta0, dtype=float)
        if theta.ndim == 1:
            if theta.size % self.dimq:
                raise ValueError("theta0 has %d entries, not a multiple of %d joints" % (theta.size, self.dimq))
            theta = theta.reshape((-1, self.dimq))
        if theta.ndim != 2 or theta.shape[1] != self.dimq or theta.shape[0] < 2:
            raise ValueError("theta0 has to be N x %d with N >= 2, got shape %s" % (self.dimq, theta.shape))
        if not np.all(np.isfinite(theta)):
            raise ValueError("theta0 has non-finite entries")
        if self.fixedq0:
            theta[0] = self.q0
        if self.fixedqf:
            theta[-1] = self.qf
        if self.config.limit_joint and self.config.joint_limits_by_bound:
            theta = np.clip(theta, self.qmin, self.qmax)
        return theta

    def optimize(self, theta0):
        """Optimises a trajectory from an initial guess.

        Args:
            theta0 (ndarray): the guess, N x dof (dof the number of optimised
                joints) or flattened to N*dof entries.  Its ends are replaced
                by the fixed q0 and qf, and it is clipped to the joint limits.

        Returns:
            dict: 'success' (True when the result keeps dsafe from the
            obstacles and meets the constraints within cnt_tolerance), 'sol'
            (the N x dof trajectory) and 'cost' (its trajectory cost).
        """
        cfg = self.config
        saved = self.robot.robot.getConfig()
        try:
            theta = self._start(theta0)
            self.N = theta.shape[0]
            mu, tr_size = float(cfg.merit_error_coeff), float(cfg.trust_box_size)
            taup, taum = cfg.taus
            collisions = self.find_collision_pair(theta, cfg.dcheck)
            costs = self.compute_costs(theta, *collisions, cfg.dsafe)
            success = False
            for _ in range(cfg.max_merit_coeff_increase):
                for _ in range(cfg.max_iter):
                    self.logs.append(collisions)
                    if cfg.verbose:
                        print("subproblem with %d point and %d sweep collisions" % tuple(map(len, collisions)))
                    self.build_qp(collisions[0], collisions[1], theta, mu, cfg.dsafe)
                    merit0 = costs[0] + mu * costs[1]
                    converged = True
                    while tr_size >= cfg.min_trust_box_size:
                        try:
                            model, new_theta = self.solve_qp_with_tr_size(tr_size)
                        except QPException as e:
                            if cfg.verbose:
                                print(e)
                            return {"success": False, "sol": theta, "cost": np.inf}
                        approx = merit0 - model
                        if approx < cfg.min_approx_improve or approx < cfg.min_approx_improve_frac * abs(merit0):
                            break
                        new_collisions = self.find_collision_pair(new_theta, cfg.dcheck)
                        new_costs = self.compute_costs(new_theta, *new_collisions, cfg.dsafe)
                        exact = merit0 - (new_costs[0] + mu * new_costs[1])
                        if cfg.verbose:
                            print("mu %g trust region %.3g merit %.5g predicted %.5g actual %.5g"
                                  % (mu, tr_size, merit0, merit0 - approx, merit0 - exact))
                        if exact / approx < cfg.improve_ratio_threshold:
                            tr_size *= taum
                        else:
                            theta, collisions, costs = new_theta, new_collisions, new_costs
                            tr_size *= taup
                            converged = False
                            break
                    if converged:
                        break
                if (self.collision_satisfy(collisions[0], collisions[1], cfg.cnt_tolerance, cfg.dsafe)
                        and self.constrs_satisfy(theta, cfg.cnt_tolerance)):
                    success = True
                    break
                mu *= cfg.merit_coeff_increase_ratio
                tr_size = max(tr_size, cfg.min_trust_box_size / taum * 1.5)
            return {"success": success, "sol": theta, "cost": costs[0]}
        finally:
            self.robot.robot.setConfig(saved)

    def _indexes(self, idx):
        """The trajectory points of a constraint index (None: all), skipping fixed ends."""
        if idx is None:
            points = range(self.N)
        elif -self.N <= idx < self.N:
            points = [idx % self.N]
        else:
            raise IndexError("constraint index %d is outside a trajectory of %d points" % (idx, self.N))
        return [i for i in points if not (i == 0 and self.fixedq0) and not (i == self.N - 1 and self.fixedqf)]

    def _constraint_values(self, thetas, constraints, grad_level):
        for idx, con in constraints:
            for i in self._indexes(idx):
                out = con.compute(thetas[i], grad_level=grad_level)
                yield (i, np.atleast_1d(out[0]).astype(float)) + tuple(np.atleast_2d(j) for j in out[1:])

    def _trajectory_cost(self, thetas):
        if self.losses is None:
            return float(np.sum(np.diff(thetas, axis=0) ** 2))
        return float(sum(l.compute(thetas.ravel(), 0)[0] for l in self.losses))

    def compute_costs(self, thetas, point_collisions, sweep_collisions, d_safe):
        """The trajectory cost and the total violation (collision distances
        short of d_safe, equality residuals' L1 norm, positive inequality
        values) of a trajectory, as (cost, violation)."""
        self.N = thetas.shape[0]
        closs = sum(max(0.0, d_safe - c.distance) for c in list(point_collisions) + list(sweep_collisions))
        closs += sum(np.sum(np.abs(v)) for _, v in self._constraint_values(thetas, self.constrs.eqs, 0))
        closs += sum(np.sum(np.maximum(0.0, v)) for _, v in self._constraint_values(thetas, self.constrs.ineqs, 0))
        loss = self._trajectory_cost(thetas)
        if self.config.verbose:
            print("trajectory cost %.5g, violation %.5g" % (loss, closs))
        return loss, float(closs)

    def collision_satisfy(self, point_collisions, sweep_collisions, ctol, dsafe):
        """Whether every collision pair keeps at least dsafe - ctol."""
        return all(c.distance >= dsafe - ctol for c in list(point_collisions) + list(sweep_collisions))

    def constrs_satisfy(self, thetas, ctol):
        """Whether a trajectory meets its equality and inequality constraints within ctol."""
        self.N = thetas.shape[0]
        if any(np.any(np.abs(v) > ctol) for _, v in self._constraint_values(thetas, self.constrs.eqs, 0)):
            return False
        return not any(np.any(v > ctol) for _, v in self._constraint_values(thetas, self.constrs.ineqs, 0))

    def solve_qp_with_tr_size(self, tr_size):
        """Solves the subproblem built by :meth:`build_qp` with a trust
        region of tr_size; returns (model merit, N x dof trajectory).
        Raises QPException when the solver fails."""
        prob, trsize, x = self.cp_cache
        trsize.value = tr_size
        try:
            prob.solve(**self.config.cvxpy_args)
        except cp.error.SolverError as e:
            raise QPException("the convex subproblem failed: %s" % e)
        if x.value is None or prob.status not in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE):
            raise QPException("the convex subproblem is %s" % prob.status)
        theta = x.value.reshape((-1, self.dimq))
        # exact ends and limits, which the solver meets only to its tolerance
        if self.fixedq0:
            theta[0] = self.q0
        if self.fixedqf:
            theta[-1] = self.qf
        if self.config.limit_joint and self.config.joint_limits_by_bound:
            theta = np.clip(theta, self.qmin, self.qmax)
        return prob.value, theta

    def _rows(self, i, jac):
        """Jacobian rows of point i placed in the flattened trajectory's columns."""
        A = np.zeros((jac.shape[0], self.N * self.dimq))
        A[:, i * self.dimq:(i + 1) * self.dimq] = jac
        return A

    def build_qp(self, point_collisions, sweep_collisions, theta0, mu, d_safe):
        """Builds the convex subproblem at trajectory theta0 with penalty mu:
        the trajectory cost (or the losses to second order), the linearised
        constraints and collision distances (short of d_safe) as L1
        penalties, the fixed ends, the joint bounds and a trust region
        (a cvxpy parameter) on every joint's change."""
        N, d = theta0.shape
        self.N = N
        x0 = theta0.ravel()
        x = cp.Variable(N * d, name="trajectory")
        dx = x - x0
        trsize = cp.Parameter(nonneg=True, name="trust_region_size")
        if self.losses is None:
            loss = cp.sum_squares(x[d:] - x[:-d])
        else:
            loss = 0
            for l in self.losses:
                f, g, H = l.compute(x0, 2)
                H = 0.5 * (np.asarray(H, dtype=float) + np.asarray(H, dtype=float).T)
                w, V = np.linalg.eigh(H)
                sqrtH = (V * np.sqrt(np.maximum(w, 0.0))).T
                loss = loss + f + np.asarray(g, dtype=float).ravel() @ dx + 0.5 * cp.sum_squares(sqrtH @ dx)
        cons = [cp.abs(dx) <= trsize]
        if self.fixedq0:
            cons.append(x[:d] == self.q0)
        if self.fixedqf:
            cons.append(x[(N - 1) * d:] == self.qf)
        if self.config.limit_joint and self.config.joint_limits_by_bound:
            cons += [x >= np.tile(self.qmin, N), x <= np.tile(self.qmax, N)]
        for constraints, penalty in ((self.constrs.eqs, cp.abs), (self.constrs.ineqs, cp.pos)):
            rows = [(v, self._rows(i, jac)) for i, v, jac in self._constraint_values(theta0, constraints, 1)]
            if rows:
                val = np.concatenate([v for v, _ in rows])
                A = np.vstack([a for _, a in rows])
                loss = loss + mu * cp.sum(penalty(val + A @ dx))
        # distance(x) ~ distance + normal . (J dq): penalise d_safe - that when positive
        rows, dists = [], []
        for c in point_collisions:
            rows.append(self._rows(c.qid, c.normal.dot(c.jacobian[:3])[None, :])[0])
            dists.append(c.distance)
        for c in sweep_collisions:
            row = c.alpha * self._rows(c.qid1, c.normal.dot(c.jacobian1[:3])[None, :])[0]
            row += (1 - c.alpha) * self._rows(c.qid1 + 1, c.normal.dot(c.jacobian2[:3])[None, :])[0]
            rows.append(row)
            dists.append(c.distance)
        if rows:
            loss = loss + mu * cp.sum(cp.pos(d_safe - np.array(dists) - np.vstack(rows) @ dx))
        self.cp_cache = (cp.Problem(cp.Minimize(loss), cons), trsize, x)

    def create_geometry_cache(self, robot, link_index, geom_index):
        """Makes the convex hulls of the considered links (two copies each,
        for the two ends of a sweep), of the mounted geometries and of the
        obstacles: ``geom_cache['link']`` holds (hull, hull copy, link index,
        first optimised ancestor), ``geom_cache['mount']`` (link index,
        relative transform, hull, hull copy), ``geom_cache['obs']`` hulls."""
        active = set(int(i) for i in link_index)

        def moving_ancestor(i):
            while i != -1 and i not in active:
                i = robot.link(i).getParent()
            return i

        if geom_index is None:
            geom_index = [i for i in range(robot.numLinks())
                          if not robot.link(i).geometry().empty() and moving_ancestor(i) != -1]
        self.geom_cache = {"link": [], "mount": [], "obs": []}
        for geom_idx in geom_index:
            geom_idx = int(geom_idx)
            if not 0 <= geom_idx < robot.numLinks():
                raise ValueError("geom_index %d is not a link of the robot" % geom_idx)
            geom = robot.link(geom_idx).geometry()
            if geom.empty():
                raise ValueError("link %d has no geometry" % geom_idx)
            self.geom_cache["link"].append((geom.convert("ConvexHull", 0), geom.convert("ConvexHull", 0),
                                            geom_idx, moving_ancestor(geom_idx)))
        for link_idx, relT, geom in self.mounted:
            if not isinstance(geom, Geometry3D) or geom.empty():
                raise ValueError("a mounted geometry has to be a nonempty Geometry3D")
            hull = geom if geom.type() == "ConvexHull" else geom.convert("ConvexHull", 0)
            self.geom_cache["mount"].append((int(link_idx), relT, hull.copy(), hull.copy()))
        for i in range(len(self.world)):
            self.geom_cache["obs"].append(self.world.terrain(i).geometry().convert("ConvexHull", 0))
        boxes = [obs.getBB() for obs in self.geom_cache["obs"]]
        self._obs_lo = np.array([b[0] for b in boxes]).reshape((-1, 3))
        self._obs_hi = np.array([b[1] for b in boxes]).reshape((-1, 3))

    def distance_with_one_link(self, q, geom_order):
        """The distances of the geom_order'th considered link's hull, at
        configuration q, to each obstacle."""
        self.robot.setConfig(q)
        hull, _, geom_idx, _ = self.geom_cache["link"][geom_order]
        hull.setCurrentTransform(*self.robot.link(geom_idx).getTransform())
        return [hull.distance(obs).d for obs in self.geom_cache["obs"]]

    def all_linkgeom_transforms(self, thetas):
        """The transforms, at each configuration of thetas, of the considered
        links and of the mounted geometries, as two lists (one entry per
        configuration) of lists of (R, t)."""
        trans, mtrans = [], []
        for q in thetas:
            self.robot.setConfig(q)
            trans.append([self.robot.link(g).getTransform() for _, _, g, _ in self.geom_cache["link"]])
            mtrans.append([se3.mul(self.robot.link(l).getTransform(), relT)
                           for l, relT, _, _ in self.geom_cache["mount"]])
        return trans, mtrans

    def find_collision_pair(self, thetas, dcheck):
        """The hull-obstacle pairs closer than dcheck along trajectory
        thetas, as (list of JointObjectInfo, list of SweepJointObjectInfo):
        at each point (but fixed ends) and swept between consecutive points."""
        thetas = np.asarray(thetas, dtype=float)
        n = thetas.shape[0]
        link_trans, mount_trans = self.all_linkgeom_transforms(thetas)
        setting = DistanceQuerySettings()
        setting.upperBound = dcheck
        bodies = [(hull, copy, g, g, [t[k] for t in link_trans])
                  for k, (hull, copy, g, _) in enumerate(self.geom_cache["link"])]
        bodies += [(hull, copy, link, -1 - k, [t[k] for t in mount_trans])
                   for k, (link, _, hull, copy) in enumerate(self.geom_cache["mount"])]
        first = 1 if self.fixedq0 else 0
        last = n - 1 if self.fixedqf else n
        points, sweeps = [], []
        for hull, copy, link, label, poses in bodies:
            # a pose's hull lies in the swept hulls of its segments: only
            # obstacles near those need the point query
            near_segment = []
            for i in range(n - 1):
                hull.setCurrentTransform(*poses[i])
                copy.setCurrentTransform(*poses[i + 1])
                swept = Geometry3D()
                swept.setConvexHullGroup(hull, copy)
                near = self._near_obstacles(swept, dcheck)
                near_segment.append(set(near))
                if not self.compute_sweep_collision:
                    continue
                for k in near:
                    rst = swept.distance_ext(self.geom_cache["obs"][k], setting)
                    normal = _normal(rst) if rst.d < dcheck else None
                    if normal is not None:
                        oj = int(self.world.index[k])
                        sweeps.append(self._sweep_info(link, label, oj, hull, copy, thetas, i, rst, normal))
            if not self.compute_point_collision:
                continue
            for i in range(first, last):
                near = near_segment[i - 1] if i > 0 else set()
                near = near | near_segment[i] if i < n - 1 else near
                if not near:
                    continue
                hull.setCurrentTransform(*poses[i])
                for k in sorted(near):
                    rst = hull.distance_ext(self.geom_cache["obs"][k], setting)
                    normal = _normal(rst) if rst.d < dcheck else None
                    if normal is not None:
                        self.robot.setConfig(thetas[i])
                        local = self.robot.link(link).getLocalPosition(list(rst.cp1))
                        jac = self.robot.positionJacobian(link, lcl_pos=local)
                        points.append(JointObjectInfo(label, int(self.world.index[k]), thetas[i].copy(), i, jac,
                                                      normal, rst.d))
        return points, sweeps

    def _near_obstacles(self, geom, dcheck):
        """The indices of the obstacles whose bounding boxes are within
        dcheck of geom's."""
        lo, hi = (np.array(v) for v in geom.getBB())
        gap = np.maximum(np.maximum(self._obs_lo - hi, lo - self._obs_hi), 0.0)
        return np.nonzero(np.linalg.norm(gap, axis=1) < dcheck)[0].tolist()

    def _sweep_info(self, link, label, oj, hull, copy, thetas, i, rst, normal):
        """The linearisation of a swept hull's distance: the support points
        toward the obstacle in both poses, weighted by their nearness to the
        swept closest point."""
        pswept = np.array(rst.cp1, dtype=float)
        p0 = np.array(hull.support((-normal).tolist()))
        p1 = np.array(copy.support((-normal).tolist()))
        d0, d1 = np.linalg.norm(p0 - pswept), np.linalg.norm(p1 - pswept)
        alpha = d1 / (d0 + d1) if d0 + d1 > 1e-12 else 0.5
        jacs = []
        for q, p in ((thetas[i], p0), (thetas[i + 1], p1)):
            self.robot.setConfig(q)
            jacs.append(self.robot.positionJacobian(link, lcl_pos=self.robot.link(link).getLocalPosition(p.tolist())))
        info = SweepJointObjectInfo(label, oj, thetas[i].copy(), thetas[i + 1].copy(), i, alpha, jacs[0], jacs[1],
                                    normal, rst.d)
        info.point1, info.point2, info.pswept, info.pobs = p0, p1, pswept, np.array(rst.cp2, dtype=float)
        return info
