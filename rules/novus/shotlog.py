"""One shot as the referee reads it: layouts before and after, the event log, the pocketed ids.

A `ShotRecord` comes from a simulated `ShotResult` or from a hand-written log (JSON). Hand logs
need only the events a referee looks at: the striker's contacts (`collide`, `rail`), `pocket`
events, and the striker's `line` crossings of its own zone line (for 18.1.д).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cuesim.rules.event_log import MAX_EVENT_TIME, pieces_set_moving
from cuesim.rules.novus.terms import SIDES, frame
from cuesim.sim.events import EventKind
from cuesim.sim.result import Event, ShotResult
from cuesim.sim.state import SEG_AX, SEG_AY, SEG_OBJ, SEG_T0, SEG_T1, SEG_VX, SEG_VY, SEG_X, SEG_Y
from cuesim.tables.layout import Layout
from cuesim.tables.novus import novus_table

HOLES = tuple(h.name for h in novus_table().geometry.holes)  # the board's four corner holes

STRIKER = "striker"
SIMULTANEOUS = 1e-12  # s: contacts closer in time than this count as simultaneous (17.1.б)
EVENT_KINDS = {k.name.lower(): k for k in EventKind}


def check_gone_pieces(record: ShotRecord, infractions: Sequence[Any]) -> None:
    """A piece on the board before the shot and not after it fell into a hole (`pocketed`) or
    went over the rail, which the log declares (novus 12, 17.7: `puck_off_table`; 17.1.д:
    `striker_off_table`); one that vanished otherwise cannot have: ValueError naming it. (A
    piece declared over the rail is taken off whatever `final` shows: the core keeps every piece
    on the board, so a declaration is how one leaves it.)"""
    over = {pid for i in infractions if i.code == "puck_off_table" for pid in i.pieces}
    for pid in sorted(over):
        if pid in record.pocketed:
            raise ValueError(f"infraction puck_off_table names {pid!r}, which a pocket event "
                             "takes into a hole: a puck leaves the board one way (novus 12)")
    if any(i.code == "striker_off_table" for i in infractions):
        if STRIKER in record.pocketed:
            raise ValueError("infraction striker_off_table: a pocket event takes the striker "
                             "into a hole (17.1.г): a piece leaves the board one way (novus 12)")
        over.add(STRIKER)
    after = set(record.final.ids())
    for pid in record.initial.ids():
        if pid not in after and pid not in record.pocketed and pid not in over:
            raise ValueError(f"piece {pid!r} is on the board before the shot and not after it, "
                             "and neither fell into a hole (a pocket event) nor is declared "
                             "over the rail (infraction puck_off_table, novus 12)")


def check_off_table(record: ShotRecord, infractions: Sequence[Any],
                    by_hand: Collection[str] = ()) -> None:
    """A piece declared over the rail (puck_off_table, novus 12, 18.1.в) is named once, and was
    set in motion by the shot: struck, or in a collision of the event log (or moved by a hand,
    `by_hand`). A shot with no events is not checked here (5-pins check_off_table does the
    same). ValueError naming infractions[k].pieces."""
    moved = pieces_set_moving(record.events) | set(by_hand)
    for k, inf in enumerate(infractions):
        if inf.code != "puck_off_table":
            continue
        where = f"infractions[{k}].pieces"
        twice = sorted({p for p in inf.pieces if list(inf.pieces).count(p) > 1})
        if twice:
            raise ValueError(f"{where}: infraction puck_off_table names {twice[0]!r} twice: a "
                             "puck goes over the rail once (novus 12)")
        for pid in inf.pieces:
            if record.events and pid not in moved:
                raise ValueError(f"{where}: infraction puck_off_table names {pid!r}, but "
                                 "nothing set it in motion (no strike of it, no collision "
                                 "with it in the events): a puck leaves the board only moving "
                                 "(novus 12, 18.1.в)")


def check_pocketed(events: Sequence[Event], pocketed: Sequence[str]) -> None:
    """Each id of a hand-written `pocketed` list is there once and fell into a hole by a
    `pocket` event of the log (novus 12: a puck nothing touched does not vanish). ValueError
    naming `pocketed`."""
    holed = {e.a for e in events if e.kind == EventKind.POCKET}
    seen: set[str] = set()
    for pid in pocketed:
        if pid in seen:
            raise ValueError(f"pocketed lists {pid!r} twice: a piece falls into a hole once")
        seen.add(pid)
        if pid not in holed:
            raise ValueError(f"pocketed lists {pid!r}, which no pocket event of the events "
                             "takes into a hole")


def check_striker_struck(events: Sequence[Event]) -> None:
    """The cue strikes the striker (novus 13): a `strike` event of a puck cannot be in a novus
    shot's log. A cue touching a puck is the declared infraction 'touched_puck' (17.1.о).
    ValueError naming the event."""
    for k, e in enumerate(events):
        if e.kind == EventKind.STRIKE and e.a != STRIKER:
            raise ValueError(f"shot.events[{k}].a: a novus shot strikes the {STRIKER!r}, not "
                             f"{e.a!r}; a cue touching a puck is declared as the infraction "
                             "'touched_puck' (novus 17.1.о)")


def check_novus_layouts(record: ShotRecord, by_hand: Collection[str] = ()) -> None:
    """A hand-written record's layouts are for the novus board and legal on it (each piece on
    the board, off the holes, no two overlapping before the shot; after it a puck may rest on
    another, novus 12), as the scenario loader requires: ValueError naming the piece; a piece
    lies elsewhere after it only if an event touches it or it is in `by_hand` (moved by a
    declared infraction, infractions.HAND_MOVES)."""
    from cuesim.rules.files import check_shot_layouts
    from cuesim.tables.novus import NovusTable

    for name in ("initial", "final"):
        table = getattr(record, name).table
        if table != "novus":
            raise ValueError(f"shot.{name}: the layout is for table {table!r}; novus is played "
                             "on the novus board ('novus')")
    check_shot_layouts(NovusTable(), record.initial, record.final, record.events, "shot",
                       ("initial", "final"), by_hand)


def check_match_pieces(record: ShotRecord, colours: tuple[str, str], per_side: int) -> None:
    """The shot's pieces are those of this match (novus 10): every puck of one of the match's
    two colours, at most `per_side` of each (8 a player, 16 a pair in doubles), and each piece
    after the shot the same kind and colour as before it. ValueError naming the piece."""
    check_match_pucks(record.initial, colours, per_side, "shot.initial")
    before = {p.id: p for p in record.initial.pieces}
    for p in record.final.pieces:
        q = before.get(p.id)
        if q is not None and (p.kind, p.group) != (q.kind, q.group):
            raise ValueError(f"shot.final: piece {p.id!r} is a {p.kind} of group {p.group!r} "
                             f"after the shot but a {q.kind} of group {q.group!r} before it: "
                             "a piece cannot change")


def check_match_pucks(layout: Layout, colours: tuple[str, str], per_side: int,
                      where: str) -> None:
    """Every puck of `layout` is of one of the match's two colours, at most `per_side` of each
    (novus 10). ValueError naming `where` and the puck."""
    count = dict.fromkeys(colours, 0)
    for p in layout.pieces:
        if p.kind != "puck":
            continue
        if p.group not in count:
            raise ValueError(f"{where}: puck {p.id!r} has group {p.group!r}; this match's "
                             f"pucks are {colours[0]!r} or {colours[1]!r} (state.colours, "
                             "novus 10)")
        count[p.group] += 1
    for colour, n in count.items():
        if n > per_side:
            raise ValueError(f"{where}: {n} {colour!r} pucks; a side has {per_side} "
                             "(novus 10)")


@dataclass
class ShotRecord:
    initial: Layout
    final: Layout  # pocketed pieces are absent
    events: list[Event] = field(default_factory=list)
    pocketed: list[str] = field(default_factory=list)
    result: ShotResult | None = None  # the simulation, when there is one (exact trajectories)

    @staticmethod
    def from_result(result: ShotResult) -> ShotRecord:
        """The record of a simulated shot; a truncated one (stopped at the event limit,
        pieces still moving) is refused: TruncatedShotError."""
        result.require_complete("the novus referee")
        return ShotRecord(result.initial, result.final, result.event_log(), list(result.pocketed),
                          result)

    @staticmethod
    def from_parts(initial: Layout, final: Layout, events: Sequence[Event],
                   pocketed: Sequence[str] | None = None) -> ShotRecord:
        events = sorted(events, key=lambda e: e.t)
        if pocketed is None:
            pocketed = [e.a for e in events if e.kind == EventKind.POCKET]
        ids = set(initial.ids())
        for e in events:
            for pid in (e.a, e.b):
                if pid is not None and pid not in ids:
                    raise ValueError(f"event at t={e.t} names piece {pid!r}, which is not in "
                                     f"the layout before the shot")
        for pid in pocketed:
            if pid not in ids:
                raise ValueError(f"pocketed piece {pid!r} is not in the layout before the shot")
            if pid in final.ids():
                raise ValueError(f"piece {pid!r} is listed as pocketed but is still in the "
                                 "layout after the shot")
        check_pocketed(events, pocketed)
        return ShotRecord(initial, final, list(events), list(pocketed))

    # -- the striker ------------------------------------------------------------------------
    def striker_contacts(self) -> list[Event]:
        """The striker's collisions and rail impacts in time order."""
        return [e for e in self.events
                if (e.kind == EventKind.COLLIDE and STRIKER in (e.a, e.b))
                or (e.kind == EventKind.RAIL and e.a == STRIKER)]

    def striker_start(self) -> tuple[float, float] | None:
        if STRIKER in self.initial.ids():
            p = self.initial.get(STRIKER)
            return p.x, p.y
        return None

    def return_crossing(self, side: str, clear: float) -> bool:
        """novus 18.1.д: did the striker come back over the own zone line of `side` so far that
        the line no longer shows through its hole (its centre `clear` m past the line)?

        With a simulated result the depth is computed exactly from the trajectory segments.
        A hand-written log has no trajectory: its inward `line` event of the striker on its own
        zone line is the centre's crossing, as a simulation logs it. When the striker meets
        nothing after it (no collision, rail or hole), it slides straight on into the zone
        until it rests, so its deepest point is where the layout after the shot has it: the
        same depth a simulated shot is judged by. Otherwise (it met something, or it is not
        on the board after) the crossing is taken as the return (the log's author writes it
        when the line left the hole).
        """
        line = f"zone_{side}"
        inward = {"south": -1, "west": -1, "north": 1, "east": 1}[side]
        crossings = [e for e in self.events if e.kind == EventKind.LINE and e.a == STRIKER
                     and e.feature == line and e.direction == inward]
        if not crossings:
            return False
        if self.result is None:
            t0 = crossings[0].t
            met = any(e.t >= t0 and STRIKER in (e.a, e.b) and e.kind in (
                EventKind.COLLIDE, EventKind.RAIL, EventKind.POCKET) for e in self.events)
            if met or STRIKER not in self.final.ids():
                return True
            from cuesim.tables.novus import ZONE_LINE_FROM_RAIL

            rest = self.final.get(STRIKER)
            return ZONE_LINE_FROM_RAIL - frame(side, rest.x, rest.y)[1] > clear
        return self._max_depth_after(side, crossings[0].t) > clear

    def _max_depth_after(self, side: str, t_from: float) -> float:
        """Deepest point of the striker's centre past the own zone line after t_from (m)."""
        res = self.result
        assert res is not None
        k = res.initial.index(STRIKER)
        segs = res.segments[res.segments[:, SEG_OBJ] == k]
        from cuesim.tables.novus import ZONE_LINE_FROM_RAIL

        best = -np.inf
        for s in segs:
            t0, t1 = float(s[SEG_T0]), float(s[SEG_T1])
            if not np.isfinite(t1):
                t1 = t0
            if t1 < t_from - 1e-12:
                continue
            a = max(t_from, t0) - t0
            b = t1 - t0
            taus = [a, b]
            # w(tau) along the side's normal; its extremum where the velocity component is 0
            ux, uy = _inward_normal(side)
            v = s[SEG_VX] * ux + s[SEG_VY] * uy
            acc = s[SEG_AX] * ux + s[SEG_AY] * uy
            if acc != 0.0 and a < -v / acc < b:
                taus.append(-v / acc)
            for tau in taus:
                x = s[SEG_X] + tau * (s[SEG_VX] + 0.5 * tau * s[SEG_AX])
                y = s[SEG_Y] + tau * (s[SEG_VY] + 0.5 * tau * s[SEG_AY])
                best = max(best, ZONE_LINE_FROM_RAIL - frame(side, x, y)[1])
        return float(best)


def _inward_normal(side: str) -> tuple[float, float]:
    return {"south": (0.0, -1.0), "north": (0.0, 1.0), "west": (-1.0, 0.0),
            "east": (1.0, 0.0)}[side]


# -- JSON -------------------------------------------------------------------------------------
def event_from_dict(data: Any, k: int) -> Event:
    """One event of a hand-written novus log: fields of `rules.files.EVENT_KEYS` only, `t` and
    `speed` numbers, `kind`, `a`, `b` and `feature` strings, `direction` +1 or -1 on a line or
    circle crossing and 0, +1 or -1 (not a boolean) on another; ValueError naming the
    field."""
    from cuesim.rules.files import EVENT_KEYS, check_known_fields

    where = f"events[{k}]"
    if not isinstance(data, dict):
        raise ValueError(f"{where} must be an object with t, kind, a")
    for key in ("t", "kind", "a"):
        if key not in data:
            raise ValueError(f"{where} is missing field {key!r} (events need t, kind, a; "
                             "optional b, feature, speed, direction)")
    check_known_fields(data, EVENT_KEYS, where)
    for key in ("kind", "a", "b", "feature"):
        value = data.get(key)
        if (value is not None or key in ("kind", "a")) and not (isinstance(value, str)
                                                               and value):
            raise ValueError(f"{where}.{key} must be a non-empty string, got {value!r}")
    speed = data.get("speed", 0.0)
    if isinstance(speed, bool) or not isinstance(speed, int | float) or not np.isfinite(speed) \
            or speed < 0:
        raise ValueError(f"{where}.speed must be a speed >= 0 in m/s, got {speed!r}")
    kind_name = str(data["kind"]).lower()
    if kind_name not in EVENT_KINDS:
        raise ValueError(f"{where}.kind {data['kind']!r} is unknown; kinds are "
                         f"{sorted(EVENT_KINDS)}")
    kind = EVENT_KINDS[kind_name]
    t = data["t"]
    if isinstance(t, bool) or not isinstance(t, int | float) or not 0 <= t <= MAX_EVENT_TIME:
        raise ValueError(f"{where}.t must be a time in [0, {MAX_EVENT_TIME:g}] s (no shot "
                         f"lasts an hour), got {t!r}")
    b = data.get("b")
    feature = data.get("feature")
    if kind == EventKind.COLLIDE and b is None:
        raise ValueError(f"{where}: a 'collide' event needs 'b', the second piece")
    if kind in (EventKind.RAIL,) and feature not in SIDES:
        raise ValueError(f"{where}: a 'rail' event needs 'feature', one of {list(SIDES)}")
    crossing = kind in (EventKind.LINE, EventKind.CIRCLE)
    direction = data.get("direction", None if crossing else 0)
    if isinstance(direction, bool) or direction not in ((1, -1) if crossing else (1, 0, -1)):
        what = "+1 or -1 (the side it crossed to)" if crossing else "0, +1 or -1"
        raise ValueError(f"{where}.direction must be {what} for a '{kind_name}' event, got "
                         f"{direction!r}")
    if kind == EventKind.POCKET and feature not in HOLES:  # every puck drops in one of them
        raise ValueError(f"{where}: a 'pocket' event needs 'feature', the hole, one of "
                         f"{list(HOLES)}")
    if kind == EventKind.LINE and feature not in {f"zone_{s}" for s in SIDES}:
        raise ValueError(f"{where}: a 'line' event needs 'feature' zone_south/east/north/west")
    return Event(t=float(t), kind=kind, a=data["a"], b=b, feature=feature, speed=float(speed),
                 direction=int(direction))
