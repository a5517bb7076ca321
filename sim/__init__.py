"""The collision core: exact event-based motion of discs (and balls) on a table."""

from cuesim.sim import numba_cache  # noqa: F401  (first: clears a stale compiled cache)
from cuesim.sim.engine import SimulationError, run_motion
from cuesim.sim.events import EventKind
from cuesim.sim.result import Event, ShotResult, TruncatedShotError

__all__ = ["Event", "EventKind", "ShotResult", "SimulationError", "TruncatedShotError",
           "run_motion"]
