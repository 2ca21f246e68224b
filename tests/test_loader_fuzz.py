"""Fuzzing of the file loaders through the Python API.

Malformed .rob, .urdf, world .xml, rigid-object .obj and terrain .env text is
fed to ``WorldModel.readFile``, ``WorldModel.loadRobot`` / ``loadRigidObject``
/ ``loadTerrain`` / ``loadElement``, ``RobotModel.loadFile`` and
``RigidObjectModel`` / ``TerrainModel.loadFile``.  Every input must end in a
Python-level outcome (``True`` / ``False``, a possibly empty handle), never in
a crash, and whatever loads must be usable (sizes consistent, ``setConfig``
works, the robot saves and loads again).

The inputs are (a) real files mutated at random (byte and line deletions,
duplications, truncations, token swaps, numbers replaced by huge / NaN / inf /
negative / malformed values, stray quotes, backslashes and XML
metacharacters) and (b) .rob files generated from random lines of the 52
.rob keywords.  Hypothesis runs derandomized, so every run sees the same
examples.

A crash (a segfault, an abort) must fail one test, not kill pytest: each
fuzz campaign runs in a subprocess (this file run as a script) and the test
checks its return code.  Before each load the subprocess records which file
it is about to load, so a crash is reported with the input that caused it.

The mutated files are written into a mirror of their source folder (a real
folder of symbolic links to the original entries), so that the relative
mesh, robot and object paths inside them still resolve.
"""
import json
import logging
import os
import re
import subprocess
import sys
import warnings

import pytest

import klampt
from conftest import PROJECT_DATA, SHARED_DATA, require_shared_data

HERE = os.path.dirname(os.path.abspath(__file__))

# Klamp't's 52 .rob keywords (reference_behaviour_notes.md, section 4.6).
ROB_KEYWORDS = [
    "parents", "links", "jointtype", "drivers", "qmin", "qmindeg", "qmax", "qmaxdeg", "q", "qdeg",
    "velmax", "velmaxdeg", "velmin", "velmindeg", "torquemax", "accmax", "accmaxdeg", "powermax",
    "servop", "servoi", "servod", "dryfriction", "viscousfriction", "tparent", "axis", "alpha",
    "alphadeg", "a", "d", "theta", "thetadeg", "translation", "rotation", "mass", "com",
    "inertiadiag", "inertia", "automass", "autotorque", "geometry", "scale", "geomscale",
    "geommargin", "collision", "nocollision", "selfcollision", "noselfcollision", "geomtransform",
    "joint", "driver", "mount", "property",
]
assert len(set(ROB_KEYWORDS)) == 52

# Sources of the mutated files.  Robots whose meshes take long to load
# (baxter, atlas, kinova: 50-110 ms per load) are left out to keep the
# campaigns fast; their text is like that of the others.
SHARED_ROBOTS = [
    "3pointhand.rob", "athlete.rob", "cartpole.rob", "door.rob", "footed_2d_biped.rob",
    "footed_2d_monoped.rob", "free_balance.rob", "free_cube.rob", "planar3R.rob", "pr2gripper.rob",
    "rethink_electric_gripper.rob", "robotiq_140.rob", "robotiq_85.rob", "simple_2d_biped.rob",
    "sphere.rob", "sphere1cm.rob", "swingup.rob", "tx90ball.rob", "tx90l.rob", "tx90pr2.rob", "ur5.rob",
]
SHARED_URDFS = ["robotiq_140.urdf"]
SHARED_WORLDS = [
    "athlete_plane.xml", "block.xml", "tx90blocks.xml", "tx90cuptable.xml", "tx90obstacles.xml",
    "tx90roll.xml", "tx90scenario0.xml", "tx90scenario2.xml", "tx90sphere.xml",
]

# Examples per campaign: about 8 s of CPU in all, 25-40 s of wall clock on the
# 2-core machine while it compiles.
CAMPAIGNS = {
    "rob-mutate": 220,
    "rob-generate": 260,
    "urdf-mutate": 120,
    "world-mutate": 90,
    "obj-mutate": 150,
    "env-mutate": 100,
}

JOINT_TYPES = {"weld", "normal", "spin", "floating", "floatingplanar", "ballandsocket"}
DRIVER_TYPES = {"normal", "affine", "translation", "rotation", "custom"}


# ---------------------------------------------------------------------------
# The pytest side


@pytest.fixture(scope="module")
def fuzz_root(tmp_path_factory):
    require_shared_data()
    return str(tmp_path_factory.mktemp("fuzz"))


@pytest.mark.parametrize("campaign", sorted(CAMPAIGNS))
def test_fuzz_campaign_never_crashes(campaign, fuzz_root):
    """Runs one campaign in a subprocess: exit code 0, no signal, no hang."""
    workdir = os.path.join(fuzz_root, campaign)
    os.makedirs(workdir)
    env = dict(os.environ)
    src = os.path.dirname(os.path.dirname(klampt.__file__))
    env["PYTHONPATH"] = os.pathsep.join([src, HERE] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env["KLAMPT_DATA_DIR"] = SHARED_DATA
    cmd = [sys.executable, os.path.abspath(__file__), campaign, workdir, str(CAMPAIGNS[campaign])]
    try:
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        pytest.fail("%s: the campaign hung (300 s); last input:\n%s" % (campaign, _last_input(workdir)))
    if proc.returncode != 0:
        how = "killed by signal %d" % -proc.returncode if proc.returncode < 0 else "exit code %d" % proc.returncode
        pytest.fail("%s: %s\nlast input:\n%s\nstderr (tail):\n%s"
                    % (campaign, how, _last_input(workdir), proc.stderr[-6000:]))
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    # The campaign must exercise both outcomes, or it tests little.
    assert summary["examples"] >= CAMPAIGNS[campaign], summary
    assert summary["loaded"] > 0 and summary["failed"] > 0, summary


def _last_input(workdir):
    marker = os.path.join(workdir, "current.json")
    if not os.path.exists(marker):
        return "(none recorded)"
    with open(marker) as f:
        info = json.load(f)
    try:
        with open(info["path"], "rb") as f:
            data = f.read()
    except OSError as e:
        data = repr(e).encode()
    return "%s (loader %s, %d bytes):\n%r" % (info["path"], info["loader"], len(data), data[:4000])


# ---- documented failures (in-process: none of these may crash) ----

MINIMAL_ROB = """links a b
parents -1 0
tparent 1 0 0 0 1 0 0 0 1 0 0 0   1 0 0 0 1 0 0 0 1 0 0 1
axis 0 0 1 0 0 1
qmin -1 -1
qmax 1 1
"""


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_minimal_rob_loads(tmp_path):
    world = klampt.WorldModel()
    assert world.readFile(_write(tmp_path, "minimal.rob", MINIMAL_ROB)) is True
    assert world.robot(0).numLinks() == 2


def test_sphere_rob_fails_cleanly(caplog):
    require_shared_data()
    path = os.path.join(SHARED_DATA, "robots", "sphere.rob")
    world = klampt.WorldModel()
    with caplog.at_level(logging.ERROR, logger="klampt"):
        assert world.readFile(path) is False
    assert world.numRobots() == 0 and world.numIDs() == 0
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("sphere.rob" in m for m in errors), errors
    assert klampt.RobotModel().loadFile(path) is False
    assert world.loadRobot(path).index == -1


@pytest.mark.parametrize("line", ["scale 2", "collision a b", "nocollision 0"])
def test_unsupported_rob_keywords_fail(tmp_path, caplog, line):
    path = _write(tmp_path, "bad.rob", MINIMAL_ROB + line + "\n")
    with caplog.at_level(logging.ERROR, logger="klampt"):
        assert klampt.WorldModel().readFile(path) is False
        assert klampt.RobotModel().loadFile(path) is False
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors and all("bad.rob:7" in m for m in errors), errors


def test_scale_one_is_accepted(tmp_path):
    assert klampt.WorldModel().readFile(_write(tmp_path, "ok.rob", MINIMAL_ROB + "scale 1\n")) is True


def test_missing_files_give_false(tmp_path):
    world = klampt.WorldModel()
    for name in ("missing.rob", "missing.urdf", "missing.xml", "missing.obj", "missing.env", "missing.off"):
        assert world.readFile(str(tmp_path / name)) is False, name
    assert world.loadRobot(str(tmp_path / "missing.rob")).index == -1
    assert world.loadRigidObject(str(tmp_path / "missing.obj")).index == -1
    assert world.loadTerrain(str(tmp_path / "missing.env")).index == -1
    assert world.loadElement(str(tmp_path / "missing.obj")) == -1
    assert klampt.RobotModel().loadFile(str(tmp_path / "missing.urdf")) is False
    assert klampt.RigidObjectModel().loadFile(str(tmp_path / "missing.obj")) is False
    assert klampt.TerrainModel().loadFile(str(tmp_path / "missing.env")) is False
    assert world.numIDs() == 0


URDF_ARM = """<robot name="r">
  <link name="world"/><link name="a"/>
  <joint name="j" type="revolute"><parent link="world"/><child link="a"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>%s</joint>
  %s
</robot>
"""


@pytest.mark.parametrize("name, text", [
    ("only_world.urdf", '<robot name="r"><link name="world"/></robot>'),
    ("negative_damping.urdf", URDF_ARM % ('<dynamics damping="-0.5"/>', "")),
    ("negative_friction.urdf", URDF_ARM % ('<dynamics friction="-1"/>', "")),
    ("negative_servo.urdf", URDF_ARM % ("", '<klampt><link name="a" servoP="-10"/></klampt>')),
    ("nan_friction.urdf", URDF_ARM % ("", '<klampt><link name="a" dryFriction="nan"/></klampt>')),
])
def test_urdf_that_a_rob_could_not_hold_fails(tmp_path, caplog, name, text):
    """A URDF robot must save to a .rob that loads again: no robot without
    links, no negative friction or servo gain (the .rob loader rejects them)."""
    with caplog.at_level(logging.ERROR, logger="klampt"):
        assert klampt.WorldModel().readFile(_write(tmp_path, name, text)) is False
    assert any(name in r.getMessage() for r in caplog.records), caplog.records


def test_urdf_with_zero_friction_and_gains_loads(tmp_path):
    text = URDF_ARM % ('<dynamics damping="0" friction="0"/>',
                       '<klampt><link name="a" servoP="0" servoI="0" servoD="0"/></klampt>')
    world = klampt.WorldModel()
    assert world.readFile(_write(tmp_path, "zero.urdf", text)) is True
    assert world.robot(0).numLinks() == 1


def test_world_constructor_raises_on_missing_file():
    # The reference: "Given a string, loads from a file. A PyException is raised on failure."
    with pytest.raises(Exception, match="missing.xml"):
        klampt.WorldModel("missing.xml")


@pytest.mark.parametrize("name, data", [
    ("bad.rob", MINIMAL_ROB.encode() + b"\x80\xffkeyword 1 2\n"),
    ("bad.obj", b"mesh \"\xc3\x28.off\"\nmass 1\n"),
    ("bad.xml", b"<world><robot file=\"\xed\xa0\x80.rob\"/></world>\n"),
])
def test_errors_quoting_invalid_utf8_are_logged(tmp_path, caplog, name, data):
    """An error message quoting bytes of the file that are not UTF-8 must
    still reach Python (as \\xNN escapes), not raise UnicodeDecodeError."""
    path = tmp_path / name
    path.write_bytes(data)
    with caplog.at_level(logging.ERROR, logger="klampt"):
        assert klampt.WorldModel().readFile(str(path)) is False
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and name in errors[0] and "\\x" in errors[0], errors


def test_non_utf8_names_are_readable(tmp_path):
    """Names that are not UTF-8 decode with surrogateescape, as in SWIG's Klamp't."""
    path = tmp_path / "latin1.rob"
    path.write_bytes(MINIMAL_ROB.replace("links a b", "links \xe9t\xe9 b").encode("latin-1"))
    world = klampt.WorldModel()
    assert world.readFile(str(path)) is True
    name = world.robot(0).link(0).getName()
    assert name.encode("utf-8", "surrogateescape") == "\xe9t\xe9".encode("latin-1")
    assert isinstance(world.getName(1), str)
    assert "latin1" in repr(world.robot(0))


@pytest.mark.parametrize("ext", ["rob", "urdf"])
def test_robot_mounting_itself_fails_cleanly(tmp_path, ext):
    """A mount cycle is an error, not an unbounded recursion (run in a
    subprocess: a stack overflow would kill pytest)."""
    if ext == "rob":
        text = MINIMAL_ROB + "mount 1 self.rob\n"
    else:
        text = '<robot name="s"><link name="base"/><klampt><mount link="-1" file="self.urdf"/></klampt></robot>\n'
    path = _write(tmp_path, "self." + ext, text)
    code = ("import klampt, sys\n"
            "w = klampt.WorldModel()\n"
            "sys.exit(0 if w.readFile(%r) is False and w.numIDs() == 0 else 3)\n" % path)
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(klampt.__file__)))
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, "returncode %d\n%s" % (proc.returncode, proc.stderr[-3000:])


# ---------------------------------------------------------------------------
# The subprocess side: mutation strategies and the per-example checks


NASTY_NUMBERS = [
    b"1e308", b"-1e308", b"1e999", b"-1e999", b"nan", b"NaN", b"-nan", b"inf", b"-inf", b"Infinity",
    b"-1", b"-2", b"0", b"-0", b"1e-320", b"2147483647", b"2147483648", b"-2147483649",
    b"99999999999999999999", b"0x10", b"1.5.2", b"3e", b"+", b"-", b".", b"1,5", b"", b"1e+", b"007",
]
NASTY_BYTES = [
    b'"', b"\\", b"\\\n", b"\\\r\n", b"#", b"<", b">", b"&", b"&amp;", b"&#0;", b"'", b"\x00", b"\r",
    b"\t", b"\xff\xfe", b"\xc3", b"\xc3\xa9", b"]]>", b"<!--", b"-->", b"/>", b"</", b"<?xml?>", b"\n\n",
]
NUMBER_RE = re.compile(rb"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
TOKEN_RE = re.compile(rb"[^\s<>=\"]+")


def _mutation_ops(st):
    """Each op: a strategy of functions bytes -> bytes."""

    def at(text, frac):
        return int(frac * len(text))

    frac = st.floats(0, 1)

    def delete_bytes(a, k):
        return lambda t: t[:at(t, a)] + t[at(t, a) + k:]

    def truncate(a):
        return lambda t: t[:at(t, a)]

    def duplicate_chunk(a, k):
        return lambda t: t[:at(t, a) + k] + t[at(t, a):]

    def insert(a, s):
        return lambda t: t[:at(t, a)] + s + t[at(t, a):]

    def line_op(kind, a, b):
        def f(t):
            lines = t.split(b"\n")
            i, j = min(at(lines, a), len(lines) - 1), min(at(lines, b), len(lines) - 1)
            if kind == "delete":
                del lines[i]
            elif kind == "duplicate":
                lines.insert(i, lines[i])
            elif kind == "swap":
                lines[i], lines[j] = lines[j], lines[i]
            elif kind == "move":
                lines.insert(j, lines.pop(i))
            return b"\n".join(lines)
        return f

    def regex_op(regex, kind, a, b, value):
        def f(t):
            spans = [m.span() for m in regex.finditer(t)]
            if not spans:
                return t
            i, j = spans[min(at(spans, a), len(spans) - 1)], spans[min(at(spans, b), len(spans) - 1)]
            if kind == "replace":
                return t[:i[0]] + value + t[i[1]:]
            if kind == "delete":
                return t[:i[0]] + t[i[1]:]
            if i == j:
                return t
            (s0, e0), (s1, e1) = sorted([i, j])
            return t[:s0] + t[s1:e1] + t[e0:s1] + t[s0:e0] + t[e1:]
        return f

    return st.one_of(
        st.builds(delete_bytes, frac, st.integers(1, 40)),
        st.builds(truncate, frac),
        st.builds(duplicate_chunk, frac, st.integers(1, 200)),
        st.builds(insert, frac, st.sampled_from(NASTY_BYTES)),
        st.builds(insert, frac, st.binary(min_size=1, max_size=8)),
        st.builds(line_op, st.sampled_from(["delete", "duplicate", "swap", "move"]), frac, frac),
        st.builds(regex_op, st.just(NUMBER_RE), st.just("replace"), frac, frac, st.sampled_from(NASTY_NUMBERS)),
        st.builds(regex_op, st.just(NUMBER_RE), st.just("replace"), frac, frac,
                  st.floats(allow_nan=True, allow_infinity=True).map(lambda x: repr(x).encode())),
        st.builds(regex_op, st.just(NUMBER_RE), st.just("delete"), frac, frac, st.just(b"")),
        st.builds(regex_op, st.just(TOKEN_RE), st.sampled_from(["swap", "delete"]), frac, frac, st.just(b"")),
        st.builds(regex_op, st.just(TOKEN_RE), st.just("replace"), frac, frac,
                  st.sampled_from(NASTY_NUMBERS + NASTY_BYTES + [b"-1", b"world", b"base_link", b"x.rob"])),
    )


def _mutated(st, sources):
    """A source file's text with 1-4 random mutations."""
    return st.tuples(st.sampled_from(sources), st.lists(_mutation_ops(st), min_size=1, max_size=4)).map(
        lambda pair: (pair[0][0], _apply(pair[0][1], pair[1])))


def _apply(text, ops):
    for op in ops:
        text = op(text)
    return text


GEN_WORDS = [
    "r", "p", "normal", "affine", "translation", "rotation", "custom", "weld", "spin", "floating",
    "ballandsocket", "floatingplanar", "Normal", "as", "a", "b", "c", "base", "-1", "0", "1", "2", "6",
    "planar3R.rob", "fuzz.rob", "robotiq_85.rob", "../objects/cube.off", "../objects/sphere.geom",
    "missing.off", "controller", "sensors", "ctrl.xml", '"<a/>"', '"<unclosed"', '""', '"', "\\",
    '"x\\"', '"a b"', "1e", "--1", "0x1p3", "\u00fc", "#", "\\t",
]
GEN_BASES = [
    "",
    # three revolute links with geometry
    "links a b c\nparents -1 0 1\n"
    "tparent 1 0 0 0 1 0 0 0 1 0 0 0 \\\n 1 0 0 0 1 0 0 0 1 0 0 0.5 \\\n 1 0 0 0 1 0 0 0 1 0 0 0.5\n"
    "axis 0 0 1 0 1 0 0 1 0\nqmin -1 -1 -1\nqmax 1 1 1\n"
    'geometry "../objects/cube.off" "" "../objects/sphere.off"\n',
    # a floating base (6 virtual links) and one revolute link
    "parents -1 0 1 2 3 4 5\n"
    "tparent" + " 1 0 0 0 1 0 0 0 1 0 0 0" * 7 + "\n"
    "jointtype p p p r r r r\naxis 1 0 0 0 1 0 0 0 1 0 0 1 0 1 0 1 0 0 0 0 1\n"
    "joint floating 5 -1\njoint normal 6\ndriver normal 6\n",
    # Denavit-Hartenberg kinematics
    "alpha 0 1.57 0\na 0 0 0.4\nd 0.3 0 0\ntheta 0 0 0\n",
]


def _generated_rob(st):
    number = st.one_of(st.integers(-3, 12).map(str), st.sampled_from([n.decode() for n in NASTY_NUMBERS]),
                       st.floats(allow_nan=True, allow_infinity=True).map(repr))
    token = st.one_of(number, st.sampled_from(GEN_WORDS),
                      st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=6))
    args = st.one_of(
        st.lists(token, max_size=14),
        # a count that often matches the number of links (3 or 7), DOFs x 3, x 9 or x 12
        st.sampled_from([0, 1, 2, 3, 6, 7, 9, 12, 21, 27, 36, 84]).flatmap(
            lambda k: st.lists(number, min_size=k, max_size=k)),
    )
    case = st.sampled_from([str.lower, str.upper, str.title, lambda s: s])
    line = st.builds(lambda kw, c, a, end: " ".join([c(kw)] + a) + end,
                     st.sampled_from(ROB_KEYWORDS), case, args, st.sampled_from(["", "", " \\", " # comment"]))
    return st.tuples(st.sampled_from(GEN_BASES), st.lists(line, min_size=1, max_size=8)).map(
        lambda pair: pair[0] + "\n".join(pair[1]) + "\n")


def _mirror(src, dst, real_subdirs=()):
    """dst: a real folder of symbolic links to src's entries, except
    real_subdirs, which are mirrored the same way (one level)."""
    os.makedirs(dst, exist_ok=True)
    for entry in os.listdir(src):
        s, d = os.path.join(src, entry), os.path.join(dst, entry)
        if entry in real_subdirs and os.path.isdir(s):
            _mirror(s, d)
        elif not os.path.lexists(d):
            os.symlink(s, d)


def _read(path):
    with open(path, "rb") as f:
        return f.read()


class Campaign:
    def __init__(self, kind, workdir):
        self.kind = kind
        self.workdir = workdir
        self.stats = {"examples": 0, "loaded": 0, "failed": 0}
        self.shared = os.path.join(workdir, "shared")
        self.project = os.path.join(workdir, "project")
        _mirror(SHARED_DATA, self.shared, ("robots", "objects", "terrains"))
        _mirror(PROJECT_DATA, self.project, ("robots", "objects", "terrains", "worlds"))
        self.errors = []
        handler = logging.Handler()
        handler.emit = lambda record: self.errors.append(record.getMessage())
        logger = logging.getLogger("klampt")
        logger.addHandler(handler)
        logger.propagate = False
        warnings.simplefilter("ignore")

    # sources: (folder in the mirror to write the fuzzed file into, text)
    def sources(self, shared_names, shared_sub, project_sub, ext):
        out = []
        for name in shared_names:
            out.append((os.path.join(self.shared, shared_sub), _read(os.path.join(SHARED_DATA, shared_sub, name))))
        pdir = os.path.join(PROJECT_DATA, project_sub)
        for name in sorted(os.listdir(pdir)):
            if name.endswith(ext):
                out.append((os.path.join(self.project, project_sub), _read(os.path.join(pdir, name))))
        assert out
        return out

    def write(self, folder, ext, data, loader):
        path = os.path.join(folder, "fuzz" + ext)
        with open(path, "wb") as f:
            f.write(data)
        keep = os.environ.get("KLAMPT_FUZZ_KEEP")  # debugging: keep every input, in order
        if keep:
            os.makedirs(keep, exist_ok=True)
            with open(os.path.join(keep, "%06d%s" % (self.stats["examples"], ext)), "wb") as f:
                f.write(data)
        self.mark(path, loader)
        return path

    def mark(self, path, loader):
        with open(os.path.join(self.workdir, "current.json"), "w") as f:
            json.dump({"path": path, "loader": loader}, f)

    def count(self, ok):
        self.stats["examples"] += 1
        self.stats["loaded" if ok else "failed"] += 1

    def expect_error_about(self, path):
        """A failed load logs an error naming the file."""
        name = os.path.basename(path)
        assert any(name in m for m in self.errors), (name, self.errors)

    # ---- robots ----

    def check_robot_file(self, path, second_loader):
        del self.errors[:]
        world = klampt.WorldModel()
        self.mark(path, "WorldModel.readFile")
        ok = world.readFile(path)
        assert ok is True or ok is False
        if not ok:
            assert world.numIDs() == 0
            self.expect_error_about(path)
        else:
            assert world.numRobots() == 1 and world.numRigidObjects() == 0 and world.numTerrains() == 0
            self.check_robot(world.robot(0))
            assert world.numIDs() == 1 + world.robot(0).numLinks()
        # A second loader must agree.
        self.mark(path, second_loader)
        if second_loader == "loadRobot":
            w2 = klampt.WorldModel()
            robot = w2.loadRobot(path)
            assert isinstance(robot, klampt.RobotModel)
            assert (robot.index == 0) == ok and w2.numRobots() == int(ok)
        elif second_loader == "RobotModel.loadFile":
            robot = klampt.RobotModel()
            r = robot.loadFile(path)
            assert r is ok
            if not ok:
                assert robot.numLinks() == 0
        else:
            w2 = klampt.WorldModel()
            robot = None
            ident = w2.loadElement(path)
            assert isinstance(ident, int) and (ident >= 0) == ok
            if ok:
                robot = w2.robot(0)
        if ok:
            assert robot.numLinks() == world.robot(0).numLinks()
            self.check_robot(robot)
            self.check_save_and_reload(world.robot(0))
        self.count(ok)

    def read_name(self, getter, *args):
        """A name from the file is always readable as a str."""
        assert isinstance(getter(*args), str)

    def check_robot(self, robot):
        n = robot.numLinks()
        self.read_name(robot.getName)
        q = robot.getConfig()
        assert len(q) == n and len(robot.getVelocity()) == n
        for limits in (robot.getJointLimits(), robot.getVelocityLimits(), robot.getAccelerationLimits(),
                       robot.getTorqueLimits()):
            assert all(len(v) == n for v in (limits if isinstance(limits, tuple) else [limits]))
        for i in range(n):
            link = robot.link(i)
            assert -1 <= link.getParent() < i
            assert robot.getJointType(i) in JOINT_TYPES
            link.getTransform()
            link.getMass().getInertia()
            link.geometry().type()
            self.read_name(link.getName)
        for d in range(robot.numDrivers()):
            driver = robot.driver(d)
            self.read_name(driver.getName)
            assert driver.getType() in DRIVER_TYPES
            assert all(0 <= l < n for l in driver.getAffectedLinks())
            driver.getLimits()
            driver.getValue()
        if n >= 2:
            robot.selfCollisionEnabled(0, n - 1)
        robot.setConfig([0.0] * n)
        assert list(robot.getConfig()) == [0.0] * n
        if n:
            robot.link(n - 1).getTransform()
            robot.link(n - 1).getJacobian([0, 0, 0])
        robot.getCom()
        if all(x == x and abs(x) != float("inf") for x in q):
            robot.setConfig(q)

    def check_save_and_reload(self, robot):
        out = os.path.join(self.workdir, "saved", "resaved.rob")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        self.mark(out, "RobotModel.saveFile")
        del self.errors[:]
        if not robot.saveFile(out):
            # The one thing a .rob file cannot hold (a URDF can: &#10;).
            assert len(self.errors) == 1 and "line break" in self.errors[0], self.errors
            return
        self.mark(out, "WorldModel.readFile (saved)")
        w = klampt.WorldModel()
        assert w.readFile(out) is True, self.errors
        assert w.robot(0).numLinks() == robot.numLinks()
        assert w.robot(0).numDrivers() == robot.numDrivers()

    # ---- worlds, objects, terrains ----

    def check_world_file(self, path, load_geometry=True):
        del self.errors[:]
        world = klampt.WorldModel()
        world.enableGeometryLoading(load_geometry)
        self.mark(path, "WorldModel.readFile" + ("" if load_geometry else " (no geometry)"))
        ok = world.readFile(path)
        assert ok is True or ok is False
        if not ok:
            assert world.numIDs() == 0
            assert self.errors, "no error logged"
        else:
            ids = world.numTerrains() + world.numRigidObjects()
            for r in range(world.numRobots()):
                self.check_robot(world.robot(r))
                ids += 1 + world.robot(r).numLinks()
            assert world.numIDs() == ids
            for i in range(world.numIDs()):
                self.read_name(world.getName, i)
            for o in range(world.numRigidObjects()):
                obj = world.rigidObject(o)
                obj.getTransform()
                obj.getMass().getCom()
                if not obj.geometry().empty():
                    obj.geometry().getBB()
            for t in range(world.numTerrains()):
                if not world.terrain(t).geometry().empty():
                    world.terrain(t).geometry().getBB()
            # Whatever loads saves, and the saved world loads to the same counts.
            out = os.path.join(self.workdir, "saved", "world.xml")
            self.mark(out, "WorldModel.saveFile")
            del self.errors[:]
            if not world.saveFile(out):
                assert len(self.errors) == 1, self.errors
                assert "line break" in self.errors[0] or (
                    not load_geometry and "without geometry" in self.errors[0]), self.errors
                self.count(ok)
                return
            self.mark(out, "WorldModel.readFile (saved)")
            again = klampt.WorldModel()
            assert again.readFile(out) is True, self.errors
            assert [again.numRobots(), again.numRigidObjects(), again.numTerrains(), again.numIDs()] == \
                [world.numRobots(), world.numRigidObjects(), world.numTerrains(), world.numIDs()]
        if load_geometry:
            self.mark(path, "WorldModel(fn)")
            try:
                klampt.WorldModel(path)
                raised = False
            except Exception:
                raised = True
            assert raised == (not ok)
        self.count(ok)

    def check_object_file(self, path):
        del self.errors[:]
        world = klampt.WorldModel()
        self.mark(path, "loadRigidObject")
        obj = world.loadRigidObject(path)
        assert isinstance(obj, klampt.RigidObjectModel)
        ok = obj.index == 0
        if not ok:
            assert world.numIDs() == 0
            self.expect_error_about(path)
        else:
            assert world.numRigidObjects() == 1
            obj.getTransform()
            m = obj.getMass()
            m.getMass(), m.getCom(), m.getInertia()
            obj.getContactParameters()
            obj.geometry().type()
            obj.geometry().getBB()
        self.mark(path, "RigidObjectModel.loadFile")
        assert klampt.RigidObjectModel().loadFile(path) is ok
        self.mark(path, "WorldModel.readFile")
        assert klampt.WorldModel().readFile(path) is ok
        self.count(ok)

    def check_terrain_file(self, path):
        del self.errors[:]
        world = klampt.WorldModel()
        self.mark(path, "loadTerrain")
        terrain = world.loadTerrain(path)
        assert isinstance(terrain, klampt.TerrainModel)
        ok = terrain.index == 0
        if not ok:
            assert world.numIDs() == 0
            self.expect_error_about(path)
        else:
            terrain.geometry().type()
            terrain.geometry().getBB()
        self.mark(path, "TerrainModel.loadFile")
        assert klampt.TerrainModel().loadFile(path) is ok
        self.mark(path, "WorldModel.readFile")
        assert klampt.WorldModel().readFile(path) is ok
        self.count(ok)


def run_campaign(kind, workdir, examples):
    import faulthandler

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    faulthandler.enable()
    c = Campaign(kind, workdir)
    config = settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                      suppress_health_check=list(HealthCheck), print_blob=True)
    second = st.sampled_from(["loadRobot", "RobotModel.loadFile", "loadElement"])

    if kind == "rob-mutate":
        sources = c.sources(SHARED_ROBOTS, "robots", "robots", ".rob")

        @config
        @given(_mutated(st, sources), second)
        def run(sample, loader):
            c.check_robot_file(c.write(sample[0], ".rob", sample[1], "write"), loader)

    elif kind == "rob-generate":
        folder = os.path.join(c.shared, "robots")

        @config
        @given(_generated_rob(st), second)
        def run(text, loader):
            c.check_robot_file(c.write(folder, ".rob", text.encode("utf-8", "surrogatepass"), "write"), loader)

    elif kind == "urdf-mutate":
        sources = c.sources(SHARED_URDFS, "robots", "robots", ".urdf")

        @config
        @given(_mutated(st, sources), second)
        def run(sample, loader):
            c.check_robot_file(c.write(sample[0], ".urdf", sample[1], "write"), loader)

    elif kind == "world-mutate":
        sources = [(c.shared, _read(os.path.join(SHARED_DATA, n))) for n in SHARED_WORLDS]
        sources += c.sources([], "", "worlds", ".xml")

        @config
        @given(_mutated(st, sources), st.sampled_from([True, True, True, False]))
        def run(sample, load_geometry):
            c.check_world_file(c.write(sample[0], ".xml", sample[1], "write"), load_geometry)

    elif kind == "obj-mutate":
        # All key/value files; the mutations that break the first key make
        # them load as (broken) Wavefront meshes, through Assimp.
        shared_objs = sorted(n for n in os.listdir(os.path.join(SHARED_DATA, "objects")) if n.endswith(".obj"))
        sources = c.sources(shared_objs, "objects", "objects", ".obj")

        @config
        @given(_mutated(st, sources))
        def run(sample):
            c.check_object_file(c.write(sample[0], ".obj", sample[1], "write"))

    elif kind == "env-mutate":
        sources = c.sources(["plane.env"], "terrains", "terrains", ".env")

        @config
        @given(_mutated(st, sources))
        def run(sample):
            c.check_terrain_file(c.write(sample[0], ".env", sample[1], "write"))

    else:
        raise SystemExit("unknown campaign " + kind)

    run()
    print(json.dumps(c.stats))


if __name__ == "__main__":
    run_campaign(sys.argv[1], sys.argv[2], int(sys.argv[3]))
