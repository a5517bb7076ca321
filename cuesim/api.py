"""The public entry point: simulate(table, layout, shot)."""

from __future__ import annotations

from cuesim.shot import CueShot, NovusShot, ShotError
from cuesim.sim.engine import DEFAULT_MAX_EVENTS, run_motion
from cuesim.sim.result import ShotResult
from cuesim.tables.carom import CaromTable
from cuesim.tables.layout import Layout
from cuesim.tables.novus import NovusTable, novus_doubles_layout, novus_singles_layout
from cuesim.tables.pool import PoolTable

GAMES = ("novus", "pool", "5-pins")


def simulate(table: NovusTable | PoolTable | CaromTable, layout: Layout,
             shot: NovusShot | CueShot,
             max_events: int = DEFAULT_MAX_EVENTS) -> ShotResult:
    """Play one shot to rest and return its result (event log, layouts, trajectories).

    >>> from cuesim import NovusShot, novus_table, novus_singles_layout, simulate
    >>> table = novus_table()
    >>> result = simulate(table, novus_singles_layout(table), NovusShot(x=0.5, angle=1.5708,
    ...                   speed=4.0))
    >>> result.n_events > 0
    True
    """
    if isinstance(table, PoolTable | CaromTable):
        if not isinstance(shot, CueShot):
            raise ShotError(f"expected a CueShot for table {table.name!r}, got "
                            f"{type(shot).__name__}")
        placed = shot.place(table, layout)
        return run_motion(table, placed, {shot.ball: shot.ball_motion(table)}, struck=shot.ball,
                          max_events=max_events, shot=shot, check=False)
    if not isinstance(table, NovusTable):
        raise ShotError(f"unknown table {table!r}: cuesim simulates {', '.join(GAMES)}")
    if not isinstance(shot, NovusShot):
        raise ShotError(f"expected a NovusShot for table {table.name!r}, got {type(shot).__name__}")
    placed = shot.place(table, layout)
    return run_motion(table, placed, {"striker": shot.striker_motion(table)}, struck="striker",
                      max_events=max_events, shot=shot, check=False)


def start_layout(game: str, table: NovusTable) -> Layout:
    """The starting layout of a game by name: 'novus' (singles) or 'novus-doubles'."""
    if game in ("novus", "novus-singles"):
        return novus_singles_layout(table)
    if game == "novus-doubles":
        return novus_doubles_layout(table)
    raise ShotError(f"unknown game {game!r}; games are novus, novus-singles, novus-doubles")
