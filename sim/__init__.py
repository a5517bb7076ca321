"""The collision core: exact event-based motion of discs (and balls) on a table.

Every compiled function is decorated by `compiled.njit_core` / `njit_norc`, which point numba at
the user's cache directory (`numba_cache.core_cache_dir`), so the core never writes into the
source tree or site-packages, whenever its module is imported. The batch kernels, the parallel
runner and the pymunk baseline are imported by their users, not here: a fresh process that
plays a shot does not pay for them.
"""

from cuesim.sim import numba_cache

with numba_cache.core_cache_dir(memo=True) as _folder:
    numba_cache.refresh(cache=_folder)  # first: clears this copy's stale compiled cache

from cuesim.sim.engine import SimulationError, run_motion  # noqa: E402  (after the refresh)
from cuesim.sim.events import EventKind  # noqa: E402
from cuesim.sim.result import Event, ShotResult, TruncatedShotError  # noqa: E402

__all__ = ["Event", "EventKind", "ShotResult", "SimulationError", "TruncatedShotError",
           "run_motion"]
