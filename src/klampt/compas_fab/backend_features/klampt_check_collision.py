"""``check_collision``: COMPAS FAB's five collision-check stages on exact triangle meshes."""

from typing import NamedTuple, Optional

from compas_fab.backends import CollisionCheckError
from compas_fab.backends.interfaces import CheckCollision
from compas_fab.robots import RobotCellState

from ...robotsim import Geometry3D
from ._options import check_options

__all__ = ["KlamptCheckCollision"]

#: Above this many CC.1 pairs a bounding-sphere test prunes them first (below, it costs more than it saves).
BROAD_PHASE_PAIRS = 100


class _CellCheck(NamedTuple):
    """One pair of cell items to check: skipped with a reason, or tested.

    ``tests`` are ``(info, geometry_pairs)``: each collides when any of its
    geometry pairs does, and is reported under its own info line.
    """
    info: str
    skip: Optional[str]
    key_a: tuple
    key_b: tuple
    models: tuple
    tests: list


class KlamptCheckCollision(CheckCollision):
    """Mixin: ``check_collision`` for the klampt backend."""

    def check_collision(self, robot_cell_state: RobotCellState, options: Optional[dict] = None):
        """Checks the robot cell at ``robot_cell_state`` for collisions; raises on the first hit.

        The stages and the pairs they skip are those of COMPAS FAB's PyBullet
        backend:

        - CC.1 robot link <-> robot link, except the SRDF's disabled pairs;
        - CC.2 robot link <-> each visible tool, except the tool's ``touch_links``;
        - CC.3 robot link <-> each visible rigid body, except its ``touch_links``;
        - CC.4 each attached rigid body <-> every other visible body, except
          ``touch_bodies`` (either way round);
        - CC.5 each visible tool <-> each visible rigid body, except bodies
          attached to that tool or listing the tool in ``touch_bodies``.

        Geometry is compared as exact triangle meshes (surfaces): a mesh lying
        entirely inside another closed mesh does not collide. Links, tools and
        bodies without collision geometry never collide.

        Options:
            full_report (bool): check every pair and report all collisions
                (default False: raise on the first).
            verbose (bool): print every pair's outcome.
            margin (float): also report pairs closer than this distance (m).
            _skip_set_robot_cell_state (bool): the world is already posed.
            _skip_cc1 ... _skip_cc5 (bool): skip a stage.

        Raises:
            ValueError: an unknown option.
            CollisionCheckError: with one ``"CC.n between ... - COLLISION"``
                line per colliding pair and ``collision_pairs``, a list of
                tuples of the compas objects (``Link``, ``ToolModel``,
                ``RigidBody``).
        """
        options = check_options(options, ("full_report", "verbose", "margin"), "check_collision")
        verbose = options.get("verbose", False)
        full_report = options.get("full_report", False)
        margin = float(options.get("margin", 0.0) or 0.0)
        client = self.client
        robot_cell = client.robot_cell
        if not options.get("_skip_set_robot_cell_state", False):
            self.set_robot_cell_state(robot_cell_state)
        state = client.robot_cell_state
        model = robot_cell.robot_model

        if margin > 0:
            def hit(g1, g2):
                return g1.withinDistance(g2, margin)
        else:
            hit = Geometry3D.collides

        messages = []
        pairs = []

        def report(info, pair):
            if verbose:
                print(info + " - COLLISION")
            messages.append(info + " - COLLISION")
            pairs.append(pair)
            if not full_report:
                raise CollisionCheckError("\n".join(messages), pairs)

        def passed(info):
            if verbose:
                print(info + " - PASS")

        def skipped(info, why):
            if verbose:
                print(info + " - SKIPPED (" + why + ")")

        links = client.link_geometry

        # CC.1: robot link <-> robot link
        if not options.get("_skip_cc1", False):
            # the longest stage: messages are formatted only when needed and, on
            # robots with many links, pairs whose bounding spheres are apart are free
            pairs_to_test = client.self_collision_pairs
            if not verbose and len(pairs_to_test) > BROAD_PHASE_PAIRS:
                pairs_to_test = client._near_self_collision_pairs(margin)
            for a, b in pairs_to_test:
                if hit(links[a], links[b]):
                    report("CC.1 between robot link '{}' and robot link '{}'".format(a, b),
                           (model.get_link_by_name(a), model.get_link_by_name(b)))
                elif verbose:
                    passed("CC.1 between robot link '{}' and robot link '{}'".format(a, b))

        # CC.2 to CC.5: the cell's other pairs, with COMPAS FAB's skips
        skip_stages = {n for n in (2, 3, 4, 5) if options.get("_skip_cc%d" % n, False)}
        for check in self._cell_checks(state, skip_stages):
            if check.skip:
                skipped(check.info, check.skip)
                continue
            for info, geometry_pairs in check.tests:
                if any(hit(a, b) for a, b in geometry_pairs):
                    report(info, check.models)
                else:
                    passed(info)

        if messages:
            raise CollisionCheckError("\n".join(messages), pairs)

    def _cell_checks(self, state: RobotCellState, skip_stages=()):
        """The checks of stages CC.2 to CC.5 at ``state``, in COMPAS FAB's order, less ``skip_stages``.

        Pairs with a hidden side are left out, except where COMPAS FAB
        reports them as skipped (a hidden tool or body against a link in
        CC.2/CC.3, a hidden body in CC.5): those come with ``skip`` set.
        """
        client = self.client
        robot_cell = client.robot_cell
        model = robot_cell.robot_model
        tool_states, body_states = state.tool_states, state.rigid_body_states
        bodies = client.rigid_body_objects
        if 2 not in skip_stages:
            for link_name, geom in client.link_geometry.items():
                for tool_id, parts in client.tool_parts.items():
                    ts = tool_states[tool_id]
                    info = "CC.2 between robot link '{}' and tool '{}'".format(link_name, tool_id)
                    skip = "HIDDEN" if ts.is_hidden else (
                        "ALLOWED TOUCH LINK" if link_name in (ts.touch_links or ()) else None)
                    yield _CellCheck(info, skip, ("link", link_name), ("tool", tool_id),
                                     (model.get_link_by_name(link_name), robot_cell.tool_models[tool_id]),
                                     [(info, [(geom, p.obj.geometry()) for p in parts])])
        if 3 not in skip_stages:
            for link_name, geom in client.link_geometry.items():
                for body_id, objs in bodies.items():
                    bs = body_states[body_id]
                    info = "CC.3 between robot link '{}' and rigid body '{}'".format(link_name, body_id)
                    skip = "HIDDEN" if bs.is_hidden else (
                        "ALLOWED TOUCH LINK" if link_name in (bs.touch_links or ()) else None)
                    yield _CellCheck(info, skip, ("link", link_name), ("body", body_id),
                                     (model.get_link_by_name(link_name), robot_cell.rigid_body_models[body_id]),
                                     [(info + " (body_id '{}')".format(i), [(geom, o.geometry())])
                                      for i, o in enumerate(objs)])
        if 4 not in skip_stages:
            for body_id, objs in bodies.items():
                bs = body_states[body_id]
                if bs.is_hidden or not (bs.attached_to_tool or bs.attached_to_link):
                    continue
                for other_id, other_objs in bodies.items():
                    other = body_states[other_id]
                    if other_id == body_id or other.is_hidden:
                        continue
                    info = "CC.4 between attached rigid body '{}' and rigid body '{}'".format(body_id, other_id)
                    touching = body_id in (other.touch_bodies or ()) or other_id in (bs.touch_bodies or ())
                    yield _CellCheck(info, "ALLOWED TOUCH BODY" if touching else None, ("body", body_id),
                                     ("body", other_id),
                                     (robot_cell.rigid_body_models[body_id], robot_cell.rigid_body_models[other_id]),
                                     [(info, [(o.geometry(), p.geometry())]) for o in objs for p in other_objs])
        if 5 not in skip_stages:
            for tool_id, parts in client.tool_parts.items():
                if tool_states[tool_id].is_hidden:
                    continue
                for body_id, objs in bodies.items():
                    bs = body_states[body_id]
                    info = "CC.5 between tool '{}' and rigid body '{}'".format(tool_id, body_id)
                    skip = "RB HIDDEN" if bs.is_hidden else "RB ATTACHED TO TOOL" if bs.attached_to_tool == tool_id \
                        else "TOOL IS TOUCH BODY IN RB" if tool_id in (bs.touch_bodies or ()) else None
                    yield _CellCheck(info, skip, ("tool", tool_id), ("body", body_id),
                                     (robot_cell.tool_models[tool_id], robot_cell.rigid_body_models[body_id]),
                                     [(info + " (body_id '{}')".format(i), [(p.obj.geometry(), o.geometry()) for p in parts])
                                      for i, o in enumerate(objs)])

    def _collision_geometry_pairs(self, state: RobotCellState):
        """The geometry pairs :meth:`check_collision` tests at ``state`` (same skips), for fast boolean checks.

        Returns ``(geometry_a, geometry_b, key_a, key_b)`` tuples; a key is
        ``("link", name)``, ``("tool", id)`` or ``("body", id)``.
        """
        links = self.client.link_geometry
        pairs = [(links[a], links[b], ("link", a), ("link", b)) for a, b in self.client.self_collision_pairs]
        for check in self._cell_checks(state):
            if not check.skip:
                pairs += [(a, b, check.key_a, check.key_b) for _, geometry_pairs in check.tests for a, b in geometry_pairs]
        return pairs

    def check_collisions(self, robot_cell_state: RobotCellState, options: Optional[dict] = None):
        """Alias of :meth:`check_collision` (the name of ``PlannerInterface``'s default)."""
        return self.check_collision(robot_cell_state, options)

    def check_collision_for_attached_objects_in_planning_group(self, state: RobotCellState, group: str, planner_coordinate_frame, options=None):
        """Checks only the tool attached to ``group`` and the bodies on it against the stationary bodies
        (CC.4 and CC.5), with the group's end effector at ``planner_coordinate_frame`` (world frame).

        Used before planning, when the robot configuration at a target is not
        known yet. Raises ``CollisionCheckError``.
        """
        attached_tool_id = state.get_attached_tool_id(group)
        attached_workpiece_ids = state.get_attached_workpiece_ids(group)
        if not attached_tool_id and not attached_workpiece_ids:
            return
        state = state.copy()
        state.robot_configuration = None
        self.set_robot_cell_state(state)
        self.set_attached_tool_and_rigid_body_state(state, group, planner_coordinate_frame)
        for tool_id, tool_state in state.tool_states.items():
            if tool_state.attached_to_group is not None and tool_id != attached_tool_id:
                tool_state.is_hidden = True
        for body_id, body_state in state.rigid_body_states.items():
            if body_state.attached_to_link is not None:
                body_state.is_hidden = True
            elif body_state.attached_to_tool is not None and body_state.attached_to_tool != attached_tool_id:
                body_state.is_hidden = True
        self.client._robot_cell_state = state
        options = dict(options or {})
        options.update({"_skip_set_robot_cell_state": True, "_skip_cc1": True, "_skip_cc2": True, "_skip_cc3": True,
                        "_skip_cc4": False, "_skip_cc5": False})
        self.check_collision(state, options)
