"""The native text formats that model modules read and write too (the XML
of :class:`klampt.model.multipath.MultiPath`), here so that they need not
import :mod:`klampt.io.loader`, which documents and exposes them."""
from .. import robotsim
from ..math import so3
from ..model.contact import ContactPoint, Hold


def _numbers(text, what):
    try:
        return [float(v) for v in text.split()]
    except ValueError:
        raise ValueError("Invalid %s: %r" % (what, text))


def write_Vector(q):
    """Writes a vector as ``n\\tv1 ... vn``."""
    return '%d\t%s' % (len(q), ' '.join(str(v) for v in q))


def read_Vector(text):
    """Reads a vector written as ``n v1 ... vn``."""
    items = _numbers(text, 'vector')
    if not items:
        raise ValueError("Empty vector text")
    n = int(items[0])
    if n != items[0] or len(items) != n + 1:
        raise ValueError("Vector text %r does not hold %s values" % (text, items[0]))
    return items[1:]


def write_Vector_raw(x):
    """Writes a vector as ``v1 ... vn``."""
    return ' '.join(str(v) for v in x)


def read_IKObjective(text):
    """Reads an IKObjective in the native format described in the docstring
    of :mod:`klampt.io.loader`."""
    obj = robotsim.IKObjective()
    if not obj.loadString(text):
        raise ValueError("Invalid IK objective text %r" % text)
    return obj


def write_IKObjective(obj):
    """Writes an IKObjective in the native format described in the docstring
    of :mod:`klampt.io.loader`."""
    return obj.saveString()


def write_ContactPoint(cp):
    """Writes a contact point as ``x y z nx ny nz kFriction``."""
    return ' '.join(str(v) for v in list(cp.x) + list(cp.n) + [cp.kFriction])


def read_ContactPoint(text):
    """Reads a contact point written by :func:`write_ContactPoint`."""
    items = _numbers(text, 'contact point')
    if len(items) != 7:
        raise ValueError("A contact point needs 7 values, got %d" % len(items))
    return ContactPoint(items[0:3], items[3:6], items[6])


def write_Hold(h):
    """Writes a Hold in Klamp't's ``begin hold ... end`` format: the link,
    the contacts and the IK constraint (``position = local world``, then
    ``rotation = moment`` for a fixed rotation or ``axis = local world``
    for an axial one)."""
    lines = ["begin hold", "  link = %d" % h.link,
             "  contacts = " + " \\\n    ".join(write_ContactPoint(c) for c in h.contacts)]
    obj = h.ikConstraint
    if obj is not None:
        if obj.numPosDims() != 3:
            raise ValueError("Only holds with a fixed-point IK constraint can be written")
        local, world = obj.getPosition()
        lines.append("  position = %s  \\\n    %s" % (write_Vector_raw(local), write_Vector_raw(world)))
        if obj.numRotDims() == 3:
            lines.append("  rotation = " + write_Vector_raw(so3.rotation_vector(obj.getRotation())))
        elif obj.numRotDims() == 2:
            la, wa = obj.getRotationAxis()
            lines.append("  axis = %s  \\\n    %s" % (write_Vector_raw(la), write_Vector_raw(wa)))
    lines.append("end")
    return "\n".join(lines)


def read_Hold(text):
    """Reads a Hold written by :func:`write_Hold` (its IK constraint needs
    klampt.IKObjective)."""
    lines = parse_lines(text)
    if not lines or lines[0] != 'begin hold' or lines[-1] != 'end':
        raise ValueError("A hold starts with 'begin hold' and ends with 'end'")
    h = Hold()
    values = {}
    for line in lines[1:-1]:
        items = line.split()
        if len(items) < 2 or items[1] != '=':
            raise ValueError("Invalid hold line %r" % line)
        if items[0] not in ('link', 'contacts', 'position', 'rotation', 'axis'):
            raise ValueError("Unknown hold item %r" % items[0])
        values[items[0]] = items[2:]
    if 'link' not in values:
        raise ValueError("A hold needs a link")
    h.link = int(values['link'][0])
    items = values.get('contacts', [])
    if len(items) % 7 != 0:
        raise ValueError("Hold contacts need 7 values each")
    h.contacts = [read_ContactPoint(' '.join(items[i:i + 7])) for i in range(0, len(items), 7)]
    if 'position' in values:
        if not hasattr(robotsim, 'IKObjective'):
            raise RuntimeError("Reading a hold's IK constraint needs klampt.IKObjective, which is not available")
        pos = [float(v) for v in values['position']]
        if len(pos) != 6:
            raise ValueError("Hold position needs 6 values")
        obj = robotsim.IKObjective()
        if 'rotation' in values:
            R = so3.from_rotation_vector([float(v) for v in values['rotation']])
            t = [w - r for w, r in zip(pos[3:], so3.apply(R, pos[:3]))]
            obj.setFixedTransform(h.link, R, t)
        else:
            obj.setFixedPoint(h.link, pos[:3], pos[3:])
            if 'axis' in values:
                ax = [float(v) for v in values['axis']]
                obj.setAxialRotConstraint(ax[:3], ax[3:])
        h.ikConstraint = obj
    return h


def parse_lines(text):
    """The non-empty lines of text, with lines ending in a backslash joined
    to the next."""
    res = []
    pending = ''
    for line in text.splitlines():
        if line.endswith('\\'):
            pending += line[:-1] + ' '
            continue
        line = pending + line
        pending = ''
        if line.strip():
            res.append(line.strip())
    if pending.strip():
        res.append(pending.strip())
    return res
