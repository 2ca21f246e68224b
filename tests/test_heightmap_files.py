"""Heightmap files as Klamp't 0.10 writes them (a JSON description naming
height and colour images): the reference's own files read back with the
heights it was given, round trips of every part of a heightmap through a
save and a load, worlds that name such a file, and clear errors."""
import json
import os

import numpy as np
import pytest

import klampt

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = os.path.join(HERE, "data", "heightmap_files")


def reference_heights():
    """The heights data/make_heightmap_files.py gave the reference's ortho map."""
    i, j = np.meshgrid(np.arange(5), np.arange(4), indexing="ij")
    return 0.1 * i + 0.05 * j * j + 0.2


def test_reads_the_references_files():
    g = klampt.Geometry3D()
    assert g.loadFile(os.path.join(FILES, "ref_ortho.json"))
    assert g.type() == "Heightmap"
    hm = g.getHeightmap()
    vp = hm.viewport
    assert (vp.w, vp.h, bool(vp.perspective)) == (5, 4, False)
    # 8-bit samples over the height range (the reference truncates): within a step.
    step = (1.05 - 0.2) / 255
    np.testing.assert_allclose(hm.heights, reference_heights(), atol=step + 1e-6)
    R, t = vp.getPose()
    np.testing.assert_allclose(t, [0.5, -0.25, 0.1])
    np.testing.assert_allclose(R, np.eye(3).ravel())
    x0, x1 = g.getBB()[0][0], g.getBB()[1][0]
    # xsize 2: the samples span 2 around the offset, as in the reference's meshes.
    assert (x0, x1) == pytest.approx((0.5 - 1.0, 0.5 + 1.0))
    colors = np.asarray(hm.getColorImage())[:, :, :3]
    expected = np.zeros((4, 5, 3), dtype=np.uint8)
    expected[0, 0] = [255, 0, 0]
    expected[3, 4] = [0, 0, 255]
    expected[1, 2] = [10, 200, 30]
    np.testing.assert_array_equal(colors, expected)
    persp = klampt.Geometry3D()
    assert persp.loadFile(os.path.join(FILES, "ref_persp.json"))
    p = persp.getHeightmap()
    assert p.viewport.perspective and (p.viewport.w, p.viewport.h) == (4, 3)
    truth = 1.0 + 0.25 * np.arange(4)[:, None] + 0.5 * np.arange(3)[None, :]
    np.testing.assert_allclose(p.heights, truth, atol=1.75 / 255 + 1e-6)


def posed_colored_map():
    hm = klampt.Heightmap()
    hm.resize(7, 5)
    hm.setSize(1.4, 0.8)
    rng = np.random.default_rng(3)
    hm.heights[:] = rng.uniform(-0.3, 0.9, size=(7, 5))
    hm.heights[2, 3] = np.nan
    img = rng.integers(0, 256, size=(5, 7, 3), dtype=np.uint8)
    hm.setColorImage_b(img)
    hm.addProperty("temperature", rng.uniform(10, 30, size=(7, 5)))
    vp = hm.viewport
    vp.setPose([0, 1, 0, -1, 0, 0, 0, 0, 1], [1.0, 2.0, 0.5])
    hm.viewport = vp
    return hm, img


def test_round_trip_keeps_every_part(tmp_path):
    hm, img = posed_colored_map()
    path = str(tmp_path / "terrain.json")
    assert klampt.Geometry3D(hm).saveFile(path)
    doc = json.load(open(path))
    assert doc["type"] == "Heightmap" and doc["heights"] == "terrain_height.pgm"
    # The keys Klamp't 0.10 reads: the sizes it passes to setSize, the offset.
    assert (doc["xsize"], doc["ysize"]) == pytest.approx((1.4, 0.8))
    assert doc["offset"] == pytest.approx([1.0, 2.0, 0.5])
    assert sorted(os.listdir(tmp_path)) == ["terrain.json", "terrain_color.ppm", "terrain_height.pgm",
                                            "terrain_temperature.pgm"]
    back = klampt.Geometry3D()
    assert back.loadFile(path)
    got = back.getHeightmap()
    lo, hi = np.nanmin(hm.heights), np.nanmax(hm.heights)
    # 16-bit samples (one value kept for missing heights) over the height range.
    step = (hi - lo) / 65534
    missing = np.isnan(hm.heights)
    assert (np.isnan(got.heights) == missing).all()
    np.testing.assert_allclose(got.heights[~missing], hm.heights[~missing], atol=0.5 * step + 1e-6)
    for key in ("w", "h", "fx", "fy", "cx", "cy", "perspective"):
        assert getattr(got.viewport, key) == pytest.approx(getattr(hm.viewport, key)), key
    for a, b in zip(got.viewport.getPose(), hm.viewport.getPose()):
        np.testing.assert_allclose(a, b, atol=1e-12)
    np.testing.assert_array_equal(np.asarray(got.getColorImage())[:, :, :3], img)
    k = got.propertyIndex("temperature")
    assert k >= 0
    original = np.asarray(hm.getProperties(hm.propertyIndex("temperature")))
    t_step = (original.max() - original.min()) / 65535
    np.testing.assert_allclose(got.getProperties(k), original, atol=0.5 * t_step + 1e-5)
    # The same surface: the meshes of the original and the reloaded map agree.
    m0 = klampt.Geometry3D(hm).convert("TriangleMesh").getTriangleMesh()
    m1 = back.convert("TriangleMesh").getTriangleMesh()
    np.testing.assert_array_equal(m0.getIndices(), m1.getIndices())
    np.testing.assert_allclose(m0.getVertices(), m1.getVertices(), atol=step + 1e-6)


def test_perspective_maps_keep_off_centre_intrinsics(tmp_path):
    hm = klampt.Heightmap()
    hm.resize(6, 4)
    hm.setIntrinsics(5.0, 4.0, 2.0, 1.5)
    hm.heights[:] = 2.0
    hm.heights[1, 1] = 0.0  # missing in a depth map
    path = str(tmp_path / "depth.json")
    assert klampt.Geometry3D(hm).saveFile(path)
    back = klampt.Geometry3D()
    assert back.loadFile(path)
    vp = back.getHeightmap().viewport
    assert (vp.fx, vp.fy, vp.cx, vp.cy) == (5.0, 4.0, 2.0, 1.5) and vp.perspective
    np.testing.assert_allclose(back.getHeightmap().heights, hm.heights)


def test_worlds_load_heightmap_terrains(tmp_path):
    hm, _ = posed_colored_map()
    assert klampt.Geometry3D(hm).saveFile(str(tmp_path / "ground.json"))
    world = klampt.WorldModel()
    terrain = world.loadTerrain(str(tmp_path / "ground.json"))
    assert world.numTerrains() == 1 and terrain.geometry().type() == "Heightmap"
    (tmp_path / "world.xml").write_text('<world>\n  <terrain file="ground.json"/>\n</world>\n')
    w2 = klampt.WorldModel()
    assert w2.readFile(str(tmp_path / "world.xml"))
    assert w2.numTerrains() == 1 and w2.terrain(0).geometry().type() == "Heightmap"
    # A ball dropped over the terrain stops on it: the heightmap is a solid for contacts.
    ball = klampt.GeometricPrimitive()
    ball.setSphere([1.0, 2.0, 3.0], 0.05)
    assert not w2.terrain(0).geometry().collides(klampt.Geometry3D(ball))


def test_bad_files_give_clear_errors(tmp_path):
    g = klampt.Geometry3D()
    (tmp_path / "notes.json").write_text('{"type": "Notes"}')
    with pytest.raises(Exception, match="notes.json"):
        if not g.loadFile(str(tmp_path / "notes.json")):
            raise IOError("notes.json refused")
    (tmp_path / "broken.json").write_text('{"type": "Heightmap", "height_range": [0, 1], "heights": "gone.pgm", "xsize": 1, "ysize": 1}')
    with pytest.raises(Exception, match="gone.pgm|broken.json"):
        if not g.loadFile(str(tmp_path / "broken.json")):
            raise IOError("broken.json refused")
    hm, _ = posed_colored_map()
    with pytest.raises(Exception, match="Heightmap|heightmap"):
        if not klampt.Geometry3D(hm).saveFile(str(tmp_path / "terrain.off")):
            raise IOError("Heightmap refused as .off")
