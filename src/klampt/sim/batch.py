"""Many simulations of one world from different initial conditions.

Initial conditions and returned items are named by :mod:`klampt.model.access`
paths: 'rigidObjects[0].transform', 'robots[0].config[4]' on the world;
'time', 'controllers[0].sensedConfig', 'robots[0].actualTorques' on the
simulator."""
from ..robotsim import *  # noqa: F401,F403  (the module re-exports the core classes, as in Klamp't)
import time

from ..model import access
from .simulation import SimpleSimulator


def getWorldSimState(world):
    """A dict holding the simulated variables of the world (object transforms
    and velocities, robot configurations and velocities), for
    :func:`setWorldSimState`.

    This is not the full simulator state: use Simulator.getState for that."""
    res = {}
    for i in range(world.numRigidObjects()):
        res['rigidObjects[%d].transform' % i] = world.rigidObject(i).getTransform()
        res['rigidObjects[%d].velocity' % i] = world.rigidObject(i).getVelocity()
    for i in range(world.numRobots()):
        res['robots[%d].config' % i] = world.robot(i).getConfig()
        res['robots[%d].velocity' % i] = world.robot(i).getVelocity()
    return res


def setWorldSimState(world, state):
    """Restores a dict from :func:`getWorldSimState`."""
    for path, value in state.items():
        access.set_item(world, path, value)


def _default_items(world):
    items = []
    for i in range(world.numRigidObjects()):
        items += ['rigidObjects[%d].transform' % i, 'rigidObjects[%d].velocity' % i]
    if world.numRobots() > 0:
        items.append('time')
    for i in range(world.numRobots()):
        items += ['controllers[%d].commandedConfig' % i, 'controllers[%d].commandedVelocity' % i,
                  'controllers[%d].sensedConfig' % i, 'controllers[%d].sensedVelocity' % i,
                  'controllers[%d].sensors' % i, 'robots[%d].actualConfig' % i,
                  'robots[%d].actualVelocity' % i, 'robots[%d].actualTorques' % i]
    return items


def doSim(world, duration, initialCondition, returnItems=None, trace=False,
          simDt=0.01, simInit=None, simStep=None, simTerm=None):
    """Simulates the world from an initial condition.

    Args:
        world (WorldModel): the world (restored to its state on return).
        duration (float): maximum simulated time, in s.
        initialCondition (dict): access paths of the world -> values; the
            special key 'args' gives a tuple passed after the simulator to
            simInit, simStep and simTerm.
        returnItems (list of str, optional): access paths of the simulator to
            return; default: everything the simulation changes.
        trace (bool): return each item's value at every step instead of the
            final value only.
        simDt (float): the outer (control) time step.
        simInit, simStep (callable, optional): ``f(sim, *args)`` called before
            simulating / before each step.
        simTerm (callable, optional): ``f(sim, *args)`` returning True to stop.

    Returns:
        dict: each returned item, plus 'status' (status string), 'time' and
        'wall_clock_time' (s).
    """
    if simDt <= 0:
        raise ValueError("Time step must be positive")
    if returnItems is None:
        returnItems = _default_items(world)
    saved = getWorldSimState(world)
    args = ()
    for path, value in initialCondition.items():
        if path == 'args':
            args = value
        else:
            access.set_item(world, path, value)
    try:
        sim = SimpleSimulator(world)
        if simInit:
            simInit(sim, *args)
        res = {}
        if trace:
            for item in returnItems:
                res[item] = [access.get_item(sim, item)]
            res['status'] = [sim.getStatusString()]
        t0 = time.time()
        t = 0.0
        worst = 0
        while t < duration:
            if simTerm and simTerm(sim, *args) is True:
                break
            if simStep:
                simStep(sim, *args)
            sim.simulate(simDt)
            worst = max(worst, sim.getStatus())
            if trace:
                for item in returnItems:
                    res[item].append(access.get_item(sim, item))
                res['status'].append(sim.getStatusString())
            t += simDt
        if not trace:
            for item in returnItems:
                res[item] = access.get_item(sim, item)
            res['status'] = sim.getStatusString(worst)
        res['time'] = t
        res['wall_clock_time'] = time.time() - t0
        return res
    finally:
        setWorldSimState(world, saved)


def _plain(value):
    """A value as plain lists, tuples and dicts (access paths give list
    proxies that write through to the simulator, which do not pickle)."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _batch_sim_chunk(world, initialConditions, num_threads=1, **options):
    """batchSim of a chunk of initial conditions, on an executor's worker."""
    return [_plain(r) for r in batchSim(world, initialConditions=initialConditions, **options)]


def batchSim(world, duration, initialConditions, returnItems,
             simDt=0.01, simInit=None, simStep=None, simTerm=None, executor=None, chunk_size=None):
    """Runs :func:`doSim` for each initial condition: a list of dicts, or a
    dict of equally long lists. A run that raises gives 'error'.

    With an executor (a concurrent.futures.Executor or a
    dask.distributed.Client), the runs are split into chunks of consecutive
    initial conditions that run on its workers (the world is sent to each
    worker once, see :mod:`klampt.batch.distributed`); the results are in
    the order of the conditions and equal the serial ones. simInit, simStep
    and simTerm must then be picklable (module-level functions)."""
    if isinstance(initialConditions, dict):
        lengths = set(len(v) for v in initialConditions.values())
        if len(lengths) > 1:
            raise ValueError("initialConditions entries must all be of the same length")
        n = lengths.pop() if lengths else 0
        initialConditions = [dict((k, v[i]) for k, v in initialConditions.items()) for i in range(n)]
    if executor is not None:
        from ..batch import distributed  # needs the optional dask.distributed
        options = dict(duration=duration, returnItems=returnItems, simDt=simDt, simInit=simInit, simStep=simStep,
                       simTerm=simTerm)
        return distributed.map_chunks(executor, _batch_sim_chunk, (world,), [list(initialConditions)], options,
                                      len(initialConditions), chunk_size=chunk_size)
    res = []
    for init in initialConditions:
        try:
            res.append(doSim(world, duration, init, returnItems, trace=False, simDt=simDt,
                             simInit=simInit, simStep=simStep, simTerm=simTerm))
        except Exception:
            res.append('error')
    return res


def monteCarloSim(world, duration, initialConditionSamplers, N, returnItems,
                  simDt=0.01, simInit=None, simStep=None, simTerm=None, executor=None, chunk_size=None):
    """Runs N simulations from initial conditions drawn by the samplers (a dict
    from access paths to functions of no argument). Returns a list of
    (initialCondition, doSim result or 'error') pairs.

    With an executor, the conditions are drawn here, in order, and the runs
    go to the executor as in :func:`batchSim`."""
    if executor is not None:
        inits = [dict((k, sample()) for k, sample in initialConditionSamplers.items()) for _ in range(N)]
        outs = batchSim(world, duration, inits, returnItems, simDt=simDt, simInit=simInit, simStep=simStep,
                        simTerm=simTerm, executor=executor, chunk_size=chunk_size)
        return list(zip(inits, outs))
    res = []
    for _ in range(N):
        init = dict((k, sample()) for k, sample in initialConditionSamplers.items())
        try:
            out = doSim(world, duration, init, returnItems, trace=False, simDt=simDt,
                        simInit=simInit, simStep=simStep, simTerm=simTerm)
        except Exception:
            out = 'error'
        res.append((init, out))
    return res


def saveStateHeaderCSV(state, f):
    """Writes the CSV header of a state dict to the stream f (vector items
    become one column per entry, 'name[i]')."""
    names = []
    for k, v in state.items():
        flat = access.flatten(v)
        names += [k] if len(flat) == 1 else ['%s[%d]' % (k, i) for i in range(len(flat))]
    f.write(','.join(names) + '\n')


def _row(state):
    return ','.join(str(v) for v in access.flatten(list(state.values()))) + '\n'


def saveStateCSV(state, f):
    """Writes a state dict (header and one row) as CSV to the stream f."""
    saveStateHeaderCSV(state, f)
    f.write(_row(state))


def saveStatesCSV(states, f):
    """Writes a list of state dicts (same keys) as CSV to the stream f."""
    saveStateHeaderCSV(states[0], f)
    for state in states:
        f.write(_row(state))


def saveStateTrajectoryCSV(stateTraj, f):
    """Writes a trace (dict of key -> list of values, as doSim(trace=True)
    returns) as CSV, one row per step, with the step number in a last 'iter'
    column; entries that are not lists (such as 'time') repeat on every row."""
    traces = dict((k, v) for k, v in stateTraj.items() if isinstance(v, list))
    state = dict((k, v[0] if k in traces else v) for k, v in stateTraj.items())
    state['iter'] = 0
    saveStateHeaderCSV(state, f)
    steps = min(len(v) for v in traces.values()) if traces else 0
    for i in range(steps):
        state['iter'] = i
        for k, v in traces.items():
            state[k] = v[i]
        f.write(_row(state))
