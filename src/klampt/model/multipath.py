"""MultiPath: a path made of sections, each a list of configurations (with
optional times and velocities) over a fixed stance of holds, with XML
load/save in Klamp't's format::

    <multipath setting="value" ...>
      <section setting="value" ...>
        <hold index="0"/> or <hold name="left_foot"/> or <hold>hold text</hold>
        <ikgoal>IK objective text</ikgoal>
        <milestone config="n q1 ... qn" time="t" velocity="n v1 ... vn"/>
        ...
      </section>
      <hold name="left_foot">hold text</hold>   (the global hold set)
    </multipath>

Untimed multipaths are parameterized by milestone count: section i spans
the milestone indices it covers along the whole path, one unit per segment.
"""
import bisect
import warnings
import xml.etree.ElementTree as ET
from typing import List, Tuple

from ..math import so3, vectorops
from . import trajectory as _trajectory
from .contact import Hold


class MultiPath(object):
    """Sections of a path with their stances.

    Attributes:
        sections (list of MultiPath.Section): the sections, each over a
            fixed stance.
        settings (dict str -> str): metadata.
        holdSet (dict): holds referred to by index or name from sections'
            holdIndices (an "aggregated" MultiPath).
    """

    class Section(object):
        """A piece of path over a fixed stance.

        Attributes:
            settings (dict str -> str): metadata.
            configs (list of configs): the milestones.
            velocities (list of vectors, optional): velocities at the
                milestones.
            times (list of floats, optional): times of the milestones.
            holds (list of Hold): holds of the stance.
            holdIndices (list): keys into MultiPath.holdSet of further holds.
            ikObjectives (list of IKObjective): further constraints.
        """

        def __init__(self):
            self.settings = {}
            self.configs = []
            self.velocities = None
            self.times = None
            self.holds = []
            self.holdIndices = []
            self.ikObjectives = []

    def __init__(self):
        self.sections = []
        self.settings = {}
        self.holdSet = {}

    # ------------------------------------------------------------ structure and timing
    def numSections(self) -> int:
        """The number of sections."""
        return len(self.sections)

    def startConfig(self):
        """The first milestone of the first section, as stored (not a
        copy).

        Raises:
            IndexError: if the path has no sections or the first is empty.
        """
        return self.sections[0].configs[0]

    def endConfig(self):
        """The last milestone of the last section, as stored (not a copy).

        Raises:
            IndexError: if the path has no sections or the last is empty.
        """
        return self.sections[-1].configs[-1]

    def hasTiming(self) -> bool:
        """True if the sections carry times."""
        return len(self.sections) > 0 and self.sections[0].times is not None

    def startTime(self) -> float:
        """The time of the first milestone (s) if the path is timed, else 0."""
        if not self.hasTiming():
            return 0.0
        return self.sections[0].times[0]

    def endTime(self) -> float:
        """The time of the last milestone (s) if the path is timed; for an
        untimed path, its number of segments (the milestone-count
        parameterization); 0 without sections."""
        if not self.sections:
            return 0.0
        if self.hasTiming():
            return self.sections[-1].times[-1]
        return float(sum(len(s.configs) - 1 for s in self.sections))

    def duration(self) -> float:
        """endTime() - startTime(): in s if timed, in segments otherwise."""
        return self.endTime() - self.startTime()

    def checkValid(self):
        """Raises ValueError if timing is inconsistent (some sections timed,
        others not; times not nondecreasing; wrong counts)."""
        timed = self.hasTiming()
        t0 = self.startTime()
        for i, s in enumerate(self.sections):
            if (s.times is not None) != timed:
                raise ValueError("Section %d is %s while section 0 is %s" % (i, "timed" if s.times is not None else "untimed",
                                                                              "timed" if timed else "untimed"))
            if timed:
                if len(s.times) != len(s.configs):
                    raise ValueError("Section %d has %d times for %d configurations" % (i, len(s.times), len(s.configs)))
                for t in s.times:
                    if t < t0:
                        raise ValueError("Section %d times are not nondecreasing" % i)
                    t0 = t
            elif len(s.configs) < 2:
                raise ValueError("Untimed section %d has fewer than 2 configurations" % i)
            if s.velocities is not None and len(s.velocities) != len(s.configs):
                raise ValueError("Section %d has %d velocities for %d configurations" % (i, len(s.velocities), len(s.configs)))
        return True

    def isContinuous(self) -> bool:
        """True if each section starts where the previous one ends."""
        return all(a.configs[-1] == b.configs[0] for a, b in zip(self.sections[:-1], self.sections[1:]))

    def getSectionTiming(self, section) -> Tuple[float, float]:
        """(start, end) time of a section."""
        s = self.sections[section]
        if self.hasTiming():
            return s.times[0], s.times[-1]
        t0 = float(sum(len(x.configs) - 1 for x in self.sections[:section]))
        return t0, t0 + len(s.configs) - 1

    def getStance(self, section) -> List[Hold]:
        """The holds of a section: its own, those of holdSet it refers to,
        and a Hold per IK objective."""
        s = self.sections[section]
        res = list(s.holds) + [self.holdSet[k] for k in s.holdIndices]
        for g in s.ikObjectives:
            h = Hold()
            h.link = g.link()
            h.ikConstraint = g
            res.append(h)
        return res

    def getIKProblem(self, section):
        """The IK constraints of a section's stance."""
        s = self.sections[section]
        return ([h.ikConstraint for h in s.holds] + [self.holdSet[k].ikConstraint for k in s.holdIndices]
                + list(s.ikObjectives))

    # ------------------------------------------------------------ holds
    def aggregateHolds(self, holdSimilarityThreshold=None):
        """Moves the sections' holds into holdSet (referred to by index).
        With a threshold, holds on the same link whose contacts and IK
        targets differ by less than it are shared."""
        byLink = {}
        for s in self.sections:
            for h in s.holds:
                key = None
                if holdSimilarityThreshold is not None:
                    for other, k in byLink.get(h.link, []):
                        if _similar_holds(h, other, holdSimilarityThreshold):
                            key = k
                            break
                if key is None:
                    key = len(self.holdSet)
                    while key in self.holdSet:
                        key += 1
                    self.holdSet[key] = h
                    byLink.setdefault(h.link, []).append((h, key))
                s.holdIndices.append(key)
            s.holds = []

    def deaggregateHolds(self):
        """Copies the holds of holdSet into the sections that refer to them
        and empties holdSet."""
        for s in self.sections:
            s.holds += [self.holdSet[k] for k in s.holdIndices]
            s.holdIndices = []
        self.holdSet = {}

    # ------------------------------------------------------------ editing
    def setConfig(self, section, configIndex, q, v=None, t=None, maintainContinuity=True):
        """Sets a milestone (configIndex < 0 means the last one), and with
        maintainContinuity also the matching first/last milestones of the
        neighbouring sections."""
        if section < 0 or section >= len(self.sections):
            raise IndexError("Section %d out of range" % section)
        s = self.sections[section]
        if configIndex < 0:
            configIndex = len(s.configs) - 1
        s.configs[configIndex] = q
        if v is not None:
            if s.velocities is None:
                raise ValueError("Section %d has no velocities" % section)
            s.velocities[configIndex] = v
        if t is not None:
            if s.times is None:
                raise ValueError("Section %d has no times" % section)
            s.times[configIndex] = t
        if maintainContinuity:
            if configIndex == 0 and section > 0:
                self.setConfig(section - 1, -1, q, v, t, True)
            if configIndex == len(s.configs) - 1 and section + 1 < len(self.sections):
                self.setConfig(section + 1, 0, q, v, t, False)

    def concat(self, path):
        """Appends the sections of another MultiPath (shifting its times to
        start at this path's end if both are timed, and renaming clashing
        holdSet keys)."""
        import copy
        sections = copy.deepcopy(path.sections)
        if path.hasTiming() and self.sections:
            if not self.hasTiming():
                raise ValueError("Can't append a timed MultiPath to an untimed one")
            shift = self.endTime() - path.startTime()
            for s in sections:
                s.times = [t + shift for t in s.times]
        rename = {}
        for key, h in path.holdSet.items():
            newkey = key
            if newkey in self.holdSet:
                if isinstance(key, int):
                    newkey = max(k for k in self.holdSet if isinstance(k, int)) + 1
                    while newkey in self.holdSet or newkey in path.holdSet:
                        newkey += 1
                else:
                    k = 2
                    while "%s(%d)" % (key, k) in self.holdSet:
                        k += 1
                    newkey = "%s(%d)" % (key, k)
            rename[key] = newkey
            self.holdSet[newkey] = h
        for s in sections:
            s.holdIndices = [rename.get(k, k) for k in s.holdIndices]
        self.sections += sections

    # ------------------------------------------------------------ evaluation
    def timeToSection(self, t):
        """The section at time t: -1 before the start, numSections() at or
        after the end."""
        if t < self.startTime():
            return -1
        for i in range(len(self.sections)):
            if t < self.getSectionTiming(i)[1]:
                return i
        return len(self.sections)

    def timeToSegment(self, t):
        """(section, milestone index, u in [0,1)) of time t."""
        s = self.timeToSection(t)
        if s < 0 or s >= len(self.sections):
            return (s, 0, 0.0)
        sec = self.sections[s]
        t0, _ = self.getSectionTiming(s)
        times = sec.times if sec.times is not None else [t0 + i for i in range(len(sec.configs))]
        i = max(0, min(bisect.bisect_right(times, t) - 1, len(times) - 2))
        dt = times[i + 1] - times[i]
        return (s, i, (t - times[i]) / dt if dt > 0 else 0.0)

    def eval(self, t):
        """The configuration at time t (linear interpolation between
        milestones; the ends are held outside the time range)."""
        s, i, u = self.timeToSegment(t)
        if s < 0:
            return self.startConfig()
        if s >= len(self.sections):
            return self.endConfig()
        sec = self.sections[s]
        return vectorops.interpolate(sec.configs[i], sec.configs[i + 1], u)

    def setTrajectory(self, trajectory):
        """Makes this a single-section path from a Trajectory (a
        HermiteTrajectory's velocities are kept) or a list of configs."""
        self.holdSet = {}
        self.settings = {'program': 'setTrajectory'}
        s = MultiPath.Section()
        if isinstance(trajectory, _trajectory.Trajectory):
            s.times = list(trajectory.times)
            if isinstance(trajectory, _trajectory.HermiteTrajectory):
                n = len(trajectory.milestones[0]) // 2
                s.configs = [list(m[:n]) for m in trajectory.milestones]
                s.velocities = [list(m[n:]) for m in trajectory.milestones]
            else:
                s.configs = [list(m) for m in trajectory.milestones]
        else:
            s.configs = [list(q) for q in trajectory]
        self.sections = [s]

    def getTrajectory(self, robot=None, eps=None):
        """The whole path as a Trajectory (a RobotTrajectory if robot is
        given, a HermiteTrajectory if the sections have velocities).  Untimed
        paths get times 0, 1, 2, ...  Discretizing the sections' IK
        constraints (eps) needs klampt.plan and raises RuntimeError without
        it."""
        if eps is not None:
            raise RuntimeError("MultiPath.getTrajectory(eps=...) needs klampt.plan.robotcspace, which is not available in this installation")
        configs = []
        vels = []
        times = []
        hasvel = self.sections[0].velocities is not None
        for k, s in enumerate(self.sections):
            last = k + 1 == len(self.sections)
            n = len(s.configs) if last else len(s.configs) - 1
            configs += [list(q) for q in s.configs[:n]]
            if hasvel:
                if s.velocities is None:
                    raise ValueError("Some sections have velocities and others don't")
                vels += [list(v) for v in s.velocities[:n]]
            if self.hasTiming():
                times += list(s.times[:n])
        if not self.hasTiming():
            times = list(range(len(configs)))
        if robot is not None:
            if hasvel:
                warnings.warn("MultiPath.getTrajectory: velocities are dropped for a RobotTrajectory")
            return _trajectory.RobotTrajectory(robot, times, configs)
        if hasvel:
            return _trajectory.HermiteTrajectory(times, configs, vels)
        return _trajectory.Trajectory(times, configs)

    # ------------------------------------------------------------ files
    def save(self, fn):
        """Saves as XML."""
        tree = self.saveXML()
        ET.indent(tree)
        tree.write(fn, encoding='unicode', xml_declaration=False)

    def load(self, fn):
        """Loads from an XML file."""
        self.loadXML(ET.parse(fn))

    def saveXML(self):
        """The XML ElementTree of the path."""
        from ..io import _text  # klampt.io imports this module (its loader reads MultiPaths)
        root = ET.Element('multipath', dict((k, str(v)) for k, v in self.settings.items()))
        for s in self.sections:
            xs = ET.SubElement(root, 'section', dict((k, str(v)) for k, v in s.settings.items()))
            for g in s.ikObjectives:
                ET.SubElement(xs, 'ikgoal').text = _text.write_IKObjective(g)
            for h in s.holds:
                ET.SubElement(xs, 'hold').text = _text.write_Hold(h)
            for k in s.holdIndices:
                ET.SubElement(xs, 'hold', {'index': str(k)} if isinstance(k, int) else {'name': str(k)})
            for i, q in enumerate(s.configs):
                attrs = {'config': _text.write_Vector(q)}
                if s.times is not None:
                    attrs['time'] = repr(float(s.times[i]))
                if s.velocities is not None:
                    attrs['velocity'] = _text.write_Vector(s.velocities[i])
                ET.SubElement(xs, 'milestone', attrs)
        for k, h in self.holdSet.items():
            xh = ET.SubElement(root, 'hold', {} if isinstance(k, int) else {'name': str(k)})
            xh.text = _text.write_Hold(h)
        return ET.ElementTree(root)

    def loadXML(self, tree):
        """Reads the path from an XML ElementTree (or its root element)."""
        from ..io import _text  # klampt.io imports this module (its loader reads MultiPaths)
        root = tree.getroot() if hasattr(tree, 'getroot') else tree
        if root.tag != 'multipath':
            raise ValueError("Expected a <multipath> element, got <%s>" % root.tag)
        self.settings = dict(root.attrib)
        self.sections = []
        self.holdSet = {}
        for xs in root.findall('section'):
            s = MultiPath.Section()
            s.settings = dict(xs.attrib)
            for xm in xs.findall('milestone'):
                if 'config' not in xm.attrib:
                    raise ValueError("A milestone needs a config attribute")
                s.configs.append(_text.read_Vector(xm.attrib['config']))
                if 'time' in xm.attrib:
                    s.times = (s.times or []) + [float(xm.attrib['time'])]
                if 'velocity' in xm.attrib:
                    s.velocities = (s.velocities or []) + [_text.read_Vector(xm.attrib['velocity'])]
            for xg in xs.findall('ikgoal'):
                s.ikObjectives.append(_text.read_IKObjective(xg.text))
            for xh in xs.findall('hold'):
                if 'index' in xh.attrib:
                    s.holdIndices.append(int(xh.attrib['index']))
                elif 'name' in xh.attrib:
                    s.holdIndices.append(xh.attrib['name'])
                else:
                    s.holds.append(_text.read_Hold(xh.text))
            self.sections.append(s)
        for xh in root.findall('hold'):
            key = xh.attrib['name'] if 'name' in xh.attrib else len([k for k in self.holdSet if isinstance(k, int)])
            self.holdSet[key] = _text.read_Hold(xh.text)


def _similar_holds(h1, h2, tol):
    if h1.link != h2.link or len(h1.contacts) != len(h2.contacts):
        return False
    for c1, c2 in zip(h1.contacts, h2.contacts):
        if vectorops.distance(c1.tolist(), c2.tolist()) > tol:
            return False
    g1, g2 = h1.ikConstraint, h2.ikConstraint
    if (g1 is None) != (g2 is None):
        return False
    if g1 is not None:
        if g1.numPosDims() != g2.numPosDims() or g1.numRotDims() != g2.numRotDims():
            return False
        if g1.numPosDims() == 3:
            (l1, w1), (l2, w2) = g1.getPosition(), g2.getPosition()
            if vectorops.distance(l1, l2) > tol or vectorops.distance(w1, w2) > tol:
                return False
        if g1.numRotDims() == 3 and so3.distance(g1.getRotation(), g2.getRotation()) > tol:
            return False
    return True
