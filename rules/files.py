"""Scenario files for every referee: read the JSON once, then hand it to the game's referee."""

from __future__ import annotations

import math
import types
import typing
from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from typing import Any

from cuesim.rules.api_checks import check_names
from cuesim.rules.event_log import (  # the event log's checks (ScenarioError and
    # check_event_log, which the referees' READMEs name here, are also this module's)
    MAX_EVENT_TIME,
    UNTOUCHED_TOLERANCE,
    ScenarioError,
    check_event_log,
    check_reach,
    event_value_problem,
)
from cuesim.rules.ruling import Infraction
from cuesim.tables.jsonfile import read_json as _read_json

POOL_GAMES = ("eight_ball", "nine_ball", "straight_pool", "8-ball", "9-ball", "14.1", "8ball",
              "9ball", "straight")
FIVE_PINS_GAMES = ("five_pins", "5-pins", "fivepins", "five-pins", "5pins")


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
