"""The notebook editing widgets of klampt.vis.ipython (EditConfig, EditPoint,
EditTransform, Playback) keep the reference's signatures and do what their
controls say: a slider edits the value it names, Play runs frames until its
limit, Pause and Reset call their callbacks."""
import inspect
import time

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from klampt.math import so3  # noqa: E402
from klampt.vis.ipython import EditConfig, EditPoint, EditTransform, KlamptWidget, Playback  # noqa: E402

from conftest import tx90blocks_world  # noqa: E402

# Parameters and defaults of klampt 0.9.2's klampt/vis/ipython/widgets.py.
REFERENCE_SIGNATURES = {
    EditConfig: [("robot", inspect.Parameter.empty), ("klampt_widget", None), ("ghost", None),
                 ("link_selector", "slider"), ("link_subset", None), ("callback", None)],
    EditPoint: [("value", None), ("min", None), ("max", None), ("labels", None), ("klampt_widget", None),
                ("point_name", "edited_point"), ("point_radius", 0.05), ("callback", None)],
    Playback: [("klampt_widget", None), ("advance", None), ("reset", None), ("pause", None), ("maxframes", None),
               ("framerate", None), ("quiet", False)],
}


@pytest.mark.parametrize("fn", list(REFERENCE_SIGNATURES), ids=lambda f: f.__name__)
def test_signatures_are_the_references(fn):
    params = [(p.name, p.default) for p in inspect.signature(fn).parameters.values()]
    assert params == REFERENCE_SIGNATURES[fn]


def test_edit_transform_takes_the_references_arguments():
    names = list(inspect.signature(EditTransform).parameters)
    assert names == ["value", "xmin", "xmax", "labels", "klampt_widget", "xform_name", "axis_length", "axis_width",
                     "callback"]


def test_edit_config_sliders_move_the_robot_and_the_view():
    world = tx90blocks_world()
    robot = world.robot(0)
    view = KlamptWidget(world)
    seen = []
    box = EditConfig(robot, klampt_widget=view, link_subset=[2, 3], callback=seen.append)
    assert [s.description for s in box.children] == [robot.link(2).getName(), robot.link(3).getName()]
    q0 = robot.getConfig()
    box.children[1].value = 0.4
    q = robot.getConfig()
    assert q[3] == pytest.approx(0.4, abs=1e-12)
    assert [a for i, a in enumerate(q) if i != 3] == [a for i, a in enumerate(q0) if i != 3]
    assert seen and seen[-1][3] == pytest.approx(0.4, abs=1e-12)


def test_edit_point_fills_the_callers_list():
    value = [0.1, 0.2, 0.3]
    seen = []
    box = EditPoint(value, callback=seen.append)
    box.children[2].value = -0.5
    assert value == [0.1, 0.2, -0.5]
    assert seen[-1] == [0.1, 0.2, -0.5]


def test_edit_transform_sliders_give_translation_and_roll_pitch_yaw():
    seen = []
    box = EditTransform(callback=seen.append)
    box.children[0].value = 0.25
    box.children[5].value = 0.5
    R, t = seen[-1]
    assert t == pytest.approx([0.25, 0.0, 0.0])
    assert R == pytest.approx(so3.from_rpy([0.0, 0.0, 0.5]))


def wait_until(predicate, timeout=5.0):
    end = time.monotonic() + timeout
    while not predicate() and time.monotonic() < end:
        time.sleep(0.01)
    return predicate()


def test_playback_step_play_to_the_limit_pause_and_reset():
    calls = {"advance": 0, "pause": 0, "reset": 0}

    def count(name):
        def f():
            calls[name] += 1
        return f
    pb = Playback(advance=count("advance"), pause=count("pause"), reset=count("reset"), maxframes=5)
    pb.stepbutton.click()
    assert calls["advance"] == 1 and pb.frame == 1
    pb.playbutton.click()
    # Runs the 4 frames left, then is back at frame 0 with Play enabled.
    assert wait_until(lambda: not pb.playbutton.disabled)
    assert calls["advance"] == 5 and pb.frame == 0
    assert pb.pausebutton.disabled

    pb.maxframes = None
    pb.framerate = 100
    pb.playbutton.click()
    assert wait_until(lambda: calls["advance"] >= 8)
    pb.pausebutton.click()
    after_pause = calls["advance"]
    time.sleep(0.1)
    assert calls["advance"] == after_pause and calls["pause"] == 1
    pb.resetbutton.click()
    assert calls["reset"] == 1 and pb.frame == 0


def test_playback_stops_on_an_exception_in_advance(capsys):
    def advance():
        raise ValueError("boom")
    pb = Playback(advance=advance)
    pb.playbutton.click()
    assert wait_until(lambda: not pb.playbutton.disabled)
    assert pb.frame == 0
    # Outside a kernel the output area passes its text to stdout.
    assert "boom" in capsys.readouterr().out
