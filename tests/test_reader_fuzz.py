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


def load_in_child(path):
    """Loads a geometry file in a child process (a reader that crashes or
    hangs cannot take the tests with it): the completed process, whose
    stdout is 'loaded <number of triangles>' or 'refused'."""
    code = ("from klampt import Geometry3D\n"
            "g = Geometry3D()\n"
            "print('loaded %%d' %% len(g.getTriangleMesh().getIndices()) if g.loadFile(%r) else 'refused')\n"
            % str(path))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


def refusal_message(path):
    """Loads a geometry file in a child process (load_in_child), asserts that
    the child refused it without crashing, and returns what it wrote to
    stderr (the refusal)."""
    r = load_in_child(path)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == "refused", r.stdout + r.stderr[-2000:]
    return r.stderr


def load_in_child_with_peak(path, address_limit_gib=4):
    """Loads a geometry file in a child process limited to address_limit_gib
    of address space: the completed process, whose stdout is 'loaded' or
    'refused' then the child's peak resident memory in MiB (its own VmHWM:
    getrusage's also counts the parent's size at the fork)."""
    code = ("import resource\n"
            "limit = %d << 30\n"
            "resource.setrlimit(resource.RLIMIT_AS, (limit, limit))\n"
            "from klampt import Geometry3D\n"
            "answer = 'loaded' if Geometry3D().loadFile(%r) else 'refused'\n"
            "peak = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]\n"
            "print(answer, int(peak) // 1024)\n" % (address_limit_gib, str(path)))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


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


def test_mesh_with_a_face_index_past_the_vertices_is_refused(tmp_path):
    # Found by the fuzzer: Assimp's vertex joining crashed on this PLY file.
    path = tmp_path / "bad_index.ply"
    path.write_text("ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\n"
                    "element face 4\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n"
                    "0 0 1\n3 0 2 1\n3 0 1 3\n3 0 3 2147483648\n3 1 2 3\n")
    code = ("from klampt import Geometry3D\n"
            "g = Geometry3D()\n"
            "print('loaded' if g.loadFile(%r) else 'refused')\n" % str(path))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == "refused"
    assert "bad_index.ply" in r.stderr  # the refusal names the file
    good = tmp_path / "good.ply"
    good.write_text(path.read_text().replace("2147483648", "2"))
    r = subprocess.run([sys.executable, "-c", code.replace(str(path), str(good))], capture_output=True, text=True,
                       timeout=120)
    assert r.stdout.strip() == "loaded", r.stderr[-2000:]


COLLADA_TRIANGLE = """<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <library_geometries>
    <geometry id="tri"><mesh>
      <source id="pos"><float_array id="pos-a" count="9">0 0 0 1 0 0 0 1 0</float_array>
        <technique_common><accessor source="#pos-a" count="3" stride="3">
          <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
        </accessor></technique_common></source>
      <vertices id="v"><input semantic="POSITION" source="#pos"/></vertices>
      <triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 INDEX</p></triangles>
    </mesh></geometry>
  </library_geometries>
  <library_visual_scenes><visual_scene id="s"><node id="n">
    <instance_geometry url="#tri"/></node></visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
"""


def test_collada_index_list_with_a_stray_character_is_refused(tmp_path):
    # Found by the fuzzer: Assimp's COLLADA reader loops forever, taking memory,
    # on a number such as 1.5.5 in a <p> index list.
    path = tmp_path / "bad_index.dae"
    path.write_text(COLLADA_TRIANGLE.replace("INDEX", "1.5.5"))
    message = refusal_message(path)
    assert "bad_index.dae" in message and "index list" in message
    good = tmp_path / "good.dae"
    good.write_text(COLLADA_TRIANGLE.replace("INDEX", "2"))
    r = load_in_child(good)
    assert r.stdout.strip() == "loaded 1", r.stderr[-2000:]


def test_collada_index_list_with_a_vertical_tab_is_refused_in_bounded_memory(tmp_path):
    # Found by the fuzzer: a vertical tab in place of one space of a <p> index
    # list (a 20 KB file of the shared data) made Assimp's COLLADA reader take
    # 693 MB under the fuzzer's 4 GiB address limit, and 14 GB without one.
    path = tmp_path / "vertical_tab.dae"
    path.write_text(COLLADA_TRIANGLE.replace("0 1 INDEX", "0\v1 2"))
    r = load_in_child_with_peak(path, address_limit_gib=2)
    assert r.returncode == 0, r.stderr[-2000:]
    answer, peak_mib = r.stdout.split()
    assert answer == "refused" and "vertical_tab.dae:10" in r.stderr and "unexpected byte 0x0b" in r.stderr, r.stderr
    assert int(peak_mib) < 500, "the refusal took %s MiB" % peak_mib
    good = tmp_path / "good.dae"  # tabs and line ends are whitespace Assimp skips
    good.write_text(COLLADA_TRIANGLE.replace("0 1 INDEX", "0\t1\r\n2"))
    assert load_in_child(good).stdout.strip() == "loaded 1"


def test_collada_accessor_with_more_params_than_its_stride_is_refused(tmp_path):
    # Found by the fuzzer: Assimp's COLLADA reader read past the array of an
    # accessor of stride 3 given 1,378 params, and crashed.
    path = tmp_path / "many_params.dae"
    params = '<param name="X" type="float"/>' * 1378
    path.write_text(COLLADA_TRIANGLE.replace("INDEX", "2").replace('<param name="X" type="float"/>', params))
    message = refusal_message(path)
    assert "many_params.dae:6" in message and "1380 params, more than its stride 3" in message
    good = tmp_path / "good.dae"
    good.write_text(COLLADA_TRIANGLE.replace("INDEX", "2"))
    assert load_in_child(good).stdout.strip() == "loaded 1"


def test_collada_primitive_repeating_an_input_is_refused(tmp_path):
    # Found by the fuzzer: a 5 MB file whose triangles repeated one NORMAL
    # input 688 times took Assimp's COLLADA reader 6.3 GB, a copy of every
    # vertex per input.
    vertex = '<input semantic="VERTEX" source="#v" offset="0"/>'
    normal = '<input semantic="NORMAL" source="#pos" offset="0"/>'
    texcoords = ['<input semantic="TEXCOORD" source="#pos" offset="0" set="%d"/>' % k for k in range(33)]
    cases = {"repeated.dae": (vertex + normal * 2, "refused", "repeated.dae:10: <triangles> repeats its input NORMAL"),
             "too_many.dae": (vertex + "".join(texcoords), "refused", "too_many.dae:10: <triangles> has more than 32"),
             "sets.dae": (vertex + normal + "".join(texcoords[:8]), "loaded 1", ""),
             # XML allows spaces around "=": the same semantic and set
             "spaced.dae": (vertex + normal.replace('semantic="', "semantic = '").replace('" source', "' source") +
                            normal, "refused", "spaced.dae:10: <triangles> repeats its input NORMAL")}
    for name, (inputs, answer, message) in cases.items():
        path = tmp_path / name
        path.write_text(COLLADA_TRIANGLE.replace("INDEX", "2").replace(vertex, inputs))
        r = load_in_child(path)
        assert r.returncode == 0 and r.stdout.strip() == answer and message in r.stderr, (name, r.stderr[-2000:])


def test_ply_header_announcing_more_elements_than_the_file_holds_is_refused(tmp_path):
    # Found by the fuzzer: Assimp's PLY reader spent minutes and all memory on
    # a header announcing 99999999999 faces for a 300-byte file.
    path = tmp_path / "huge_count.ply"
    path.write_text("ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\n"
                    "element face 99999999999\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n"
                    "0 1 0\n0 0 1\n3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n")
    message = refusal_message(path)
    assert "huge_count.ply:7" in message and "more than the file can hold" in message
    good = tmp_path / "good.ply"
    good.write_text(path.read_text().replace("99999999999", "4"))
    r = load_in_child(good)
    assert r.stdout.strip() == "loaded 4", r.stderr[-2000:]


def test_ply_face_index_past_the_vertices_in_a_second_list_is_refused_in_bounded_memory(tmp_path):
    # Found by the fuzzer: with two index lists per face, Assimp's PLY reader
    # allocated memory in proportion to a face index (2.3 GB for -2147483648 in
    # a 300-byte file) instead of refusing it.
    path = tmp_path / "two_lists.ply"
    path.write_text("ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\n"
                    "property float z\nelement face 4\nproperty list uchar int vertex_indices\n"
                    "property list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n"
                    "3 0 2 1\n3 0 1 3\n3 0 3 -2147483648\n3 1 2 3\n")
    r = load_in_child_with_peak(path)
    assert r.returncode == 0, r.stderr[-2000:]
    answer, peak_mib = r.stdout.split()
    assert answer == "refused" and "two_lists.ply:17" in r.stderr and "not one of the 4 vertices" in r.stderr
    assert int(peak_mib) < 500, "the refusal took %s MiB" % peak_mib
    good = tmp_path / "good.ply"  # one index list, every index a vertex
    good.write_text(path.read_text().replace("-2147483648", "2").replace(
        "property list uchar int vertex_indices\n", "", 1))
    assert load_in_child(good).stdout.strip() == "loaded 4"


def test_ply_ending_inside_its_faces_is_refused_in_bounded_memory(tmp_path):
    # Found by the fuzzer: a file whose values end inside the faces its header
    # announces made Assimp's PLY reader take 200 MB before refusing it.
    path = tmp_path / "short.ply"
    path.write_text("ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\n"
                    "property float z\nelement face 4\nproperty list uchar int vertex_indices\n"
                    "property list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 0 0\n0 0 1\n"
                    "3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n")
    assert "the values end before the 4 'face' items" in refusal_message(path)


def test_pcd_field_count_beyond_any_descriptor_is_refused(tmp_path):
    # Found by the fuzzer: COUNT 99999999999 made a billion properties per
    # point before memory ran out; now the header is refused at once.
    from klampt import Geometry3D
    header = ("# .PCD v0.7\nVERSION 0.7\nFIELDS x y z rgb\nSIZE 8 8 8 4\nTYPE F F F U\nCOUNT 1 1 1 {}\nWIDTH 2\n"
              "HEIGHT 1\nVIEWPOINT 0 0 0 1 0 0 0\nPOINTS 2\nDATA ascii\n")
    bad = tmp_path / "huge_count.pcd"
    bad.write_text(header.format(99999999999) + "0 0 0 255\n1 0 0 65280\n")
    assert not Geometry3D().loadFile(str(bad))
    good = tmp_path / "good.pcd"
    good.write_text(header.format(1) + "0 0 0 255\n1 0 0 65280\n")
    g = Geometry3D()
    assert g.loadFile(str(good))
    assert g.getPointCloud().numPoints() == 2
    wide = tmp_path / "wide.pcd"  # a descriptor of 33 values per point, as PCL's FPFH, still reads
    wide.write_text(header.format(33).replace("x y z rgb", "x y z fpfh").replace("4\nTYPE F F F U", "4\nTYPE F F F F")
                    + "0 0 0 " + " ".join(["0.5"] * 33) + "\n1 0 0 " + " ".join(["1.5"] * 33) + "\n")
    g = Geometry3D()
    assert g.loadFile(str(wide))
    assert g.getPointCloud().getProperties("fpfh_32")[1] == 1.5
