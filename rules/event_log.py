"""A shot's event log checked: could it have happened? The checks every door runs on a log,
a scenario file's (`rules.files`) and a referee's Python API's alike: each event's values, its
order and causes, the pieces' reach from where they lay, and a simulated shot's own log."""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable
from typing import Any

from cuesim.rules.api_checks import ArgumentTypeError

# a piece no event touches cannot move: its position after the shot may differ from before
# only by the rounding of a hand-written or exported coordinate (m)
UNTOUCHED_TOLERANCE = 1e-6
# s: the latest time an event of a hand-written shot may have. No shot lasts an hour: a ball
# struck at the hardest cue speed (tables.balls.MAX_CUE_SPEED, 15 m/s) on the slowest cloth
# (mu_roll 0.005) rolls for 306 s; a puck (tables.novus.MAX_STRIKE_SPEED) stops within seconds
MAX_EVENT_TIME = 3600.0
# s: how much earlier than written an event of a hand-written log may have happened, when its
# reach is checked (`check_reach`): times rounded to the millisecond, and a contact a scenario
# writes at the strike (t = 0) between pieces a rule's tolerance apart (5-pins 10.1: 0.1 mm)
REACH_TIME_SLACK = 1e-3


class ScenarioError(ValueError):
    """A scenario file or object that cannot be ruled on: the message names the file, the
    field's path and what was expected."""


def event_value_problem(kind: Any, b: Any, feature: Any, speed: float, direction: Any,
                        where: str) -> str | None:
    """What makes one event impossible on its own, or None: a collide or pin event without
    `b`; a pocket, rail or line event without its `feature`; a speed that is not finite and
    >= 0 m/s; a `direction` other than +1 or -1 (the side crossed to) on a line or circle
    event, or other than 0, +1 or -1 on another (a bool is no direction). The same rules for
    a file's events (`parse_event`) and a log made in Python (`check_event_log`)."""
    from cuesim.sim.events import EventKind

    name = kind.name.lower()
    if kind in (EventKind.COLLIDE, EventKind.PIN) and b is None:
        return f"{where}: a {name} event needs 'b'"
    if kind in (EventKind.POCKET, EventKind.RAIL, EventKind.LINE) and feature is None:
        return (f"{where}: a {name} event needs 'feature' (the pocket, cushion, rail or line "
                "name)")
    if not math.isfinite(speed) or speed < 0.0:
        return f"{where}.speed must be a finite speed >= 0 m/s, got {speed}"
    crossing = kind in (EventKind.LINE, EventKind.CIRCLE)
    if isinstance(direction, bool) or direction not in ((1, -1) if crossing else (1, 0, -1)):
        what = "+1 or -1 (the side it crossed to)" if crossing else "0, +1 or -1"
        return f"{where}.direction must be {what} for a {name} event, got {direction!r}"
    return None


def _feature_names(table: Any) -> dict[Any, set[str]]:
    """The names an event's `feature` may take on `table`, by event kind."""
    from cuesim.sim.events import EventKind

    geo = table.geometry
    return {
        EventKind.RAIL: {r.name for r in geo.rails} | {k.name for k in geo.knuckles},
        EventKind.POCKET: {h.name for h in geo.holes},
        EventKind.LINE: {s.name for s in geo.lines},
        EventKind.CIRCLE: {c.name for c in geo.circles},
    }


def check_event_log(events: list[Any], pieces: list[str], where: str,
                    table: Any = None, pins: bool | None = None) -> None:
    """Refuse an event log that cannot have happened: times not finite, negative or out of
    order; a piece that is not on the table before the shot; an event of a piece after it
    dropped into a pocket (but, on a pool table, being touched there by a piece still on the
    table, as in a crowded pocket: WPA 3.20); a cushion, pocket or line the table does not
    have; an event value that cannot be (`event_value_problem`: a collide without `b`, a rail
    without its cushion, a negative speed, a direction of 7); a second piece (b) on an event
    that has one, a feature on one that names none; a
    piece that collides with itself or is struck twice; a pin event where no pins
    stand (pins: whether the game has them; None: the carom table has, the others not, and
    with no table either may); an event of a piece that nothing set in motion
    (`check_causes`). Several pieces may be struck: each player's ball in a lag."""
    from cuesim.sim.events import EventKind

    check_event_types(events, where)
    strike, collide, pocket = EventKind.STRIKE, EventKind.COLLIDE, EventKind.POCKET
    feature_kinds = (EventKind.RAIL, pocket, EventKind.LINE, EventKind.CIRCLE)
    names = _feature_names(table) if table is not None else {}
    known = set(pieces)
    gone: dict[str, float] = {}
    last = 0.0
    struck: set[str] = set()
    # a ball that dropped may still be touched in a crowded pocket (WPA 3.20); a novus hole or
    # a pocketless table has none (table None: the pool referee's own check)
    crowded = table is None or hasattr(table, "pockets")
    if pins is None:
        pins = table is None or getattr(table, "name", None) == "carom"
    for k, e in enumerate(events):
        t, a, b = e.t, e.a, e.b
        if not (0.0 <= t <= MAX_EVENT_TIME):  # NaN too
            raise ScenarioError(f"{where}.events[{k}].t must be a time in [0, "
                                f"{MAX_EVENT_TIME:g}] s (no shot lasts an hour), got {t}")
        if t < last:
            raise ScenarioError(f"{where}.events[{k}].t = {t} s comes before the previous "
                                f"event ({last} s): events must be in time order")
        last = t
        if a not in known or (b is not None and b not in known):
            role, pid = ("a", a) if a not in known else ("b", b)
            raise ScenarioError(f"{where}.events[{k}].{role}: unknown piece id {pid!r} (not on "
                                f"the table before the shot); pieces are {sorted(known)}")
        problem = event_value_problem(e.kind, b, e.feature, e.speed, e.direction,
                                      f"{where}.events[{k}]")
        if problem:
            raise ScenarioError(problem)
        if gone and (a in gone or (b in gone and not (crowded and e.kind == collide))):
            pid = a if a in gone else b
            raise ScenarioError(f"{where}.events[{k}]: {pid!r} has an event at {t} s after it "
                                f"dropped into a pocket at {gone[pid]} s")
        if e.kind == EventKind.PIN and not pins:
            name = getattr(table, "name", None)
            game = f"the {name} table" if name else "this game"
            raise ScenarioError(f"{where}.events[{k}].kind: a pin event, but {game} has no "
                                "pins (only 5-pins, on the carom table, has)")
        if b == a:
            raise ScenarioError(f"{where}.events[{k}]: {a!r} cannot "
                                f"{e.kind.name.lower()} with itself")
        if b is not None and e.kind not in (collide, EventKind.PIN):
            raise ScenarioError(f"{where}.events[{k}].b: a {e.kind.name.lower()} event has one "
                                f"piece, 'a'; only a collide or a pin event names a second "
                                f"piece, got b = {b!r}")
        if e.feature is not None and e.kind not in feature_kinds:
            raise ScenarioError(f"{where}.events[{k}].feature: a {e.kind.name.lower()} event "
                                "has no feature (only rail, pocket, line and circle events "
                                f"name one), got {e.feature!r}")
        allowed = names.get(e.kind)
        if allowed is not None and e.feature is not None and e.feature not in allowed:
            kind = e.kind.name.lower()
            raise ScenarioError(f"{where}.events[{k}].feature: unknown {kind} {e.feature!r}; "
                                f"the table's {kind} names are {sorted(allowed)}")
        if e.kind == strike:
            if a in struck:
                raise ScenarioError(f"{where}.events[{k}]: a second strike of {a!r}; a piece "
                                    "is struck once a shot (a cue that touches it again is "
                                    "the declared double_hit)")
            struck.add(a)
        elif e.kind == pocket:
            gone.setdefault(a, t)
    check_causes(events, where)


def check_event_types(events: list[Any], where: str) -> None:
    """Each event of a log made in Python is a cuesim.sim.result.Event whose fields have their
    types (`t` and `speed` real numbers, not booleans; `kind` an EventKind; `a` a string, `b`
    and `feature` a string or None; `direction` an integer), or an ArgumentTypeError names the
    event and the field (a file's events are parsed to these types: `parse_event`)."""
    from cuesim.sim.events import EventKind
    from cuesim.sim.result import Event

    def real(v: Any) -> bool:
        return isinstance(v, int | float) and not isinstance(v, bool)

    def text(v: Any) -> bool:
        return isinstance(v, str)

    def text_or_none(v: Any) -> bool:
        return v is None or isinstance(v, str)

    def integer(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    fields = (("t", real, "a time in s (a real number)"),
              ("kind", lambda v: isinstance(v, EventKind), "an EventKind"),
              ("a", text, "a piece id (str)"), ("b", text_or_none, "a piece id (str) or None"),
              ("feature", text_or_none, "a feature name (str) or None"),
              ("speed", real, "a speed in m/s (a real number)"),
              ("direction", integer, "an int (-1, 0 or +1)"))
    if not isinstance(events, list | tuple):
        raise ArgumentTypeError(f"{where}.events must be a list of Event, got "
                                f"{type(events).__name__}")
    for k, e in enumerate(events):
        if not isinstance(e, Event):
            raise ArgumentTypeError(f"{where}.events[{k}] must be an Event "
                                    f"(cuesim.sim.result.Event), got {type(e).__name__}")
        for name, ok, what in fields:
            value = getattr(e, name)
            if not ok(value):
                raise ArgumentTypeError(f"{where}.events[{k}].{name} must be {what}, got "
                                        f"{value!r:.60}")


def check_causes(events: list[Any], where: str) -> None:
    """Every piece in an event was set in motion first: struck, or in a collision with a
    moving piece (a pin knocked down by one moves too). Pieces lie at rest before the shot and
    after their stop (a spin on the spot moves nothing), so a cushion, pocket, line, stop or
    roll of a piece nothing touched since, or a collision of two pieces at rest, cannot have
    happened. Events at one instant are taken together (a multiple impact logs a chain of
    contacts at one time in any order); a stop is a rest when it is the piece's last event of
    its instant."""
    from cuesim.sim.events import EventKind

    kinds = (EventKind.STRIKE, EventKind.COLLIDE, EventKind.PIN)
    stop = EventKind.STOP
    moving: set[str] = set()
    waiting: list[int] = []  # events of the current instant that nothing explains yet
    stopped: dict[str, bool] = {}  # pieces with a stop at this instant: was it their last event
    now = math.nan
    for i, e in enumerate(events):
        if e.t != now:
            if waiting:
                _unexplained(events, waiting[0], where)
            moving.difference_update(p for p, last in stopped.items() if last)  # at rest again
            stopped.clear()
            now = e.t
        if e.a in stopped or e.b in stopped:
            for p in (e.a, e.b):
                if p in stopped:
                    stopped[p] = False
        if e.kind == stop:
            stopped[e.a] = True
        if not _moves(e, moving, kinds):
            waiting.append(i)
            continue
        while waiting:  # what this one set moving may explain the instant's earlier events
            left = [k for k in waiting if not _moves(events[k], moving, kinds)]
            if len(left) == len(waiting):
                break
            waiting = left
    if waiting:
        _unexplained(events, waiting[0], where)


def _moves(e: Any, moving: set[str], kinds: tuple[Any, Any, Any]) -> bool:
    """Whether the event is explained by the pieces moving so far; if so, add the pieces it
    sets moving (kinds: STRIKE, COLLIDE, PIN)."""
    strike, collide, pin = kinds
    if e.kind == strike:
        moving.add(e.a)
    elif e.kind == collide:
        if e.a not in moving and e.b not in moving:
            return False
        moving.add(e.a)
        moving.add(e.b)
    elif e.kind == pin:
        if e.a not in moving:
            return False
        moving.add(e.b)
    return e.a in moving


def _unexplained(events: list[Any], k: int, where: str) -> None:
    from cuesim.sim.events import EventKind

    e = events[k]
    who = f"{e.a!r} and {e.b!r}" if e.kind == EventKind.COLLIDE else repr(e.a)
    raise ScenarioError(f"{where}.events[{k}]: {e.kind.name.lower()} of {who} at {e.t} s, but "
                        f"nothing set {who} in motion before it (a strike, or a collision with "
                        "a moving piece)")


def check_one_strike(events: list[Any], why: str = "") -> None:
    """A shot has one strike, simulated or written by hand: a second one (`run_motion` can
    strike several pieces at once, as the 5-pins lag does; no cue does in a shot) is a
    ValueError naming the event, with `why` after it."""
    from cuesim.sim.events import EventKind

    strikes = [k for k, e in enumerate(events) if e.kind == EventKind.STRIKE]
    if len(strikes) > 1:
        raise ValueError(f"events[{strikes[1]}]: a second strike; a shot has one{why}")


def pieces_set_moving(events: Iterable[Any]) -> set[str]:
    """The pieces a shot's log sets in motion: the struck one and both pieces of every
    collision (one of them moving: `check_causes`). Only these can leave the table (pool 3.28,
    5-pins 15.3.д, novus 18.1.в), unless a hand moved them (`hand_moved`)."""
    from cuesim.sim.events import EventKind

    return {p for e in events if e.kind in (EventKind.STRIKE, EventKind.COLLIDE)
            for p in (e.a, e.b) if p is not None}


def check_simulated(events: list[Any], initial: Any, final: Any, result: Any,
                    where: str) -> None:
    """A shot that carries the simulation it came from (`result`, a ShotResult: the referee
    rules on its log without `check_event_log`) is that simulation: the same events (every
    field, in order) and the same layouts before and after (`final` None: not given),
    or a ScenarioError names what differs. (A result makes its Events and final layout once,
    so the shot shot_from_result made is checked by identity, in a few microseconds.)"""
    from cuesim.rules.api_checks import require
    from cuesim.sim.result import ShotResult

    require(result, ShotResult, f"{where}.result")
    log = result.event_log()  # the very Events shot_from_result handed out: equal at once
    if len(events) != len(log):
        raise ScenarioError(f"{where}.events: {len(events)} events, but {where}.result (the "
                            f"simulation they came from) logged {len(log)}")
    if events != log:
        k = next(k for k, (e, s) in enumerate(zip(events, log, strict=True)) if e != s)
        raise ScenarioError(f"{where}.events[{k}] is not event {k} of {where}.result (the "
                            "simulation the log came from): give the shot made by "
                            "shot_from_result, or no result with a hand-written log")
    for name, layout, simulated in (("initial", initial, result.initial),
                                    ("final", final, None)):
        if layout is None or layout is simulated:
            continue
        if layout != (result.final if simulated is None else simulated):
            raise ScenarioError(f"{where}.{name} is not the {name} layout of {where}.result "
                                "(the simulation the shot came from)")


def check_reach(events: list[Any], before: Any, table: Any, where: str,
                by_hand: Collection[str] = ()) -> None:
    """No event asks a piece to be faster than the shot could make it. A cue gives a piece of
    kind k at most the energy E_k (`motion_limits`: its fastest speed and spin); impacts and
    friction only take energy away, so with s pieces struck no piece i ever moves faster than
    v_i = sqrt(2 s max E_k / m_i). So at time t a centre lies within v_i t of where it lay
    before the shot, and an event that needs it farther (a collision of two pieces farther
    apart than (v_a + v_b) t beyond touching, a cushion, pocket, line or circle out of reach) or
    an event speed above v_a + v_b cannot have happened: a ScenarioError names it. Pieces a
    declared infraction moved by hand (`by_hand`) are left out; positions may be off by
    UNTOUCHED_TOLERANCE and times by REACH_TIME_SLACK (hand-written numbers)."""
    from cuesim.sim.engine import motion_limits, table_arrays
    from cuesim.sim.events import EventKind

    struck = sum(1 for e in events if e.kind == EventKind.STRIKE)
    if struck == 0 or before is None:
        return
    arr = table_arrays(table)
    kinds = {p.id: p.kind for p in before.pieces}
    specs = {k: table.piece_spec(k) for k in set(kinds.values())}
    energy = 0.0
    for k, spec in specs.items():
        v, w, _ = motion_limits(arr, k)
        energy = max(energy, 0.5 * spec.mass * v * v + 0.5 * spec.inertia * w * w)
    fastest = {k: math.sqrt(2.0 * struck * energy / spec.mass) for k, spec in specs.items()}
    place = {p.id: (p.x, p.y) for p in before.pieces}
    geo = table.geometry
    for k, e in enumerate(events):
        if e.a in by_hand or e.b in by_hand or e.a not in place:
            continue
        va = fastest[kinds[e.a]]
        vb = fastest[kinds[e.b]] if e.b in place else 0.0
        if e.speed > (va + vb) * (1.0 + 1e-9):
            raise ScenarioError(f"{where}.events[{k}].speed = {e.speed:g} m/s is beyond what the "
                                f"shot can give {e.a!r}{' and ' + repr(e.b) if vb else ''} "
                                f"(at most {va + vb:.3g} m/s)")
        need = _distance_to(e, place, kinds, specs, geo)
        if need - UNTOUCHED_TOLERANCE > (va + vb) * (e.t + REACH_TIME_SLACK):
            pieces = repr(e.a) + (f" and {e.b!r}" if vb else "")
            raise ScenarioError(f"{where}.events[{k}]: {pieces} cannot reach this "
                                f"{e.kind.name.lower()} by t = {e.t:g} s: {need:.3g} m away "
                                f"before the shot, at most {va + vb:.3g} m/s")


def _distance_to(e: Any, place: dict[str, tuple[float, float]], kinds: dict[str, str],
                 specs: dict[str, Any], geo: Any) -> float:
    """How far (m) the centres of an event's pieces must travel, together, from where they lay
    before the shot for it to happen: to touch each other (collide, pin), a cushion or a
    knuckle, a pocket's capture circle, a line or a circle; 0 for another event."""
    from cuesim.sim.events import EventKind

    x, y = place[e.a]
    r = specs[kinds[e.a]].radius
    if e.kind in (EventKind.COLLIDE, EventKind.PIN) and e.b in place:
        bx, by = place[e.b]
        return math.hypot(bx - x, by - y) - r - specs[kinds[e.b]].radius
    if e.kind == EventKind.RAIL:
        for rail in geo.rails:
            if rail.name == e.feature:
                return _segment_distance(x, y, rail.x0, rail.y0, rail.x1, rail.y1) - r
        for knuckle in geo.knuckles:
            if knuckle.name == e.feature:
                return math.hypot(knuckle.x - x, knuckle.y - y) - knuckle.radius - r
    if e.kind == EventKind.POCKET:
        holes = geo.hole_array()
        for i, hole in enumerate(geo.holes):
            if hole.name == e.feature:  # the circle a capture happens within
                cx, cy, radius = holes[i, 10:13]
                return math.hypot(cx - x, cy - y) - radius
    if e.kind == EventKind.LINE:
        for line in geo.lines:
            if line.name == e.feature:
                return abs(line.nx * x + line.ny * y - line.c)
    if e.kind == EventKind.CIRCLE:
        for circle in geo.circles:
            if circle.name == e.feature:
                return abs(math.hypot(circle.x - x, circle.y - y) - circle.radius)
    return 0.0


def _segment_distance(x: float, y: float, x0: float, y0: float, x1: float, y1: float) -> float:
    """The distance from (x, y) to the segment (x0, y0)-(x1, y1)."""
    ex, ey = x1 - x0, y1 - y0
    length2 = ex * ex + ey * ey
    u = 0.0 if length2 == 0.0 else min(1.0, max(0.0, ((x - x0) * ex + (y - y0) * ey) / length2))
    return math.hypot(x0 + u * ex - x, y0 + u * ey - y)
