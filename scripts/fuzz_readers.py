"""Fuzzes every file reader of klampt with Hypothesis: .rob, URDF (with its
<klampt> element), world XML, meshes (OFF, OBJ, STL, PLY, DAE, TRI), point
clouds (.pcd), rigid-object files (.obj), resources (.path, .traj, .milestones, .configs, .config and
JSON through klampt.io.loader), robot-info JSON, and the byte archives of
pickled worlds, robots and geometries.

    python scripts/fuzz_readers.py                    # 100000 inputs per reader
    python scripts/fuzz_readers.py --inputs 200 --readers rob,pcd --json out.json

Each input is a seed file (the shared Klamp't data, or files the library writes
itself) changed by random byte and token mutations. Every input must end in a
value or a Python exception within --timeout seconds of CPU time (and ten
times that of wall-clock time, for a reader that waits), with no crash and within
--memory MiB of address space. Each reader runs in a child process, so a crash
or a hang ends that reader's run with the input that caused it saved under
--out; the summary gives, per reader, the inputs run, how many loaded, how
many a reader refused (False or None), the exceptions raised, the slowest
input with its time, and the input that raised the resident peak the most. Exit status 1 when a
reader crashed, hung or ran out of memory.
"""
import argparse
import faulthandler
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.environ.get("KLAMPT_DATA_DIR", os.path.join(os.path.dirname(REPO), "shared", "klampt-data"))
PROJECT_DATA = os.path.join(REPO, "data")

# Values put in place of a number of the seed.
ODD_NUMBERS = [b"nan", b"inf", b"-inf", b"-1", b"0", b"-0", b"1e308", b"1e-308", b"99999999999", b"2147483648",
               b"-2147483649", b"0x10", b"1.5.5", b"", b"abc", b"1e999999"]


# ---------------------------------------------------------------- readers

def _world():
    from klampt import WorldModel
    return WorldModel()


def read_robot(path):
    """A .rob or .urdf into a world; the robot loaded is used."""
    w = _world()
    r = w.loadRobot(path)
    if r.index >= 0:
        r.setConfig(r.getConfig())
        return r.numLinks()
    return None


def read_world(path):
    """A world XML file; what loads is used."""
    w = _world()
    if not w.readFile(path):
        return None
    for i in range(w.numRobots()):
        w.robot(i).setConfig(w.robot(i).getConfig())
    return w.numIDs()


def read_geometry(path):
    """A mesh or point-cloud file into a Geometry3D, whose box is asked."""
    from klampt import Geometry3D
    g = Geometry3D()
    if not g.loadFile(path):
        return None
    return g.getBB() if not g.empty() else None


def read_object(path):
    """A rigid-object file (.obj) into a world; the object loaded is used."""
    w = _world()
    o = w.loadRigidObject(path)
    if o.index >= 0:
        return o.getMass().getMass()
    return None


def read_resource(path):
    """A resource file through klampt.io.loader (type from the extension)."""
    from klampt.io import loader
    return loader.load("auto", path)


def read_robotinfo(path):
    """A robot-info JSON file."""
    from klampt.model.robotinfo import RobotInfo
    return RobotInfo.load(path)


# The model readers and the WorldModel method each calls.
MODEL_LOADERS = {read_robot: "loadRobot", read_world: "readFile", read_object: "loadRigidObject"}


def hold_seeds(read, blobs, paths):
    """Worlds holding each seed loaded from where its fuzzed copies go, for
    the whole run: a mesh file's shape is shared among the models that hold
    it, so a fuzzed robot or world file re-reads no unchanged mesh (the mesh
    readers are fuzzed on their own)."""
    method = MODEL_LOADERS.get(read)
    held = []
    for blob, path in zip(blobs, paths if method else []):
        with open(path, "wb") as f:
            f.write(blob)
        w = _world()
        try:
            getattr(w, method)(path)
        except Exception:  # a seed that does not load holds nothing
            pass
        held.append(w)
    return held


def _archive_reader(kind):
    def read(path):
        from klampt import _robotsim
        with open(path, "rb") as f:
            return getattr(_robotsim, "_%s_from_archive" % kind)(f.read())
    read.__doc__ = "The bytes of a pickled %s." % kind
    return read


# ---------------------------------------------------------------- seeds

def _files(ext, roots=(SHARED,), limit=40, max_size=2_000_000):
    """Up to `limit` of the smallest files named *.ext under the roots."""
    found = []
    for root in roots:
        for d, _, names in os.walk(root, followlinks=True):
            found += [os.path.join(d, n) for n in names if n.lower().endswith("." + ext)]
    found = [f for f in found if os.path.getsize(f) <= max_size]
    return sorted(found, key=os.path.getsize)[:limit]


def _world_files():
    out = []
    for f in _files("xml", (SHARED, os.path.join(PROJECT_DATA, "worlds")), limit=200):
        with open(f, "rb") as fh:
            if b"<world" in fh.read(4096):
                out.append(f)
    return out[:40]


def _written_seeds(folder):
    """Seeds of the formats the shared data lacks, written by the library."""
    from klampt import Geometry3D, PointCloud, TriangleMesh, WorldModel
    from klampt.io import loader
    from klampt.model.trajectory import Trajectory
    os.makedirs(folder, exist_ok=True)
    seeds = {}
    pc = PointCloud()
    pc.setPoints([[0, 0, 0], [1, 0, 0], [0, 1, 0.5], [0.2, 0.3, 0.4]])
    pc.addProperty("rgb", [255, 65280, 16711680, 0])
    path = os.path.join(folder, "cloud.pcd")
    Geometry3D(pc).saveFile(path)
    seeds["pcd"] = [path]
    mesh = TriangleMesh()
    mesh.setVertices([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
    mesh.setIndices([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])
    ply = os.path.join(folder, "tetra.ply")
    with open(ply, "w") as f:
        f.write("ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\n"
                "element face 4\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n"
                "3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n")
    seeds["ply"] = [ply]
    obj = os.path.join(folder, "tetra.obj")
    with open(obj, "w") as f:
        f.write("# tetrahedron\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nvn 0 0 1\nf 1 3 2\nf 1//1 2//1 4//1\n"
                "f 1 4 3\nf 2 3 4\n")
    seeds["obj"] = [obj]
    traj = Trajectory([0, 0.5, 1.5], [[0, 0], [1, 2], [3, -1]])
    seeds["traj"] = [os.path.join(folder, "t.traj")]
    traj.save(seeds["traj"][0])
    configs = os.path.join(folder, "c.configs")
    loader.save([[0, 1, 2], [3, 4, 5]], "Configs", configs)
    json_res = os.path.join(folder, "t.json")
    loader.save(traj, "json", json_res)
    seeds["resource"] = [configs, json_res, seeds["traj"][0]]
    w = WorldModel()
    w.readFile(os.path.join(PROJECT_DATA, "worlds", "arm_table.xml"))
    archives = {"world": w.__reduce__()[1][0], "robot": w.robot(0).__reduce__()[1][0],
                "geometry": w.robot(0).link(w.robot(0).numLinks() - 1).geometry().__reduce__()[1][0]}
    for kind, data in archives.items():
        path = os.path.join(folder, kind + ".bin")
        with open(path, "wb") as f:
            f.write(data)
        seeds[kind + "_archive"] = [path]
    return seeds


def readers(seed_folder):
    """{name: (read function, extension or None to keep the seed's, seed paths)}."""
    written = _written_seeds(seed_folder)
    motions = [f for e in ("path", "milestones", "config") for f in _files(e)]
    out = {
        "rob": (read_robot, "rob", _files("rob")),
        "urdf": (read_robot, "urdf", _files("urdf")),
        "world": (read_world, "xml", _world_files()),
        "off": (read_geometry, "off", _files("off", limit=20, max_size=200_000)),
        "obj": (read_geometry, "obj", written["obj"]),
        "object": (read_object, "obj", _files("obj", limit=20, max_size=200_000)),
        "stl": (read_geometry, "stl", _files("stl", limit=20, max_size=200_000)),
        "dae": (read_geometry, "dae", _files("dae", limit=20, max_size=200_000)),
        "tri": (read_geometry, "tri", _files("tri")),
        "ply": (read_geometry, "ply", written["ply"]),
        "pcd": (read_geometry, "pcd", written["pcd"]),
        "resource": (read_resource, None, motions + written["resource"]),
        "robotinfo": (read_robotinfo, "json", _files("json", (PROJECT_DATA,))),
    }
    for kind in ("world", "robot", "geometry"):
        out[kind + "_archive"] = (_archive_reader(kind), "bin", written[kind + "_archive"])
    return out


# ---------------------------------------------------------------- mutation

# Most repeats of one line a mutation makes. A line of a world file (or a
# mount line of a robot file or a URDF's <klampt> element) names a robot or
# object file that is loaded again for each copy (a tenth of a second for a
# robot arm), so these readers get fewer copies: their inputs must stay within
# the time bound by what they ask, not only by how they are parsed.
MAX_REPEATS = {"world": 24, "rob": 100, "urdf": 100}
DEFAULT_MAX_REPEATS = 2000


def mutate(data, ops, other, max_repeats=DEFAULT_MAX_REPEATS):
    """`data` changed by `ops`: (kind, position, length, blob) tuples."""
    data = bytearray(data)
    for kind, pos, length, blob in ops:
        n = len(data)
        p = pos % (n + 1)
        if kind == 0 and n:  # overwrite bytes
            data[p:p + len(blob)] = blob
        elif kind == 1:  # insert bytes
            data[p:p] = blob
        elif kind == 2:  # delete a range
            del data[p:p + length % 256]
        elif kind == 3:  # duplicate a range
            data[p:p] = data[p:p + length % 512]
        elif kind == 4:  # truncate
            del data[p:]
        elif kind == 5:  # an odd value for a number
            numbers = list(re.finditer(rb"-?\d+(\.\d+)?([eE][-+]?\d+)?", bytes(data)))
            if numbers:
                m = numbers[pos % len(numbers)]
                data[m.start():m.end()] = ODD_NUMBERS[length % len(ODD_NUMBERS)]
        elif kind == 6 and other:  # splice in a piece of another seed
            q = length % len(other)
            data[p:p] = other[q:q + 64]
        elif kind == 7:  # repeat a line many times
            start = data.rfind(b"\n", 0, p) + 1
            end = data.find(b"\n", p)
            line = bytes(data[start:end if end >= 0 else n]) + b"\n"
            data[start:start] = line * (length % max_repeats)
    return bytes(data)


def decode_choice(choice, num_seeds):
    """(seed index, mutation ops, other seed index) read from a byte string:
    two bytes pick the seeds, then each op takes a kind byte, four position
    bytes, three length bytes, a blob length byte and up to 16 blob bytes.
    Hypothesis draws one byte string per input, which costs a fraction of
    drawing the same choices one by one."""
    i = choice[0] % num_seeds if choice else 0
    j = choice[1] % num_seeds if len(choice) > 1 else 0
    ops, at = [], 2
    while at + 9 <= len(choice) and len(ops) < 6:
        kind = (choice[at] + 5) % 8  # all-zero bytes (Hypothesis' favourite) give an odd number, not a no-op
        pos = int.from_bytes(choice[at + 1:at + 5], "little") & 0x7FFFFFFF
        length = int.from_bytes(choice[at + 5:at + 8], "little") & 0xFFFFF
        size = choice[at + 8] % 17
        ops.append((kind, pos, length, bytes(choice[at + 9:at + 9 + size])))
        at += 9 + size
    return i, ops, j


class Mirror:
    """A folder mirroring the data roots with symbolic links, in which a
    fuzzed file sits where its seed does, so its relative paths resolve."""

    def __init__(self, root):
        self.root = root
        self.made = set()

    def place(self, seed, ext):
        base = SHARED if seed.startswith(SHARED) else os.path.dirname(seed)
        rel = os.path.relpath(os.path.dirname(seed), base)
        top = os.path.join(self.root, str(abs(hash(base))))
        src, dst = base, top
        for part in ([] if rel == "." else rel.split(os.sep)) + [None]:
            if dst not in self.made:
                if os.path.islink(dst):  # linked for an earlier seed: becomes a real folder
                    os.unlink(dst)
                os.makedirs(dst, exist_ok=True)
                for name in os.listdir(src):
                    if name != part and not os.path.lexists(os.path.join(dst, name)):
                        os.symlink(os.path.join(src, name), os.path.join(dst, name))
                self.made.add(dst)
            if part is not None:
                src, dst = os.path.join(src, part), os.path.join(dst, part)
        name = "fuzz_input." + (ext or seed.rsplit(".", 1)[-1])
        if not os.path.realpath(dst).startswith(os.path.realpath(self.root) + os.sep):
            raise RuntimeError("the mirror of %s leads out of %s" % (seed, self.root))
        return os.path.join(dst, name)


# ---------------------------------------------------------------- one reader, in a child process

def peak_kib():
    """This process's resident peak in KiB (VmHWM: unlike getrusage's, it does
    not start from the parent's size at the fork)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM"):
                return int(line.split()[1])
    return 0


class _OutOfTime(Exception):
    """The reader's time budget is spent."""


# A stuck reader that does not spin (a deadlock) is caught by wall-clock time,
# this many times the per-input CPU bound: other processes may take the cores.
WALL_FACTOR = 10


class _Watchdog:
    """Ends the process with every thread's traceback when one input has used
    more than `cpu_seconds` of CPU time (so a loop is caught however busy the
    machine is), or `cpu_seconds * WALL_FACTOR` of wall time (faulthandler's
    own thread, which runs even while a native call holds the GIL)."""

    def __init__(self, cpu_seconds):
        self.cpu_seconds = cpu_seconds
        self.started = None
        threading.Thread(target=self._watch, daemon=True).start()

    def arm(self):
        faulthandler.dump_traceback_later(self.cpu_seconds * WALL_FACTOR, exit=True)
        self.started = time.process_time()

    def disarm(self):
        self.started = None
        faulthandler.cancel_dump_traceback_later()

    def _watch(self):
        while True:
            time.sleep(0.25)
            started = self.started
            if started is not None and time.process_time() - started > self.cpu_seconds:
                sys.stderr.write("Timeout: one input used more than %g s of CPU time\n" % self.cpu_seconds)
                faulthandler.dump_traceback(all_threads=True)
                os._exit(1)


def run_worker(name, inputs, out, timeout, memory_mib, budget=None, derandomize=False):
    """Runs `inputs` fuzzed inputs through reader `name`; writes its summary
    to out/name.json. A crash or hang leaves no summary, and the input at
    fault in out/name.current.*."""
    import resource
    import warnings
    import logging

    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st

    limit = memory_mib * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    warnings.simplefilter("ignore")
    logging.disable(logging.CRITICAL)
    os.environ.setdefault("KLAMPT_QUIET", "1")

    work = tempfile.mkdtemp(prefix="fuzz_%s_" % name)
    read, ext, seeds = readers(os.path.join(work, "seeds"))[name]
    if not seeds:
        raise SystemExit("no seeds for reader %s" % name)
    blobs = []
    for s in seeds:
        with open(s, "rb") as f:
            blobs.append(f.read())
    mirror = Mirror(os.path.join(work, "mirror"))
    paths = [mirror.place(s, ext) for s in seeds]
    held = hold_seeds(read, blobs, paths)
    stats = {"reader": name, "seeds": len(seeds), "seeds_held": len(held), "inputs": 0, "values": 0, "refused": 0, "exceptions": {},
             "slowest_seconds": 0.0, "slowest_input": None,
             "peak_growth_mib": 0.0, "peak_input": None}
    record = os.path.join(out, name + ".current")

    @settings(max_examples=inputs, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck), derandomize=derandomize)
    @given(st.binary(min_size=11, max_size=160))
    def one(choice):
        if budget is not None and time.time() > end:
            raise _OutOfTime()
        i, ops, j = decode_choice(choice, len(seeds))
        data = mutate(blobs[i], ops, blobs[j], MAX_REPEATS.get(name, DEFAULT_MAX_REPEATS))
        with open(paths[i], "wb") as f:
            f.write(data)
        with open(record, "wb") as f:  # what a crash report names
            f.write(paths[i].encode() + b"\n" + data)
        peak_before = peak_kib()
        watchdog.arm()
        start, start_cpu = time.perf_counter(), time.process_time()
        try:
            stats["values" if read(paths[i]) is not None else "refused"] += 1
        except MemoryError:
            raise
        except Exception as e:
            key = type(e).__name__
            stats["exceptions"][key] = stats["exceptions"].get(key, 0) + 1
        finally:
            watchdog.disarm()
        elapsed, elapsed_cpu = time.perf_counter() - start, time.process_time() - start_cpu
        stats["inputs"] += 1
        # The resident peak an input raised (the process's peak only grows, so
        # this finds the input that asked for the most memory).
        growth = (peak_kib() - peak_before) / 1024.0
        if growth > stats["peak_growth_mib"]:
            stats["peak_growth_mib"] = growth
            stats["peak_input"] = os.path.join(out, "%s.peak.%s" % (name, paths[i].rsplit(".", 1)[-1]))
            with open(stats["peak_input"], "wb") as f:
                f.write(data)
        if elapsed_cpu > stats["slowest_seconds"]:
            stats["slowest_seconds"] = elapsed_cpu
            stats["slowest_wall_seconds"] = elapsed
            stats["slowest_input"] = os.path.join(out, "%s.slowest.%s" % (name, paths[i].rsplit(".", 1)[-1]))
            with open(stats["slowest_input"], "wb") as f:
                f.write(data)

    watchdog = _Watchdog(timeout)
    end = time.time() + (budget or 0)
    try:
        one()
    except _OutOfTime:
        stats["out_of_time"] = True
    if os.path.exists(record):
        os.remove(record)
    shutil.rmtree(work, ignore_errors=True)
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump(stats, f)


def run_reader(name, inputs, out, timeout, memory_mib, budget=None, derandomize=False):
    """The reader's summary, run in a child process: a crash, a hang or an
    out-of-memory exit is reported with the input at fault."""
    start = time.time()
    r = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", name, "--inputs", str(inputs),
                        "--out", out, "--timeout", str(timeout), "--memory", str(memory_mib)]
                       + (["--budget", str(budget)] if budget else []) + (["--derandomize"] if derandomize else []),
                       capture_output=True, text=True)
    summary = os.path.join(out, name + ".json")
    if r.returncode == 0 and os.path.exists(summary):
        with open(summary) as f:
            stats = json.load(f)
        stats["seconds"] = round(time.time() - start, 1)
        return stats
    fault = os.path.join(out, name + ".current")
    return {"reader": name, "failed": True, "returncode": r.returncode,
            "input": fault if os.path.exists(fault) else None, "stderr": r.stderr[-3000:]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=100_000, help="inputs per reader")
    parser.add_argument("--readers", default="", help="comma-separated reader names (default: all)")
    parser.add_argument("--timeout", type=float, default=20.0,
                        help="CPU seconds allowed per input (and ten times that in wall-clock time)")
    parser.add_argument("--memory", type=int, default=4096, help="address space allowed, MiB")
    parser.add_argument("--out", default=None, help="folder for summaries and failing inputs")
    parser.add_argument("--json", default=None, help="write the summaries to this file")
    parser.add_argument("--budget", type=float, default=None,
                        help="seconds per reader: stop earlier than --inputs when spent")
    parser.add_argument("--derandomize", action="store_true", help="the same inputs on every run")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--list", action="store_true", help="list the readers and their seeds")
    args = parser.parse_args()
    out = args.out or tempfile.mkdtemp(prefix="klampt_fuzz_")
    os.makedirs(out, exist_ok=True)
    if args.worker:
        run_worker(args.worker, args.inputs, out, args.timeout, args.memory, args.budget, args.derandomize)
        return 0
    all_readers = readers(os.path.join(out, "seeds"))
    if args.list:
        for name, (_, _, seeds) in all_readers.items():
            print("%-18s %3d seeds" % (name, len(seeds)))
        return 0
    names = [n for n in args.readers.split(",") if n] or list(all_readers)
    unknown = set(names) - set(all_readers)
    if unknown:
        parser.error("unknown readers: %s" % ", ".join(sorted(unknown)))
    results = []
    for name in names:
        stats = run_reader(name, args.inputs, out, args.timeout, args.memory, args.budget, args.derandomize)
        results.append(stats)
        if stats.get("failed"):
            print("%-18s FAILED (exit %s) on %s\n%s" % (name, stats["returncode"], stats["input"], stats["stderr"]))
        else:
            print("%-18s %7d inputs, %7d loaded, %7d refused, exceptions %s, slowest %.3f s (%s), largest resident "
                  "peak rise %.1f MiB (%s), %.0f s" % (
                      name, stats["inputs"], stats["values"], stats["refused"], stats["exceptions"],
                      stats["slowest_seconds"], stats["slowest_input"], stats["peak_growth_mib"], stats["peak_input"],
                      stats["seconds"]), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 1 if any(r.get("failed") for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
