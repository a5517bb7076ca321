"""Scenario files for every referee: read the JSON once, then hand it to the game's referee."""

from __future__ import annotations

import math
import types
import typing
from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from typing import Any

from cuesim.rules.api_checks import ArgumentTypeError, check_names
from cuesim.rules.ruling import Infraction
from cuesim.tables.jsonfile import read_json as _read_json

POOL_GAMES = ("eight_ball", "nine_ball", "straight_pool", "8-ball", "9-ball", "14.1", "8ball",
              "9ball", "straight")
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
FIVE_PINS_GAMES = ("five_pins", "5-pins", "fivepins", "five-pins", "5pins")


class ScenarioError(ValueError):
    """A scenario file or object that cannot be ruled on: the message names the file, the
    field's path and what was expected."""


def read_json(path: str | Path, what: str = "scenario") -> Any:
    """Parsed JSON of a file, or a ScenarioError naming the file and the problem (binary
    files, NaN, nesting too deep included: cuesim.tables.jsonfile)."""
    return _read_json(path, what, ScenarioError)


def adjudicate(data: Any) -> dict[str, Any]:
    """Rule on a parsed scenario of any game (its "game" field picks the referee); every
    problem with the scenario is a ScenarioError."""
    try:
        return _adjudicate(data)
    except ScenarioError:
        raise
    except ValueError as exc:
        raise ScenarioError(str(exc)) from None
    except (TypeError, KeyError, AttributeError, IndexError) as exc:
        # a field of a type no check above foresaw: still one clear line, never a traceback
        raise ScenarioError(f"a field has a value of the wrong type or shape ({type(exc).__name__}"
                            f": {exc}); see the schema in the referee's README") from None


def _adjudicate(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ValueError("scenario must be a JSON object with a 'game' field")
    if "game" not in data:  # a layout or a shot file given by mistake, say
        looks = ("; it looks like a layout or a shot file" if "pieces" in data or "table" in data
                 else "")
        raise ValueError(f"missing field 'game' (novus, {', '.join(POOL_GAMES[:3])}, "
                         f"five_pins){looks}")
    game = str(data["game"])
    if game == "novus":
        from cuesim.rules.novus import adjudicate_scenario as novus

        return novus(data)
    if game in POOL_GAMES:
        from cuesim.rules.pool import adjudicate_scenario as pool

        return pool(data)
    if game in FIVE_PINS_GAMES:
        from cuesim.rules.fivepins import adjudicate_scenario as five_pins

        return five_pins(data)
    raise ValueError(f"scenario: unknown game {game!r}; games are novus, "
                     f"{', '.join(POOL_GAMES[:3])}, five_pins")


def adjudicate_file(path: str | Path) -> dict[str, Any]:
    """`cuesim adjudicate FILE.json`: rule on a scenario file of any game; a ScenarioError
    names the file."""
    data = read_json(path)
    try:
        return adjudicate(data)
    except ScenarioError as exc:
        raise ScenarioError(f"scenario {path}: {exc}") from None


def scenario_steps(data: dict[str, Any], top_shot_keys: set[str]
                   ) -> tuple[list[Any], list[str]]:
    """The shots of a multi-step scenario and their names for messages: `steps` (a list),
    one `shot`, or a single shot given by top-level keys (the novus-style flat form)."""
    if "steps" in data and "shot" in data:
        raise ValueError("scenario: give either 'shot' or 'steps', not both")
    if "steps" in data:
        steps = data["steps"]
        if not isinstance(steps, list) or not steps:
            raise ValueError("scenario.steps must be a list of at least one step (a shot, a "
                             f"choice or a request), got {steps!r}")
        return steps, [f"steps[{k}]" for k in range(len(steps))]
    if "shot" in data:
        return [data["shot"]], ["shot"]
    if top_shot_keys & set(data):
        return [{k: data[k] for k in top_shot_keys if k in data}], ["scenario"]
    raise ValueError("scenario: missing field 'shot' or 'steps' (or a top-level "
                     "'events' / 'before' single shot)")


def scenario_strokes(data: Any) -> list[bool]:
    """For each ruling of a scenario, in order, whether it rules on a shot: a step (or the
    single shot) with events; one without (a choice, a stalemate, infractions between shots)
    played none. Read from the scenario as given: call it on one that `adjudicate` accepted."""
    if not isinstance(data, dict):
        return []
    steps, _ = scenario_steps(data, {"events", "before"})
    return [isinstance(step, dict) and bool(step.get("events")) for step in steps]


def check_known_fields(data: dict[str, Any], known: set[str], where: str = "state") -> None:
    """A ValueError naming the fields of `data` that are not in `known`."""
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"{where}: unknown field(s) {unknown}; known fields are "
                         f"{sorted(known)}")


def check_one_of(value: Any, names: Collection[str], where: str, what: str) -> None:
    """A ScenarioError unless `value` is one of `names` (a declaration naming a ball, a pocket
    or a cushion the game does not have): the field, the names it takes (`what`) and the
    value."""
    if value not in names:
        raise ScenarioError(f"{where} must be one of the {what} {list(names)}, got {value!r}")


INFRACTION_KEYS = set(Infraction.__dataclass_fields__)  # code, player, pieces, note


def parse_infraction(item: Any, where: str) -> Infraction:
    """One declared infraction of a scenario or a saved game (`where`: its path) as a
    cuesim.rules.ruling.Infraction: an object with a string `code`, its other fields those of
    an Infraction (`player`, `pieces`, `note`), another field refused; a ValueError naming
    `where` otherwise."""
    if not isinstance(item, dict):
        raise ValueError(f"{where} must be an object with a 'code'")
    check_known_fields(item, INFRACTION_KEYS, where)
    try:
        return Infraction.from_dict(item)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None


def parse_infractions(step: dict[str, Any], where: str) -> list[Infraction]:
    """A step's `infractions` (a list, default none), each by `parse_infraction`."""
    items = step.get("infractions", [])
    if not isinstance(items, list):
        raise ValueError(f"{where}.infractions must be a list")
    return [parse_infraction(item, f"{where}.infractions[{k}]") for k, item in enumerate(items)]


def open_step(step: Any, where: str, keys: Collection[str],
              parse_layout: Callable[[Any, str], Any]
              ) -> tuple[dict[str, Any], dict[str, str], list[Any], Any]:
    """What the ball games' shot steps share (pool, 5-pins): the step an object of `keys`,
    `before`/`after` read as `initial`/`final` (not both of a pair), its events parsed
    (`parse_event`), and the layout before the shot by the game's `parse_layout` (None when
    not given; events need it). Returns (the step with the aliases resolved, how the file names
    initial and final (for messages), the events, the initial layout); a ValueError naming the
    field otherwise."""
    if not isinstance(step, dict):
        raise ValueError(f"{where} must be an object")
    unknown = sorted(set(step) - set(keys))
    if unknown:
        raise ValueError(f"{where}: unknown field(s) {unknown}; fields are {sorted(keys)}")
    step = dict(step)
    named = {"initial": "initial", "final": "final"}  # as the file names them, for messages
    for alias, key in (("before", "initial"), ("after", "final")):
        if alias in step:
            if key in step:
                raise ValueError(f"{where}: give {key!r} or {alias!r}, not both")
            step[key] = step.pop(alias)
            named[key] = alias
    events_data = step.get("events", [])
    if not isinstance(events_data, list):
        raise ValueError(f"{where}.events must be a list")
    events = [parse_event(e, f"{where}.events[{k}]") for k, e in enumerate(events_data)]
    if events and "initial" not in step:
        raise ValueError(f"{where}: missing field 'initial' or 'before' (the layout before the "
                         "shot)")
    initial = (parse_layout(step["initial"], f"{where}.{named['initial']}") if "initial" in step
               else None)
    return step, named, events, initial


EVENT_KEYS = {"t", "kind", "a", "b", "feature", "speed", "direction"}
EVENT_NAMES = {"kind": "an event kind", "a": "a piece id", "b": "a piece id",
               "feature": "a pocket, cushion, rail or line name"}  # an event's string fields


def parse_event(item: Any, where: str) -> Any:
    """One event of a hand-written log ({"t", "kind", "a", "b", "feature", "speed",
    "direction"}) as a cuesim.sim.result.Event; a collide or pin event needs `b`, a pocket,
    rail or line event its `feature`. `t` and `speed` are JSON numbers (not strings or
    booleans), `kind`, `a`, `b` and `feature` strings; another field is refused."""
    from cuesim.sim.events import EventKind
    from cuesim.sim.result import Event

    if not isinstance(item, dict):
        raise ValueError(f"{where} must be an object with t, kind, a")
    for key in ("t", "kind", "a"):
        if key not in item:
            raise ValueError(f"{where} is missing field {key!r}")
    check_known_fields(item, EVENT_KEYS, where)
    for key in ("t", "speed"):
        value = item.get(key, 0.0)
        if isinstance(value, bool) or not isinstance(value, int | float):
            what = (f"a time in [0, {MAX_EVENT_TIME:g}] s (no shot lasts an hour)" if key == "t"
                    else "a speed >= 0 in m/s")
            raise ValueError(f"{where}.{key} must be {what}, got {value!r}")
    for key, what in EVENT_NAMES.items():
        value = item.get(key)
        if (value is not None or key in ("kind", "a")) and not (isinstance(value, str)
                                                               and value):
            raise ValueError(f"{where}.{key} must be {what} (a string), got {value!r}")
    kind_name = str(item["kind"]).upper()
    if kind_name not in EventKind.__members__:
        raise ValueError(f"{where}.kind: unknown event kind {item['kind']!r}; kinds are "
                         f"{[k.lower() for k in EventKind.__members__]}")
    kind = EventKind[kind_name]
    try:
        t = float(item["t"])
        speed = float(item.get("speed", 0.0))
    except OverflowError as exc:
        raise ValueError(f"{where}: t and speed must be numbers a float can hold") from exc
    direction = item.get("direction", 0)
    problem = event_value_problem(kind, item.get("b"), item.get("feature"), speed,
                                  direction, where)
    if problem:
        raise ValueError(problem)
    direction = int(direction)
    b = item.get("b")
    feature = item.get("feature")
    return Event(t=t, kind=kind, a=item["a"], b=b, feature=feature, speed=speed,
                 direction=direction)


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


def check_scenario_fields(data: dict[str, Any], known: set[str]) -> None:
    """The top-level fields of a scenario are ones its referee reads (`known`), and a game
    resumed from `state` gives no `players` or `options` (the state holds them): a
    ScenarioError naming the field otherwise."""
    try:
        check_known_fields(data, known, "scenario")
    except ValueError as exc:
        raise ScenarioError(str(exc)) from None
    if "state" in data:
        given = [key for key in ("players", "options") if key in data]
        if given:
            raise ScenarioError(f"scenario.{given[0]}: give 'state' (a game resumed, its "
                                f"players and options in it) or {' and '.join(given)} (a new "
                                "game), not both")


def players_and_options(data: dict[str, Any], option_keys: set[str], game: Any = None
                        ) -> tuple[list[str], dict[str, Any]]:
    """A new game's players (default two, A and B) and options from a scenario, checked: two
    different names; each option of the type `game.__init__` declares for it."""
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise ScenarioError("scenario.options must be an object")
    unknown = sorted(set(options) - option_keys)
    if unknown:
        raise ScenarioError(f"scenario.options: unknown option(s) {unknown}; options are "
                            f"{sorted(option_keys)}")
    players = data.get("players", ["A", "B"])
    if (not isinstance(players, list) or len(players) != 2
            or not all(isinstance(p, str) and p.strip() for p in players)
            or players[0] == players[1]):
        raise ScenarioError(f"scenario.players must be a list of two different names, got "
                            f"{players!r}")
    try:
        check_names(players, "scenario.players")
    except ValueError as exc:
        raise ScenarioError(str(exc)) from None
    if game is not None:
        check_types(options, game.__init__, "scenario.options")
    if "breaker" in options and options["breaker"] is not None \
            and options["breaker"] not in players:
        raise ScenarioError(f"scenario.options.breaker {options['breaker']!r} is not one of the "
                            f"players {players}")
    return players, options


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


def pieces_set_moving(events: Iterable[Any]) -> set[str]:
    """The pieces a shot's log sets in motion: the struck one and both pieces of every
    collision (one of them moving: `check_causes`). Only these can leave the table (pool 3.28,
    5-pins 15.3.д, novus 18.1.в), unless a hand moved them (`hand_moved`)."""
    from cuesim.sim.events import EventKind

    return {p for e in events if e.kind in (EventKind.STRIKE, EventKind.COLLIDE)
            for p in (e.a, e.b) if p is not None}


def check_one_strike(events: list[Any], why: str = "") -> None:
    """A shot has one strike, simulated or written by hand: a second one (`run_motion` can
    strike several pieces at once, as the 5-pins lag does; no cue does in a shot) is a
    ValueError naming the event, with `why` after it."""
    from cuesim.sim.events import EventKind

    strikes = [k for k, e in enumerate(events) if e.kind == EventKind.STRIKE]
    if len(strikes) > 1:
        raise ValueError(f"events[{strikes[1]}]: a second strike; a shot has one{why}")


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


def check_shot_layouts(table: Any, before: Any, after: Any, events: list[Any],
                       where: str, names: tuple[str, str] = ("before", "after"),
                       by_hand: Collection[str] = ()) -> None:
    """The layouts of one shot are legal on its table (on the bed, no overlaps; after a novus
    shot pucks may lie stacked, after a 5-pins shot a pin the events knock down may lie under
    a ball), the pieces after it were there before it, no piece that dropped is still on the
    table, and a piece lies elsewhere after the shot only if an event touches it or a declared
    infraction moved it by hand (`by_hand`: the pieces it names, `hand_moved`); lines and
    circles are crossed from the side a piece is on (`check_crossings`)."""
    from cuesim.sim.events import EventKind
    from cuesim.tables.layout import Layout, LayoutError

    if before is not None:
        check_crossings(events, before, table, where, by_hand)

    felled = {e.b for e in events if e.kind == EventKind.PIN}
    for name, layout in zip(names, (before, after), strict=True):
        if layout is None:
            continue
        try:
            if layout is after and layout.table == "novus":
                # a puck may come to rest on another (stacked, novus 12): each piece alone must
                # lie on the board, off the holes; the referee rules on the overlap
                for piece in layout.pieces:
                    table.check_layout(Layout(layout.table, (piece,)))
            elif layout is after and felled:
                # a knocked-down pin lies on the bed, and the balls roll over it (5-pins 12):
                # each felled pin alone must lie on the bed, the rest as a whole
                table.check_layout(Layout(layout.table, tuple(
                    p for p in layout.pieces if p.id not in felled)))
                for piece in layout.pieces:
                    if piece.id in felled:
                        table.check_layout(Layout(layout.table, (piece,)))
            else:
                table.check_layout(layout)
        except LayoutError as exc:
            raise ScenarioError(f"{where}.{name}: {exc}") from None
    if before is None or after is None:
        return
    extra = sorted(set(after.ids()) - set(before.ids()))
    if extra:
        raise ScenarioError(f"{where}.{names[1]} has pieces that were not on the table "
                            f"before the shot: {extra}")
    dropped = sorted({e.a for e in events if e.kind == EventKind.POCKET} & set(after.ids()))
    if dropped:
        raise ScenarioError(f"{where}.{names[1]} still has {dropped} on the table, but the "
                            "events pocket them")
    touched = {e.a for e in events} | {e.b for e in events if e.b is not None}
    was = {p.id: p for p in before.pieces}
    moved = sorted(p.id for p in after.pieces if p.id not in touched and p.id not in by_hand
                   and math.hypot(p.x - was[p.id].x, p.y - was[p.id].y) > UNTOUCHED_TOLERANCE)
    if moved:
        raise ScenarioError(f"{where}.{names[1]} moves {moved}, which no event touches and no "
                            "declared infraction moves by hand")


def hand_moved(infractions: Iterable[Any], codes: Collection[str]) -> set[str]:
    """The pieces the declared infractions of these codes name: moved by a hand, a cue, the
    chalk or a shaken table, not by the shot (pool 3.21, novus 16.1.д, 5-pins 15.3.к ...), so
    they may lie elsewhere after it with no event of theirs."""
    return {p for i in infractions if i.code in codes for p in i.pieces}


def table_of(layout: Any, where: str) -> Any:
    """The table a scenario layout names ('novus', 'carom', 'pool_9ft', 'pool_8ft', ...)."""
    from cuesim.tables.carom import CaromTable
    from cuesim.tables.novus import NovusTable
    from cuesim.tables.pool import pool_table

    name = layout.table
    if name == "novus":
        return NovusTable()
    if name == "carom":
        return CaromTable()
    if name.startswith("pool_"):
        try:
            return pool_table(name[len("pool_"):])
        except (ValueError, KeyError):
            pass
    raise ScenarioError(f"{where}.table: unknown table {name!r}; tables are novus, carom, "
                        "pool_9ft, pool_8ft, pool_7ft")


def check_shot(events: list[Any], before: Any, after: Any, where: str,
               names: tuple[str, str] = ("before", "after"),
               by_hand: Collection[str] = ()) -> None:
    """check_event_log and check_shot_layouts on the table `before` names; `names` are the
    scenario's own keys for the two layouts, for the messages; `by_hand` the pieces declared
    infractions moved (`hand_moved`)."""
    if before is None:
        return
    table = table_of(before, f"{where}.{names[0]}")
    if after is not None and after.table != before.table:
        raise ScenarioError(f"{where}.{names[1]} is for table {after.table!r}, {names[0]!r} "
                            f"for {before.table!r}")
    check_event_log(events, before.ids(), where, table)
    check_shot_layouts(table, before, after, events, where, names, by_hand)
    check_reach(events, before, table, where, by_hand)


def check_crossings(events: list[Any], before: Any, table: Any, where: str,
                    by_hand: Collection[str] = ()) -> None:
    """A piece crosses a line or a circle of the table from the side it is on: its first
    crossing leaves the side where it lay before the shot (a line's +1 goes along its normal,
    a circle's +1 enters it), and each next one goes back. A cue ball in the kitchen crossing
    the head string into the kitchen cannot have happened. Pieces moved by hand (`by_hand`)
    and pieces lying on the line itself are taken on their word for the first crossing."""
    from cuesim.sim.events import EventKind

    geo = table.geometry
    lines = {s.name: s for s in geo.lines}
    circles = {c.name: c for c in geo.circles}
    last: dict[tuple[str, str], int] = {}
    for k, e in enumerate(events):
        if e.kind not in (EventKind.LINE, EventKind.CIRCLE) or e.feature is None:
            continue
        key = (e.a, e.feature)
        if key in last:
            expected = -last[key]
        elif e.a in by_hand or e.a not in before.ids():
            expected = e.direction
        else:
            p = before.get(e.a)
            if e.kind == EventKind.LINE and e.feature in lines:
                s = lines[e.feature]
                side = s.nx * p.x + s.ny * p.y - s.c  # > 0: already on the normal's side
                expected = e.direction if side == 0.0 else (1 if side < 0.0 else -1)
            elif e.kind == EventKind.CIRCLE and e.feature in circles:
                c = circles[e.feature]
                inside = math.hypot(p.x - c.x, p.y - c.y) - c.radius
                expected = e.direction if inside == 0.0 else (1 if inside > 0.0 else -1)
            else:
                expected = e.direction
        if e.direction != expected:
            kind = "line" if e.kind == EventKind.LINE else "circle"
            raise ScenarioError(f"{where}.events[{k}].direction: {e.a!r} crosses the {kind} "
                                f"{e.feature!r} with direction {e.direction:+d}, but it is on "
                                f"the other side (expected {expected:+d}: it lay there before "
                                "the shot, or crossed there last)")
        last[key] = e.direction


COUNTS = {"race_to", "points_to", "games", "sets", "inning", "frame", "game", "shot",
          "set_number"}  # whole numbers >= 1 wherever they appear


def _describe(tp: Any) -> str:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_describe(a) for a in args)
    if origin is list or origin is tuple:
        return f"a list of {_describe(args[0])}" if args else "a list"
    if origin is dict:
        return f"an object of {_describe(args[1])}" if len(args) == 2 and args[1] is not Any \
            else "an object"
    return {int: "a whole number", float: "a number", bool: "true or false", str: "a string",
            type(None): "null"}.get(tp, "a value")


def _matches(value: Any, tp: Any) -> bool:
    """`value`, read from JSON, is of the annotated type `tp` (api_checks.fits)."""
    from cuesim.rules.api_checks import fits

    return fits(value, tp, from_json=True)


def check_types(data: dict[str, Any], owner: Any, where: str) -> None:
    """Each field of `data` against the type annotated for it on `owner` (a dataclass or a
    function such as a game's __init__): a ScenarioError naming the field's path, what was
    expected and what was given. Counts (COUNTS) must also be >= 1."""
    from cuesim.rules.api_checks import hints

    annotated = hints(owner)
    for key, value in data.items():
        tp = annotated.get(key)
        if tp is None:
            continue
        if not _matches(value, tp):
            shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
            raise ScenarioError(f"{where}.{key} must be {_describe(tp)}, got {shown}")
        if key in COUNTS and isinstance(value, int) and value < 1:
            raise ScenarioError(f"{where}.{key} must be a whole number >= 1, got {value}")
