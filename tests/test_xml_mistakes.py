"""XML files whose elements do not nest properly load as the reference loads
them. Its parser (TinyXML 1) keeps the tree up to the first end tag that does
not close the innermost element (or to the end of an unclosed file); its URDF
and sensor readers use that tree, its world reader refuses the file.

The cases are copies of a shared URDF broken by line edits, and small world and
sensor files; tests/data/make_xml_mistakes_reference.py recorded what the
reference loads from each."""
import json
import logging
import os
import warnings

import pytest

import klampt
from conftest import SHARED_DATA, require_shared_data
from xml_mistakes_cases import describe_robot, edit_lines

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "data", "xml_mistakes_reference.json")) as f:
    REFERENCE = json.load(f)
URDF = REFERENCE["urdf"]

# The line each warning names: the stray end tag, or the last line of an unclosed file.
URDF_WARNING_LINES = {
    "klampt_closed_by_empty_tag": 254,
    "robot_not_closed": 253,
    "klampt_child_misclosed": 241,
    "visual_closed_by_empty_tag": 109,
    "extra_link_end_tag": 109,
    "misspelled_end_tag": 109,
}


def broken_urdf(tmp_path, case):
    """A copy of the shared URDF with the case's edits, beside a link to its meshes."""
    require_shared_data()
    meshes = tmp_path / os.path.basename(URDF["meshes"])
    if not meshes.exists():
        meshes.symlink_to(os.path.join(SHARED_DATA, URDF["meshes"]))
    with open(os.path.join(SHARED_DATA, URDF["file"]), newline="") as f:
        text = f.read()
    path = tmp_path / (case + ".urdf")
    with open(path, "w", newline="") as f:
        f.write(edit_lines(text, URDF["cases"][case]["edits"]))
    return str(path)


def load_recording(path, caplog):
    """readFile's result, the nesting warnings it gave, and what it logged."""
    world = klampt.WorldModel()
    with warnings.catch_warnings(record=True) as caught, caplog.at_level(logging.ERROR, logger="klampt"):
        warnings.simplefilter("always")
        ok = world.readFile(path)
    nesting = [str(w.message) for w in caught if "read as Klamp't reads it" in str(w.message)]
    return world, ok, nesting


@pytest.mark.parametrize("case", sorted(URDF["cases"]))
def test_broken_urdf_copies_load_as_the_reference_loads_them(case, tmp_path, caplog):
    path = broken_urdf(tmp_path, case)
    expected = URDF["cases"][case]
    world, ok, nesting = load_recording(path, caplog)
    assert ok == expected["loads"], caplog.text
    if case in URDF_WARNING_LINES:
        assert len(nesting) == 1 and nesting[0].startswith("%s:%d: " % (path, URDF_WARNING_LINES[case])), nesting
    else:
        assert nesting == []
    if ok:
        got = describe_robot(world)
        for key, value in expected.items():
            if key not in ("edits", "loads"):
                assert got[key] == value, (case, key)
    else:
        # What is kept breaks the tree; the error says so after the warning.
        assert "several root links" in caplog.text


def test_the_human_hand_mistake_keeps_everything_and_names_it(tmp_path):
    """human_hand.urdf of the reference's data closes <klampt> with <klampt/>:
    everything is read, and the warning points at the <klampt/>."""
    path = broken_urdf(tmp_path, "klampt_closed_by_empty_tag")
    with pytest.warns(RuntimeWarning) as caught:
        assert klampt.WorldModel().readFile(path)
    message = next(str(w.message) for w in caught if "<klampt>" in str(w.message))
    assert "<klampt> (line 240) is closed by </robot>" in message
    assert "the <klampt/> on line 253 was probably meant as </klampt>" in message


@pytest.mark.parametrize("case", sorted(REFERENCE["world"]))
def test_world_files_with_nesting_mistakes_are_refused_as_by_the_reference(case, tmp_path, caplog):
    require_shared_data()
    expected = REFERENCE["world"][case]
    path = tmp_path / (case + ".xml")
    path.write_text(expected["text"].format(data=SHARED_DATA))
    world, ok, nesting = load_recording(str(path), caplog)
    assert ok == expected["loads"]
    assert nesting == []
    assert (world.numRobots(), world.numRigidObjects(), world.numTerrains()) == (
        expected["numRobots"], expected["numRigidObjects"], expected["numTerrains"])
    if not ok:
        assert str(path) in caplog.text
    if case == "terrain_closed_by_empty_tag":
        assert "%s:8: <terrain> (line 4) is closed by </world>" % path in caplog.text
    if case == "world_not_closed":
        assert "<world> (line 2) still open" in caplog.text


SENSOR_WARNING_LINES = {"sensor_not_closed": 4, "sensors_closed_by_empty_tag": 4, "sensors_not_closed": 3,
                        "sensor_misclosed": 3}


@pytest.mark.parametrize("case", sorted(REFERENCE["sensors"]["cases"]))
def test_sensor_files_with_nesting_mistakes_give_the_reference_sensors(case, tmp_path):
    expected = REFERENCE["sensors"]["cases"][case]
    (tmp_path / "robot.rob").write_text(REFERENCE["sensors"]["robot"])
    (tmp_path / "sensors.xml").write_text(expected["text"])
    world = klampt.WorldModel()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert world.readFile(str(tmp_path / "robot.rob"))
    nesting = [str(w.message) for w in caught if "read as Klamp't reads it" in str(w.message)]
    if case in SENSOR_WARNING_LINES:
        sensors_file = str(tmp_path / "sensors.xml")
        assert len(nesting) == 1 and nesting[0].startswith("%s:%d: " % (sensors_file, SENSOR_WARNING_LINES[case]))
    else:
        assert nesting == []
    robot = world.robot(0)
    if case == "sensors_closed_by_empty_tag":
        # The kept tree holds a <sensors/> sensor: an unknown type raises here
        # (the reference logs it and falls back to the standard q/dq sensors).
        assert expected["sensors"] == ["q", "dq"]
        with pytest.raises(RuntimeError, match="unknown sensor type <sensors>"):
            robot.sensor(0)
        return
    names = []
    while robot.sensor(len(names)).name() != "":
        names.append(robot.sensor(len(names)).name())
    assert names == expected["sensors"]


def test_world_sensor_file_and_inline_rob_property_warn_too(tmp_path):
    text = REFERENCE["sensors"]["cases"]["sensor_not_closed"]["text"]
    (tmp_path / "sensors.xml").write_text(text)
    rob = REFERENCE["sensors"]["robot"].replace('property sensors "sensors.xml"', "")
    (tmp_path / "robot.rob").write_text(rob)
    (tmp_path / "world.xml").write_text('<world><robot file="robot.rob"><sensors file="sensors.xml"/></robot></world>')
    world = klampt.WorldModel()
    with pytest.warns(RuntimeWarning, match=r"sensors\.xml:4: <JointPositionSensor> \(line 2\) is closed by </sensors>"):
        assert world.readFile(str(tmp_path / "world.xml"))
    assert world.robot(0).sensor(0).name() == "enc" and world.robot(0).sensor(1).name() == ""

    inline = text.replace("\n", " ").replace('"', '\\"')
    (tmp_path / "inline.rob").write_text(rob + 'property sensors "%s"\n' % inline)
    world = klampt.WorldModel()
    with pytest.warns(RuntimeWarning, match=r"inline\.rob:\d+: property sensors: <JointPositionSensor>"):
        assert world.readFile(str(tmp_path / "inline.rob"))
    assert world.robot(0).sensor(0).name() == "enc" and world.robot(0).sensor(1).name() == ""


def test_urdf_sensor_file_warns_and_inline_sensors_are_cut_with_the_urdf(tmp_path):
    body = ('<robot name="r"><link name="a"/><link name="b"/>'
            '<joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>'
            '<limit lower="-1" upper="1" effort="10" velocity="1"/></joint>\n%s\n</robot>\n')
    (tmp_path / "sensors.xml").write_text(REFERENCE["sensors"]["cases"]["sensor_misclosed"]["text"])
    (tmp_path / "file.urdf").write_text(body % '<klampt sensors="sensors.xml"/>')
    world = klampt.WorldModel()
    with pytest.warns(RuntimeWarning, match=r"sensors\.xml:3: <JointVelocitySensor> \(line 3\) is closed by "
                                            r"</JointVelocitySensorX>"):
        assert world.readFile(str(tmp_path / "file.urdf"))
    robot = world.robot(0)
    assert [robot.sensor(i).name() for i in range(3)] == ["enc", "denc", ""]
    # Inline sensors cut by the URDF's own mistake: the kept <sensors> holds both
    # sensors, the stray <sensors/> inside the second one is ignored (measured on
    # the reference: the same two sensors).
    inline = '<klampt><sensors><JointPositionSensor name="enc"/><JointVelocitySensor name="denc"><sensors/></klampt>'
    (tmp_path / "inline.urdf").write_text(body % inline)
    world = klampt.WorldModel()
    with pytest.warns(RuntimeWarning, match=r"inline\.urdf:2: <JointVelocitySensor> \(line 2\) is closed by </klampt>"):
        assert world.readFile(str(tmp_path / "inline.urdf"))
    robot = world.robot(0)
    assert [robot.sensor(i).name() for i in range(3)] == ["enc", "denc", ""]


@pytest.mark.parametrize("text,line,description", [
    ("<a><b></a>", 1, "<b> (line 1) is closed by </a>"),
    ("<a>\n<b>\n</bb>\n</a>", 3, "<b> (line 2) is closed by </bb>"),
    ("<a>\n<b x='>'>\n", 2, "the text ends with <a> (line 1), <b> (line 2) still open"),
    ("<a><!-- </b> --><![CDATA[</c>]]><?pi </d>?><b/>\n</a>\n<x/></a>", 0, None),
    ("<a>\n<b/>\n<b/>\n</c>", 4, "<a> (line 1) is closed by </c>"),
])
def test_nesting_mistakes_in_small_texts(tmp_path, text, line, description):
    """Comments, CDATA, processing instructions and quoted '>' are skipped; end
    tags outside every element are ignored (TinyXML 1 keeps them as unknown nodes)."""
    path = tmp_path / "r.urdf"
    path.write_text(text.replace("<a>", '<robot name="r"><link name="l"/>', 1).replace("</a>", "</robot>")
                    .replace("<a ", "<robot "))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        klampt.WorldModel().readFile(str(path))
    nesting = [str(w.message) for w in caught if "read as Klamp't reads it" in str(w.message)]
    if description is None:
        assert nesting == []
        return
    description = description.replace("<a>", "<robot>").replace("</a>", "</robot>")
    assert len(nesting) == 1 and nesting[0].startswith("%s:%d: %s" % (path, line, description)), nesting
