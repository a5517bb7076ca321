"""The shot result: the event log, the layouts before and after, and the exact trajectory
segments, from which positions_at(t) evaluates every position at any time."""

from __future__ import annotations

from dataclasses import dataclass, field
from numbers import Integral, Real
from typing import Any

import numpy as np

from cuesim.sim.errors import SimulationError
from cuesim.sim.events import (
    COL_A,
    COL_B,
    COL_DIR,
    COL_INDEX,
    COL_KIND,
    COL_SPEED,
    COL_T,
    EventKind,
)
from cuesim.sim.state import (
    SEG_AX,
    SEG_AY,
    SEG_OBJ,
    SEG_ON,
    SEG_T0,
    SEG_T1,
    SEG_VX,
    SEG_VY,
    SEG_X,
    SEG_Y,
)
from cuesim.tables.layout import Layout, Piece
from cuesim.tables.numbers import finite_real

_KINDS = {int(kind): kind for kind in EventKind}  # an event's kind code -> EventKind
_KIND_NAMES = {kind.name.lower(): kind for kind in EventKind}  # 'collide' -> COLLIDE


def _event_kind(kind: Any) -> EventKind:
    """The EventKind `events_of` is asked for: an EventKind, its code (an int, not a bool) or
    its name in any case; SimulationError naming `kind` and the kinds for anything else."""
    if isinstance(kind, EventKind):
        return kind
    found = None
    if isinstance(kind, str):
        found = _KIND_NAMES.get(kind.strip().lower())
    elif isinstance(kind, Integral) and not isinstance(kind, bool):
        found = _KINDS.get(int(kind))
    if found is None:
        raise SimulationError(f"events_of: kind must be an EventKind or its name "
                              f"({', '.join(_KIND_NAMES)}), got {kind!r:.60}")
    return found


class TruncatedShotError(ValueError):
    """A shot the event limit stopped before everything came to rest: its end is no layout
    (pieces may still move or overlap), so nothing may rule on it or play on from it."""


@dataclass(frozen=True)
class Event:
    """One event, with object ids and feature names resolved."""

    t: float
    kind: EventKind
    a: str
    b: str | None = None
    feature: str | None = None  # rail, hole, line or circle name
    speed: float = 0.0
    direction: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The event as plain JSON types (time, kind name, pieces, feature, speed, direction)."""
        out: dict[str, Any] = {"t": self.t, "kind": self.kind.name.lower(), "a": self.a}
        if self.b is not None:
            out["b"] = self.b
        if self.feature is not None:
            out["feature"] = self.feature
        out["speed"] = self.speed
        if self.direction:
            out["direction"] = self.direction
        return out


def _event(t: float, kind: EventKind, a: str, b: str | None, feature: str | None,
           speed: float, direction: int) -> Event:
    """`Event(t, kind, a, b, feature, speed, direction)`, its fields written straight into the
    instance: the frozen dataclass's `__init__` sets each through `object.__setattr__`, 3x
    slower. The same event (equal, hashed alike, as frozen)."""
    event = object.__new__(Event)
    event.__dict__.update(t=t, kind=kind, a=a, b=b, feature=feature, speed=speed,
                          direction=direction)
    return event


@dataclass
class ShotResult:
    """What one shot did. `events` and `segments` are the raw float arrays of the core
    (columns in cuesim.sim.events and cuesim.sim.state); `event_log()` resolves them."""

    table: str
    initial: Layout
    final_positions: np.ndarray  # (n, 2) where every piece came to rest (or was captured)
    final_on: np.ndarray  # (n,) bool: still on the table at the end
    events: np.ndarray
    segments: np.ndarray
    feature_names: dict[int, list[str]]  # event kind -> names of its rails/holes/lines/circles
    truncated: bool = False  # the event limit stopped the shot before everything rested
    shot: Any = None
    # the coefficients of the table's physics it was played with (tables.base.physics_of): the
    # table's name alone does not say them; None where unknown (a shot file written before
    # they were recorded) or where the table has none
    physics: dict[str, float] | None = None
    # made once from the arrays above, and never copied by dataclasses.replace (init=False: a
    # result made with other arrays makes its own): the segments of each piece, the Events of
    # `event_log` and the `final` layout (a referee handed these by `shot_from_result` knows
    # them for the result's own by identity, `check_simulated`)
    _by_obj: list[np.ndarray] | None = field(default=None, repr=False, init=False,
                                             compare=False)
    _log: tuple[Event, ...] | None = field(default=None, repr=False, init=False, compare=False)
    _final: Layout | None = field(default=None, repr=False, init=False, compare=False)

    def moving(self) -> list[str]:
        """Ids of the pieces still moving when the log ends (none unless truncated)."""
        last: dict[int, np.ndarray] = {}
        for row in self.segments:
            last[int(row[SEG_OBJ])] = row
        ids = self.initial.ids()
        return [ids[i] for i, row in sorted(last.items())
                if row[SEG_ON] != 0.0 and (row[SEG_VX] != 0.0 or row[SEG_VY] != 0.0)]

    def truncation_message(self, who: str = "") -> str:
        """What a truncated shot is, in words (for errors, the CLI and the viewer)."""
        moving = self.moving()
        head = f"{who} refuses the shot: " if who else ""
        return (f"{head}TRUNCATED: the simulation stopped at the event limit (or at a multiple "
                f"impact's step bound) after {self.n_events} events at t = "
                f"{self.duration:.4f} s before everything came to rest ({len(moving)} piece(s) "
                f"still moving: {', '.join(moving[:8])}"
                f"{', ...' if len(moving) > 8 else ''}); its end is no layout: take the shot "
                "back")

    def check_known(self, t: float, who: str) -> None:
        """A truncated shot's motion is known up to its last event only: its pieces still
        moving have open segments (t1 infinite) whose parabolas, evaluated later, run on past
        where the cloth would stop them (a striker 7e9 m off the board). SimulationError for a
        later t; a complete shot rests after its end, so any t is known."""
        if self.truncated and t > self.duration:
            raise SimulationError(f"{who}: the shot is TRUNCATED at t = {self.duration!r} s, its "
                                  f"last event: nothing is known after it, got t = {t!r} s")

    def require_complete(self, who: str = "") -> None:
        """Raise TruncatedShotError when the shot was truncated (referees and the viewer call
        this before they rule on a result or play on from it)."""
        if self.truncated:
            raise TruncatedShotError(self.truncation_message(who))

    @property
    def final(self) -> Layout:
        """Every piece at rest where it stopped; pocketed pieces are left out. A truncated
        shot has no final layout: TruncatedShotError (the raw arrays stay in
        final_positions / final_on, and positions_at still replays what was computed)."""
        self.require_complete()
        if self._final is None:
            self._final = Layout(self.initial.table, tuple(  # floats from tolist: 2.5x faster
                Piece(p.id, p.kind, xy[0], xy[1], p.group)
                for p, xy, on in zip(self.initial.pieces, self.final_positions.tolist(),
                                     self.final_on.tolist(), strict=True) if on
            ))
        return self._final

    @property
    def pocketed(self) -> list[str]:
        """Ids of the captured pieces, in the order they were captured."""
        rows = self.events[self.events[:, COL_KIND] == int(EventKind.POCKET)]
        return [self.initial.pieces[int(a)].id for a in rows[:, COL_A]]

    @property
    def duration(self) -> float:
        """Time of the last event (s)."""
        return float(self.events[:, COL_T].max()) if len(self.events) else 0.0

    @property
    def n_events(self) -> int:
        """The number of events logged (the strike included)."""
        return len(self.events)

    def event_log(self) -> list[Event]:
        """Every event as an `Event` (piece and feature names instead of indices), in time order.
        (A referee reads every shot's log: the rows are read as Python floats (`tolist`) and
        each Event is made by `_event`, 0.8 us an event against 2 us from NumPy scalars; made
        once, each call a new list of the same Events.)"""
        if self._log is None:
            self._log = tuple(self._make_log())
        return list(self._log)

    def _make_log(self) -> list[Event]:
        ids = self.initial.ids()
        names_of = self.feature_names
        out = []
        for row in self.events.tolist():
            code = int(row[COL_KIND])
            kind = _KINDS.get(code)
            if kind is None:  # no such kind: EventKind's ValueError, as before
                kind = EventKind(code)
            b = int(row[COL_B])
            idx = int(row[COL_INDEX])
            names = names_of.get(code, [])
            out.append(_event(
                row[COL_T], kind, ids[int(row[COL_A])], ids[b] if b >= 0 else None,
                names[idx] if 0 <= idx < len(names) else None, row[COL_SPEED],
                int(row[COL_DIR]),
            ))
        return out

    def events_of(self, kind: EventKind) -> list[Event]:
        """The events of one kind (`EventKind`), in time order."""
        # also its code or its name in any case ('collide', as Event.to_dict writes it); a
        # SimulationError for anything else (None, 99, 'bump' matched no event, silently)
        kind = _event_kind(kind)
        return [e for e in self.event_log() if e.kind == kind]

    def _require_piece(self, piece_id: str) -> None:
        if not isinstance(piece_id, str) or piece_id not in self.initial.ids():
            ids = list(self.initial.ids())
            raise SimulationError(f"{piece_id!r} is no piece of this shot; its pieces are "
                                  f"{ids[:8]}{' ...' if len(ids) > 8 else ''}")

    def first_contact(self, piece_id: str) -> Event | None:
        """The first collision or rail event of a piece (what a referee asks about the cue
        ball or the striker). A standing pin it knocks down (5-pins: a PIN event) is a
        collision too, as one it only moves is. SimulationError for an id that is no piece
        of the shot."""
        self._require_piece(piece_id)
        for e in self.event_log():
            if e.kind in (EventKind.COLLIDE, EventKind.PIN) and piece_id in (e.a, e.b):
                return e
            if e.kind == EventKind.RAIL and e.a == piece_id:
                return e
        return None

    def positions_at(self, t: float) -> tuple[np.ndarray, np.ndarray]:
        """(positions (n, 2), on_table (n,) bool) of every piece at a finite time t >= 0,
        exactly (after the shot: where everything rests; a truncated shot's only up to its
        last event, `check_known`). SimulationError for any other t."""
        if isinstance(t, bool) or not isinstance(t, Real):
            raise SimulationError(f"positions_at needs a time in seconds, got {t!r}")
        if not (finite_real(t) and t >= 0.0):
            raise SimulationError(f"positions_at needs a finite time t >= 0 s, got {t}")
        t = float(t)
        self.check_known(t, "positions_at")
        if self._by_obj is None:
            order = np.lexsort((self.segments[:, SEG_T0], self.segments[:, SEG_OBJ]))
            segs = self.segments[order]
            n = len(self.initial)
            self._by_obj = [segs[segs[:, SEG_OBJ] == i] for i in range(n)]
        n = len(self._by_obj)
        pos = np.zeros((n, 2))
        on = np.ones(n, dtype=bool)
        for i, segs in enumerate(self._by_obj):
            k = max(int(np.searchsorted(segs[:, SEG_T0], t, side="right")) - 1, 0)
            s = segs[k]
            tau = min(max(t, s[SEG_T0]), s[SEG_T1]) - s[SEG_T0]
            pos[i, 0] = s[SEG_X] + tau * (s[SEG_VX] + 0.5 * tau * s[SEG_AX])
            pos[i, 1] = s[SEG_Y] + tau * (s[SEG_VY] + 0.5 * tau * s[SEG_AY])
            on[i] = s[SEG_ON] != 0.0
        return pos, on

    def to_dict(self, trajectories: bool = False) -> dict[str, Any]:
        """The shot, event log and layouts as plain data; `trajectories` (a bool: 'yes' or 0
        is refused, SimulationError, rather than read as true or false) adds the segments."""
        if not isinstance(trajectories, bool | np.bool_):
            raise SimulationError(f"to_dict: trajectories must be True or False, got "
                                  f"{trajectories!r:.60}")
        out: dict[str, Any] = {
            "table": self.table,
            "physics": self.physics,
            "shot": self.shot.to_dict() if hasattr(self.shot, "to_dict") else self.shot,
            "n_events": self.n_events,
            "duration": self.duration,
            "truncated": self.truncated,
            "pocketed": list(self.pocketed),
            "events": [e.to_dict() for e in self.event_log()],
            "initial": self.initial.to_dict(),
            "final": None if self.truncated else self.final.to_dict(),
        }
        if self.truncated:
            out["truncation"] = self.truncation_message()
            out["moving"] = self.moving()
        if trajectories:
            ids = self.initial.ids()
            out["segments"] = [
                {"id": ids[int(s[SEG_OBJ])], "t0": float(s[SEG_T0]),
                 "t1": None if not np.isfinite(s[SEG_T1]) else float(s[SEG_T1]),
                 "x": float(s[SEG_X]), "y": float(s[SEG_Y]), "vx": float(s[SEG_VX]),
                 "vy": float(s[SEG_VY]), "ax": float(s[SEG_AX]), "ay": float(s[SEG_AY]),
                 "on": bool(s[SEG_ON])}
                for s in self.segments
            ]
        return out
