"""cuesim: exact event-based simulator and referee for novus, WPA pool and 5-pins."""

import gc as _gc

# Importing numba and the core makes many long-lived objects (numba's type registries, the
# compiled functions' dispatchers) that Python's cyclic collector would walk again and again
# while they are made, for nothing (2-6 % of a fresh process's import, alternating
# processes). It is paused for the import only, and left as the caller had it.
_collecting = _gc.isenabled()
_gc.disable()
try:
    from cuesim import methods
    from cuesim.api import simulate, start_layout
    from cuesim.shot import CueShot, NovusShot, ShotError
    from cuesim.sim import Event, EventKind, ShotResult, SimulationError, TruncatedShotError
    from cuesim.tables import (
        Layout,
        LayoutError,
        NovusPhysics,
        NovusTable,
        Piece,
        novus_doubles_layout,
        novus_singles_layout,
        novus_table,
    )
    from cuesim.trajectory import Samples
finally:
    if _collecting:
        _gc.enable()

methods.attach()

__version__ = "0.1.0"

__all__ = [
    "CueShot",
    "Event",
    "EventKind",
    "Layout",
    "LayoutError",
    "NovusPhysics",
    "NovusShot",
    "NovusTable",
    "Piece",
    "Samples",
    "ShotError",
    "ShotResult",
    "SimulationError",
    "TruncatedShotError",
    "novus_doubles_layout",
    "novus_singles_layout",
    "novus_table",
    "simulate",
    "start_layout",
]
