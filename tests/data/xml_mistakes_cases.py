"""What make_xml_mistakes_reference.py (run with the reference Klamp't) and
test_xml_mistakes.py both do: break a copy of the shared URDF by line edits,
and describe the robot a broken file loaded."""
import klampt


def edit_lines(text, edits):
    """`text` with each [line, old, new] edit made: the first `old` on that
    (1-based) line replaced by `new`; fails if the line has no `old`."""
    lines = text.split('\n')
    for line, old, new in edits:
        assert old in lines[line - 1], (line, old)
        lines[line - 1] = lines[line - 1].replace(old, new, 1)
    return '\n'.join(lines)


def describe_robot(world):
    """What the reference recorded of robot 0 of `world`: its numbers of links
    and drivers, link names, the disabled self-collision pairs of links with
    geometry, and the simulator's PID gains."""
    r = world.robot(0)
    n = r.numLinks()
    shaped = [i for i in range(n) if not r.link(i).geometry().empty()]
    sim = klampt.Simulator(world)
    kP, kI, kD = sim.controller(0).getPIDGains()
    return {'numLinks': n, 'numDrivers': r.numDrivers(),
            'links': [r.link(i).getName() for i in range(n)],
            'noSelfCollision': [[i, j] for i in shaped for j in shaped if j < i and not r.selfCollisionEnabled(i, j)],
            'kP': list(kP), 'kI': list(kI), 'kD': list(kD)}
