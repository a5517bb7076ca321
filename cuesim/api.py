"""The public entry point: simulate(table, layout, shot)."""

from __future__ import annotations

from cuesim.shot import CueShot, NovusShot, ShotError
from cuesim.sim.engine import (
    DEFAULT_MAX_EVENTS,
    MAX_EVENTS_EXPECTED,
    MotionInput,
    max_events_ok,
    motion_input,
    run_input,
)
from cuesim.sim.result import ShotResult
from cuesim.tables.carom import CaromTable
from cuesim.tables.layout import Layout
from cuesim.tables.novus import NovusTable, novus_doubles_layout, novus_singles_layout
from cuesim.tables.numbers import shown
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
    return run_input(simulate_input(table, layout, shot, max_events))


def simulate_input(table: NovusTable | PoolTable | CaromTable, layout: Layout,
                   shot: NovusShot | CueShot,
                   max_events: int = DEFAULT_MAX_EVENTS) -> MotionInput:
    """The checked input of `simulate` (same errors) without running it: for
    `cuesim.sim.batch_parallel.run_inputs`, which runs many such shots in one compiled call."""
    if not isinstance(layout, Layout):
        raise ShotError(f"simulate needs a Layout of the pieces on the table (e.g. "
                        f"start_layout(game, table) or Layout.load(path)), got "
                        f"{type(layout).__name__}")
    if not max_events_ok(max_events):
        raise ShotError(f"max_events must be {MAX_EVENTS_EXPECTED}, got {shown(max_events)}")
    if isinstance(table, PoolTable | CaromTable):
        if not isinstance(shot, CueShot):
            raise ShotError(f"expected a CueShot for table {table.name!r}, got "
                            f"{type(shot).__name__}")
        placed = shot.place(table, layout)
        return motion_input(table, placed, {shot.ball: shot.ball_motion(table)},
                            struck=shot.ball, max_events=max_events, shot=shot, check=False)
    if not isinstance(table, NovusTable):
        raise ShotError(f"simulate needs a table object (cuesim.api.game_table(game), or "
                        f"cuesim.tables.novus.novus_table(), .pool.pool_table(), "
                        f".carom.carom_table()), got {type(table).__name__} {table!r}; cuesim "
                        f"simulates {', '.join(GAMES)}")
    if not isinstance(shot, NovusShot):
        raise ShotError(f"expected a NovusShot for table {table.name!r}, got {type(shot).__name__}")
    placed = shot.place(table, layout)
    return motion_input(table, placed, {"striker": shot.striker_motion(table)},
                        struck="striker", max_events=max_events, shot=shot, check=False)


GAME_NAMES = ("novus", "novus-doubles", "8-ball", "9-ball", "14.1", "5-pins")


def game_table(game: str) -> NovusTable | PoolTable | CaromTable:
    """The default table of a game by name (9-ft for pool)."""
    if game in ("novus", "novus-singles", "novus-doubles"):
        return NovusTable()
    if game in ("8-ball", "9-ball", "14.1"):
        return PoolTable()
    if game == "5-pins":
        return CaromTable()
    raise ShotError(f"unknown game {game!r}; games are {', '.join(GAME_NAMES)}")


TABLE_NAMES = ("novus", "pool_9ft", "pool_8ft", "pool_7ft", "carom")


def table_named(name: str) -> NovusTable | PoolTable | CaromTable | None:
    """The default table whose `name` is `name` (what `ShotResult.table` holds), or None when
    cuesim has no table of that name (a table built with another name)."""
    if name == "novus":
        return NovusTable()
    if name in ("pool_9ft", "pool_8ft", "pool_7ft"):
        from cuesim.tables.pool import pool_table

        return pool_table(name.removeprefix("pool_"))
    if name == "carom":
        return CaromTable()
    return None


def start_layout(game: str, table: NovusTable | PoolTable | CaromTable | None = None) -> Layout:
    """The starting layout of a game by name: 'novus' (singles), 'novus-doubles', '8-ball',
    '9-ball', '14.1' (each rack with the cue ball behind the head string) or '5-pins' (the
    opening position with the pins)."""
    families = {"novus": (NovusTable, "novus"), "novus-singles": (NovusTable, "novus"),
                "novus-doubles": (NovusTable, "novus"), "8-ball": (PoolTable, "pool"),
                "9-ball": (PoolTable, "pool"), "14.1": (PoolTable, "pool"),
                "5-pins": (CaromTable, "carom")}
    if not isinstance(game, str) or game not in families:
        raise ShotError(f"unknown game {game!r}; games are {', '.join(GAME_NAMES)}")
    table = table if table is not None else game_table(game)
    wanted, word = families[game]
    if not isinstance(table, wanted):
        got = next((w for cls, w in ((NovusTable, "novus"), (PoolTable, "pool"),
                                     (CaromTable, "carom")) if isinstance(table, cls)), None)
        got = f"a {got} table" if got else f"a {type(table).__name__} ({table!r})"
        raise ShotError(f"start_layout: the table is {got}, not a {word} table for {game!r}")
    if game in ("novus", "novus-singles"):
        return novus_singles_layout(table)
    if game == "novus-doubles":
        return novus_doubles_layout(table)
    if game in ("8-ball", "9-ball", "14.1"):
        from cuesim.tables.racks import (
            cue_ball_in_kitchen,
            eight_ball_rack,
            nine_ball_rack,
            straight_pool_rack,
        )

        rack = {"8-ball": eight_ball_rack, "9-ball": nine_ball_rack,
                "14.1": straight_pool_rack}[game]
        return rack(table, cue=cue_ball_in_kitchen(table))
    if game == "5-pins":
        from cuesim.tables.carom import five_pins_layout

        return five_pins_layout(table)
    raise ShotError(f"unknown game {game!r}; games are {', '.join(GAME_NAMES)}")
