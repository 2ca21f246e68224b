"""Simulation helpers on top of :class:`klampt.Simulator`: a simulator with
controllers, emulators and hooks (:mod:`.simulation`), batch and Monte Carlo
runs (:mod:`.batch`), settling objects into contact (:mod:`.settle`) and CSV
logging / playback (:mod:`.simlog`)."""
from .simulation import *  # noqa: F401,F403  (the reference's klampt.sim exports the simulation module's names)
