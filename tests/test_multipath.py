"""klampt.model.multipath: timing, evaluation, continuity, hold
aggregation, concatenation and XML round trips."""
import xml.etree.ElementTree as ET

import pytest

from klampt.io import loader
from klampt.model.contact import ContactPoint, Hold
from klampt.model.multipath import MultiPath
from klampt.model.trajectory import Trajectory, HermiteTrajectory


def section(configs, times=None, holds=()):
    s = MultiPath.Section()
    s.configs = [list(q) for q in configs]
    s.times = times
    s.holds = list(holds)
    return s


def hold(link, x):
    h = Hold()
    h.link = link
    h.contacts = [ContactPoint([x, 0, 0], [0, 0, 1], 0.5), ContactPoint([x, 0.1, 0], [0, 0, 1], 0.5)]
    return h


def test_untimed_sections():
    mp = MultiPath()
    mp.sections = [section([[0, 0], [1, 0], [1, 1]], holds=[hold(1, 0.0)]),
                   section([[1, 1], [2, 2]], holds=[hold(2, 1.0)])]
    mp.checkValid()
    assert not mp.hasTiming() and mp.isContinuous()
    assert mp.endTime() == 3 and mp.getSectionTiming(1) == (2, 3)
    assert mp.timeToSection(2.5) == 1 and mp.timeToSection(-1) == -1 and mp.timeToSection(3) == 2
    assert mp.timeToSegment(1.25) == (0, 1, 0.25)
    assert mp.eval(1.5) == [1, 0.5] and mp.eval(2.5) == [1.5, 1.5] and mp.eval(10) == [2, 2]
    traj = mp.getTrajectory()
    assert traj.times == [0, 1, 2, 3] and traj.milestones == [[0, 0], [1, 0], [1, 1], [2, 2]]
    assert [h.link for h in mp.getStance(1)] == [2]
    # continuity is maintained across the section boundary
    mp.setConfig(1, 0, [5, 5])
    assert mp.sections[0].configs[-1] == [5, 5] and mp.isContinuous()


def test_timed_and_hermite():
    H = HermiteTrajectory([0, 1, 3], [[0], [1], [2]], [[0], [1], [0]])
    mp = MultiPath()
    mp.setTrajectory(H)
    assert mp.hasTiming() and mp.duration() == 3
    back = mp.getTrajectory()
    assert isinstance(back, HermiteTrajectory) and back.milestones == H.milestones
    mp2 = MultiPath()
    mp2.setTrajectory(Trajectory([0, 2], [[2], [4]]))
    mp.sections[0].velocities = None
    mp.concat(mp2)
    assert mp.sections[1].times == [3, 5] and mp.endTime() == 5
    assert mp.eval(4) == [3.0]
    bad = MultiPath()
    bad.sections = [section([[0], [1]], times=[0, 1]), section([[1], [2]])]
    with pytest.raises(ValueError):
        bad.checkValid()


def test_hold_aggregation_and_xml(tmp_path):
    mp = MultiPath()
    mp.settings = {'robot': 'arm6'}
    h = hold(1, 0.0)
    mp.sections = [section([[0, 0], [1, 0]], times=[0, 1], holds=[h]),
                   section([[1, 0], [1, 1]], times=[1, 2], holds=[hold(1, 1e-4)])]
    mp.sections[0].settings = {'name': 'first'}
    mp.aggregateHolds(holdSimilarityThreshold=1e-3)
    assert mp.sections[0].holdIndices == [0] and mp.sections[1].holdIndices == [0] and len(mp.holdSet) == 1
    fn = str(tmp_path / 'path.xml')
    loader.save(mp, 'auto', fn)
    back = loader.load('auto', fn)
    assert isinstance(back, MultiPath)
    assert back.settings == {'robot': 'arm6'} and back.sections[0].settings == {'name': 'first'}
    assert back.sections[1].times == [1.0, 2.0] and back.sections[1].configs == [[1, 0], [1, 1]]
    assert back.sections[0].holdIndices == [0]
    assert [c.tolist() for c in back.holdSet[0].contacts] == [c.tolist() for c in h.contacts]
    back.deaggregateHolds()
    assert back.holdSet == {} and back.sections[1].holds[0].link == 1
    with pytest.raises(ValueError):
        MultiPath().loadXML(ET.fromstring('<world/>'))
