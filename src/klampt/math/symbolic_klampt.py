"""Klamp't functions as symbolic Functions: so3 and se3 (:class:`SO3Context`,
:class:`SE3Context`), IK objectives (:class:`IKContext`), collision tests
(:class:`CollideContext`) and robot kinematics (:class:`KlamptContext`,
which includes all of them plus ``linalg``).

Robots, links, worlds and IK objectives are user data.  A robot-valued
expression carries the derivative of its configuration: for example
``worldPos(setConfig("robot", q), 5, [0,0,0])`` differentiates with respect
to ``q`` through the link's position Jacobian, computed by the C++ core.
"""

import numpy as np

from .symbolic import (Context, Type, Variable, VariableExpression, UserDataExpression, Numeric, Integer,
                       const)
from ._symbolic_library import (sum_, array, list_, flatten, transpose, reshape, dot, eye, len_, cos, sin, sub, mul, add,
                                neg, arctan2, getitem, if_, abs_, le, div, not_, getattr_, outer)
from .symbolic_linalg import LinAlgContext, unit, norm, norm2, bound_contains
from . import so3
from ..robotsim import IKSolver, RobotModelLink
from ..io import loader

__all__ = ['SO3Context', 'SE3Context', 'IKContext', 'GeometryContext', 'CollideContext', 'KlamptContext']


def _var(name, t):
    return VariableExpression(Variable(name, t))


def _declare(ctx, func, name, args=None, rt=None, argtypes=None, desc=None):
    f = ctx.declare(func, name, args)
    if rt is not None:
        f.returnType = Type(rt) if not isinstance(rt, Type) else rt
    if argtypes is not None:
        f.argTypes = [Type(t) if not isinstance(t, Type) else t for t in argtypes]
    f.description = desc
    return f


def _matrix_expr(R):
    """The 3x3 matrix of a column-major so3 element expression."""
    return transpose(reshape(R, [3, 3]))


def _from_matrix_expr(M):
    return flatten(transpose(M))


def _cross_matrix(w):
    return array(array(0.0, neg(w[2]), w[1]), array(w[2], 0.0, neg(w[0])), array(neg(w[1]), w[0], 0.0))


class SO3Context(Context):
    """so3 functions on 9-vectors (column-major rotation matrices):
    identity, matrix, from_matrix, inv, mul, apply, rotation(axis,angle),
    from_rpy, rpy, from_quaternion, quaternion, from_rotation_vector,
    rotation_vector, axis, angle, error, distance, canonical, and the
    constraints eq_constraint(R) (R^T R, to equal the identity) and
    quaternion_constraint(q) (norm2(q)-1, to equal 0).  Derivatives are
    defined for matrix, from_matrix, inv, mul, apply, rotation,
    from_quaternion, angle, distance, canonical and the constraints."""

    def __init__(self):
        Context.__init__(self)
        self.type = Type('V', 9)
        V3 = Type('V', 3)
        R, R1, R2 = _var("R", self.type), _var("R1", self.type), _var("R2", self.type)
        point, M = _var("point", V3), _var("M", Type('M', (3, 3)))
        axis_, angle_ = _var("axis", V3), _var("angle", Numeric)
        q, v = _var("q", Type('V', 4)), _var("v", V3)
        self.identity = _declare(self, lambda: np.array(so3.identity()), "identity", [], self.type, desc="The identity rotation.")
        self.from_matrix = _declare(self, _from_matrix_expr(M), "from_matrix", ['M'], self.type, [M.var.type], "Converts from a 3x3 matrix.")
        self.matrix = _declare(self, _matrix_expr(R), "matrix", ['R'], Type('M', (3, 3)), [self.type], "Converts to a 3x3 matrix.")
        self.inv = _declare(self, array(*[R[i] for i in (0, 3, 6, 1, 4, 7, 2, 5, 8)]), "inv", ['R'], self.type, [self.type], "The inverse rotation.")
        self.mul = _declare(self, _from_matrix_expr(dot(_matrix_expr(R1), _matrix_expr(R2))), "mul", ['R1', 'R2'], self.type,
                            [self.type, self.type], "The composition R1*R2.")
        self.mul.properties['associative'] = True
        self.apply = _declare(self, dot(_matrix_expr(R), point), "apply", ['R', 'point'], V3, [self.type, V3], "Rotates a point.")
        rodrigues = sum_(mul(cos(angle_), eye(3)), mul(sin(angle_), _cross_matrix(axis_)),
                        mul(sub(1.0, cos(angle_)), outer(axis_, axis_)))
        self.rotation = _declare(self, _from_matrix_expr(rodrigues), "rotation", ['axis', 'angle'], self.type, [V3, Numeric],
                                 "The rotation about a unit axis by an angle.")
        self.from_rpy = _declare(self, lambda rpy: np.array(so3.from_rpy(rpy)), "from_rpy", ['rpy'], self.type, [V3], "From roll-pitch-yaw angles.")
        self.rpy = _declare(self, lambda R: np.array(so3.rpy(R)), "rpy", ['R'], V3, [self.type], "Roll-pitch-yaw angles.")
        u = unit(q)
        w, x, y, z = u[0], u[1], u[2], u[3]
        quat = array(1.0 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y),
                     2 * (x * y - w * z), 1.0 - 2 * (x * x + z * z), 2 * (y * z + w * x),
                     2 * (x * z + w * y), 2 * (y * z - w * x), 1.0 - 2 * (x * x + y * y))
        self.from_quaternion = _declare(self, quat, "from_quaternion", ['q'], self.type, [Type('V', 4)], "From a quaternion (w,x,y,z).")
        self.quaternion = _declare(self, lambda R: np.array(so3.quaternion(R)), "quaternion", ['R'], Type('V', 4), [self.type], "The quaternion (w,x,y,z).")
        self.from_rotation_vector = _declare(self, lambda w: np.array(so3.from_rotation_vector(w)), "from_rotation_vector", ['w'],
                                             self.type, [V3], "From a rotation vector (axis times angle).")
        self.rotation_vector = _declare(self, lambda R: np.array(so3.rotation_vector(R)), "rotation_vector", ['R'], V3, [self.type],
                                        "The rotation vector (axis times angle).")
        self.axis = _declare(self, unit(self.rotation_vector(R)), "axis", ['R'], V3, [self.type], "The unit rotation axis.")
        skew = array(sub(R[5], R[7]), sub(R[6], R[2]), sub(R[1], R[3]))
        self.angle = _declare(self, arctan2(mul(0.5, norm(skew)), mul(0.5, sub(sum_(R[0], R[4], R[8]), 1.0))), "angle", ['R'],
                              Numeric, [self.type], "The rotation angle in [0, pi].")
        self.error = _declare(self, lambda R1, R2: np.array(so3.error(R1, R2)), "error", ['R1', 'R2'], V3, [self.type, self.type],
                              "The rotation vector of R1 * R2^-1.")
        self.distance = _declare(self, self.angle(self.mul(self.inv(R1), R2)), "distance", ['R1', 'R2'], Numeric,
                                 [self.type, self.type], "The angle between two rotations.")
        self.distance.properties['nonnegative'] = True
        Rm = _matrix_expr(R)
        self.eq_constraint = _declare(self, dot(transpose(Rm), Rm), "eq_constraint", ['R'], Type('M', (3, 3)), [self.type],
                                      "R^T R, which equals the identity for rotations.")
        self.quaternion_constraint = _declare(self, sub(norm2(q), 1.0), "quaternion_constraint", ['q'], Numeric, [Type('V', 4)],
                                              "norm2(q)-1, which is 0 for unit quaternions.")
        n = unit(v)
        a, b, c = n[0], n[1], n[2]
        s = div(1.0, add(a, 1.0))
        canon = if_(le(abs_(add(a, 1.0)), 1e-5), array(-1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 1.0),
                    array(a, b, c, neg(b), a + c * c * s, neg(b * c * s), neg(c), neg(b * c * s), a + b * b * s))
        self.canonical = _declare(self, canon, "canonical", ['v'], self.type, [V3],
                                  "The minimal rotation taking [1,0,0] to the direction of v.")


class SE3Context(Context):
    """se3 functions on transforms (R,t) (lists of a 9-vector and a
    3-vector): make(R,t), identity, homogeneous / matrix (4x4),
    from_homogeneous, inv, mul, apply, rotation(T) and translation(T).
    Derivatives are defined for make, inv, mul, apply, rotation,
    translation, homogeneous and from_homogeneous when the transforms are
    built with make."""

    def __init__(self):
        Context.__init__(self)
        self.Rtype = Type('V', 9)
        self.ttype = Type('V', 3)
        self.type = Type('L', 2, [self.Rtype, self.ttype])
        T, T1, T2 = _var("T", self.type), _var("T1", self.type), _var("T2", self.type)
        R, t, pt, M = _var("R", self.Rtype), _var("t", self.ttype), _var("pt", self.ttype), _var("M", Type('M', (4, 4)))
        so3c = SO3Context()
        self.make = _declare(self, list_(R, t), "make", ['R', 't'], self.type, [self.Rtype, self.ttype], "The transform (R,t).")
        self.identity = _declare(self, lambda: [np.array(so3.identity()), np.zeros(3)], "identity", [], self.type, desc="The identity transform.")
        Rinv = so3c.inv(getitem(T, 0))
        self.inv = _declare(self, list_(Rinv, neg(so3c.apply(Rinv, getitem(T, 1)))), "inv", ['T'], self.type, [self.type],
                            "The inverse transform.")
        self.mul = _declare(self, list_(so3c.mul(getitem(T1, 0), getitem(T2, 0)),
                                        add(so3c.apply(getitem(T1, 0), getitem(T2, 1)), getitem(T1, 1))),
                            "mul", ['T1', 'T2'], self.type, [self.type, self.type], "The composition T1*T2.")
        self.mul.properties['associative'] = True
        self.apply = _declare(self, add(so3c.apply(getitem(T, 0), pt), getitem(T, 1)), "apply", ['T', 'pt'], self.ttype,
                              [self.type, self.ttype], "Transforms a point.")
        self.rotation = _declare(self, getitem(T, 0), "rotation", ['T'], self.Rtype, [self.type], "The rotation of T.")
        self.translation = _declare(self, getitem(T, 1), "translation", ['T'], self.ttype, [self.type], "The translation of T.")
        Rm = so3c.matrix(getitem(T, 0))
        tt = getitem(T, 1)
        hom = array(array(Rm[0, 0], Rm[0, 1], Rm[0, 2], tt[0]), array(Rm[1, 0], Rm[1, 1], Rm[1, 2], tt[1]),
                    array(Rm[2, 0], Rm[2, 1], Rm[2, 2], tt[2]), const(np.array([0.0, 0.0, 0.0, 1.0])))
        self.homogeneous = _declare(self, hom, "homogeneous", ['T'], Type('M', (4, 4)), [self.type], "The 4x4 homogeneous matrix.")
        self.matrix = _declare(self, self.homogeneous(T), "matrix", ['T'], Type('M', (4, 4)), [self.type], "The 4x4 homogeneous matrix.")
        self.from_homogeneous = _declare(self, list_(array(*[M[i, j] for j in range(3) for i in range(3)]), array(M[0, 3], M[1, 3], M[2, 3])),
                                         "from_homogeneous", ['M'], self.type, [M.var.type], "From a 4x4 homogeneous matrix.")


def _ik_robot(ikobj, robot):
    own = getattr(ikobj, 'robot', None)
    if own is not None and robot is not None and own.index != robot.index:
        raise ValueError("The IKObjective belongs to another robot")
    return robot if robot is not None else own


class IKContext(Context):
    """Functions of IKObjective user data: link, robot, localPos, targetPos,
    targetRot, targetXform, and, at the robot's current configuration,
    worldPos, worldRot and residual (differentiable with respect to the
    robot's configuration, e.g. ``worldPos(obj, setConfig("robot", q))``)."""

    def __init__(self):
        Context.__init__(self)
        so3type = Type('V', 9)
        se3type = Type('L', 2, [so3type, Type('V', 3)])
        V3 = Type('V', 3)
        self.type = Type('IKObjective')
        rtype = Type('RobotModel')

        def worldPos(ikobj, robot):
            robot = _ik_robot(ikobj, robot)
            return np.array(robot.link(ikobj.link()).getWorldPosition(ikobj.getPosition()[0]))

        def worldRot(ikobj, robot):
            robot = _ik_robot(ikobj, robot)
            return np.array(robot.link(ikobj.link()).getTransform()[0])

        def residual(ikobj, robot):
            s = IKSolver(_ik_robot(ikobj, robot))
            s.add(ikobj)
            return np.array(s.getResidual())

        def residualJacobian(ikobj, robot):
            robot = _ik_robot(ikobj, robot)
            s = IKSolver(robot)
            s.add(ikobj)
            s.setActiveDofs(list(range(robot.numLinks())))
            return np.array(s.getJacobian())
        self.link = _declare(self, lambda ikobj: ikobj.link(), "link", ['ikobj'], 'I', [self.type], "The link index.")
        self.robot = _declare(self, lambda ikobj: getattr(ikobj, 'robot', None), "robot", ['ikobj'], rtype, [self.type],
                              "The RobotModel the objective was made for (or None).")
        self.localPos = _declare(self, lambda ikobj: np.array(ikobj.getPosition()[0]), "localPos", ['ikobj'], V3, [self.type], "The local position.")
        self.targetPos = _declare(self, lambda ikobj: np.array(ikobj.getPosition()[1]), "targetPos", ['ikobj'], V3, [self.type], "The target position.")
        self.targetRot = _declare(self, lambda ikobj: np.array(ikobj.getRotation()), "targetRot", ['ikobj'], so3type, [self.type], "The target rotation.")
        self.targetXform = _declare(self, lambda ikobj: [np.array(ikobj.getRotation()), np.array(ikobj.getPosition()[1])], "targetXform",
                                    ['ikobj'], se3type, [self.type], "The target transform.")
        for f in (self.link, self.robot, self.localPos, self.targetPos, self.targetRot, self.targetXform):
            f.deriv = 0
        self.worldPos = _declare(self, worldPos, "worldPos", ['ikobj', 'robot'], V3, [self.type, rtype],
                                 "The objective's local point in world coordinates.")
        self.worldPos.setJacobian('robot', lambda ikobj, robot: np.array(_ik_robot(ikobj, robot).link(ikobj.link()).getPositionJacobian(ikobj.getPosition()[0])))
        self.worldRot = _declare(self, worldRot, "worldRot", ['ikobj', 'robot'], so3type, [self.type, rtype], "The link's rotation.")
        self.worldRot.setDeriv('robot', _world_rot_jvp(lambda ikobj, robot: _ik_robot(ikobj, robot).link(ikobj.link())))
        self.residual = _declare(self, residual, "residual", ['ikobj', 'robot'], Type('V'), [self.type, rtype],
                                 "The position and orientation residual of the objective.")
        self.residual.setJacobian('robot', residualJacobian)


def _world_rot_jvp(get_link):
    """The derivative of a link's column-major rotation along dq: the
    angular velocity w = Jo dq gives dR = [w]x R."""
    def jvp(*args):
        dq = np.asarray(args[-1], dtype=float)
        link = get_link(*args[:-1])
        w = np.array(link.getOrientationJacobian()) @ dq
        R = np.array(so3.matrix(link.getTransform()[0]))
        dR = np.array(so3.matrix(so3.cross_product(w))) @ R
        return dR.T.reshape(-1)
    return jvp


class GeometryContext(Context):
    """The types of Geometry3D user data (``type``) and transforms
    (``Ttype``); no geometry functions are declared (as in Klamp't)."""

    def __init__(self):
        Context.__init__(self)
        self.Ttype = Type('L', 2, [Type('V', 9), Type('V', 3)])
        self.type = Type('Geometry3D')


def _collider(context):
    from ..model import collide  # klampt.model sits above klampt.math: only for collision functions
    world = context['world']
    robot = context['robot'] if 'robot' in context else world.robot(0)
    collider = context['collider'] if 'collider' in context else collide.WorldCollider(world)
    return robot, collider


class CollideContext(Context):
    """robotCollision(q, context), robotSelfCollision(q, context) and their
    negations robotCollisionFree / robotSelfCollisionFree, where context is
    a dict user data with 'world' (and optionally 'robot', 'collider')."""

    def __init__(self):
        Context.__init__(self)

        def robotCollision(q, context):
            robot, collider = _collider(context)
            robot.setConfig(list(q))
            return any(True for _ in collider.collisions())

        def robotSelfCollision(q, context):
            robot, collider = _collider(context)
            robot.setConfig(list(q))
            return any(True for _ in collider.robotSelfCollisions(robot))
        qv, cref = _var("q", 'V'), UserDataExpression("context")
        self.robotCollision = _declare(self, robotCollision, "robotCollision", ['q', 'context'], 'B', ['V', 'Context'],
                                       "True if the robot collides with the world at q.")
        self.robotSelfCollision = _declare(self, robotSelfCollision, "robotSelfCollision", ['q', 'context'], 'B', ['V', 'Context'],
                                           "True if the robot collides with itself at q.")
        self.robotCollisionFree = _declare(self, not_(self.robotCollision(qv, cref)), "robotCollisionFree", ['q', 'context'], 'B',
                                           ['V', 'Context'], "True if the robot is collision free at q.")
        self.robotSelfCollisionFree = _declare(self, not_(self.robotSelfCollision(qv, cref)), "robotSelfCollisionFree",
                                               ['q', 'context'], 'B', ['V', 'Context'], "True if the robot is self-collision free at q.")
        for f in (self.robotCollision, self.robotSelfCollision):
            f.properties['impure'] = True


def _as_link(robot, link):
    return link if isinstance(link, RobotModelLink) else robot.link(link)


def _str_to_path(s):
    parts = [p for p in s.replace('[', '.').replace(']', '').split('.') if p]
    return [int(p) if p.lstrip('-').isdigit() else p for p in parts]


def _get_json(obj, path):
    jsonobj = obj if isinstance(obj, (list, dict)) else loader.to_json(obj)
    if isinstance(path, str):
        path = _str_to_path(path)
    elif isinstance(path, int):
        path = [path]
    for item in path:
        jsonobj = jsonobj[item]
    return jsonobj


def _set_json(obj, path, val):
    jsonobj = obj if isinstance(obj, (list, dict)) else loader.to_json(obj)
    if isinstance(path, str):
        path = _str_to_path(path)
    elif isinstance(path, int):
        path = [path]
    root = jsonobj
    for item in path[:-1]:
        root = root[item]
    root[path[-1]] = val.tolist() if isinstance(val, np.ndarray) else val
    return jsonobj if isinstance(obj, (list, dict)) else loader.from_json(jsonobj)


class KlamptContext(Context):
    """All Klamp't functions: the sub-contexts linalg, so3, se3, ik and
    collide, and kinematics on WorldModel / RobotModel / RobotModelLink user
    data: robot(world,i), rigidObject(world,i), terrain(world,i),
    config(robot), setConfig(robot,q), link(robot,i), transform(object),
    setTransform(object,T), velocity(robot), setVelocity(robot,dq),
    worldPos(robot,link,localPos), localPos(robot,link,worldPos),
    worldRot(robot,link), com(robot), gravityTorque(gravity,robot),
    inJointLimits(q,robot), getJson(object,path), setJson(object,path,val).

    With a ``world``, the user data 'world' and 'robot' (its first robot)
    are added.  Derivatives with respect to configurations follow
    setConfig: config, worldPos, worldRot and com use the robot's Jacobians.
    """

    def __init__(self, world=None):
        Context.__init__(self)
        if world is not None:
            self.addUserData("world", world)
            if world.numRobots() > 0:
                self.addUserData("robot", world.robot(0))
        self.include(LinAlgContext(), "linalg", modify=True)
        self.include(SO3Context(), "so3", modify=True)
        self.include(SE3Context(), "se3", modify=True)
        self.include(IKContext(), "ik", modify=True)
        self.include(CollideContext(), "collide", modify=True)
        self.worldType = Type('WorldModel')
        self.robotType = Type('RobotModel')
        self.rigidObjectType = Type('RigidObjectModel')
        self.terrainType = Type('TerrainModel')
        self.linkType = Type('RobotModelLink')
        self.configType = Type('V')
        self.pointType = Type('V', 3)
        U = Type('U')

        def setConfig(robot, q):
            robot.setConfig(list(np.asarray(q, dtype=float)))
            return robot

        def setTransform(object, T):
            object.setTransform(list(T[0]), list(T[1]))
            return object

        def setVelocity(robot, dq):
            robot.setVelocity(list(np.asarray(dq, dtype=float)))
            return robot
        d = lambda f, name, args, rt, at, desc: _declare(self, f, name, args, rt, at, desc)
        self.robot = d(lambda world, index: world.robot(int(index)), "robot", ['world', 'index'], self.robotType, [self.worldType, Integer], "The index'th robot of a world.")
        self.rigidObject = d(lambda world, index: world.rigidObject(int(index)), "rigidObject", ['world', 'index'], self.rigidObjectType,
                             [self.worldType, Integer], "The index'th rigid object of a world.")
        self.terrain = d(lambda world, index: world.terrain(int(index)), "terrain", ['world', 'index'], self.terrainType,
                         [self.worldType, Integer], "The index'th terrain of a world.")
        self.config = d(lambda robot: np.array(robot.getConfig()), "config", ['robot'], self.configType, [self.robotType],
                        "The robot's current configuration.")
        self.config.setJacobian('robot', lambda robot: eye(len_(self.config(robot))), asExpr=True)
        self.setConfig = d(setConfig, "setConfig", ['robot', 'q'], self.robotType, [self.robotType, self.configType],
                           "Sets the robot's configuration and returns the robot.")
        self.setConfig.setDeriv('robot', 0)
        self.setConfig.setJacobian('q', lambda robot, q: eye(len_(q)), asExpr=True)
        self.link = d(lambda robot, index: robot.link(index), "link", ['robot', 'index'], self.linkType, [self.robotType, None],
                      "The index'th (or named) link of a robot.")
        self.transform = d(lambda object: [np.array(v) for v in object.getTransform()], "transform", ['object'],
                           Type('L', 2, [Type('V', 9), Type('V', 3)]), [U], "The object's current transform.")
        self.setTransform = d(setTransform, "setTransform", ['object', 'T'], U, [U, None], "Sets the object's transform and returns it.")
        self.velocity = d(lambda robot: np.array(robot.getVelocity()), "velocity", ['robot'], self.configType, [self.robotType],
                          "The robot's current velocity.")
        self.setVelocity = d(setVelocity, "setVelocity", ['robot', 'dq'], self.robotType, [self.robotType, self.configType],
                             "Sets the robot's velocity and returns the robot.")
        self.worldPos = d(lambda robot, link, localPos: np.array(_as_link(robot, link).getWorldPosition(list(localPos))), "worldPos",
                          ['robot', 'link', 'localPos'], self.pointType, [self.robotType, None, self.pointType],
                          "A link's local point in world coordinates at the robot's current configuration.")
        self.worldPos.setJacobian('robot', lambda robot, link, localPos: np.array(_as_link(robot, link).getPositionJacobian(list(localPos))))
        self.worldPos.setJacobian('link', 0)
        self.worldPos.setJacobian('localPos', lambda robot, link, localPos: np.array(so3.matrix(_as_link(robot, link).getTransform()[0])))
        self.localPos = d(lambda robot, link, worldPos: np.array(_as_link(robot, link).getLocalPosition(list(worldPos))), "localPos",
                          ['robot', 'link', 'worldPos'], self.pointType, [self.robotType, None, self.pointType],
                          "A world point in a link's coordinates.")
        self.worldRot = d(lambda robot, link: np.array(_as_link(robot, link).getTransform()[0]), "worldRot", ['robot', 'link'],
                          Type('V', 9), [self.robotType, None], "A link's rotation.")
        self.worldRot.setDeriv('robot', _world_rot_jvp(lambda robot, link: _as_link(robot, link)))
        self.worldRot.setDeriv('link', 0)
        self.com = d(lambda robot: np.array(robot.getCom()), "com", ['robot'], self.pointType, [self.robotType], "The robot's center of mass.")
        self.com.setJacobian('robot', lambda robot: np.array(robot.getComJacobian()))
        self.gravityTorque = d(lambda gravity, robot: np.array(robot.getGravityForces(list(gravity))), "gravityTorque", ['gravity', 'robot'],
                               self.configType, [self.pointType, self.robotType], "The generalized gravity forces.")
        jl = getattr_(UserDataExpression("robot"), const("getJointLimits"))
        self.inJointLimits = d(bound_contains(getitem(jl, 0), getitem(jl, 1), _var("q", 'V')), "inJointLimits", ['q', 'robot'], 'B',
                               [self.configType, self.robotType], "True if q is within the robot's joint limits.")
        self.getJson = d(_get_json, "getJson", ['object', 'path'], None, None,
                         "The value at a path ('a.b[0]', an index or a list) of the object's JSON form.")
        self.setJson = d(_set_json, "setJson", ['object', 'path', 'val'], None, None,
                         "A copy of the object with the value at a path of its JSON form replaced.")
        for f in (self.setConfig, self.setTransform, self.setVelocity, self.getJson, self.setJson):
            f.properties['impure'] = True
        for f in (self.robot, self.rigidObject, self.terrain, self.link):
            f.deriv = 0
        self.velocity.deriv = 0
