"""A batch run as data: its setup, its shots (a sampler, a grid or a table of parameters), its
chunks, the manifest that describes it, and the task every worker runs on one chunk."""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from cuesim.batch.core import (
    KIND_NAMES,
    STATUS_LABELS,
    Setup,
    check_physics,
    default_struck,
    family_of,
    infer_ruling,
    make_shot,
    piece_ids,
    prepare_chunk,
    table_with,
)
from cuesim.batch.limits import check_count
from cuesim.batch.params import (
    BatchError,
    ShotSampler,
    defaults,
    n_rows,
    physics_columns,
    shot_table,
)
from cuesim.batch.sources import ShotGrid, referee_from_state, referee_state, shots_to_table
from cuesim.shot import ShotError, check_struck_ball
from cuesim.sim.engine import MAX_EVENTS_EXPECTED, max_events_ok, table_arrays
from cuesim.tables.base import physics_of
from cuesim.tables.layout import Layout, LayoutError
from cuesim.tables.numbers import shown

DEFAULT_CHUNK_SIZE = 2000
FIRST_KINDS = ("none", "piece", "rail")  # first_kind's codes, by code
UNITS = ("SI (m, s, m/s); angles in radians (param.angle, param.elevation) and, in the result "
         "files, in degrees too (param.angle_deg, param.elevation_deg)")
Generator = ShotSampler | ShotGrid  # shots computed chunk by chunk, never held whole
Payload = dict[str, np.ndarray] | int  # a chunk's arrays, or its row count once written


@dataclass
class Job:
    """What to simulate: `gen` (a sampler or grid) or `table` (the parameters) gives the
    shots; chunk c is shots c*chunk_size .. (c+1)*chunk_size-1. `threads`: threads of
    each chunk's compiled call (None: numba's number where it runs; set by run.plan)."""

    setup: Setup
    n: int
    chunk_size: int
    gen: Generator | None = None
    table: dict[str, np.ndarray] | None = None
    threads: int | None = None

    @property
    def n_chunks(self) -> int:
        return max(1, -(-self.n // self.chunk_size))  # in integers: exact past 2**53 shots

    def bounds(self, c: int) -> tuple[int, int]:
        return c * self.chunk_size, min(self.n, (c + 1) * self.chunk_size)

    def rows(self, c: int) -> int:
        start, stop = self.bounds(c)
        return stop - start

    def task(self, c: int) -> tuple[Any, ...]:
        """The arguments of run_task for chunk c."""
        start, stop = self.bounds(c)
        if self.gen is not None:
            return (self.setup, self.gen, c, start, stop)
        assert self.table is not None
        return (self.setup, {k: v[start:stop] for k, v in self.table.items()}, c, start, stop)

    def source(self) -> dict[str, Any]:
        if self.gen is not None:
            return self.gen.to_dict()
        assert self.table is not None
        digest = hashlib.sha256()
        for name in sorted(self.table):
            digest.update(name.encode())
            digest.update(np.ascontiguousarray(self.table[name]).tobytes())
        return {"kind": "table", "n": self.n, "columns": sorted(self.table),
                "sha256": digest.hexdigest()}


def run_task(setup: Setup, source: Generator | dict[str, np.ndarray], index: int, start: int,
             stop: int, threads: int | None = None) -> dict[str, np.ndarray]:
    """Simulate chunk `index` (shots start..stop-1) on `threads` threads (None: numba's
    number); what every worker runs."""
    out, loop = prepare_task(setup, source, index, start, stop)
    loop(threads)
    return out


def prepare_task(setup: Setup, source: Generator | dict[str, np.ndarray], index: int,
                 start: int, stop: int
                 ) -> tuple[dict[str, np.ndarray], Callable[[int | None], None]]:
    """run_task in two steps (see core.prepare_chunk): the chunk's Python work now, and the
    compiled loop `loop(threads)` that fills the arrays returned."""
    if isinstance(source, ShotSampler | ShotGrid):
        params = source.chunk(setup.family, index, start, stop)
    else:
        params = source
    return prepare_chunk(setup, params, start)


def run_group(setup: Setup, parts: list[tuple[Any, int, int, int]], sink: Any = None,
              threads: int | None = None) -> dict[str, Any]:
    """Simulate several chunks in one task (`parts`: (source, index, start, stop) each), each
    on `threads` threads. With a `sink` (an object with write(index, arrays)) each
    chunk is written where it was computed and only its row count comes back. Returns
    {"chunks": [(index, payload)], "shots", "seconds" (compute time, for sizing later tasks),
    "worker" (its address)}."""
    t0 = time.perf_counter()
    out: list[tuple[int, Payload]] = []
    shots = 0
    for source, index, start, stop in parts:
        arrays = run_task(setup, source, index, start, stop, threads)
        shots += stop - start
        if sink is None:
            out.append((index, arrays))
        else:
            sink.write(index, arrays)
            out.append((index, stop - start))
    return {"chunks": out, "shots": shots, "seconds": time.perf_counter() - t0,
            "worker": _worker_address()}


def _worker_address() -> str | None:
    try:
        from distributed import get_worker

        return str(get_worker().address)
    except (ImportError, ValueError):  # not in a Dask worker
        return None


def check_game_label(game: object) -> None:
    """The `game` a result file's manifest records: None or a name (BatchError otherwise)."""
    if game is not None and not isinstance(game, str):
        raise BatchError(f"game must be a game's name or None, got {game!r}")


def make_job(table: Any, layout: Layout, shots: Any, chunk_size: int | None,
             ruling: bool | str | None, struck: str | None, max_events: int, errors: str,
             state: Any = None, events: bool = False) -> Job:
    """Check every argument of a run and build its Job (a BatchError names what is wrong)."""
    if not isinstance(layout, Layout):
        raise BatchError(f"layout must be a cuesim Layout, got {type(layout).__name__}")
    if errors not in ("raise", "mark"):
        raise BatchError(f"errors must be 'raise' or 'mark', got {errors!r}")
    if not isinstance(events, bool):
        raise BatchError(f"events must be True or False, got {events!r}")
    if not max_events_ok(max_events):
        raise BatchError(f"max_events must be {MAX_EVENTS_EXPECTED}, got {shown(max_events)}")
    if struck is not None and not isinstance(struck, str):
        raise BatchError(f"struck must be a piece id (a string) or None, got {struck!r}")
    chunk_size = DEFAULT_CHUNK_SIZE if chunk_size is None else chunk_size
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int | np.integer) \
            or chunk_size < 1:
        raise BatchError(f"chunk_size must be a positive integer, got {chunk_size!r}")
    family = family_of(table)
    try:
        table_arrays(table)
    except Exception as exc:
        raise BatchError(f"cannot simulate on table {table!r}: {exc}") from None
    side = "south"
    if isinstance(shots, list | tuple):
        shots, struck, side = shots_to_table(family, shots, struck)
    game = infer_ruling(table, layout, ruling)
    state_text, state_side = referee_state(game, state)
    if state_side is not None:
        if side != "south" and side != state_side:
            raise BatchError(f"the shots are played from the {side} side, but in the game "
                             f"state the shooter sits {state_side}")
        side = state_side
    if game == "5-pins" and state_text is not None:  # the shooter's own ball is struck (4.4)
        st = referee_from_state(game, state_text).state
        own = st.ball_of(st.shooter)
        if struck is not None and struck != own:
            raise BatchError(f"the shots strike the {struck} ball, but in the game state "
                             f"{st.shooter} shoots, whose ball is the {own}")
        struck = own
    if game is not None:  # a layout the referee cannot rule from (a table where no game
        from cuesim.batch.core import _referee  # goes on, a piece not the game's): refused
        from cuesim.rulings import check_layout  # before any shot, not at the first ruling

        try:
            check_layout(_referee(game, state_text), game, layout, "layout")
        except ValueError as exc:
            why = str(exc).removeprefix("layout: ")
            raise BatchError(f"layout: the {game} referee cannot rule on it: {why}") from None
    setup = Setup(table, layout, struck or default_struck(table, layout), game,
                  int(max_events), errors, side=side, state=state_text, events=events)
    piece_ids(setup)  # checks the layout and the struck piece
    if isinstance(shots, ShotSampler | ShotGrid):
        shots.check(family)
        check_count(int(shots.n), shots)
        check_physics(setup, [*shots.vary, *shots.fixed])
        probe(setup, shots)
        return Job(setup, int(shots.n), int(chunk_size), gen=shots)
    params = shot_table(family, shots)
    if n_rows(params) == 0:
        raise BatchError("shots: no shots given")
    check_physics(setup, list(params))
    check_count(n_rows(params))
    return Job(setup, n_rows(params), int(chunk_size), table=params)


def probe(setup: Setup, sampler: Generator) -> None:
    """Check the fixed values on the defaults (the varied parameters at theirs too), then each
    varied parameter at both ends of its range with the others at mid-range or fixed: what
    cannot be played fails before anything runs, and the message names the fixed values or the
    range at fault (a fixed tip offset that misses the striker is no fault of the aim's range)."""
    base = sampler.chunk(setup.family, 0, 0, 1)
    start = {**defaults(setup.family), **(physics_of(setup.table) or {})}
    for name, (a, b) in sampler.vary.items():  # a place (x, y: no default) at mid-range
        base[name][0] = (a + b) / 2 if math.isnan(start[name]) else start[name]
    problem = _unplayable(setup, base)
    if problem is not None:
        values = ", ".join(f"{k}={v:g}" for k, v in sampler.fixed.items())
        what = f"the fixed values ({values})" if values else "the defaults of what is not varied"
        raise BatchError(f"{what} give shots that cannot be played: {problem}")
    for other, (a, b) in sampler.vary.items():
        base[other][0] = (a + b) / 2
    for name, (lo, hi) in sampler.vary.items():
        for value in (lo, hi):
            params = {k: v.copy() for k, v in base.items()}
            params[name][0] = value
            problem = _unplayable(setup, params)
            if problem is not None:
                raise BatchError(f"range of {name!r} ({lo:g}:{hi:g}) includes shots that "
                                 f"cannot be played: at {name}={value:g}: {problem}")


def _unplayable(setup: Setup, params: dict[str, np.ndarray]) -> str | None:
    """Why shot 0 of `params` cannot be played (its physics set, its shot made and its motion
    computed, as `simulate` does before the layout), or None."""
    try:
        names = physics_columns(setup.family, list(params))
        table = table_with(setup.table, tuple((n, float(params[n][0])) for n in names))
        shot = make_shot(setup, params, 0)
        if setup.family == "novus":
            shot.striker_position(table)  # type: ignore[union-attr]
            shot.striker_motion(table)  # type: ignore[union-attr]
        else:
            shot.ball_motion(table)  # type: ignore[union-attr]
            if shot.position is None:  # type: ignore[union-attr]  (a cue ball to put down)
                check_struck_ball(setup.layout, setup.struck, table.cue_balls)
    except (ShotError, LayoutError, ValueError) as exc:
        return str(exc)
    return None


def manifest(job: Job, workers: int, cluster: str | None,
             threads: int | None = None) -> dict[str, Any]:
    """The description of a run stored with its results (and compared when it resumes).
    Keys of the newer options appear only when used, so older runs still resume."""
    import json

    import cuesim

    s = job.setup
    geo = s.table.geometry
    out: dict[str, Any] = {
        "format": "cuesim-batch/1", "cuesim": cuesim.__version__,
        "table": s.table.name, "table_repr": repr(s.table), "layout": s.layout.to_dict(),
        "struck": s.struck, "ruling": s.ruling, "max_events": s.max_events,
        "errors": s.errors, "n_shots": job.n, "chunk_size": job.chunk_size,
        "n_chunks": job.n_chunks, "source": job.source(), "ids": piece_ids(s),
        "event_kinds": list(KIND_NAMES), "first_kinds": list(FIRST_KINDS),
        "status_labels": list(STATUS_LABELS),
        "rails": [r.name for r in geo.rails] + [k.name for k in geo.knuckles],
        "units": UNITS,
        "workers": workers, "threads": threads, "cluster": cluster,
    }
    if s.side != "south":
        out["side"] = s.side
    if s.state is not None:
        out["state"] = json.loads(s.state)
    if s.events:
        out["events"] = True
    return out
