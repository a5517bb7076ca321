"""The collision core: exact event-based motion of discs (and balls) on a table.

Every module with compiled (`@njit(cache=True)`) code is imported here, inside
`numba_cache.core_cache_dir()`, so numba caches it in the user's cache directory and never
writes into the source tree or site-packages (see `numba_cache`).
"""

from cuesim.sim import numba_cache

with numba_cache.core_cache_dir() as _folder:
    numba_cache.refresh(cache=_folder)  # first: clears this copy's stale compiled cache
    from cuesim.sim import (  # noqa: F401  (decorated in the block)
        batch_kernel,
        batch_parallel,
        pymunk_backend,
    )
    from cuesim.sim.engine import SimulationError, run_motion
    from cuesim.sim.events import EventKind
    from cuesim.sim.result import Event, ShotResult, TruncatedShotError

__all__ = ["Event", "EventKind", "ShotResult", "SimulationError", "TruncatedShotError",
           "run_motion"]
