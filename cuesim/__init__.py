"""cuesim: exact event-based simulator and referee for novus, WPA pool and 5-pins."""

import gc as _gc

# Importing numba and the core makes many long-lived objects (numba's type registries, the
# compiled functions' dispatchers) that Python's cyclic collector would walk again and again
# while they are made, for nothing (2-6 % of a fresh process's import, alternating
# processes). It is paused for the import only, and left as the caller had it. Before it
# runs again, what the import made is put in the oldest generation (gc.freeze, then
# gc.unfreeze): else the first collections after it walk those 100,000-odd objects as young
# ones, 30 ms at the end of the import and 25 ms more in the first shot (alternating fresh
# processes, medians). They stay collectable, by a full collection, as old objects are.
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
        _gc.freeze()  # every tracked object to the permanent generation...
        _gc.unfreeze()  # ...and from there into the oldest one
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
