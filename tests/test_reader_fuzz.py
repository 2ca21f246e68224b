"""A short run of scripts/fuzz_readers.py (the long run takes 100000 inputs
per reader): every file reader gets mutated inputs, and each must end in a
value, a refusal or a Python exception, with no crash, no hang and bounded
memory."""
import json
import os
import subprocess
import sys

from conftest import REPO, require_shared_data

INPUTS = 30


def test_every_reader_survives_a_short_fuzz_run(tmp_path):
    require_shared_data()
    script = os.path.join(REPO, "scripts", "fuzz_readers.py")
    summary = tmp_path / "summary.json"
    # derandomized: the same inputs on every run, so a failure reproduces
    r = subprocess.run([sys.executable, script, "--inputs", str(INPUTS), "--derandomize", "--timeout", "20", "--out",
                        str(tmp_path / "out"), "--json", str(summary)], capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    results = {s["reader"]: s for s in json.loads(summary.read_text())}
    expected = {"rob", "urdf", "world", "off", "obj", "object", "stl", "dae", "tri", "ply", "pcd", "resource", "robotinfo",
                "world_archive", "robot_archive", "geometry_archive"}
    assert set(results) == expected
    for name, s in results.items():
        assert s["seeds"] >= 1 and s["inputs"] == INPUTS, name
        assert s["values"] + s["refused"] + sum(s["exceptions"].values()) == INPUTS, name
        # the mutations reach the parsers: some inputs are turned away
        assert s["refused"] + sum(s["exceptions"].values()) > 0, name
        assert s["slowest_seconds"] < 20, name


def test_fuzzed_files_stay_in_the_mirror(tmp_path):
    # The seeds' folders are mirrored with links: an input written where its
    # seed sits must land in the mirror, never in the data folder itself.
    require_shared_data()
    sys.path.insert(0, os.path.join(REPO, "scripts"))
    try:
        import fuzz_readers
    finally:
        sys.path.pop(0)
    mirror = fuzz_readers.Mirror(str(tmp_path))
    seeds = [os.path.join(fuzz_readers.SHARED, "robots", "baxter.rob"),
             os.path.join(fuzz_readers.SHARED, "robots", "baxter", os.listdir(os.path.join(fuzz_readers.SHARED,
                                                                                          "robots", "baxter"))[0]),
             os.path.join(fuzz_readers.SHARED, "tx90blocks.xml")]
    for seed in seeds:
        path = mirror.place(seed, None)
        assert os.path.realpath(os.path.dirname(path)).startswith(str(tmp_path))
        assert os.path.samefile(os.path.dirname(path), os.path.join(str(tmp_path), os.listdir(str(tmp_path))[0],
                                                                    os.path.relpath(os.path.dirname(seed),
                                                                                    fuzz_readers.SHARED)))

