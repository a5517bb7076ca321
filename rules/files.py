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
