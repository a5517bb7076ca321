"""5-pins adjudication scenarios as JSON: the game, its state or options, and one or more steps
(the lag, shots, choices, the 10.4 reset, declared events) with hand-written or simulated event
logs. The schema is in README.md beside this file; malformed input raises a ValueError that
names the field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cuesim.rules.files import (
    ScenarioError,
    check_one_of,
    check_scenario_fields,
    check_shot,
    check_types,
    hand_moved,
    open_step,
    parse_infractions,
    players_and_options,
    read_json,
    scenario_steps,
)
from cuesim.rules.fivepins.checks import (
    check_layout_kinds,
    check_off_table,
    check_piece_kinds,
    check_pins_kept,
)
from cuesim.rules.fivepins.fouls import HAND_MOVES
from cuesim.rules.fivepins.game import FivePinsGame
from cuesim.rules.fivepins.model import (
    BALLS,
    PINS,
    TABLE,
    Declaration,
    FivePinsShot,
    FivePinsState,
    Outcome,
)
from cuesim.rules.fivepins.placement import RAILS, reset_pins
from cuesim.tables.layout import Layout, LayoutError, Piece

GAME_NAMES = ("five_pins", "5-pins", "fivepins", "five-pins", "5pins")
STEP_KEYS = {"events", "initial", "final", "before", "after", "declaration", "infractions",
             "request", "note", "description", "expect"}
TOP_SHOT_KEYS = {"events", "before", "after", "initial", "final", "declaration", "infractions"}
DECLARATION_KEYS = set(Declaration.__dataclass_fields__)
OPTION_KEYS = {"balls", "breaker", "points_to", "games", "lag"}
REQUESTS = ("contact_reset",)
SCENARIO_KEYS = {"game", "players", "options", "state", "table", "shot", "steps",
                 "description", "note", "expect", *TOP_SHOT_KEYS}


def make_game(data: dict[str, Any]) -> FivePinsGame:
    """The game object of a scenario: from `state` if given, else new from players/options."""
    if not isinstance(data, dict):
        raise ValueError(f"scenario must be a JSON object, got {type(data).__name__}")
    if str(data.get("game", "")) not in GAME_NAMES:
        raise ValueError(f"scenario: game must be one of {list(GAME_NAMES)}, got "
                         f"{data.get('game')!r}")
    check_scenario_fields(data, SCENARIO_KEYS)
    if "table" in data and "state" not in data:
        raise ScenarioError("scenario.table: the table as it lies is given with 'state' (a "
                            "game resumed); a new game starts from the lag or the break")
    if "state" in data:
        if not isinstance(data["state"], dict):
            raise ValueError("scenario.state must be an object")
        check_types(data["state"], FivePinsState, "scenario.state")
        game = FivePinsGame(state=FivePinsState.from_dict(data["state"]))
        if "table" in data:
            game.layout = parse_layout(data["table"], "scenario.table")
        return game
    players, options = players_and_options(data, OPTION_KEYS, FivePinsGame)
    return FivePinsGame(players=players, **options)


def parse_layout(data: Any, where: str) -> Layout:
    """A layout object (cuesim.tables.layout schema, each ball and pin id of its own kind) or
    the short form {"white": [x, y], ...}; a short form that names no pin gets the five pins on
    their marks (less those whose mark a ball covers, 12.7)."""
    if isinstance(data, dict) and "pieces" not in data:
        pieces = []
        for pid, xy in data.items():
            if (not isinstance(xy, list | tuple) or len(xy) != 2
                    or not all(isinstance(v, int | float) and not isinstance(v, bool)
                               for v in xy)):
                raise ValueError(f"{where}.{pid} must be [x, y] in metres, got {xy!r}")
            if pid not in BALLS and pid not in PINS:
                raise ValueError(f"{where}: unknown piece id {pid!r}; ids are "
                                 f"{[*BALLS, *PINS]}")
            kind = "pin" if pid in PINS else "ball"
            group = ("red" if pid == "pin_centre" else "white") if kind == "pin" else pid
            pieces.append(Piece(str(pid), kind, float(xy[0]), float(xy[1]), group))
        try:
            layout = Layout(TABLE, tuple(pieces))
        except LayoutError as exc:
            raise ValueError(f"{where}: {exc}") from exc
        if not any(p.kind == "pin" for p in pieces):
            layout = reset_pins(layout)[0]
        return layout
    try:
        layout = Layout.from_dict(data, source=where, table=TABLE)
    except LayoutError as exc:
        raise ValueError(str(exc)) from exc
    check_layout_kinds(layout, where)
    return layout


def short_without_pins(data: Any) -> bool:
    """Whether a scenario layout is the short form naming no pin (its pins set on their
    marks by `parse_layout`)."""
    return isinstance(data, dict) and "pieces" not in data and not set(data) & set(PINS)


def parse_declaration(data: Any, where: str) -> Declaration:
    """A shot's declaration: its fields and their types, `in_contact` naming balls or rails
    and `moved_pins` pins of the carom table."""
    if data is None:
        return Declaration()
    if not isinstance(data, dict):
        raise ValueError(f"{where} must be an object")
    unknown = sorted(set(data) - DECLARATION_KEYS)
    if unknown:
        raise ValueError(f"{where}: unknown field(s) {unknown}; fields are "
                         f"{sorted(DECLARATION_KEYS)}")
    check_types(data, Declaration, where)
    for key in ("in_contact", "moved_pins"):
        if not isinstance(data.get(key, []), list):
            raise ValueError(f"{where}.{key} must be a list of ids")
    choice = data.get("choice")
    decl = Declaration(None if choice is None else str(choice),
                       [str(c) for c in data.get("in_contact", [])],
                       [str(p) for p in data.get("moved_pins", [])])
    for k, name in enumerate(decl.in_contact):
        check_one_of(name, [*BALLS, *RAILS], f"{where}.in_contact[{k}]", "balls and rails")
    for k, pin in enumerate(decl.moved_pins):
        check_one_of(pin, PINS, f"{where}.moved_pins[{k}]", "pins")
    return decl


def parse_shot(step: Any, where: str) -> FivePinsShot:
    """A shot step: its layouts (a short-form `after` naming no pin keeps only the pins that
    stood before the shot), events and declarations, refused (naming the field) when it
    cannot have happened."""
    step, named, events, initial = open_step(step, where, STEP_KEYS, parse_layout)
    final = parse_layout(step["final"], f"{where}.{named['final']}") if "final" in step else None
    short = "final" in step and short_without_pins(step["final"])
    if short and final is not None and initial is not None:  # only pins that stood before
        final = final.without([p for p in PINS if p not in initial.ids()], missing_ok=True)
    infractions = parse_infractions(step, where)
    decl = parse_declaration(step.get("declaration"), f"{where}.declaration")
    by_hand = hand_moved(infractions, HAND_MOVES)
    check_piece_kinds(events, where)
    names = (named["initial"], named["final"])
    check_shot(events, initial, final, where, names, by_hand)
    check_pins_kept(events, initial, final, where, names, by_hand)
    check_off_table(events, infractions, where, by_hand)
    return FivePinsShot(events, initial, final, decl, infractions)


def run_step(game: FivePinsGame, step: Any, where: str) -> Outcome:
    if isinstance(step, dict) and step.get("request") is not None:
        if step["request"] not in REQUESTS:
            raise ValueError(f"{where}.request: unknown request {step['request']!r}; requests "
                             f"are {list(REQUESTS)}")
        return game.contact_reset()
    return game.play(parse_shot(step, where))


def adjudicate_scenario(data: dict[str, Any]) -> dict[str, Any]:
    """Rule on every step of a scenario; returns {"game", "steps": [outcome, ...], "state",
    "layout"} (schema in README.md)."""
    game = make_game(data)
    steps, names = scenario_steps(data, TOP_SHOT_KEYS)
    outs = [run_step(game, s, n).to_dict() for s, n in zip(steps, names, strict=True)]
    return {
        "game": game.name,
        "steps": outs,
        "state": game.state.to_dict(),
        "layout": game.layout.to_dict() if game.layout is not None else None,
    }


def adjudicate_file(path: str | Path) -> dict[str, Any]:
    """adjudicate_scenario on a JSON file (what `cuesim adjudicate FILE.json` calls)."""
    return adjudicate_scenario(read_json(path))
