"""One chunk of a batch: shot parameters in, summary arrays out.

Each shot is placed and checked by the same code as `cuesim.simulate` (NovusShot /
CueShot: striker_position, striker_motion, ball_motion, place), then the whole chunk runs in
one call of the compiled loop of `cuesim.sim.batch_kernel`, on several threads at once, so
the numbers equal a Python loop of `simulate` whatever the number of threads. With a ruling
or event logs, each shot goes through `simulate` itself (the referee needs the whole result)
and the game's referee rules on it as the first shot of a fresh game, or in the game state
given (`Setup.state`).
The table's arrays and the layout's static arrays are built once per process and reused.
Shots that set coefficients of the physics (params.physics_names) are played on the table
with them (`shot_physics`): each distinct set of values once, its arrays built beside the
table's geometry and stacked for the compiled loop, which plays each shot on its own.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from cuesim.batch.params import XY_TOGETHER, BatchError, physics_columns
from cuesim.shot import (
    CueShot,
    NovusShot,
    ShotError,
    check_struck_ball,
    novus_shot_arrays,
    striker_others,
)
from cuesim.sim.engine import (
    DEFAULT_MAX_EVENTS,
    Arrays,
    _kind_properties,
    kind_properties,
    table_arrays,
)
from cuesim.sim.events import N_EVENT_COLUMNS, EventKind
from cuesim.tables.base import with_coefficients
from cuesim.tables.layout import Layout, LayoutError, Piece
from cuesim.tables.novus import NOVUS_SIDES, STRIKER_TOUCH_GAP, NovusTable

# summary columns: name -> (dtype, per piece?)
RULING_GAMES = ("novus", "novus-doubles", "8-ball", "9-ball", "14.1", "5-pins")
# scored by points (5-pins 8, 15; WPA 6.5, 6.11-6.13): a ruled batch adds each shot's points
POINTS_GAMES = ("5-pins", "14.1")
STATUS_OK, STATUS_INVALID = 0, 1
STATUS_LABELS = ("simulated", "not playable")  # by code: the labels in Parquet files
KIND_NAMES = tuple(k.name.lower() for k in sorted(EventKind))


@dataclass(frozen=True)
class Setup:
    """What every chunk of a run shares: the table, the layout before each shot, the struck
    piece, the referee (a game name, or None) and the event limit. `errors`: 'raise' stops at
    the first shot that cannot be played; 'mark' gives it status 1 and NaN results. `side`:
    the novus shooter's side; `state`: the referee's game state as JSON text (None: a fresh
    game); `events`: keep each shot's whole event log."""

    table: Any
    layout: Layout
    struck: str
    ruling: str | None = None
    max_events: int = DEFAULT_MAX_EVENTS
    errors: str = "raise"
    side: str = "south"
    state: str | None = None
    events: bool = False

    @property
    def family(self) -> str:
        return "novus" if isinstance(self.table, NovusTable) else "ball"


def family_of(table: Any) -> str:
    return "novus" if isinstance(table, NovusTable) else "ball"


def default_struck(table: Any, layout: Layout) -> str:
    if isinstance(table, NovusTable):
        return "striker"
    ids = layout.ids()
    for pid in ("cue", "white"):
        if pid in ids:
            return pid
    if table.cue_balls:  # put down by each shot's x, y (ball in hand: CueShot.place)
        return str(table.cue_balls[0][0])
    raise BatchError(f"no cue ball in the layout (ids {ids}); name the struck ball")


def infer_ruling(table: Any, layout: Layout, ruling: bool | str | None) -> str | None:
    """The referee's game for `ruling`: None/False for none, a game name, or True to infer
    it from the table and layout (novus singles/doubles, 9-ball with 9 object balls, 8-ball
    with 15)."""
    if ruling is None or ruling is False:
        return None
    if isinstance(ruling, str):
        if ruling not in RULING_GAMES:
            raise BatchError(f"no referee for {ruling!r}; rulings are available for "
                             f"{', '.join(RULING_GAMES)}")
        return ruling
    if isinstance(table, NovusTable):
        return "novus-doubles" if len(layout) > 17 else "novus"
    if table.name == "carom":
        return "5-pins"
    balls = [p for p in layout.pieces if p.id != "cue"]
    if table.name.startswith("pool") and len(balls) == 9:
        return "9-ball"
    if table.name.startswith("pool") and len(balls) == 15:
        return "8-ball"
    raise BatchError(f"cannot tell which game's referee to use on {table.name!r} with "
                     f"{len(layout)} pieces; pass ruling='8-ball', '9-ball', '14.1', 'novus', "
                     "'novus-doubles' or '5-pins'")


class Prepared:
    """Per-process arrays of one setup (built once, reused by every chunk)."""

    def __init__(self, setup: Setup) -> None:
        table, layout = setup.table, setup.layout
        self.arr = table_arrays(table)
        self.in_hand = False  # the struck cue ball is put down by each shot (below)
        if setup.family == "novus":
            if setup.struck != "striker":
                raise BatchError(f"novus shots strike the striker, not {setup.struck!r}")
            # the layout the shots are played on: the striker moved (or added at the end)
            template = NovusShot(x=0.5, angle=math.pi / 2, speed=1.0, side=setup.side)
            has = "striker" in layout.ids()
            try:  # the checks of NovusShot.place that hold for every shot of the setup
                self.others = striker_others(layout)
                table.check_layout(self.others)
            except (ShotError, LayoutError) as exc:
                raise BatchError(str(exc)) from None
            x, y = template.striker_position(table)
            placed = layout.moved("striker", x, y) if has else layout.with_piece(
                Piece("striker", "striker", x, y))
            if len(self.others):
                self.other_pos, self.other_r = table.layout_arrays(self.others)
            else:
                self.other_pos, self.other_r = np.zeros((0, 2)), np.zeros(0)
            self.striker_r = table.piece_spec("striker").radius
        else:
            in_hand = dict(table.cue_balls)
            # a cue ball the layout lacks is put down by each shot's x, y (CueShot.place);
            # a shot without them cannot be played (prepare_chunk); meanwhile it stands at
            # the table's centre, a row every shot overwrites
            self.in_hand = setup.struck in in_hand and setup.struck not in layout.ids()
            try:  # the checks of CueShot.place that hold for every shot of the setup
                if not self.in_hand:
                    check_struck_ball(layout, setup.struck, table.cue_balls)
                table.check_layout(layout)
            except (ShotError, LayoutError) as exc:
                raise BatchError(str(exc)) from None
            placed = layout
            if self.in_hand:
                geo = table.geometry
                placed = layout.with_piece(Piece(setup.struck, "ball", geo.width / 2,
                                                 geo.length / 2, in_hand[setup.struck]))
        self.placed = placed
        self.ids = placed.ids()
        self.struck_index = placed.index(setup.struck)
        self.P = _kind_properties(table, placed.kinds())
        self.base_pos = placed.positions()


_PREPARED: dict[Setup, Prepared] = {}


def prepared(setup: Setup) -> Prepared:
    p = _PREPARED.get(setup)
    if p is None:
        if len(_PREPARED) > 16:
            _PREPARED.clear()
        p = _PREPARED[setup] = Prepared(setup)
    return p


def piece_ids(setup: Setup) -> list[str]:
    """The pieces of the result arrays, in their order."""
    return prepared(setup).ids


def make_shot(setup: Setup, params: dict[str, np.ndarray], k: int) -> NovusShot | CueShot:
    """Shot k of a parameter table, as the object `simulate` takes."""
    if setup.family == "novus":
        y = float(params["y"][k])
        return NovusShot(x=float(params["x"][k]), angle=float(params["angle"][k]),
                         speed=float(params["speed"][k]), y=None if math.isnan(y) else y,
                         offset=float(params["offset"][k]), side=setup.side)
    x, y = float(params["x"][k]), float(params["y"][k])
    if math.isnan(x) != math.isnan(y):
        raise ShotError(f"x and y place the ball in hand together: only one is given "
                        f"(x={x:g}, y={y:g}); {XY_TOGETHER}")
    return CueShot(angle=float(params["angle"][k]), speed=float(params["speed"][k]),
                   side=float(params["side"][k]), height=float(params["height"][k]),
                   elevation=float(params["elevation"][k]), ball=setup.struck,
                   position=None if math.isnan(x) else (x, y),
                   end_mass=float(params["end_mass"][k]))


def empty_summary(n_shots: int, n: int, ruling: bool, events: bool = False,
                  points: bool = False) -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {
        "status": np.zeros(n_shots, np.int8),
        "final_xy": np.full((n_shots, n, 2), np.nan),
        "final_on": np.zeros((n_shots, n), np.bool_),
        "pocketed": np.zeros((n_shots, n), np.bool_),
        "first_kind": np.zeros(n_shots, np.int8),
        "first_index": np.full(n_shots, -1, np.int32),
        "first_t": np.full(n_shots, np.nan),
        "event_counts": np.zeros((n_shots, len(KIND_NAMES)), np.int32),
        "n_events": np.zeros(n_shots, np.int32),
        "duration": np.full(n_shots, np.nan),
        "truncated": np.zeros(n_shots, np.bool_),
    }
    if ruling:
        out["legal"] = np.zeros(n_shots, np.bool_)
        out["turn_passes"] = np.zeros(n_shots, np.bool_)
        out["articles"] = np.full(n_shots, "", dtype=object)  # str array once filled
    if points:  # the shot's points for the shooter and for the opponent: a 5-pins foul's go to
        # the opponent (5-pins 15), a 14.1 foul's are taken from the shooter (WPA 6.11: -1)
        out["points"] = np.zeros(n_shots, np.int32)
        out["points_opponent"] = np.zeros(n_shots, np.int32)
    if events:  # every shot's event log, one after the other (n_events rows each)
        out["events"] = np.zeros((0, N_EVENT_COLUMNS))
    return out


def table_with(table: Any, coefficients: tuple[tuple[str, float], ...]) -> Any:
    """`table` with these coefficients of its physics set (none: `table` itself), checked as
    `--physics` checks them (a ValueError naming the coefficient and its range)."""
    return _table_with(table, coefficients) if coefficients else table


@lru_cache(maxsize=1024)
def _table_with(table: Any, coefficients: tuple[tuple[str, float], ...]) -> Any:
    return with_coefficients(table, dict(coefficients))


def check_physics(setup: Setup, names: list[str]) -> list[str]:
    """The coefficients of the physics among the shots' parameter `names`; refused on a table
    that has no physics to change (a table of one's own; the benchmarks' boxes)."""
    wanted = physics_columns(setup.family, names)
    if wanted and getattr(setup.table, "physics", None) is None:
        raise BatchError(f"the shots set {', '.join(wanted)}, but the table "
                         f"{setup.table.name!r} has no physics to change")
    return wanted


def shot_physics(setup: Setup, params: dict[str, np.ndarray], first: int,
                 out: dict[str, np.ndarray]) -> tuple[list[Any], np.ndarray]:
    """The tables the shots of `params` are played on and each shot's number among them:
    `setup.table` (number 0), with the coefficients of the physics the shot names set on it
    (params.physics_names; `table.with_physics`), each distinct set once, in the order the
    shots first name it. A coefficient out of its range makes the shot unplayable (status 1,
    or a BatchError naming the shot with errors='raise'), as a shot no cue can play is."""
    names = check_physics(setup, list(params))
    n_shots = len(params["angle"])
    phys = np.zeros(n_shots, np.int64)
    tables: list[Any] = [setup.table]
    if not names:
        return tables, phys
    number: dict[tuple[float, ...], int] = {}
    columns = [params[name] for name in names]
    for k in range(n_shots):
        values = tuple(float(c[k]) for c in columns)
        q = number.get(values)
        if q is None:
            try:
                table = table_with(setup.table, tuple(zip(names, values, strict=True)))
            except ValueError as exc:
                out["status"][k] = STATUS_INVALID
                _invalid(setup, first, k, exc)
                continue
            if table.geometry != setup.table.geometry or any(  # the kernel shares one
                    table.piece_spec(k) != setup.table.piece_spec(k) for k in table.kinds):
                raise BatchError(f"the table {setup.table.name!r} changes its geometry or "
                                 f"pieces with its physics ({', '.join(names)}): it cannot be "
                                 "varied shot by shot")
            q = number[values] = len(tables)
            tables.append(table)
        phys[k] = q
    return tables, phys


def _summary_args(out: dict[str, np.ndarray]) -> tuple[np.ndarray, ...]:
    return (out["final_xy"], out["final_on"], out["pocketed"], out["first_kind"],
            out["first_index"], out["first_t"], out["event_counts"], out["n_events"],
            out["duration"], out["truncated"])


def _invalid(setup: Setup, first: int, k: int, exc: Exception) -> None:
    if setup.errors == "raise":
        raise BatchError(f"shot {first + k}: {exc}") from None


def simulate_chunk(setup: Setup, params: dict[str, np.ndarray], first: int = 0,
                   threads: int | None = None) -> dict[str, np.ndarray]:
    """Simulate every shot of `params` (a checked parameter table, see params.shot_table);
    `first` is the run-wide index of its first shot (for messages); `threads`: threads
    of the compiled loop (None: numba's number; see batch_kernel.run_shots). Returns the
    summary arrays (see empty_summary) with the parameters as 'param.<name>' and 'shot'."""
    out, loop = prepare_chunk(setup, params, first)
    loop(threads)
    return out


def _no_loop(threads: int | None = None) -> None:
    return None


def prepare_chunk(setup: Setup, params: dict[str, np.ndarray], first: int = 0
                  ) -> tuple[dict[str, np.ndarray], Callable[[int | None], None]]:
    """simulate_chunk in two steps: the Python work of a chunk (its shots made, placed and
    checked; with a ruling or event logs, everything), and `loop(threads)`, the compiled loop
    that fills the summary arrays `out` (it releases the GIL, so the next chunk's Python work
    can run meanwhile)."""
    from cuesim.sim.batch_kernel import run_shots

    prep = prepared(setup)
    n_shots = len(params["angle"])
    n = len(prep.ids)
    out = empty_summary(n_shots, n, setup.ruling is not None, setup.events,
                        setup.ruling in POINTS_GAMES)
    loop: Callable[[int | None], None] = _no_loop
    tables, phys = shot_physics(setup, params, first, out)
    if setup.ruling is not None or setup.events:
        _full_chunk(setup, prep, params, first, out, tables, phys)
    else:
        place = np.repeat(prep.base_pos[prep.struck_index][None, :], n_shots, axis=0)
        motion = np.zeros((n_shots, 5))
        todo = out["status"] == STATUS_OK
        rows: Any = np.flatnonzero(todo)
        if setup.family == "novus" and setup.side in NOVUS_SIDES:
            # the plain shots at once, as NovusShot makes them (the same bytes; a tenth of a
            # novus opening's time a shot made one at a time, which 2 threads shared with the
            # compiled loop: bench/README.md "The novus shots made at once"); the rest below.
            # The striker's place and motion read the board and the striker, not the physics:
            # every shot's table has those of setup.table (shot_physics)
            place, motion, plain = novus_shot_arrays(
                setup.table, setup.side, params["x"], params["y"], params["angle"],
                params["speed"], params["offset"])
            rows = np.flatnonzero(~plain & todo)
        for k in rows:
            table = tables[phys[k]]  # the shot's own physics, as `simulate` would have them
            try:
                shot = make_shot(setup, params, k)
                if setup.family == "novus":
                    place[k] = shot.striker_position(table)  # type: ignore[union-attr]
                    vx, vy, w = shot.striker_motion(table)  # type: ignore[union-attr]
                    motion[k] = (vx, vy, 0.0, 0.0, w)
                else:
                    if shot.position is not None:  # type: ignore[union-attr]
                        placed = shot.place(table, setup.layout)
                        place[k] = placed.get(setup.struck).x, placed.get(setup.struck).y
                    elif prep.in_hand:  # no ball to play where it lies: the message
                        check_struck_ball(setup.layout, setup.struck, table.cue_balls)
                    motion[k] = shot.ball_motion(table)  # type: ignore[union-attr]
            except (ShotError, LayoutError, ValueError) as exc:
                todo[k] = False
                _invalid(setup, first, int(k), exc)
        if setup.family == "novus" and len(prep.other_r):
            # novus 12: the striker touches no puck, a gap under STRIKER_TOUCH_GAP refused (the
            # same test as NovusShot.place, which then says why)
            gaps = (np.hypot(prep.other_pos[None, :, 0] - place[:, 0:1],
                             prep.other_pos[None, :, 1] - place[:, 1:2])
                    - prep.other_r[None, :] - prep.striker_r)
            for k in np.flatnonzero(todo & (gaps.min(axis=1) < STRIKER_TOUCH_GAP)):
                todo[k] = False
                try:
                    make_shot(setup, params, int(k)).place(setup.table, setup.layout)
                    exc: Exception = ShotError("the striker touches a puck")
                except ShotError as err:
                    exc = err
                _invalid(setup, first, int(k), exc)
        arrays = [prep.arr] + [Arrays(t, same_geometry=prep.arr) for t in tables[1:]]
        P = [prep.P] + [kind_properties(a, prep.placed.kinds()) for a in arrays[1:]]
        args = (prep.base_pos, prep.struck_index, place, motion, todo, P, arrays,
                *_summary_args(out), setup.max_events, phys)

        def run(threads: int | None = None) -> None:
            run_shots(*args, threads=threads)

        loop = run
        # the loop writes only the rows of the shots it runs (todo); the others stay NaN
        out["status"][~todo] = STATUS_INVALID
    out["shot"] = np.arange(first, first + n_shots, dtype=np.int64)
    for name, col in params.items():
        out[f"param.{name}"] = np.asarray(col, dtype=np.float64)
    return out, loop


def _referee(game: str, state: str | None = None) -> Any:
    if state is not None:
        from cuesim.batch.sources import referee_from_state

        return referee_from_state(game, state)
    if game in ("novus", "novus-doubles"):
        from cuesim.rules.novus import NovusGame

        doubles = game == "novus-doubles"
        return NovusGame(["A", "B", "C", "D"] if doubles else ["A", "B"], doubles=doubles)
    if game == "5-pins":  # A breaks with the white ball (5-pins 4)
        from cuesim.rules.fivepins import FivePinsGame

        return FivePinsGame(["A", "B"])
    from cuesim.rules.pool import EightBall, NineBall, StraightPool

    return {"8-ball": EightBall, "9-ball": NineBall, "14.1": StraightPool}[game](["A", "B"])


def rule(game: str, result: Any, state: str | None = None) -> tuple[Any, str]:
    """The ruling on `result` as the first shot of a fresh game, or in `state` (JSON), and the
    shooter it rules on."""
    ref = _referee(game, state)
    if game.startswith("novus"):
        shooter = str(ref.shooter)
        return ref.adjudicate(result).ruling, shooter
    if game == "5-pins":
        from cuesim.rules.fivepins import shot_from_result as five_pins_shot

        shooter = str(ref.state.shooter)
        return ref.play(five_pins_shot(result)).ruling, shooter
    from cuesim.rules.pool import shot_from_result

    shooter = str(ref.state.shooter)
    return ref.play(shot_from_result(result)).ruling, shooter


def _full_chunk(setup: Setup, prep: Prepared, params: dict[str, np.ndarray], first: int,
                out: dict[str, np.ndarray], tables: list[Any], phys: np.ndarray) -> None:
    """Each shot through `simulate` on the table of its physics (`shot_physics`): summarized
    like the compiled path, then ruled on and its event log kept as asked."""
    from cuesim.api import simulate
    from cuesim.sim.batch_kernel import summarize

    logs: list[np.ndarray] = []
    for k in range(len(params["angle"])):
        if out["status"][k] != STATUS_OK:  # physics that cannot be (shot_physics)
            continue
        try:
            result = simulate(tables[phys[k]], setup.layout, make_shot(setup, params, k),
                              max_events=setup.max_events)
        except (ShotError, LayoutError, ValueError) as exc:
            out["status"][k] = STATUS_INVALID
            _invalid(setup, first, k, exc)
            continue
        if result.initial.ids() != prep.ids:
            raise BatchError(f"shot {first + k}: the pieces changed order ({result.initial.ids()})")
        summarize(result.final_positions, result.final_on.astype(np.float64), result.events,
                  len(result.events), prep.struck_index, result.truncated, k,
                  *_summary_args(out))
        if setup.events:
            logs.append(np.asarray(result.events, dtype=np.float64))
        if setup.ruling is None or result.truncated:  # a truncated shot has no end to rule
            continue  # on: its ruling columns stay empty, its `truncated` says why
        try:
            ruling, shooter = rule(setup.ruling, result, setup.state)
        except ValueError as exc:  # the referee refuses the shot in this state
            raise BatchError(f"shot {first + k}: the {setup.ruling} referee: {exc}") from None
        out["legal"][k] = ruling.legal
        out["turn_passes"][k] = ruling.turn_passes
        out["articles"][k] = ";".join(ruling.articles)
        if "points" in out:
            out["points"][k] = ruling.points.get(shooter, 0)
            out["points_opponent"][k] = sum(v for p, v in ruling.points.items() if p != shooter)
    if setup.ruling is not None:
        out["articles"] = np.array([str(a) for a in out["articles"]], dtype=str)
    if setup.events and logs:
        out["events"] = np.concatenate(logs).reshape(-1, N_EVENT_COLUMNS)
