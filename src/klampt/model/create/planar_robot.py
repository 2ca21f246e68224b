"""A chain of n revolute joints about y moving in the x-z plane."""
from ._robfile import load_generated_robot


def _link_box_off(length):
    """A bar from x=0 to x=s, 0.1 s wide and high, s = max(length, 0.05), as
    OFF text."""
    s = max(length, 0.05)
    corners = [(x, y, z) for x in (0.0, s) for y in (-0.05 * s, 0.05 * s) for z in (-0.05 * s, 0.05 * s)]
    faces = ["3 0 1 3", "3 0 3 2", "3 4 6 7", "3 4 7 5", "3 0 4 5", "3 0 5 1",
             "3 2 3 7", "3 2 7 6", "3 0 2 6", "3 0 6 4", "3 1 5 7", "3 1 7 3"]
    return "OFF\n8 12 0\n" + "".join("%.17g %.17g %.17g\n" % c for c in corners) + "\n".join(faces) + "\n"


def make(n, world, link_length=1, tempname="temp.rob", debug=False):
    """Loads an n-joint planar robot with links of the given length into
    ``world`` and returns it (named ``Planar <n>R``).

    Joint i rotates about y; link i+1 is offset by ``link_length`` along x of
    link i. Joints are spin joints with limits [0, 2 pi], unit masses
    (inertia computed from the link geometry) and simple servo gains.
    """
    if n < 1:
        raise ValueError("a planar robot needs at least one joint")
    offsets = ["1 0 0  0 1 0  0 0 1  0 0 0"] + ["1 0 0  0 1 0  0 0 1  %.17g 0 0" % link_length] * (n - 1)

    def row(value):
        return " ".join([value] * n)

    lines = ["### planar %dR robot" % n,
             "TParent " + " \\\n".join(offsets),
             "parents " + " ".join(str(i - 1) for i in range(n)),
             "axis " + row("0 1 0"),
             "jointtype " + row("r"),
             "qMin " + row("0"),
             "qMax " + row("6.28319"),
             "q " + row("0"),
             "geometry " + row('"link.off"'),
             "mass " + row("1"),
             "automass",
             "torqueMax " + row("10"),
             "accMax " + row("1"),
             "velMax " + row("1")]
    lines += ["joint spin %d" % i for i in range(n)]
    lines += ["driver normal %d" % i for i in range(n)]
    lines += ["servoP " + row("50"), "servoI " + row("100"), "servoD " + row("3")]
    robot = load_generated_robot(world, "\n".join(lines) + "\n", {'link.off': _link_box_off(link_length)},
                                 tempname, debug)
    robot.setName("Planar %dR" % n)
    return robot
