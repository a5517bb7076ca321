"""cuesim: exact event-based simulator and referee for novus, WPA pool and 5-pins."""

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
