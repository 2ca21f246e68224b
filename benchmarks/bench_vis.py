"""klampt.vis offscreen rendering: frame time of the demo world and of a pile
of 22 mugs at 640x480, screenshot latency (first in a process, including
the context), and the import time klampt.vis takes (its cumulative time in
``python -X importtime``; here ``import klampt`` includes it).

    python benchmarks/bench_vis.py [--compare PYTHON]

Medians; the reference (0.9.2) has no headless screenshot path, so
--compare reports only what both can run (the import times)."""
import os
import statistics
import subprocess
import sys
import time

from benchcommon import data_dir, run

HERE = os.path.dirname(os.path.abspath(__file__))
DEMO_WORLD = os.path.join(HERE, '..', 'data', 'worlds', 'arm_table.xml')


def _import_ms(repeat=9):
    """Medians over fresh interpreters of the time of ``import klampt`` and
    of the part of ``import klampt, klampt.vis`` spent in klampt.vis (its
    cumulative time in ``-X importtime``), in milliseconds."""
    totals, vis = [], []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, '-X', 'importtime', '-c', 'import klampt, klampt.vis'],
                             check=True, capture_output=True, text=True, cwd='/').stderr
        cumulative = {}
        for line in out.splitlines():
            parts = line.split('|')
            if len(parts) == 3 and parts[1].strip().isdigit():
                cumulative[parts[2].strip()] = int(parts[1])
        totals.append(cumulative.get('klampt', 0) / 1000.0)
        vis.append(cumulative.get('klampt.vis', 0) / 1000.0)
    return statistics.median(totals), statistics.median(vis)


def _first_screenshot_s():
    code = ("import time; t=time.perf_counter(); import klampt; from klampt import vis; "
            "w=klampt.WorldModel(); w.readFile(%r); vis.add('world', w); vis.autoFitCamera(); "
            "vis.screenshot(); print(time.perf_counter()-t)" % DEMO_WORLD)
    env = {k: v for k, v in os.environ.items() if k not in ('DISPLAY', 'WAYLAND_DISPLAY')}
    times = []
    for _ in range(3):
        out = subprocess.run([sys.executable, '-c', code], check=True, capture_output=True, text=True, cwd='/',
                             env=env)
        times.append(float(out.stdout.strip().splitlines()[-1]))
    return statistics.median(times)


def _frame_ms(setup, frames=15):
    from klampt import vis
    vis.init('offscreen')
    vis.createWindow('bench')
    vis.resizeWindow(640, 480)
    setup(vis)
    vis.autoFitCamera()
    vis.screenshot()
    times = []
    for _ in range(frames):
        t = time.perf_counter()
        vis.screenshot()
        times.append(time.perf_counter() - t)
    vis.kill()
    return 1000 * statistics.median(times)


def _demo(vis):
    import klampt
    w = klampt.WorldModel()
    assert w.readFile(DEMO_WORLD)
    vis.add('world', w)


def _tx90blocks(vis):
    import klampt
    w = klampt.WorldModel()
    assert w.readFile(os.path.join(data_dir(), 'tx90blocks.xml'))
    vis.add('world', w)


def _mugs(vis):
    import klampt
    w = klampt.WorldModel()
    mug = os.path.join(data_dir(), 'objects', 'srimugsmooth.off')
    for i in range(22):
        obj = w.loadRigidObject(mug)
        obj.setTransform([1, 0, 0, 0, 1, 0, 0, 0, 1], [0.12 * (i % 5), 0.12 * ((i // 5) % 5), 0.1 * (i // 10)])
    vis.add('world', w)


def measure():
    out = {}
    try:
        import klampt.vis  # noqa: F401
        has_vis = True
    except ImportError:
        has_vis = False
    base, added = _import_ms()
    out['import klampt (ms)'] = base
    out['klampt.vis part of the import (ms)'] = added
    if has_vis and hasattr(klampt.vis, 'screenshot') and 'klampt.vis._context' in _modules_available():
        out['first screenshot in a process (s)'] = _first_screenshot_s()
        out['demo world frame 640x480 (ms)'] = _frame_ms(_demo)
        out['tx90blocks frame 640x480 (ms)'] = _frame_ms(_tx90blocks)
        out['22 mugs frame 640x480 (ms)'] = _frame_ms(_mugs)
    return out


def _modules_available():
    import importlib.util
    return {name for name in ('klampt.vis._context',) if importlib.util.find_spec(name) is not None}


def print_table(mine, other):
    print("%-40s %12s %12s" % ("measurement", "here", "other" if other else ""))
    for key, value in mine.items():
        o = other.get(key) if other else None
        print("%-40s %12.3f %12s" % (key, value, "%.3f" % o if o is not None else ""))


if __name__ == '__main__':
    import klampt  # noqa: F401
    run(__file__, __doc__, measure, print_table)
