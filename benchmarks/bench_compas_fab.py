"""The klampt COMPAS FAB backend against COMPAS FAB's own PyBullet backend, in the same run.

For each library cell: set_robot_cell, forward kinematics (ROBOT mode, state set
and frame read), check_collision (first hit) on random states, and IK on
reachable FrameTargets (the FK of random configurations, no collision check,
max_results 20) at tolerances of 1e-5 m / 1e-4 rad and at PyBullet's default
1e-3 m / 1e-3 rad; a result counts as solved when compas_robots' own FK of it
is within the tolerances. Then ur5
plan_cartesian_motion (two segments of FrameWaypoints; one of PointAxisWaypoints,
which PyBullet plans depth first too), and plan_motion on ur5_cone_tool between
random free states on the native robot C-space against the same planner on a
C-space of Python callbacks (what plan_motion used before), same queries and
seeds (PyBullet 2.0.1 has no plan_motion). Times are medians.

    python benchmarks/bench_compas_fab.py [--cells ur5,panda] [--targets 20]
"""
import argparse
import math
import random
import statistics
import time

from benchcommon import median_us
from compas.geometry import Frame, Transformation
from compas_fab.backends import CollisionCheckError, InverseKinematicsError, PyBulletClient, PyBulletPlanner
from compas_fab.robots import (
    ConfigurationTarget,
    FrameTarget,
    FrameWaypoints,
    PointAxisWaypoints,
    RobotCellLibrary,
    TargetMode,
)

from klampt.compas_fab import KlamptClient, KlamptPlanner
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


class PythonGroupSpace(CSpace):
    """The baseline: the group's C-space with a feasibility test written in Python (set the robot, move the
    carried objects, test every pair), as plan_motion planned before it ran on the native robot C-space."""

    def __init__(self, native):
        CSpace.__init__(self)
        self.native = native
        self.setBounds(native.bound)
        self.eps = native.eps

    def feasible(self, x):
        if not CSpace.feasible(self, x):
            return False
        n = self.native
        n.robot.setConfig(n.lift(x))
        for obj, link, T in n.carried:
            obj.setTransform(*se3.mul(link.getTransform(), T))
        return not any(a.collides(b) for a, b in self.pairs)


class PythonSpacePlanner(KlamptPlanner):
    """KlamptPlanner planning on :class:`PythonGroupSpace`."""

    def _group_space(self, state, dofs, q0, path_constraints, resolution, check):
        native = KlamptPlanner._group_space(self, state, dofs, q0, path_constraints, resolution, check)
        space = PythonGroupSpace(native)
        moving = self._moving_keys(state)
        space.pairs = [(a, b) for a, b, ka, kb in self._collision_geometry_pairs(state)
                       if ka[0] == "link" or kb[0] == "link" or ka in moving or kb in moving]
        return space


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


def measure_plan_motion(planner, queries, carry_tool=True):
    """plan_motion between random free states of ur5_cone_tool, with the cone carried or hidden."""
    cell, state = RobotCellLibrary.ur5_cone_tool()
    state.tool_states["cone"].is_hidden = not carry_tool
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
        except Exception:
            pass
        times.append(time.perf_counter() - t0)
    return {"median_s": statistics.median(times), "mean_s": statistics.mean(times), "solved": solved, "queries": queries}


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
        print("ur5_cone_tool plan_motion, random free-to-free (pybullet: not supported):")
        with KlamptClient() as bc:
            baseline = PythonSpacePlanner(bc)
            for carry in (True, False):
                native = measure_plan_motion(planners["klampt"], args.queries, carry)
                python = measure_plan_motion(baseline, args.queries, carry)
                print("  the cone %s:" % ("carried (tested in Python)" if carry else "hidden (every test native)"))
                for label, pm in (("Python-callback C-space (before)", python), ("native robot C-space", native)):
                    print("    %-34s median %.3f s, mean %.3f s, %d/%d solved" % (
                        label, pm["median_s"], pm["mean_s"], pm["solved"], pm["queries"]))
                print("    speed-up: %.1fx (median), %.1fx (mean)" % (python["median_s"] / native["median_s"],
                                                                     python["mean_s"] / native["mean_s"]))


if __name__ == "__main__":
    main()
