"""``check_collision``: COMPAS FAB's five collision-check stages on exact triangle meshes."""

from typing import Optional

from compas_fab.backends import CollisionCheckError
from compas_fab.backends.interfaces import CheckCollision
from compas_fab.robots import RobotCellState

from ...robotsim import Geometry3D

__all__ = ["KlamptCheckCollision"]

#: Above this many CC.1 pairs a bounding-sphere test prunes them first (below, it costs more than it saves).
BROAD_PHASE_PAIRS = 100


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
            CollisionCheckError: with one ``"CC.n between ... - COLLISION"``
                line per colliding pair and ``collision_pairs``, a list of
                tuples of the compas objects (``Link``, ``ToolModel``,
                ``RigidBody``).
        """
        options = options or {}
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
        tool_states = state.tool_states
        body_states = state.rigid_body_states

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

        # CC.2: robot link <-> tool
        if not options.get("_skip_cc2", False):
            for link_name, geom in links.items():
                for tool_id, parts in client.tool_parts.items():
                    tool_state = tool_states[tool_id]
                    info = "CC.2 between robot link '{}' and tool '{}'".format(link_name, tool_id)
                    if tool_state.is_hidden:
                        skipped(info, "HIDDEN")
                        continue
                    if link_name in (tool_state.touch_links or ()):
                        skipped(info, "ALLOWED TOUCH LINK")
                        continue
                    if any(hit(geom, p.obj.geometry()) for p in parts):
                        report(info, (model.get_link_by_name(link_name), robot_cell.tool_models[tool_id]))
                    else:
                        passed(info)

        # CC.3: robot link <-> rigid body
        if not options.get("_skip_cc3", False):
            for link_name, geom in links.items():
                for body_id, objs in client.rigid_body_objects.items():
                    body_state = body_states[body_id]
                    info = "CC.3 between robot link '{}' and rigid body '{}'".format(link_name, body_id)
                    if body_state.is_hidden:
                        skipped(info, "HIDDEN")
                        continue
                    if link_name in (body_state.touch_links or ()):
                        skipped(info, "ALLOWED TOUCH LINK")
                        continue
                    for i, obj in enumerate(objs):
                        body_info = info + " (body_id '{}')".format(i)
                        if hit(geom, obj.geometry()):
                            report(body_info, (model.get_link_by_name(link_name), robot_cell.rigid_body_models[body_id]))
                        else:
                            passed(body_info)

        # CC.4: attached rigid body <-> other rigid bodies
        if not options.get("_skip_cc4", False):
            for body_id, objs in client.rigid_body_objects.items():
                body_state = body_states[body_id]
                if body_state.is_hidden or not (body_state.attached_to_tool or body_state.attached_to_link):
                    continue
                for other_id, other_objs in client.rigid_body_objects.items():
                    other_state = body_states[other_id]
                    if other_id == body_id or other_state.is_hidden:
                        continue
                    info = "CC.4 between attached rigid body '{}' and rigid body '{}'".format(body_id, other_id)
                    if body_id in (other_state.touch_bodies or ()) or other_id in (body_state.touch_bodies or ()):
                        skipped(info, "ALLOWED TOUCH BODY")
                        continue
                    for obj in objs:
                        for other in other_objs:
                            if hit(obj.geometry(), other.geometry()):
                                report(info, (robot_cell.rigid_body_models[body_id], robot_cell.rigid_body_models[other_id]))
                            else:
                                passed(info)

        # CC.5: tool <-> rigid body
        if not options.get("_skip_cc5", False):
            for tool_id, parts in client.tool_parts.items():
                if tool_states[tool_id].is_hidden:
                    continue
                for body_id, objs in client.rigid_body_objects.items():
                    body_state = body_states[body_id]
                    info = "CC.5 between tool '{}' and rigid body '{}'".format(tool_id, body_id)
                    if body_state.is_hidden:
                        skipped(info, "RB HIDDEN")
                        continue
                    if body_state.attached_to_tool == tool_id:
                        skipped(info, "RB ATTACHED TO TOOL")
                        continue
                    if tool_id in (body_state.touch_bodies or ()):
                        skipped(info, "TOOL IS TOUCH BODY IN RB")
                        continue
                    for i, obj in enumerate(objs):
                        body_info = info + " (body_id '{}')".format(i)
                        if any(hit(p.obj.geometry(), obj.geometry()) for p in parts):
                            report(body_info, (robot_cell.tool_models[tool_id], robot_cell.rigid_body_models[body_id]))
                        else:
                            passed(body_info)

        if messages:
            raise CollisionCheckError("\n".join(messages), pairs)

    def _collision_geometry_pairs(self, state: RobotCellState):
        """The geometry pairs :meth:`check_collision` tests at ``state`` (same skips), for fast boolean checks.

        Returns ``(geometry_a, geometry_b, key_a, key_b)`` tuples; a key is
        ``("link", name)``, ``("tool", id)`` or ``("body", id)``.
        """
        client = self.client
        links = client.link_geometry
        pairs = [(links[a], links[b], ("link", a), ("link", b)) for a, b in client.self_collision_pairs]
        tool_states, body_states = state.tool_states, state.rigid_body_states
        visible_tools = [t for t in client.tool_parts if not tool_states[t].is_hidden]
        visible_bodies = [b for b in client.rigid_body_objects if not body_states[b].is_hidden]
        for link_name, geom in links.items():
            for tool_id in visible_tools:
                if link_name not in (tool_states[tool_id].touch_links or ()):
                    pairs += [(geom, p.obj.geometry(), ("link", link_name), ("tool", tool_id))
                              for p in client.tool_parts[tool_id]]
            for body_id in visible_bodies:
                if link_name not in (body_states[body_id].touch_links or ()):
                    pairs += [(geom, o.geometry(), ("link", link_name), ("body", body_id))
                              for o in client.rigid_body_objects[body_id]]
        for body_id in visible_bodies:
            bs = body_states[body_id]
            if not (bs.attached_to_tool or bs.attached_to_link):
                continue
            for other_id in visible_bodies:
                other = body_states[other_id]
                if other_id == body_id or body_id in (other.touch_bodies or ()) or other_id in (bs.touch_bodies or ()):
                    continue
                pairs += [(o.geometry(), p.geometry(), ("body", body_id), ("body", other_id))
                          for o in client.rigid_body_objects[body_id] for p in client.rigid_body_objects[other_id]]
        for tool_id in visible_tools:
            for body_id in visible_bodies:
                bs = body_states[body_id]
                if bs.attached_to_tool == tool_id or tool_id in (bs.touch_bodies or ()):
                    continue
                pairs += [(p.obj.geometry(), o.geometry(), ("tool", tool_id), ("body", body_id))
                          for p in client.tool_parts[tool_id] for o in client.rigid_body_objects[body_id]]
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
