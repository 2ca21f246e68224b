"""Contact mechanics as linear programs (scipy's HiGHS): static equilibrium
of a center of mass on contacts, support polygons, force closure and the
joint torques that hold a robot against gravity.  Exported by
:mod:`klampt.robotsim` as in Klamp't.

Contacts come in two forms:

- simple: an N x 7 array (or list) of ``[x, y, z, nx, ny, nz, kFriction]``
  (2D: N x 4 ``[x, y, theta, kFriction]``, theta the normal's angle).  3D
  friction cones are replaced by the inscribed pyramid with
  :func:`set_friction_cone_approximation_edges` edges (4 by default), so
  every force the approximation allows is inside the true cone; 2D cones are
  exact.
- "fancy": contact positions plus, per contact, a flat list of inequalities
  ``(ax, ay, az, b)`` (2D: ``(ax, ay, b)``) meaning ``a . f <= b`` on that
  contact's force f.

Torques are taken about the origin; a COM c under the external force fext
is in equilibrium when forces f_i within their cones satisfy ``sum f_i +
fext = 0`` and ``sum p_i x f_i + c x fext = 0``.
"""
import math

import numpy as np

from ._checks import check_finite

_state = {'edges': 4}
# bound on COM coordinates when a support polygon is unbounded
_COM_BOUND = 1e6


def set_friction_cone_approximation_edges(numEdges):
    """Sets the number of edges (at least 3) of the pyramids that
    approximate 3D friction cones.  The default is 4."""
    numEdges = int(numEdges)
    if numEdges < 3:
        raise ValueError("A friction cone approximation needs at least 3 edges")
    _state['edges'] = numEdges


def destroy():
    """Resets the module-level state of these functions (the friction cone
    approximation returns to 4 edges).  Models and geometries free
    themselves when their last Python reference goes away."""
    _state['edges'] = 4


def _finite(a, what):
    """a as a float array; ValueError naming what and the flat index of the
    first entry that is not finite, as the bound converters do."""
    a = np.asarray(a, dtype=float)
    check_finite(a.ravel(), what)
    return a


def _tangents(n):
    n = n / np.linalg.norm(n)
    helper = np.array([1.0, 0, 0]) if abs(n[0]) < 0.9 else np.array([0, 1.0, 0])
    t1 = np.cross(n, helper)
    t1 /= np.linalg.norm(t1)
    return n, t1, np.cross(n, t1)


def _cone3(normal, mu):
    """Inequalities A f <= 0 of the inscribed friction pyramid."""
    if mu < 0:
        raise ValueError("Friction coefficients must be nonnegative")
    if np.linalg.norm(normal) == 0:
        raise ValueError("Contact normals must be nonzero")
    n, t1, t2 = _tangents(np.asarray(normal, dtype=float))
    if mu == 0:
        return np.array([t1, -t1, t2, -t2, -n]), np.zeros(5)
    k = _state['edges']
    rows = []
    for j in range(k):
        phi = 2 * math.pi * (j + 0.5) / k
        u = math.cos(phi) * t1 + math.sin(phi) * t2
        rows.append(u - mu * math.cos(math.pi / k) * n)
    rows.append(-n)
    return np.array(rows), np.zeros(k + 1)


def _cone2(theta, mu):
    if mu < 0:
        raise ValueError("Friction coefficients must be nonnegative")
    n = np.array([math.cos(theta), math.sin(theta)])
    t = np.array([-n[1], n[0]])
    return np.array([t - mu * n, -t - mu * n, -n]), np.zeros(3)


def _parse(args, dim, fname, nsimple):
    """(positions, list of (A, b), remaining arguments) from the simple form
    (nsimple arguments, the first the contact array) or the fancy form (one
    more argument: positions then friction cones)."""
    width = 7 if dim == 3 else 4
    if len(args) == nsimple:
        arr = _finite(args[0], "contacts")
        if arr.ndim != 2 or arr.shape[1] != width:
            raise ValueError("%s: contacts must be an N x %d array" % (fname, width))
        cones = [_cone3(c[3:6], c[6]) if dim == 3 else _cone2(c[2], c[3]) for c in arr]
        return arr[:, :dim], cones, args[1:]
    if len(args) != nsimple + 1:
        raise ValueError("%s: wrong number of arguments" % fname)
    pos = _finite(args[0], "contact positions")
    if pos.ndim != 2 or pos.shape[1] != dim:
        raise ValueError("%s: contact positions must be %d-vectors" % (fname, dim))
    if len(args[1]) != len(pos):
        raise ValueError("%s: need one friction cone per contact" % fname)
    cones = []
    for planes in args[1]:
        planes = _finite(planes, "friction cone")
        if planes.ndim != 1 or len(planes) % (dim + 1) != 0:
            raise ValueError("%s: each friction cone needs a multiple of %d values" % (fname, dim + 1))
        planes = planes.reshape(-1, dim + 1)
        cones.append((planes[:, :dim], planes[:, dim]))
    return pos, cones, args[2:]


def _moment_matrix(p, dim):
    """Matrix M with M f = p x f (3x3 in 3D, 1x2 in 2D)."""
    if dim == 3:
        return np.array([[0, -p[2], p[1]], [p[2], 0, -p[0]], [-p[1], p[0], 0]])
    return np.array([[-p[1], p[0]]])


def _blocks(pos, cones, dim):
    """Stacked force-to-wrench matrix and block-diagonal cone inequalities."""
    N = len(pos)
    G = np.zeros((dim + (3 if dim == 3 else 1), dim * N))
    rows = sum(len(A) for A, b in cones)
    Aub = np.zeros((rows, dim * N))
    bub = np.zeros(rows)
    r = 0
    for i, (p, (A, b)) in enumerate(zip(pos, cones)):
        G[:dim, dim * i:dim * (i + 1)] = np.eye(dim)
        G[dim:, dim * i:dim * (i + 1)] = _moment_matrix(p, dim)
        Aub[r:r + len(A), dim * i:dim * (i + 1)] = A
        bub[r:r + len(A)] = b
        r += len(A)
    return G, Aub, bub


def _solve(c, Aub, bub, Aeq, beq, bounds):
    from scipy.optimize import linprog  # imported on first use: scipy is slow to import
    res = linprog(c, A_ub=Aub if len(Aub) else None, b_ub=bub if len(bub) else None, A_eq=Aeq, b_eq=beq,
                  bounds=bounds, method='highs')
    return res


def _com_equilibrium(args, dim, fname):
    pos, cones, rest = _parse(args, dim, fname, 3)
    fext = _finite(rest[0], "fext")
    if fext.shape != (dim,):
        raise ValueError("%s: fext must have %d entries" % (fname, dim))
    G, Aub, bub = _blocks(pos, cones, dim)
    nf = G.shape[1]
    if rest[1] is None:
        # some COM works iff the contact moment has no component that no
        # COM can balance: along fext in 3D; in 2D any moment is balanced
        # by moving the COM unless fext is zero
        Aeq = G[:dim]
        beq = -fext
        if dim == 3:
            Aeq = np.vstack([Aeq, fext @ G[dim:]])
            beq = np.append(beq, 0.0)
        elif np.all(fext == 0):
            Aeq = G
            beq = np.zeros(G.shape[0])
        res = _solve(np.zeros(nf), Aub, bub, Aeq, beq, [(None, None)] * nf)
        return bool(res.status == 0)
    com = _finite(rest[1], "com")
    if com.shape != (dim,):
        raise ValueError("%s: com must have %d entries" % (fname, dim))
    beq = np.concatenate([-fext, -(_moment_matrix(com, dim) @ fext)])
    res = _solve(np.zeros(nf), Aub, bub, G, beq, [(None, None)] * nf)
    if res.status != 0:
        return None
    return res.x.reshape(-1, dim).tolist()


def com_equilibrium(*args):
    """com_equilibrium(contacts, fext, com) or com_equilibrium(contactPositions,
    frictionCones, fext, com).

    Returns the list of contact forces (3-lists) that hold a COM at com in
    equilibrium under fext, or None if there are none; if com is None,
    returns whether any COM position can be in equilibrium.
    """
    return _com_equilibrium(args, 3, 'com_equilibrium')


def com_equilibrium_2d(*args):
    """com_equilibrium_2d(contacts, fext, com) or
    com_equilibrium_2d(contactPositions, frictionCones, fext, com): the 2D
    version of :func:`com_equilibrium` (contacts [x, y, theta, k], forces
    2-lists)."""
    return _com_equilibrium(args, 2, 'com_equilibrium_2d')


def _force_closure(args, dim, fname):
    pos, cones, rest = _parse(args, dim, fname, 1)
    G, Aub, bub = _blocks(pos, cones, dim)
    nf = G.shape[1]
    # the wrench set is everything iff it contains +-e_k for every axis k
    for k in range(G.shape[0]):
        for sign in (1.0, -1.0):
            w = np.zeros(G.shape[0])
            w[k] = sign
            res = _solve(np.zeros(nf), Aub, bub, G, w, [(None, None)] * nf)
            if res.status != 0:
                return False
    return True


def force_closure(*args):
    """force_closure(contacts) or force_closure(contactPositions,
    frictionCones): True if the contact forces can produce every wrench."""
    return _force_closure(args, 3, 'force_closure')


def force_closure_2d(*args):
    """force_closure_2d(contacts) or force_closure_2d(contactPositions,
    frictionCones): True if the 2D contact forces can produce every planar
    wrench (fx, fy, moment)."""
    return _force_closure(args, 2, 'force_closure_2d')


def _com_lp(G, Aub, bub, dim, objective):
    """Optimizes objective . c over COMs c (xy in 3D, x in 2D) in
    equilibrium under a unit downward force."""
    nf = G.shape[1]
    nc = 2 if dim == 3 else 1
    # unknowns: forces, then COM coordinates
    if dim == 3:
        # sum f = (0,0,1); moment: sum p x f + c x (0,0,-1) = 0, c x (0,0,-1) = (-cy, cx, 0)
        Aeq = np.zeros((6, nf + 2))
        Aeq[:, :nf] = G
        Aeq[3, nf + 1] = -1.0
        Aeq[4, nf] = 1.0
        beq = np.array([0, 0, 1.0, 0, 0, 0])
    else:
        # sum f = (0,1); moment: sum p x f + c x (0,-1) = 0, c x (0,-1) = -cx
        Aeq = np.zeros((3, nf + 1))
        Aeq[:, :nf] = G
        Aeq[2, nf] = -1.0
        beq = np.array([0, 1.0, 0])
    Aub2 = np.hstack([Aub, np.zeros((len(Aub), nc))])
    c = np.zeros(nf + nc)
    c[nf:] = -np.asarray(objective, dtype=float)
    bounds = [(None, None)] * nf + [(-_COM_BOUND, _COM_BOUND)] * nc
    res = _solve(c, Aub2, bub, Aeq, beq, bounds)
    if res.status != 0:
        return None
    return res.x[nf:]


def support_polygon(*args):
    """support_polygon(contacts) or support_polygon(contactPositions,
    frictionCones).

    Returns the support polygon of the contacts under a downward force, as
    its edges [nx, ny, ofs] sorted by the angle of their outward unit
    normals: a COM with x-y coordinates (x, y) is in equilibrium iff
    nx*x + ny*y <= ofs for every edge.  An unbounded polygon has only its
    finite edges, so contacts in force closure (any COM) give the empty
    list; ``[[0, 0, -1]]`` (no point satisfies 0 <= -1) means no COM is in
    equilibrium.  A degenerate polygon (a segment or a point) is returned as
    the edges of that segment or point.
    """
    pos, cones, rest = _parse(args, 3, 'support_polygon', 1)
    G, Aub, bub = _blocks(pos, cones, 3)
    vertices = []
    for d in ((1, 0), (0, 1), (-1, 0), (0, -1)):
        v = _com_lp(G, Aub, bub, 3, d)
        if v is None:
            return [[0.0, 0.0, -1.0]]
        vertices.append(v)
    hull = _hull(vertices)
    # expand every hull edge outward until no LP finds a point beyond it
    done = set()
    while True:
        grown = False
        m = len(hull)
        for i in range(m):
            a, b = hull[i], hull[(i + 1) % m]
            key = (tuple(np.round(a, 12)), tuple(np.round(b, 12)))
            if key in done:
                continue
            e = b - a
            if np.linalg.norm(e) < 1e-12:
                done.add(key)
                continue
            normal = np.array([e[1], -e[0]]) / np.linalg.norm(e)
            v = _com_lp(G, Aub, bub, 3, normal)
            if normal @ v > normal @ a + 1e-9:
                hull = _hull(hull + [v])
                grown = True
                break
            done.add(key)
        if not grown:
            break
    # the sides of the bounding box where the polygon is unbounded are no edges
    return [list(p) for p in _edges(hull) if not (max(abs(p[0]), abs(p[1])) > 1 - 1e-9
                                                  and p[2] > _COM_BOUND * (1 - 1e-6))]


def _hull(points):
    """Convex hull (counter-clockwise, no repeated points) of 2D points."""
    pts = sorted(set((round(float(p[0]), 12), round(float(p[1]), 12)) for p in points))
    if len(pts) <= 2:
        return [np.array(p) for p in pts]

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 1e-15:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 1e-15:
            upper.pop()
        upper.append(p)
    return [np.array(p) for p in lower[:-1] + upper[:-1]]


def _edges(hull):
    if len(hull) == 1:
        p = hull[0]
        planes = [(1.0, 0.0, p[0]), (0.0, 1.0, p[1]), (-1.0, 0.0, -p[0]), (0.0, -1.0, -p[1])]
    elif len(hull) == 2:
        a, b = hull
        e = (b - a) / np.linalg.norm(b - a)
        n = np.array([e[1], -e[0]])
        planes = [(n[0], n[1], n @ a), (-n[0], -n[1], -(n @ a)), (e[0], e[1], e @ b), (-e[0], -e[1], -(e @ a))]
    else:
        planes = []
        m = len(hull)
        for i in range(m):
            a, b = hull[i], hull[(i + 1) % m]
            e = (b - a) / np.linalg.norm(b - a)
            n = np.array([e[1], -e[0]])
            planes.append((n[0], n[1], n @ a))
    # adding 0.0 turns -0.0 into 0.0, which atan2 would otherwise sort as -pi
    planes = [(float(nx) + 0.0, float(ny) + 0.0, float(o) + 0.0) for nx, ny, o in planes]
    planes.sort(key=lambda p: math.atan2(p[1], p[0]))
    return planes


def support_polygon_2d(*args):
    """support_polygon_2d(contacts) or support_polygon_2d(contactPositions,
    frictionCones): the interval (xmin, xmax) of COM x coordinates in
    equilibrium under a downward force, or (inf, inf) if there are none."""
    pos, cones, rest = _parse(args, 2, 'support_polygon_2d', 1)
    G, Aub, bub = _blocks(pos, cones, 2)
    lo = _com_lp(G, Aub, bub, 2, [-1.0])
    hi = _com_lp(G, Aub, bub, 2, [1.0])
    if lo is None or hi is None:
        return (math.inf, math.inf)
    return (float(lo[0]), float(hi[0]))


def _gravity_torques(robot, fext):
    """G(q) = -sum_k m_k J_k(q)^T fext for the links' centers of mass."""
    n = robot.numLinks()
    G = np.zeros(n)
    for k in range(n):
        link = robot.link(k)
        mass = link.getMass()
        m = mass.getMass()
        if m == 0:
            continue
        J = np.asarray(link.getPositionJacobian(mass.getCom()), dtype=float)
        G -= m * (J.T @ fext)
    return G


def equilibrium_torques(robot, contacts, links, fext, internalTorques=None, norm=0):
    """equilibrium_torques(robot, contacts, links, fext, norm=0) or
    equilibrium_torques(robot, contacts, links, fext, internalTorques,
    norm=0).

    Finds torques t (within the robot's torque limits) and contact forces
    f_i (within their friction pyramids) with the smallest norm of t
    (norm 0: L-infinity, 1: L1, 2: L2) such that ``t_int + G(q) = t + sum
    J_i(q)^T f_i``, where G(q) are the gravity torques of the robot in its
    current configuration under fext and J_i the position Jacobian of
    contact i (an N x 7 array row [x, y, z, nx, ny, nz, k] in world
    coordinates) on link links[i].

    Returns (torques, forces) as lists, or None if there is no solution.
    """
    if not isinstance(internalTorques, (list, tuple, np.ndarray)) and internalTorques is not None:
        norm, internalTorques = internalTorques, None
    contacts = _finite(contacts, "contacts").reshape(-1, 7) if len(contacts) else np.zeros((0, 7))
    if len(links) != len(contacts):
        raise ValueError("Need one link per contact")
    fext = _finite(fext, "fext")
    if fext.shape != (3,):
        raise ValueError("fext must have 3 entries")
    n = robot.numLinks()
    tint = np.zeros(n) if internalTorques is None else _finite(internalTorques, "internalTorques")
    if tint.shape != (n,):
        raise ValueError("internalTorques must have %d entries" % n)
    rhs = tint + _gravity_torques(robot, fext)
    nf = 3 * len(contacts)
    JT = np.zeros((n, nf))
    cones = []
    for i, (c, l) in enumerate(zip(contacts, links)):
        link = robot.link(l)
        R, t = link.getTransform()
        # the contact point in the link's frame
        Rm = np.array(R).reshape(3, 3).T
        local = Rm.T @ (c[:3] - np.array(t))
        JT[:, 3 * i:3 * i + 3] = np.asarray(link.getPositionJacobian(local.tolist()), dtype=float).T
        cones.append(_cone3(c[3:6], c[6]))
    tmax = np.asarray(robot.getTorqueLimits(), dtype=float)
    rows = sum(len(A) for A, b in cones)
    Acone = np.zeros((rows, nf))
    r = 0
    for i, (A, b) in enumerate(cones):
        Acone[r:r + len(A), 3 * i:3 * i + 3] = A
        r += len(A)
    tbounds = [(-lim, lim) if np.isfinite(lim) else (None, None) for lim in tmax]
    if norm == 2:
        return _equilibrium_torques_l2(JT, rhs, Acone, tbounds)
    if norm not in (0, 1):
        raise ValueError("norm must be 0, 1 or 2")
    # unknowns: t (n), f (nf), s (1 for L-inf, n for L1)
    ns = 1 if norm == 0 else n
    N = n + nf + ns
    Aeq = np.zeros((n, N))
    Aeq[:, :n] = np.eye(n)
    Aeq[:, n:n + nf] = JT
    Aub = np.zeros((rows + 2 * n, N))
    bub = np.zeros(rows + 2 * n)
    Aub[:rows, n:n + nf] = Acone
    for j in range(n):
        s = n + nf + (0 if norm == 0 else j)
        Aub[rows + 2 * j, j] = 1.0
        Aub[rows + 2 * j, s] = -1.0
        Aub[rows + 2 * j + 1, j] = -1.0
        Aub[rows + 2 * j + 1, s] = -1.0
    c = np.zeros(N)
    c[n + nf:] = 1.0
    bounds = tbounds + [(None, None)] * nf + [(0, None)] * ns
    res = _solve(c, Aub, bub, Aeq, rhs, bounds)
    if res.status != 0:
        return None
    return res.x[:n].tolist(), res.x[n:n + nf].reshape(-1, 3).tolist()


def _equilibrium_torques_l2(JT, rhs, Acone, tbounds):
    """Smallest L2 torques: minimize |rhs - JT f|^2 over cone-feasible f
    (SLSQP), with the torque limits as inequalities."""
    from scipy.optimize import minimize
    n, nf = JT.shape
    lo = np.array([b[0] if b[0] is not None else -np.inf for b in tbounds])
    hi = np.array([b[1] if b[1] is not None else np.inf for b in tbounds])
    cons = [{'type': 'ineq', 'fun': lambda f: -(Acone @ f), 'jac': lambda f: -Acone}]
    fin = np.isfinite(hi)
    if fin.any():
        cons.append({'type': 'ineq', 'fun': lambda f: (hi - (rhs - JT @ f))[fin], 'jac': lambda f: JT[fin]})
        cons.append({'type': 'ineq', 'fun': lambda f: ((rhs - JT @ f) - lo)[fin], 'jac': lambda f: -JT[fin]})
    res = minimize(lambda f: float(np.sum((rhs - JT @ f) ** 2)), np.zeros(nf),
                   jac=lambda f: -2 * JT.T @ (rhs - JT @ f), constraints=cons, method='SLSQP',
                   options={'maxiter': 500, 'ftol': 1e-12})
    if not res.success:
        return None
    f = res.x
    return (rhs - JT @ f).tolist(), f.reshape(-1, 3).tolist()
