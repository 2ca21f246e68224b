"""Robot Interface Layer timings on the tx90l: one CartesianDriveSolver.drive
step (0.01 s at 0.1 m/s upward, the spec's target is under 2 ms), one control
step of a RobotInterfaceCompleter over the kinematic base during a
moveToPosition (emulation only, no physics), and one step during a Cartesian
velocity command. Medians over batches, in microseconds.

    python benchmarks/bench_control.py                 # this interpreter's klampt
    python benchmarks/bench_control.py --compare PY    # also PY's klampt, with ratios

A case an implementation cannot run shows as n/a.
"""
import os
import warnings

from benchcommon import data_dir, median_us, run as run_benchmark

START = [0, 0, -0.3, 1.2, 0, 0.8, 0]


def measure():
    import klampt
    from klampt.control.cartesian_drive import CartesianDriveSolver
    from klampt.control.robotinterfaceutils import RobotInterfaceCompleter
    from klampt.control.simrobotinterface import KinematicSimControlInterface

    warnings.simplefilter('ignore')
    world = klampt.WorldModel()
    if not world.readFile(os.path.join(data_dir(), "robots", "tx90l.rob")):
        raise RuntimeError("cannot load tx90l.rob")
    robot = world.robot(0)
    results = {}

    solver = CartesianDriveSolver(robot)
    solver.start(START, 6)
    state = {'q': list(START), 'up': True}

    def drive():
        # alternately up and down, so the tool stays near its start
        v = 0.1 if state['up'] else -0.1
        state['up'] = not state['up']
        progress, state['q'] = solver.drive(state['q'], [0, 0, 0], [0, 0, v], 0.01)
        if progress < 0.99:
            raise RuntimeError("drive made progress %g" % progress)
    results['drive'] = median_us(drive, repeat=11, number=50)

    def completer_step(command):
        c = RobotInterfaceCompleter(KinematicSimControlInterface(robot))
        c.initialize()
        c.beginStep()
        command(c)
        c.endStep()

        def one():
            c.beginStep()
            c.endStep()
        return one
    for name, command in [('step_moveTo', lambda c: c.moveToPosition([2.0, -1.0, 1.5, 2.0, 1.5, 3.0], 0.01)),
                          ('step_cartesianVelocity',
                           lambda c: (c.setToolCoordinates([0, 0, 0]),
                                      c.setCartesianVelocity(([0, 0, 0], [0, 0, 0.001]), 100.0)))]:
        robot.setConfig(START)
        try:
            results[name] = median_us(completer_step(command), repeat=11, number=50)
        except Exception:
            results[name] = None
    return results


def print_table(mine, other=None):
    print("%-24s %12s %12s %8s" % ("case (us per call)", "this", "other", "ratio"))
    for k, v in mine.items():
        o = other.get(k) if other else None
        fmt = lambda x: "n/a" if x is None else "%.1f" % x
        ratio = "%.2f" % (o / v) if (o and v) else ""
        print("%-24s %12s %12s %8s" % (k, fmt(v), fmt(o) if other else "", ratio))


if __name__ == "__main__":
    run_benchmark(__file__, __doc__, measure, print_table)
