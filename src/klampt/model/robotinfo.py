"""Semantic information about robots and grippers, stored in human-editable
JSON files: :class:`RobotInfo` (model file, parts, end effectors, grippers,
controller and simulator code, calibration, resources), :class:`EndEffectorInfo`
and :class:`GripperInfo` (gripper geometry, open/closed configurations,
synergies).  Loaded infos are kept in registries (``RobotInfo.all_robots``,
``GripperInfo.all_grippers``).

File names in an info (model, calibration, controller, simulator, resource
directory) are resolved against ``filePaths``; :meth:`RobotInfo.load` adds
the JSON file's folder to them.
"""
from ..robotsim import (Geometry3D, IKObjective, IKSolver, RobotModel,  # noqa: F401  (Klamp't's module has them)
                        SensorModel, SimRobotController, SimRobotSensor, WorldModel)
import copy
import importlib
import importlib.util
import json
import os
from typing import List, Sequence, Tuple, Union

from .. import _json
from ..io import loader, resource
from ..math import vectorops, so3, se3
from . import config
from .subrobot import SubRobotModel
from .trajectory import RobotTrajectory


_JSON_ATTRS = ['name', 'modelFile', 'parts', 'baseType', 'properties', 'controllerFile', 'controllerArgs',
               'simulatorFile', 'calibrationFiles', 'resourceDir', 'filePaths']
_GRIPPER_REQUIRED = ['name', 'baseLink']
_GRIPPER_OPTIONAL = ['fingerLinks', 'fingerDrivers', 'type', 'center', 'primaryAxis', 'secondaryAxis', 'fingerLength',
                     'fingerWidth', 'fingerDepth', 'maximumSpan', 'minimumSpan', 'closedConfig', 'openConfig',
                     'synergies', 'gripperLinks', 'klamptModel']


def _require(module, what):
    """Imports a module that a method needs, or raises a RuntimeError that
    names the missing capability."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise RuntimeError("%s needs %s, which is not available in this installation" % (what, module))


def _load_code(spec, paths):
    """Imports a Python file (``/path/to/file.py``, found through paths) or
    a module (``package.module``)."""
    if spec.endswith('.py'):
        fn = spec
        if not os.path.isabs(fn):
            for p in paths:
                if os.path.exists(os.path.join(p, spec)):
                    fn = os.path.join(p, spec)
                    break
        if not os.path.exists(fn):
            raise IOError("Can't find code file %s" % spec)
        name = os.path.splitext(os.path.basename(fn))[0]
        modspec = importlib.util.spec_from_file_location(name, fn)
        module = importlib.util.module_from_spec(modspec)
        modspec.loader.exec_module(module)
        return module
    return importlib.import_module(spec)


class EndEffectorInfo(object):
    """A default end effector: the link it lives on, the links Cartesian
    commands move, and an optional template IKObjective (tool center point
    and constraint type)."""

    def __init__(self, link, activeLinks, ikObjective=None):
        self.link = link
        self.activeLinks = activeLinks
        self.ikObjective = ikObjective
        self.gripperInfo = None


class RobotInfo(object):
    """Common semantic properties of a robot; see the module docstring.

    Attributes:
        name (str), modelFile (str), baseType ('fixed', 'floating',
        'differential', 'dubins'), parts (dict name -> list of links),
        endEffectors (dict name -> EndEffectorInfo), grippers (dict name ->
        GripperInfo), properties (dict), controllerFile (str),
        controllerArgs (list), simulatorFile (str), calibrationFiles (dict
        'kinematics' or sensor name -> JSON file), resourceDir (str),
        filePaths (list of str), robotModel (the cached RobotModel).
    """

    all_robots = {}

    def __init__(self, name, modelFile=None, baseType='fixed', parts=None, endEffectors=None, grippers=None, properties=None):
        self.name = name
        self.modelFile = modelFile
        self.baseType = baseType
        self.parts = dict(parts) if parts is not None else {}
        self.endEffectors = dict(endEffectors) if endEffectors is not None else {}
        self.grippers = dict(grippers) if grippers is not None else {}
        self.properties = dict(properties) if properties is not None else {}
        self.controllerFile = None
        self.controllerArgs = None
        self.simulatorFile = None
        self.calibrationFiles = {}
        self.resourceDir = None
        self.filePaths = []
        self.robotModel = None

    # ------------------------------------------------------------ registry
    @staticmethod
    def register(robotInfo: 'RobotInfo'):
        """Adds a RobotInfo to the global registry under its name."""
        if not robotInfo.name:
            raise ValueError("A RobotInfo needs a name to be registered")
        RobotInfo.all_robots[robotInfo.name] = robotInfo

    @staticmethod
    def get(name: str) -> 'RobotInfo':
        """A registered RobotInfo (KeyError if there is none)."""
        return RobotInfo.all_robots[name]

    @staticmethod
    def load(fn: str) -> 'RobotInfo':
        """Loads a RobotInfo from a JSON file, adds the file's folder to its
        filePaths, and registers it."""
        with open(fn, 'r') as f:
            jsonobj = _json.load(f)
        res = RobotInfo(None)
        res.fromJson(jsonobj)
        folder = os.path.dirname(os.path.abspath(fn))
        if folder not in res.filePaths:
            res.filePaths.append(folder)
        RobotInfo.register(res)
        return res

    # ------------------------------------------------------------ files
    def _resolve(self, fn):
        """The path of a file: absolute paths as given, relative ones looked
        up in filePaths then the working directory."""
        if os.path.isabs(fn):
            return fn if os.path.exists(fn) else None
        for p in self.filePaths:
            candidate = os.path.join(p, fn)
            if os.path.exists(candidate):
                return candidate
        return fn if os.path.exists(fn) else None

    def _resolve_or_raise(self, fn, what):
        path = self._resolve(fn)
        if path is None:
            raise IOError("Can't find %s %s (searched %s)" % (what, fn, self.filePaths + [os.getcwd()]))
        return path

    def klamptModel(self) -> 'RobotModel':
        """The RobotModel of this robot: robotModel if set, else loaded from
        modelFile (once; cached) with the kinematics calibration applied."""
        if self.robotModel is not None:
            return self.robotModel
        if self.modelFile is None:
            raise RuntimeError("Can't load the robot model of %s: no modelFile given" % self.name)
        fn = self._resolve_or_raise(self.modelFile, 'robot model')
        world = WorldModel()
        robot = world.loadRobot(fn)
        if robot.index < 0:
            raise IOError("Unable to load robot from file %s" % fn)
        if self.name:
            robot.setName(self.name)
        for key, calib in self.calibrationFiles.items():
            if key == 'kinematics':
                self._apply_kinematics_calibration(robot, self._resolve_or_raise(calib, 'calibration file'))
        self.robotModel = robot
        return robot

    @staticmethod
    def _apply_kinematics_calibration(robot, fn):
        with open(fn, 'r') as f:
            jsonobj = _json.load(f)
        for linkname, items in jsonobj.items():
            link = robot.link(linkname)
            if link.index < 0:
                raise ValueError("Calibration file %s refers to unknown link %s" % (fn, linkname))
            for key, value in items.items():
                if key == 'axis':
                    link.setAxis(value)
                elif key == 'Tparent':
                    link.setParentTransform(value[0], value[1])
                else:
                    raise ValueError("Invalid calibration item %s in %s" % (key, fn))

    def configureSensor(self, sensor):
        """Applies the calibration file named after a sensor (a JSON dict of
        sensor settings) to the sensor (index, name or SimRobotSensor).
        Returns the sensor."""
        if isinstance(sensor, (int, str)):
            robot = self.klamptModel()
            if not hasattr(robot, 'sensor'):
                raise RuntimeError("configureSensor needs robot sensors (RobotModel.sensor), which are not available in this installation")
            sensor = robot.sensor(sensor)
        name = sensor.name()
        if name in self.calibrationFiles:
            with open(self._resolve_or_raise(self.calibrationFiles[name], 'calibration file'), 'r') as f:
                settings = _json.load(f)
            for key, value in settings.items():
                if isinstance(value, (list, tuple)):
                    flat = []
                    for v in value:
                        flat += list(v) if isinstance(v, (list, tuple)) else [v]
                    value = ' '.join(str(v) for v in flat)
                sensor.setSetting(key, str(value))
        return sensor

    def controller(self):
        """The Robot Interface Layer controller for the real robot: the
        ``make(robotModel, *controllerArgs)`` function of controllerFile (a
        .py file or a module name, e.g. ``klampt.control.simrobotinterface``).
        A returned interface gets ``properties['klamptModelFile']`` (the
        resolved modelFile); errors of make() are RuntimeErrors naming the
        file."""
        if self.controllerFile is None:
            raise RuntimeError("RobotInfo %s has no controllerFile" % self.name)
        module = _load_code(self.controllerFile, self.filePaths)
        if not hasattr(module, 'make'):
            raise RuntimeError("Controller file %s has no make(robotModel) function" % self.controllerFile)
        args = self.controllerArgs or []
        try:
            res = module.make(self.klamptModel(), *args)
        except Exception as e:
            raise RuntimeError("Error running make(robotModel) of controller file %s: %s"
                               % (self.controllerFile, e)) from e
        props = getattr(res, 'properties', None)
        if isinstance(props, dict) and self.modelFile is not None:
            path = self._resolve(self.modelFile)
            if path is not None:
                props.setdefault('klamptModelFile', os.path.abspath(path))
        return res

    def configureSimulator(self, sim, robotIndex=0):
        """Configures a :class:`~klampt.sim.simulation.SimpleSimulator` to
        emulate the robot: simulatorFile's ``make(sim, robotIndex)`` returns
        (controller, emulators); the controller (unless it is the simulator's
        own SimRobotController, which needs no installing) and emulators are
        installed in the simulator and every simulated sensor gets its calibration file
        (:meth:`configureSensor`). Does nothing without a simulatorFile.

        Args:
            sim (SimpleSimulator): a simulator whose world holds a matching
                robot.
            robotIndex (int or str): index or name of the robot in sim.world.
        """
        if self.simulatorFile is None:
            return
        robot = sim.world.robot(robotIndex)
        if self.klamptModel().numLinks() != robot.numLinks():
            raise ValueError("The robot in the simulator doesn't match robot %s" % self.name)
        module = _load_code(self.simulatorFile, self.filePaths)
        if not hasattr(module, 'make'):
            raise RuntimeError("Simulator file %s has no make(sim, robotIndex) function" % self.simulatorFile)
        try:
            result = module.make(sim, robot.index)
        except Exception as e:
            raise RuntimeError("make(sim, robotIndex) of %s failed: %s" % (self.simulatorFile, e))
        try:
            controller, emulators = result
            emulators = list(emulators)
        except Exception:
            raise RuntimeError("make(sim, robotIndex) of %s must return a pair (controller, emulators)"
                               % self.simulatorFile)
        # the simulator's own SimRobotController (as Klampt-examples' sphero_sim returns) already runs the robot
        if not isinstance(controller, SimRobotController):
            sim.setController(robot.index, controller)
        for e in emulators:
            sim.addEmulator(robot.index, e)
        simcontroller = sim.controller(robot.index)
        index = 0
        while simcontroller.sensor(index).type() != '':
            self.configureSensor(simcontroller.sensor(index))
            index += 1

    # ------------------------------------------------------------ parts and indices
    def partLinks(self, part: str) -> List[Union[int, str]]:
        """The links of a part as listed in parts."""
        if part not in self.parts:
            raise ValueError("Unknown part %r of robot %s" % (part, self.name))
        return self.parts[part]

    def partLinkIndices(self, part: str) -> List[int]:
        """The indices of a part's links (fixed links included)."""
        return self.toIndices(self.partLinks(part))

    def partLinkNames(self, part: str) -> List[str]:
        """The names of a part's links (fixed links included)."""
        return self.toNames(self.partLinks(part))

    def partDriverIndices(self, part: str) -> List[int]:
        """The drivers of a part's links (see toDriverIndices)."""
        return self.toDriverIndices(self.partLinks(part))

    def partAsSubrobot(self, part: str) -> SubRobotModel:
        """The SubRobotModel of a part's links."""
        return SubRobotModel(self.klamptModel(), self.partLinkIndices(part))

    def eeSolver(self, endEffector: str, target):
        """An IKSolver moving the end effector's activeLinks so that its
        template ikObjective reaches target: a point (3 floats), a rigid
        transform (R, t) or the objective's config.getConfig parameters."""
        robotsim = importlib.import_module('klampt.robotsim')
        if not hasattr(robotsim, 'IKSolver'):
            raise RuntimeError("eeSolver needs inverse kinematics (klampt.IKSolver), which is not available in this installation")
        if endEffector not in self.endEffectors:
            raise ValueError("Unknown end effector %r" % endEffector)
        ee = self.endEffectors[endEffector]
        robot = self.klamptModel()
        link = self.toIndices([ee.link])[0]
        if ee.ikObjective is None:
            obj = robotsim.IKObjective()
            if len(target) == 2:
                obj.setFixedTransform(link, target[0], target[1])
            else:
                obj.setFixedPoint(link, [0, 0, 0], list(target))
        else:
            obj = ee.ikObjective.copy()
            if len(target) == 2:
                obj.matchDestination(target[0], target[1])
            else:
                config.set_config(obj, list(target))
        solver = robotsim.IKSolver(robot)
        solver.add(obj)
        solver.setActiveDofs(self.toIndices(ee.activeLinks))
        return solver

    def toIndices(self, items: Sequence[Union[int, str]]) -> List[int]:
        """Link names or indices as link indices."""
        res = []
        for item in items:
            if isinstance(item, str):
                try:
                    link = self.klamptModel().link(item)
                except KeyError:
                    raise ValueError("Unknown link %r" % item)
                if link.index < 0:
                    raise ValueError("Unknown link %r" % item)
                res.append(link.index)
            else:
                res.append(int(item))
        return res

    def toDriverIndices(self, items: Sequence[Union[int, str]]) -> List[int]:
        """The drivers that move the given links (names or indices), in the
        order of the links, each driver once. Links that no driver moves (a
        fixed base, a gripper's fixed links) are skipped, as in the reference,
        whose robot-info parts list them. A link moved by an affine driver
        gives that driver even if it is not the driver's first link (the
        reference skips those)."""
        robot = self.klamptModel()
        links = self.toIndices(items)
        for l in links:
            if not 0 <= l < robot.numLinks():
                raise IndexError("Link index %d out of range [0, %d)" % (l, robot.numLinks()))
        owner = {}
        for d in range(robot.numDrivers()):
            for l in robot.driver(d).getAffectedLinks():
                owner.setdefault(l, d)
        res = []
        for l in links:
            if l in owner and owner[l] not in res:
                res.append(owner[l])
        return res

    def toNames(self, items: Sequence[Union[int, str]]) -> List[str]:
        """Link names or indices as link names."""
        robot = None
        res = []
        for item in items:
            if isinstance(item, str):
                res.append(item)
            else:
                robot = robot or self.klamptModel()
                res.append(robot.link(int(item)).getName())
        return res

    # ------------------------------------------------------------ resources
    def _resource_dir(self):
        if self.resourceDir is None:
            raise RuntimeError("RobotInfo %s has no resourceDir" % self.name)
        path = self._resolve(self.resourceDir)
        if path is None:
            # a resource directory that doesn't exist yet is created beside the info file
            base = self.filePaths[-1] if self.filePaths and not os.path.isabs(self.resourceDir) else ''
            path = os.path.join(base, self.resourceDir)
        return path

    def listResources(self) -> List[str]:
        """Names (relative paths) of all files in the resource directory; []
        if resourceDir is not set or doesn't exist."""
        if self.resourceDir is None:
            return []
        root = self._resource_dir()
        res = []
        for folder, _, files in os.walk(root):
            for fn in files:
                res.append(os.path.relpath(os.path.join(folder, fn), root))
        return sorted(res)

    def getResource(self, name: str, doedit='auto'):
        """Loads a named resource from the resource directory (see
        :func:`klampt.io.resource.get`)."""
        return resource.get(name, directory=self._resource_dir(), doedit=doedit)

    def setResource(self, name: str, object) -> None:
        """Saves a named resource to the resource directory."""
        resource.set(name, object, directory=self._resource_dir())

    # ------------------------------------------------------------ JSON
    def toJson(self) -> dict:
        """The JSON structure of the info (the format of :meth:`save`)."""
        jsonobj = dict((attr, copy.deepcopy(getattr(self, attr))) for attr in _JSON_ATTRS)
        ees = {}
        for k, v in self.endEffectors.items():
            ees[k] = {'link': v.link, 'activeLinks': v.activeLinks,
                      'ikObjective': None if v.ikObjective is None else loader.to_json(v.ikObjective),
                      'gripperInfo': None if v.gripperInfo is None else v.gripperInfo.toJson()}
        if ees:
            jsonobj['endEffectors'] = ees
        grippers = dict((k, v.toJson()) for k, v in self.grippers.items())
        if grippers:
            jsonobj['grippers'] = grippers
        return jsonobj

    def fromJson(self, jsonobj) -> None:
        """Sets the info from a JSON structure of :meth:`toJson`."""
        if 'name' not in jsonobj:
            raise IOError("RobotInfo JSON has no 'name'")
        for attr in _JSON_ATTRS:
            if attr in jsonobj and jsonobj[attr] is not None:
                setattr(self, attr, copy.deepcopy(jsonobj[attr]))
        self.endEffectors = {}
        for k, v in jsonobj.get('endEffectors', {}).items():
            obj = v.get('ikObjective')
            ee = EndEffectorInfo(v['link'], v['activeLinks'], None if obj is None else loader.from_json(obj))
            if v.get('gripperInfo') is not None:
                ee.gripperInfo = GripperInfo(None, None, register=False)
                ee.gripperInfo.fromJson(v['gripperInfo'])
            self.endEffectors[k] = ee
        self.grippers = {}
        for k, v in jsonobj.get('grippers', {}).items():
            g = GripperInfo(None, None, register=False)
            g.fromJson(v)
            self.grippers[k] = g

    def save(self, f) -> None:
        """Saves the info as JSON to a file name or file object."""
        if isinstance(f, str):
            with open(f, 'w') as file:
                json.dump(self.toJson(), file, indent=2)
        else:
            json.dump(self.toJson(), f, indent=2)


class GripperInfo(object):
    """Information about a gripper and its mounting on a robot; see
    robotinfo_api for the meaning of each attribute for vacuum,
    parallel-jaw and multi-finger grippers.

    The finger configuration is the list of values of fingerLinks.
    Synergies map k-1 parameters p to the configuration A[0] p[0] + ... +
    A[k-2] p[k-2] + A[k-1] (A a list of k finger configurations), or are
    callables.
    """

    all_grippers = {}

    def __init__(self, name: str, baseLink, fingerLinks=None, fingerDrivers=None, type: str = None, center=None,
                 primaryAxis=None, secondaryAxis=None, fingerLength: float = None, fingerWidth: float = None,
                 fingerDepth: float = None, maximumSpan: float = None, minimumSpan: float = None, closedConfig=None,
                 openConfig=None, gripperLinks=None, klamptModel: str = None, register=True):
        self.name = name
        self.baseLink = baseLink
        self.fingerLinks = list(fingerLinks) if fingerLinks is not None else []
        self.fingerDrivers = list(fingerDrivers) if fingerDrivers is not None else []
        self.type = type
        self.center = center
        self.primaryAxis = primaryAxis
        self.secondaryAxis = secondaryAxis
        self.fingerLength = fingerLength
        self.fingerWidth = fingerWidth
        self.fingerDepth = fingerDepth
        self.maximumSpan = maximumSpan
        self.minimumSpan = minimumSpan
        self.closedConfig = closedConfig
        self.openConfig = openConfig
        self.gripperLinks = gripperLinks
        self.synergies = {}
        self.klamptModel = klamptModel
        if register:
            GripperInfo.register(self)

    @staticmethod
    def register(gripper: 'GripperInfo'):
        """Adds a GripperInfo to the global registry (``all_grippers``) under its
        name, replacing any gripper of that name.

        Raises:
            ValueError: if the gripper has no name.
        """
        if not gripper.name:
            raise ValueError("A GripperInfo needs a name to be registered")
        GripperInfo.all_grippers[gripper.name] = gripper

    @staticmethod
    def get(name) -> 'GripperInfo':
        """A registered GripperInfo (KeyError if there is none)."""
        return GripperInfo.all_grippers[name]

    @staticmethod
    def load(fn: str) -> 'GripperInfo':
        """Loads a GripperInfo from a JSON file and registers it; a relative
        klamptModel is made relative to the file's folder."""
        with open(fn, 'r') as f:
            jsonobj = _json.load(f)
        res = GripperInfo(None, None, register=False)
        res.fromJson(jsonobj)
        if res.klamptModel is not None and not os.path.isabs(res.klamptModel):
            res.klamptModel = os.path.join(os.path.dirname(os.path.abspath(fn)), res.klamptModel)
        GripperInfo.register(res)
        return res

    @staticmethod
    def mounted(gripper: 'GripperInfo', klamptModel, baseLink, name: str = None, register=True):
        """The info of a standalone gripper mounted on a robot: klamptModel
        (a file or RobotModel) contains the arm and the gripper links, whose
        base is baseLink.  Link indices are shifted by the base's new index
        and driver indices onto the drivers that move the shifted finger
        links."""
        if name is None:
            name = gripper.name + "_mounted"
        if isinstance(klamptModel, str):
            world = WorldModel()
            world.enableGeometryLoading(False)
            if not world.readFile(klamptModel):
                raise IOError("Unable to load file " + klamptModel)
            robot = world.robot(0)
        else:
            robot = klamptModel
        newbase = robot.link(baseLink).index if isinstance(baseLink, str) else int(baseLink)
        oldbase = gripper.baseLink if isinstance(gripper.baseLink, int) else 0
        offset = newbase - oldbase
        fingerLinks = [l + offset for l in gripper.fingerLinks]
        driverOffset = 0
        if gripper.fingerDrivers:
            first = min(d if isinstance(d, int) else min(d) for d in gripper.fingerDrivers)
            mount = -1
            for i in range(robot.numDrivers()):
                if any(l in fingerLinks for l in robot.driver(i).getAffectedLinks()):
                    mount = i
                    break
            if mount < 0:
                raise RuntimeError("No driver of the robot moves the mounted gripper's fingers")
            driverOffset = mount - first
        res = copy.copy(gripper)
        res.synergies = copy.deepcopy(gripper.synergies)
        res.name = name
        res.baseLink = newbase
        res.klamptModel = klamptModel if isinstance(klamptModel, str) else None
        res.fingerLinks = fingerLinks
        res.fingerDrivers = [d + driverOffset if isinstance(d, int) else [x + driverOffset for x in d] for d in gripper.fingerDrivers]
        if gripper.gripperLinks is not None:
            res.gripperLinks = [l + offset for l in gripper.gripperLinks]
        if register:
            GripperInfo.register(res)
        return res

    # ------------------------------------------------------------ opening
    def _open_closed(self):
        if self.closedConfig is None or self.openConfig is None:
            raise ValueError("Gripper %s does not define closedConfig and openConfig" % self.name)
        return self.closedConfig, self.openConfig

    def partwayOpenConfig(self, amount: float):
        """The finger configuration at amount in [0 (closed), 1 (open)]."""
        closed, opened = self._open_closed()
        return vectorops.interpolate(closed, opened, amount)

    def configToOpening(self, qfinger) -> float:
        """The opening in [0, 1] of the closest point of the closed-open line
        to qfinger."""
        closed, opened = self._open_closed()
        if len(qfinger) != len(closed):
            raise ValueError("Finger configuration has %d entries, expected %d" % (len(qfinger), len(closed)))
        a = vectorops.sub(opened, closed)
        b = vectorops.sub(qfinger, closed)
        return min(1.0, max(0.0, vectorops.dot(a, b) / vectorops.normSquared(a)))

    def _spans(self):
        if self.maximumSpan is None:
            raise ValueError("Gripper %s does not define maximumSpan" % self.name)
        return (self.minimumSpan if self.minimumSpan is not None else 0.0), self.maximumSpan

    def widthToOpening(self, width: float) -> float:
        """The opening (0 closed, 1 open) at which the fingers are width
        apart, interpolating linearly between minimumSpan and maximumSpan."""
        lo, hi = self._spans()
        return (width - lo) / (hi - lo)

    def openingToWidth(self, opening: float) -> float:
        """The width between the fingers at an opening in [0, 1]."""
        lo, hi = self._spans()
        return lo + opening * (hi - lo)

    # ------------------------------------------------------------ synergies
    def evalSynergy(self, synergy_name: str, parameters):
        """The finger configuration of a synergy for the given parameters."""
        synergy = self.synergies[synergy_name]
        if callable(synergy):
            return synergy(parameters)
        if len(parameters) + 1 != len(synergy):
            raise ValueError("Synergy %s takes %d parameters" % (synergy_name, len(synergy) - 1))
        res = list(synergy[-1])
        for a, p in zip(synergy[:-1], parameters):
            res = vectorops.madd(res, a, p)
        return res

    def configToSynergy(self, qfinger, synergy_name: str = None) -> Tuple[str, list]:
        """(name, parameters) of the affine synergy whose least-squares
        parameters reproduce qfinger best; only synergy_name is tried if
        given."""
        import numpy as np
        if synergy_name is None:
            best = (None, None)
            bestd = float('inf')
            for name, synergy in self.synergies.items():
                if callable(synergy):
                    continue
                _, p = self.configToSynergy(qfinger, name)
                d = vectorops.distanceSquared(qfinger, self.evalSynergy(name, p))
                if d < bestd:
                    best, bestd = (name, p), d
            return best
        synergy = self.synergies[synergy_name]
        if callable(synergy):
            raise ValueError("Can't invert the callable synergy %s" % synergy_name)
        b = np.asarray(qfinger, dtype=float) - np.asarray(synergy[-1], dtype=float)
        A = np.asarray(synergy[:-1], dtype=float).T
        return synergy_name, np.linalg.lstsq(A, b, rcond=None)[0].tolist()

    # ------------------------------------------------------------ robot configurations
    def setFingerConfig(self, qrobot, qfinger):
        """qrobot with the finger links set to qfinger."""
        if len(qfinger) != len(self.fingerLinks):
            raise ValueError("Finger configuration has %d entries, expected %d" % (len(qfinger), len(self.fingerLinks)))
        res = list(qrobot)
        for i, v in zip(self.fingerLinks, qfinger):
            res[i] = v
        return res

    def getFingerConfig(self, qrobot):
        """The finger configuration within a robot configuration."""
        return [qrobot[i] for i in self.fingerLinks]

    def descendantLinks(self, robot) -> List[int]:
        """The links strictly below the base link in the robot's tree."""
        base = robot.link(self.baseLink).index
        below = [False] * robot.numLinks()
        below[base] = True
        res = []
        # parents precede their children in Klamp't's link order
        for i in range(robot.numLinks()):
            p = robot.link(i).getParent()
            if i != base and p >= 0 and below[p]:
                below[i] = True
                res.append(i)
        return res

    def getSubrobot(self, robot, all_descendants=True) -> SubRobotModel:
        """The SubRobotModel of the base link plus all its descendants (or
        only the finger links if all_descendants is False)."""
        base = robot.link(self.baseLink).index
        links = self.descendantLinks(robot) if all_descendants else list(self.fingerLinks)
        return SubRobotModel(robot, [base] + [l for l in links if l != base])

    def getGeometry(self, robot, qfinger=None, type='Group'):
        """The gripper's geometry (gripperLinks, or the base and its
        descendants) in the base link's frame, at qfinger (default: the
        current configuration).  type is 'Group' or 'TriangleMesh'."""
        if not hasattr(Geometry3D, 'setGroup'):
            raise RuntimeError("getGeometry needs Geometry3D groups, which are not available in this installation")
        q0 = robot.getConfig()
        if qfinger is not None:
            robot.setConfig(self.setFingerConfig(q0, qfinger))
        try:
            base = robot.link(self.baseLink).index
            links = self.gripperLinks if self.gripperLinks is not None else [base] + self.descendantLinks(robot)
            Tbase = robot.link(base).getTransform()
            res = Geometry3D()
            res.setGroup()
            k = 0
            for l in links:
                g = robot.link(l).geometry()
                if g.empty():
                    continue
                g = g.clone()
                g.setCurrentTransform(*se3.identity())
                g.transform(*se3.mul(se3.inv(Tbase), robot.link(l).getTransform()))
                res.setElement(k, g)
                k += 1
            if type == 'TriangleMesh':
                res = res.convert('TriangleMesh')
            elif type != 'Group':
                raise ValueError("type must be 'Group' or 'TriangleMesh'")
            return res
        finally:
            if qfinger is not None:
                robot.setConfig(q0)

    # ------------------------------------------------------------ JSON
    def fromJson(self, jsonobj) -> None:
        """Sets the info from a JSON structure of :meth:`toJson`."""
        for attr in _GRIPPER_REQUIRED:
            if attr not in jsonobj:
                raise IOError("GripperInfo JSON has no '%s'" % attr)
        for attr in _GRIPPER_REQUIRED + _GRIPPER_OPTIONAL:
            if attr in jsonobj:
                setattr(self, attr, copy.deepcopy(jsonobj[attr]))
        if self.synergies is None:
            self.synergies = {}
        if self.fingerLinks is None:
            self.fingerLinks = []
        if self.fingerDrivers is None:
            self.fingerDrivers = []

    def toJson(self) -> dict:
        """The JSON structure of the info (callable synergies can't be
        saved: ValueError)."""
        for k, v in self.synergies.items():
            if callable(v):
                raise ValueError("Can't convert the callable synergy %s to JSON" % k)
        return dict((attr, copy.deepcopy(getattr(self, attr))) for attr in _GRIPPER_REQUIRED + _GRIPPER_OPTIONAL)

    def save(self, f) -> None:
        """Saves as JSON to a file name or file object."""
        if isinstance(f, str):
            with open(f, 'w') as file:
                json.dump(self.toJson(), file, indent=2)
        else:
            json.dump(self.toJson(), f, indent=2)

    # ------------------------------------------------------------ visualization
    def visualize(self) -> None:
        """Shows the gripper, opening and closing, in a klampt.vis window."""
        vis = _require('klampt.vis', 'GripperInfo.visualize')
        self.addToVis()
        vis.run()
        self.removeFromVis()

    def _vis_names(self):
        return ['gripper_' + str(self.name) + suffix for suffix in ('', '_center', '_primary', '_secondary')]

    def addToVis(self, robot=None, animate=True, base_xform=None) -> None:
        """Adds the gripper to the klampt.vis scene: the robot (loaded from
        klamptModel if robot is None, with its base at base_xform), the
        center point and the primary/secondary axes; if animate, the fingers
        open and close."""
        vis = _require('klampt.vis', 'GripperInfo.addToVis')
        if robot is None:
            if self.klamptModel is None:
                raise ValueError("Gripper %s has no klamptModel to show" % self.name)
            world = WorldModel()
            robot = world.loadRobot(self.klamptModel)
            if robot.index < 0:
                raise IOError("Unable to load " + self.klamptModel)
            if base_xform is not None:
                robot.link(self.baseLink).setParentTransform(*base_xform)
                robot.setConfig(robot.getConfig())
        names = self._vis_names()
        vis.add(names[0], robot)
        self._vis_added = [names[0]]
        T = robot.link(self.baseLink).getTransform()
        if self.center is not None:
            c = se3.apply(T, self.center)
            vis.add(names[1], list(c))
            self._vis_added.append(names[1])
            for name, axis in ((names[2], self.primaryAxis), (names[3], self.secondaryAxis)):
                if axis is not None:
                    end = vectorops.madd(c, so3.apply(T[0], axis), self.fingerLength or 0.1)
                    vis.add(name, [list(c), list(end)])
                    self._vis_added.append(name)
        if animate and self.closedConfig is not None and self.openConfig is not None:
            q = robot.getConfig()
            qs = [self.setFingerConfig(q, f) for f in (self.openConfig, self.closedConfig, self.openConfig)]
            vis.animate(names[0], RobotTrajectory(robot, [0, 1, 2], qs))

    def removeFromVis(self) -> None:
        """Removes what :meth:`addToVis` added from the klampt.vis scene."""
        vis = _require('klampt.vis', 'GripperInfo.removeFromVis')
        for name in getattr(self, '_vis_added', []):
            vis.remove(name)
        self._vis_added = []
