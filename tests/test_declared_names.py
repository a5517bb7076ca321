"""Names given at a door are names the game has: `Layout.without` of an id the layout does not
hold is refused like `moved` of one; a scenario's or a saved game's declaration names balls of
the game, pockets, cushions and pins of its table; a declared infraction has an Infraction's
fields only. Each refusal names the file, the field's path and the names expected."""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cuesim.cli import main
from cuesim.rules.files import ScenarioError, adjudicate
from cuesim.tables.layout import LayoutError
from cuesim.tables.novus import novus_singles_layout
from cuesim.viewer.session import SaveFileError, load_session, new_session

HERE = Path(__file__).resolve().parent
NOVUS = json.loads((HERE / "novus_scenarios" / "pocket_keeps_turn.json").read_text())
POOL_14 = json.loads((HERE / "scenarios" / "pool" / "straight_pool_third_foul.json").read_text())
POOL_9 = json.loads((HERE / "scenarios" / "pool" / "nine_ball_push_out.json").read_text())
FIVE = json.loads((HERE / "scenarios" / "fivepins" / "opening_foul_and_spot.json").read_text())
Change = Callable[[dict[str, Any]], None]


# -- Layout.without ----------------------------------------------------------------------------
def test_without_an_unknown_id_is_refused_as_moved_refuses_it() -> None:
    """Wrong: `without(["zz"])` dropped nothing and said nothing."""
    singles = novus_singles_layout()
    for edit in (lambda: singles.without(["red1", "zz"]), lambda: singles.moved("zz", 0.5, 0.5)):
        with pytest.raises(LayoutError, match=r"^(without|moved): no piece 'zz' in the layout; "
                                              r"ids are \['striker', 'red1', "):
            edit()
    assert singles.without(["red1", "zz"], missing_ok=True).ids() == [
        p for p in singles.ids() if p != "red1"]
    with pytest.raises(LayoutError, match="missing_ok must be true or false, got 'yes'"):
        singles.without(["red1"], missing_ok="yes")  # type: ignore[arg-type]


# -- scenario files ----------------------------------------------------------------------------
def _declare(step: list[Any], declaration: dict[str, Any]) -> Change:
    def change(data: dict[str, Any]) -> None:
        target = data
        for key in step:
            target = target[key]
        target["declaration"] = declaration
    return change


def _infraction(step: list[Any], item: dict[str, Any]) -> Change:
    def change(data: dict[str, Any]) -> None:
        target = data
        for key in step:
            target = target[key]
        target["infractions"] = [item]
    return change


S0 = ["steps", 0]
NINE = r"\['1', '2', '3', '4', '5', '6', '7', '8', '9'\]"
UNKNOWN_FIELD = r"unknown field\(s\) \['colour'\]; known fields are \['code', 'note', " \
                r"'pieces', 'player'\]"
BAD_NAMES = [
    (POOL_9, _declare(S0, {"called_ball": "zz"}),
     rf"steps\[0\]\.declaration\.called_ball must be one of the object balls {NINE}, got 'zz'"),
    (POOL_9, _declare(S0, {"called_ball": "12"}),  # a ball of 8-ball, none of 9-ball
     r"steps\[0\]\.declaration\.called_ball must be one of the object balls \['1', "),
    (POOL_9, _declare(S0, {"called_ball": "9", "called_pocket": "middle"}),
     r"steps\[0\]\.declaration\.called_pocket must be one of the pockets \['head_left', "
     r"'head_right', 'side_left', 'side_right', 'foot_left', 'foot_right'\], got 'middle'"),
    (POOL_9, _declare(S0, {"frozen": {"zz": "foot_rail"}}),
     r"steps\[0\]\.declaration\.frozen must be one of the balls \['cue', '1', "),
    (POOL_9, _declare(S0, {"frozen": {"1": "ceiling"}}),
     r"steps\[0\]\.declaration\.frozen\.1 must be one of the cushions and rails \['head_rail'"),
    (POOL_14, _declare(["shot"], {"jammed": {"5": "corner"}}),
     r"shot\.declaration\.jammed\.5 must be one of the pockets \['head_left', "),
    (FIVE, _declare(S0, {"moved_pins": ["pin_zz"]}),
     r"steps\[0\]\.declaration\.moved_pins\[0\] must be one of the pins \['pin_centre', "),
    (FIVE, _declare(S0, {"in_contact": ["blue"]}),
     r"steps\[0\]\.declaration\.in_contact\[0\] must be one of the balls and rails "
     r"\['white', 'yellow', 'red', 'bottom_rail', "),
    (POOL_14, _infraction(["shot"], {"code": "touched_ball", "pieces": ["5"], "colour": "red"}),
     rf"shot\.infractions\[0\]: {UNKNOWN_FIELD}"),
    (FIVE, _infraction(S0, {"code": "touched_ball", "colour": "red"}),
     rf"steps\[0\]\.infractions\[0\]: {UNKNOWN_FIELD}"),
    (NOVUS, _infraction([], {"code": "touched_piece", "colour": "red"}),
     rf"infractions\[0\]: {UNKNOWN_FIELD}"),
]


@pytest.mark.parametrize(("base", "change", "message"), BAD_NAMES)
def test_a_scenario_naming_what_the_game_has_not_is_refused_at_the_door(
        base: dict[str, Any], change: Change, message: str, tmp_path: Path, capsys: Any) -> None:
    """Wrong: an unknown name was left to the referee, whose message did not say which step
    (or, in a 9-ball scenario, took an 8-ball ball); an infraction's extra field was dropped."""
    data = copy.deepcopy(base)
    change(data)
    with pytest.raises(ScenarioError, match=message):
        adjudicate(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    assert main(["adjudicate", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(path) in err and "Traceback" not in err


def test_the_names_a_game_has_are_still_ruled_on() -> None:
    data = copy.deepcopy(POOL_9)
    _declare(S0, {"push_out": True, "frozen": {"1": "foot"}})(data)
    with pytest.raises(ScenarioError, match=r"frozen: ball '1' is .* mm from 'foot'"):
        adjudicate(data)  # past the door: the referee measures the gap
    assert adjudicate(POOL_9)["steps"]


# -- saved games -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def saves() -> dict[str, dict[str, Any]]:
    """A saved game of each kind after its first shot (a 5-pins lag's choice before it)."""
    out = {}
    for game in ("9-ball", "5-pins", "novus"):
        session = new_session(game, ["Ann", "Bob"])
        while (pending := session.pending()):
            session.choose(pending[2][-1])
        session.play(session.struck_position(), math.pi / 2, 2.0)
        out[game] = json.loads(json.dumps(session.to_dict()))
    return out


def _first_shot(data: dict[str, Any]) -> int:
    return next(k for k, a in enumerate(data["actions"]) if a["kind"] == "shot")


@pytest.mark.parametrize(("game", "field", "value", "expected"), [
    ("9-ball", "declaration", {"called_ball": "zz"},
     f"declaration.called_ball must be one of the object balls {NINE.replace(chr(92), '')}, "
     "got 'zz'"),
    ("9-ball", "declaration", {"called_ball": "1", "called_pocket": "middle"},
     "declaration.called_pocket must be one of the pockets ['head_left', "),
    ("9-ball", "declaration", {"jammed": {"zz": "foot_left"}},
     "declaration.jammed must be one of the balls ['cue', '1', "),
    ("5-pins", "declaration", {"moved_pins": ["pin_zz"]},
     "declaration.moved_pins[0] must be one of the pins ['pin_centre', "),
    ("9-ball", "infractions", [{"code": "touched_ball", "colour": "red"}],
     "infractions[0]: unknown field(s) ['colour']; known fields are ['code', "),
    ("novus", "infractions", [{"code": "touched_piece", "colour": "red"}],
     "infractions[0]: unknown field(s) ['colour']; known fields are ['code', "),
])
def test_a_saved_shot_naming_what_the_game_has_not_is_refused_not_carried_on(
        saves: dict[str, dict[str, Any]], game: str, field: str, value: Any, expected: str,
        tmp_path: Path, capsys: Any) -> None:
    """Wrong: the file loaded, and the replay's refusal became a carry-on note (or the extra
    field of an infraction was dropped)."""
    data = copy.deepcopy(saves[game])
    k = _first_shot(data)
    data["actions"][k][field] = value
    path = tmp_path / "save.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SaveFileError) as caught:
        load_session(path)
    assert str(caught.value).startswith(f"{path}: actions[{k}].{expected}"), str(caught.value)
    assert main(["play", game, "--load", str(path), "--screenshot",
                 str(tmp_path / "s.png")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(path) in err and "Traceback" not in err
