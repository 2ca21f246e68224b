"""The klampt COMPAS FAB backend against COMPAS FAB's own PyBullet backend, in the same run.

For each library cell: set_robot_cell, forward kinematics (ROBOT mode, state set
and frame read), check_collision (first hit) on random states, and IK on
reachable FrameTargets (the FK of random configurations, no collision check,
max_results 20) at tolerances of 1e-5 m / 1e-4 rad and at PyBullet's default
1e-3 m / 1e-3 rad; a result counts as solved when compas_robots' own FK of it
is within the tolerances. Then ur5
plan_cartesian_motion (two segments of FrameWaypoints; one of PointAxisWaypoints,
which PyBullet plans depth first too), and plan_motion between random free
states (the cone of ur5_cone_tool carried, hidden, or the bare ur5) with the same
planner, queries and seeds on three C-spaces: one of Python callbacks, the native
robot C-space with the carried tools and bodies tested by a Python test, and the
native robot C-space holding them as links of the planning robot (what
plan_motion uses). PyBullet 2.0.1 has no plan_motion. Times are medians.

    python benchmarks/bench_compas_fab.py [--cells ur5,panda] [--targets 20]
"""
import argparse
import math
import random
import statistics
import time

from benchcommon import median_us
from compas.geometry import Frame, Transformation
from compas_fab.backends import (
    CollisionCheckError,
    InverseKinematicsError,
    MPNoPlanFoundError,
    MPSearchTimeOutError,
    PyBulletClient,
    PyBulletPlanner,
)
from compas_fab.robots import (
    ConfigurationTarget,
    FrameTarget,
    FrameWaypoints,
    PointAxisWaypoints,
    RobotCellLibrary,
    TargetMode,
)

from klampt.compas_fab import KlamptClient, KlamptPlanner
from klampt.compas_fab.backend_features.klampt_plan_motion import _GroupCSpace
from klampt.math import se3
from klampt.plan.cspace import CSpace

#: IK target tolerances (m, rad): the tests' and PyBullet's defaults.
IK_TOLERANCES = {"ik_tight": (1e-5, 1e-4), "ik_loose": (1e-3, 1e-3)}

CELLS = ["ur5", "ur10e_gripper_one_beam", "abb_irb4600_40_255_gripper_one_beam", "panda", "rfl"]


def random_state(cell, state):
    s = state.copy()
    cfg = cell.random_configuration()
    s.robot_configuration = s.robot_configuration.merged(cfg)
    return s


def within(frame, target, tol_pos, tol_ori):
    if math.dist(list(frame.point), list(target.point)) > tol_pos:
        return False
    m = (Transformation.from_frame(frame).inverse() * Transformation.from_frame(target)).matrix
    return math.acos(max(-1.0, min(1.0, (m[0][0] + m[1][1] + m[2][2] - 1) / 2))) <= tol_ori


def measure_cell(name, planners, n_targets, n_states):
    cell, state = getattr(RobotCellLibrary, name)()
    random.seed(1)
    states = [random_state(cell, state) for _ in range(n_states)]
    random.seed(2)
    goals = [random_state(cell, state) for _ in range(n_targets)]
    targets = [cell.forward_kinematics_target_frame(g, TargetMode.ROBOT) for g in goals]
    row = {}
    for label, planner in planners.items():
        t0 = time.perf_counter()
        planner.set_robot_cell(cell, state)
        build = time.perf_counter() - t0
        env = {"planner": planner, "state": states[0], "mode": TargetMode.ROBOT}
        fk = median_us("planner.forward_kinematics(state, mode)", env=env)
        err = 0.0
        for s in states[:20]:
            got = planner.forward_kinematics(s, TargetMode.ROBOT)
            ref = cell.forward_kinematics_target_frame(s, TargetMode.ROBOT)
            err = max(err, math.dist(list(got.point), list(ref.point)))
        cc_times, hits = [], 0
        for s in states:
            t0 = time.perf_counter()
            try:
                planner.check_collision(s)
            except CollisionCheckError:
                hits += 1
            cc_times.append(time.perf_counter() - t0)
        row[label] = {"build_ms": build * 1e3, "fk_us": fk, "fk_err": err, "cc_us": statistics.median(cc_times) * 1e6,
                      "collisions": hits}
        for key, (tol_pos, tol_ori) in IK_TOLERANCES.items():
            ik_times, solved = [], 0
            for frame in targets:
                target = FrameTarget(frame, TargetMode.ROBOT, tolerance_position=tol_pos, tolerance_orientation=tol_ori)
                t0 = time.perf_counter()
                try:
                    cfg = planner.inverse_kinematics(target, state, options={"check_collision": False, "max_results": 20})
                except InverseKinematicsError:
                    cfg = None
                ik_times.append(time.perf_counter() - t0)
                if cfg is not None:
                    result = state.copy()
                    result.robot_configuration = result.robot_configuration.merged(cfg)
                    solved += within(cell.forward_kinematics_target_frame(result, TargetMode.ROBOT), frame, tol_pos, tol_ori)
            row[label][key] = (statistics.median(ik_times) * 1e3, solved)
    return row


def measure_cartesian(planners):
    cell, state = RobotCellLibrary.ur5()
    start = state.copy()
    for n, v in zip(cell.get_configurable_joint_names(), [0, -1.2, 1.5, -1.9, -1.57, 0]):
        start.robot_configuration[n] = v
    f0 = cell.forward_kinematics_target_frame(start, TargetMode.ROBOT)
    waypoints = [Frame(f0.point + [0, 0.1, -0.1], f0.xaxis, f0.yaxis), Frame(f0.point + [0.1, 0.1, -0.1], f0.xaxis, f0.yaxis)]
    row = {}
    for label, planner in planners.items():
        planner.set_robot_cell(cell, start)
        times, points = [], 0
        for _ in range(5):
            t0 = time.perf_counter()
            trajectory = planner.plan_cartesian_motion(FrameWaypoints(waypoints, TargetMode.ROBOT), start)
            times.append(time.perf_counter() - t0)
            points = len(trajectory.points)
        row[label] = {"ms": statistics.median(times) * 1e3, "points": points}
    return row


def moving_keys(planner, state):
    """The keys of the tools and bodies that move with the robot at ``state``."""
    client = planner.client
    moving = {obj.index for obj, _, _ in planner._attached_offsets(state)}
    keys = {("tool", t) for t, parts in client.tool_parts.items() if any(p.obj.index in moving for p in parts)}
    return keys | {("body", b) for b, objs in client.rigid_body_objects.items() if any(o.index in moving for o in objs)}


def place_carried(robot, carried, q):
    """Sets ``robot`` to ``q`` and moves the ``(object, link, T_link_object)`` carried objects with it."""
    robot.setConfig(q)
    for obj, link, T in carried:
        obj.setTransform(*se3.mul(link.getTransform(), T))


class PythonGroupSpace(CSpace):
    """The first baseline: the group's C-space with a feasibility test written in Python (set the robot, move the
    carried objects, test every pair), as plan_motion planned before it ran on the native robot C-space."""

    def __init__(self, native, planner, state):
        CSpace.__init__(self)
        self.native = native
        self.setBounds(native.bound)
        self.eps = native.eps
        self.carried = planner._attached_offsets(state)
        moving = moving_keys(planner, state)
        self.pairs = [(a, b) for a, b, ka, kb in planner._collision_geometry_pairs(state)
                      if ka[0] == "link" or kb[0] == "link" or ka in moving or kb in moving]

    def feasible(self, x):
        if not CSpace.feasible(self, x):
            return False
        place_carried(self.native.robot, self.carried, self.native.lift(x))
        return not any(a.collides(b) for a, b in self.pairs)


class CarriedInPythonSpace(_GroupCSpace):
    """The second baseline: the native robot C-space for the links, and the carried tools and bodies moved and
    tested by one Python test, as plan_motion planned before they became links of the planning robot."""

    def __init__(self, planner, state, dofs, q0, resolution):
        client = planner.client
        world, robot, _ = client._carrying_robot([])
        moving = moving_keys(planner, state)
        object_pairs, self.pairs = [], []
        for c in planner._cell_checks(state):
            if c.skip:
                continue
            if c.key_a[0] == "link" and c.key_b not in moving:
                link = client.link_index[c.key_a[1]]
                object_pairs += [(link, "object", obj.index, -1) for obj in planner._objects_of(c.key_b)]
            elif c.key_a[0] == "link" or c.key_a in moving or c.key_b in moving:
                self.pairs += [gp for _, gps in c.tests for gp in gps]
        _GroupCSpace.__init__(self, client.robot, robot, dofs, q0, client.mimic, object_pairs, None, resolution)
        self.planning_world = world
        self.carried = planner._attached_offsets(state)

    def _carried_test(self, x):
        place_carried(self.robot, self.carried, self.lift(x))
        return not any(a.collides(b) for a, b in self.pairs)

    def _make_native(self):
        native = _GroupCSpace._make_native(self)
        if self.pairs:
            native.addFeasibilityTest("carried objects", self._carried_test)
        return native


class PythonSpacePlanner(KlamptPlanner):
    """KlamptPlanner planning on :class:`PythonGroupSpace`."""

    def _group_space(self, state, dofs, q0, path_constraints, resolution, check):
        return PythonGroupSpace(KlamptPlanner._group_space(self, state, dofs, q0, path_constraints, resolution, check),
                                self, state)


class CarriedInPythonPlanner(KlamptPlanner):
    """KlamptPlanner planning on :class:`CarriedInPythonSpace`."""

    def _group_space(self, state, dofs, q0, path_constraints, resolution, check):
        return CarriedInPythonSpace(self, state, dofs, q0, resolution)


def measure_point_axes(planners):
    cell, state = RobotCellLibrary.ur5_cone_tool()
    start = state.copy()
    for n, v in zip(cell.get_configurable_joint_names(), [0, -1.2, 1.5, -1.9, -1.57, 0]):
        start.robot_configuration[n] = v
    t0 = cell.forward_kinematics_target_frame(start, TargetMode.TOOL)
    waypoints = PointAxisWaypoints([(list(t0.point + [0.1, 0.1, 0]), list(t0.zaxis))], TargetMode.TOOL)
    row = {}
    for label, planner in planners.items():
        planner.set_robot_cell(cell, start)
        times, points = [], 0
        for _ in range(3):
            t = time.perf_counter()
            trajectory = planner.plan_cartesian_motion(waypoints, start)
            times.append(time.perf_counter() - t)
            points = len(trajectory.points)
        row[label] = {"ms": statistics.median(times) * 1e3, "points": points}
    return row


#: plan_motion scenes: (cell, whether the cone is hidden).
MOTION_SCENES = {"carried": ("ur5_cone_tool", False), "hidden": ("ur5_cone_tool", True), "none": ("ur5", False)}


def measure_plan_motion(planner, queries, scene):
    """plan_motion between random free states: ur5_cone_tool with the cone carried or hidden, or the bare ur5."""
    name, hide_cone = MOTION_SCENES[scene]
    cell, state = getattr(RobotCellLibrary, name)()
    if hide_cone:
        state.tool_states["cone"].is_hidden = True
    planner.set_robot_cell(cell, state)
    rng = random.Random(1)
    names = cell.get_configurable_joint_names()

    def free_state():
        while True:
            s = state.copy()
            for n in names:
                s.robot_configuration[n] = rng.uniform(-math.pi, math.pi)
            try:
                planner.check_collision(s)
                return s
            except CollisionCheckError:
                pass
    pairs = [(free_state(), free_state()) for _ in range(queries)]
    times, solved = [], 0
    for k, (a, b) in enumerate(pairs):
        t0 = time.perf_counter()
        try:
            planner.plan_motion(ConfigurationTarget(b.robot_configuration), a, options={"seed": k, "time_step": 0})
            solved += 1
        except (MPSearchTimeOutError, MPNoPlanFoundError):
            pass
        times.append(time.perf_counter() - t0)
    return {"median_s": statistics.median(times), "mean_s": statistics.mean(times), "solved": solved, "queries": queries}


def pybullet_plan_motion(planner):
    """What PyBullet's plan_motion does on ur5_cone_tool: the name of the error it raises, or "plans"."""
    cell, state = RobotCellLibrary.ur5_cone_tool()
    planner.set_robot_cell(cell, state)
    try:
        planner.plan_motion(ConfigurationTarget(state.robot_configuration), state)
        return "plans"
    except Exception as e:
        return type(e).__name__


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cells", default=",".join(CELLS))
    ap.add_argument("--targets", type=int, default=20, help="IK targets per cell")
    ap.add_argument("--states", type=int, default=50, help="random states per cell for FK and collision")
    ap.add_argument("--queries", type=int, default=10, help="plan_motion queries")
    args = ap.parse_args()
    with KlamptClient() as kc, PyBulletClient(connection_type="direct") as pc:
        planners = {"klampt": KlamptPlanner(kc), "pybullet": PyBulletPlanner(pc)}
        print("%-36s %-8s %9s %8s %8s %10s %5s %18s %18s" % (
            "cell", "backend", "set_cell", "FK", "FK err", "collision", "hits", "IK 1e-5m/1e-4rad", "IK 1e-3m/1e-3rad"))
        for name in args.cells.split(","):
            row = measure_cell(name, planners, args.targets, args.states)
            for label, r in row.items():
                print("%-36s %-8s %7.0fms %6.3fms %8.1e %8.3fms %5d %9.2fms %3d/%-3d %9.2fms %3d/%-3d" % (
                    name, label, r["build_ms"], r["fk_us"] / 1e3, r["fk_err"], r["cc_us"] / 1e3, r["collisions"],
                    r["ik_tight"][0], r["ik_tight"][1], args.targets, r["ik_loose"][0], r["ik_loose"][1], args.targets))
            k, p = row["klampt"], row["pybullet"]
            print("%-36s %-8s %8.1fx %7.1fx %8s %9.1fx %5s %10.1fx %7s %10.1fx" % (
                "", "speed-up", p["build_ms"] / k["build_ms"], p["fk_us"] / k["fk_us"], "", p["cc_us"] / k["cc_us"], "",
                p["ik_tight"][0] / k["ik_tight"][0], "", p["ik_loose"][0] / k["ik_loose"][0]))
        cart = measure_cartesian(planners)
        print("\nur5 plan_cartesian_motion (2 segments): klampt %.1f ms (%d points), pybullet %.1f ms (%d points), %.1fx" % (
            cart["klampt"]["ms"], cart["klampt"]["points"], cart["pybullet"]["ms"], cart["pybullet"]["points"],
            cart["pybullet"]["ms"] / cart["klampt"]["ms"]))
        pa = measure_point_axes(planners)
        print("ur5_cone_tool plan_cartesian_motion (PointAxisWaypoints, depth first): klampt %.1f ms (%d points), "
              "pybullet %.1f ms (%d points), %.1fx" % (pa["klampt"]["ms"], pa["klampt"]["points"], pa["pybullet"]["ms"],
                                                       pa["pybullet"]["points"], pa["pybullet"]["ms"] / pa["klampt"]["ms"]))
        print("plan_motion, random free-to-free, %d queries (pybullet: %s):" % (
            args.queries, pybullet_plan_motion(planners["pybullet"])))
        with KlamptClient() as bc, KlamptClient() as cc:
            baselines = (("Python-callback C-space", PythonSpacePlanner(bc)),
                         ("native, carried objects in Python", CarriedInPythonPlanner(cc)),
                         ("native, carried objects as links", planners["klampt"]))
            for scene, what in (("carried", "ur5_cone_tool, the cone carried"), ("hidden", "ur5_cone_tool, the cone hidden"),
                                ("none", "ur5, no tool or body")):
                print("  %s:" % what)
                results = [(label, measure_plan_motion(planner, args.queries, scene)) for label, planner in baselines]
                for label, pm in results:
                    print("    %-34s median %.3f s, mean %.3f s, %d/%d solved, speed-up %.1fx (median) %.1fx (mean)" % (
                        label, pm["median_s"], pm["mean_s"], pm["solved"], pm["queries"],
                        results[0][1]["median_s"] / pm["median_s"], results[0][1]["mean_s"] / pm["mean_s"]))


if __name__ == "__main__":
    main()
