"""What every benchmark script shares: where the data is, how a call is timed,
and the command line that runs the same script under another interpreter
(--compare PYTHON) to print speed-ups against it."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import timeit


def data_dir():
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.join(here, "..", "..", "shared", "klampt-data")
    return os.path.abspath(os.environ.get("KLAMPT_DATA_DIR", default))


def median_us(stmt, repeat=21, number=None, env=None, calls=1):
    """Median over `repeat` batches of the time per call, in microseconds.

    `stmt` is a callable, or a statement (evaluated in the namespace `env`)
    holding `calls` calls. Statements are timed inline by timeit, so the time
    of the harness's own Python function call is not added to the method's:
    that overhead would shrink every ratio between two implementations.
    Batches are short (about 1 ms) so that on a shared machine most of them
    run without being preempted and the median is the undisturbed time."""
    timer = timeit.Timer(stmt, globals=env)
    if number is None:
        once = max(timer.timeit(1), 1e-7)
        number = max(1, min(20000, int(0.001 / once)))
    return statistics.median(t / (number * calls) * 1e6 for t in timer.repeat(repeat, number))


def run(script, doc, measure, print_table):
    """The benchmark command line: measure here, optionally under --compare
    PYTHON too (running `script` there), then print the table."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compare", metavar="PYTHON", help="another interpreter whose klampt to measure too")
    ap.add_argument("--json", action="store_true", help="print the measurements as JSON")
    args = ap.parse_args()
    mine = measure()
    if args.json:
        print(json.dumps(mine))
        return
    other = None
    if args.compare:
        # Run from a neutral folder without our PYTHONPATH so the other
        # interpreter imports its own klampt.
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["KLAMPT_DATA_DIR"] = data_dir()
        out = subprocess.run([args.compare, os.path.abspath(script), "--json"], capture_output=True, text=True,
                             cwd="/", env=env)
        if out.returncode != 0:
            sys.exit("the other interpreter failed:\n" + out.stderr)
        other = json.loads(out.stdout.strip().splitlines()[-1])
    print_table(mine, other)
