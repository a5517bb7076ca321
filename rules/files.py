"""Scenario files for every referee: read the JSON once, then hand it to the game's referee."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

POOL_GAMES = ("eight_ball", "nine_ball", "straight_pool", "8-ball", "9-ball", "14.1", "8ball",
              "9ball", "straight")
FIVE_PINS_GAMES = ("five_pins", "5-pins", "fivepins", "five-pins", "5pins")


def read_json(path: str | Path, what: str = "scenario") -> Any:
    """Parsed JSON of a file, or a ValueError naming the file and the problem."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"cannot read {what} {path}: {exc.strerror}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{what} {path} is not valid JSON (line {exc.lineno}, column "
                         f"{exc.colno}: {exc.msg})") from exc


def adjudicate(data: Any) -> dict[str, Any]:
    """Rule on a parsed scenario of any game (its "game" field picks the referee)."""
    if not isinstance(data, dict):
        raise ValueError("scenario must be a JSON object with a 'game' field")
    game = str(data.get("game", ""))
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
    """`cuesim adjudicate FILE.json`: rule on a scenario file of any game."""
    return adjudicate(read_json(path))


def scenario_steps(data: dict[str, Any], top_shot_keys: set[str]
                   ) -> tuple[list[Any], list[str]]:
    """The shots of a multi-step scenario and their names for messages: `steps` (a list),
    one `shot`, or a single shot given by top-level keys (the novus-style flat form)."""
    if "steps" in data and "shot" in data:
        raise ValueError("scenario: give either 'shot' or 'steps', not both")
    if "steps" in data:
        steps = data["steps"]
        if not isinstance(steps, list):
            raise ValueError("scenario.steps must be a list")
        return steps, [f"steps[{k}]" for k in range(len(steps))]
    if "shot" in data:
        return [data["shot"]], ["shot"]
    if top_shot_keys & set(data):
        return [{k: data[k] for k in top_shot_keys if k in data}], ["scenario"]
    raise ValueError("scenario: missing field 'shot' or 'steps' (or a top-level "
                     "'events' / 'before' single shot)")


def check_known_fields(data: dict[str, Any], known: set[str], where: str = "state") -> None:
    """A ValueError naming the fields of `data` that are not in `known`."""
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"{where}: unknown field(s) {unknown}; known fields are "
                         f"{sorted(known)}")


def parse_event(item: Any, where: str) -> Any:
    """One event of a hand-written log ({"t", "kind", "a", "b", "feature", "speed",
    "direction"}) as a cuesim.sim.result.Event; a collide or pin event needs `b`, a pocket,
    rail or line event its `feature`."""
    from cuesim.sim.events import EventKind
    from cuesim.sim.result import Event

    if not isinstance(item, dict):
        raise ValueError(f"{where} must be an object with t, kind, a")
    for key in ("t", "kind", "a"):
        if key not in item:
            raise ValueError(f"{where} is missing field {key!r}")
    kind_name = str(item["kind"]).upper()
    if kind_name not in EventKind.__members__:
        raise ValueError(f"{where}.kind: unknown event kind {item['kind']!r}; kinds are "
                         f"{[k.lower() for k in EventKind.__members__]}")
    kind = EventKind[kind_name]
    if kind in (EventKind.COLLIDE, EventKind.PIN) and "b" not in item:
        raise ValueError(f"{where}: a {kind_name.lower()} event needs 'b'")
    if kind in (EventKind.POCKET, EventKind.RAIL, EventKind.LINE) and "feature" not in item:
        raise ValueError(f"{where}: a {kind_name.lower()} event needs 'feature' (the pocket, "
                         "cushion, rail or line name)")
    try:
        t = float(item["t"])
        speed = float(item.get("speed", 0.0))
        direction = int(item.get("direction", 0))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{where}: t, speed and direction must be numbers") from exc
    b = item.get("b")
    feature = item.get("feature")
    return Event(t=t, kind=kind, a=str(item["a"]), b=None if b is None else str(b),
                 feature=None if feature is None else str(feature), speed=speed,
                 direction=direction)


def players_and_options(data: dict[str, Any], option_keys: set[str]
                        ) -> tuple[list[str], dict[str, Any]]:
    """A new game's players (default two, A and B) and options from a scenario, checked."""
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise ValueError("scenario.options must be an object")
    unknown = sorted(set(options) - option_keys)
    if unknown:
        raise ValueError(f"scenario.options: unknown option(s) {unknown}; options are "
                         f"{sorted(option_keys)}")
    players = data.get("players", ["A", "B"])
    if not isinstance(players, list):
        raise ValueError("scenario.players must be a list of two names")
    return players, options
