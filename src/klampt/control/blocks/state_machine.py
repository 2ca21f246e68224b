"""State machines of blocks: :class:`StateMachineBase` (one active
sub-block, transitions by :meth:`~StateMachineBase.next_state`),
:class:`TransitionStateMachine` (transition conditions) and
:class:`TimedSequenceBlock` (switching at given times)."""
import logging

from .core import Block
from .utils import BlockSignal


class StateMachineBase(Block):
    """Runs one of ``blocks`` at a time; subclasses decide transitions in
    :meth:`next_state`.  Sub-blocks receive 'enter' and 'exit' signals; a
    sub-block raising BlockSignal('change_state', str(k)) switches to k.
    Output 'state' is the active index (-1: none).

    Attributes:
        blocks (list of Block): the sub-blocks.
        current (int): the active index.
        start (int): the initial index.
    """

    def __init__(self, blocks, start=0, reset_on_enter=True):
        Block.__init__(self, [], ['state'])
        self.blocks = blocks
        self.current = start
        self.start = start
        self.reset_on_enter = reset_on_enter

    def next_state(self, state, *args, **kwargs):
        """The state to switch to; the default stays."""
        return state

    def __str__(self):
        strs = [str(c) for c in self.blocks]
        if 0 <= self.current < len(strs):
            strs[self.current] = '* ' + strs[self.current]
        return self.__class__.__name__ + '\n  ' + '\n  '.join(strs)

    def signal(self, type, *args):
        if type == 'reset' or (type == 'enter' and self.reset_on_enter):
            if self.current >= 0:
                self.blocks[self.current].signal('exit')
            self.current = self.start
            if self.current >= 0:
                self.blocks[self.current].signal('enter')
        elif self.current >= 0:
            self.blocks[self.current].signal(type, *args)

    def advance(self, *args, **kwargs):
        if self.current < 0:
            return self.current
        n = None
        try:
            self.blocks[self.current]._process()
        except BlockSignal as s:
            if s.signal == 'change_state':
                n = int(s.text)
            else:
                self.signal(s.signal)
        if n is None:
            n = self.next_state(self.current, *args, **kwargs)
        if n != self.current:
            self.blocks[self.current].signal('exit')
            if n >= 0:
                self.blocks[n].signal('enter')
            self.current = n
        return self.current

    def __getstate__(self):
        states = []
        for c in self.blocks:
            getter = getattr(c, '__getstate__', None)
            states.append(getter() if getter is not None else None)
        return {'current': self.current, 'blocks': states}

    def __setstate__(self, state):
        if 'current' not in state or 'blocks' not in state or len(state['blocks']) != len(self.blocks):
            raise ValueError("Invalid state machine state")
        self.current = state['current']
        for c, s in zip(self.blocks, state['blocks']):
            if s is not None:
                c.__setstate__(s)


class TransitionStateMachine(StateMachineBase):
    """A state machine whose transitions are conditions:
    ``transitions[i][j](*inputs)`` True moves from state i to j.

    Args:
        blocks (list of Block): the sub-blocks.
        transitions (list of dict, optional): one {target: condition} per
            state.
        inputs (int or list of str): the inputs passed to the conditions.
    """

    def __init__(self, blocks, transitions=None, inputs=0, start=0, reset_on_enter=True):
        StateMachineBase.__init__(self, blocks, start, reset_on_enter)
        Block.__init__(self, inputs, ['state'])
        if transitions is None:
            transitions = [dict() for c in blocks]
        elif len(transitions) != len(blocks):
            raise ValueError("TransitionStateMachine needs one transition dict per block")
        self.transitions = transitions

    def set_transition(self, fromState, toState, func):
        """Moves from fromState to toState when ``func(*inputs)`` is True."""
        n = len(self.transitions)
        if not (0 <= fromState < n and 0 <= toState < n):
            raise IndexError("States must be in [0, %d)" % n)
        self.transitions[fromState][toState] = func

    def next_state(self, state, *args, **kwargs):
        if state < 0:
            return state
        for k, cond in self.transitions[state].items():
            if cond(*args, **kwargs):
                logging.getLogger(__name__).debug("TransitionStateMachine: transition to %d (%s)", k, self.blocks[k])
                return k
        return state


class TimedSequenceBlock(TransitionStateMachine):
    """Runs blocks[i] from times[i-1] to times[i] (input 't'); after
    times[-1] no block runs (state -1)."""

    def __init__(self, blocks, times):
        if len(times) != len(blocks):
            raise ValueError("TimedSequenceBlock needs one time per block")
        self.times = list(times)
        trans = [dict() for c in blocks]
        for i in range(len(blocks)):
            target = i + 1 if i + 1 < len(blocks) else -1
            trans[i][target] = (lambda t, ti=self.times[i]: t >= ti)
        TransitionStateMachine.__init__(self, blocks, trans, ['t'])

    def next_state(self, state, *args, **kwargs):
        # a late first step may cross several switching times at once
        while state >= 0:
            nxt = TransitionStateMachine.next_state(self, state, *args, **kwargs)
            if nxt == state:
                break
            state = nxt
        return state
