"""The saved-game door (viewer/savefile.py, `play --load`, `load_session`): each value that no
saved game can have is refused with a SaveFileError that starts with the file's name and names
the field's path and what was expected (one line and exit status 2 on the command line), while
the games this version saves, and those whose shots another version's physics replays
differently, still load."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cuesim.cli import main
from cuesim.viewer.ai import choose_shot
from cuesim.viewer.session import SaveFileError, load_session, new_session, session_from_dict

Save = dict[str, Any]
Change = Callable[[Save], None]


def _played(game: str, shots: int = 4) -> tuple[Save, list[str | None]]:
    """A saved game after `shots` actions, each the computer's shot (a few candidates, seeded)
    or a pending choice's last option, through JSON; and where each action's struck piece was
    in hand before it (`Session.placement`; None: played where it lay, or a choice)."""
    session = new_session(game)
    placements: list[str | None] = []
    for n in range(shots):
        if session.over():
            break
        pending = session.pending()
        placements.append(None if pending else session.placement())
        if pending:
            session.choose(pending[2][-1])
        else:
            session.apply(choose_shot(session, n=12, seed=n).action)
    return json.loads(json.dumps(session.to_dict())), placements


@pytest.fixture(scope="module")
def saves() -> dict[str, tuple[Save, list[str | None]]]:
    return {game: _played(game) for game in ("novus", "9-ball", "14.1", "5-pins")}


def _shot_played_where_it_lies(data: Save, placements: list[str | None]) -> int:
    """The index of a shot action whose struck ball was not in hand (its x, y only repeat
    where the ball lay, and the replay does not read them)."""
    for k, action in enumerate(data["actions"]):
        if action["kind"] == "shot" and placements[k] is None:
            return k
    raise AssertionError("every shot was played from hand: play more shots")


def _shot(data: Save, n: int = 0) -> int:
    """The index of the game's `n`-th shot action (a 5-pins game has choices between them)."""
    return [k for k, a in enumerate(data["actions"]) if a["kind"] == "shot"][n]


def _refused(data: Save, path: Path, game: str, field: str, capsys: Any,
             expected: str = "") -> str:
    """The file is refused by load_session and by `cuesim play --load`, in one line that starts
    with the file's name followed by `field` (the path of the field); the message."""
    path.write_text(json.dumps(data))
    with pytest.raises(SaveFileError) as caught:
        load_session(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: {field}"), message
    assert expected in message, message
    assert main(["play", game, "--load", str(path), "--screenshot",
                 str(path.with_suffix(".png"))]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(path) in err and field in err, err
    assert "Traceback" not in err
    return message


def test_the_games_this_version_saves_still_load_and_replay_alike(saves, tmp_path):
    """The checks added at the door refuse nothing a game of this version saves: each loads
    without a note and replays to the same table and referee state."""
    for game, (data, _) in saves.items():
        path = tmp_path / f"{game}.json"
        path.write_text(json.dumps(data))
        session = load_session(path)
        assert session.load_note is None, (game, session.load_note)
        assert session.layout().to_dict() == data["layout"]
        assert session.state_dict() == data["state"]
        assert len(session.actions) == len(data["actions"])


# -- a) the file's own fields ------------------------------------------------------------------
@pytest.mark.parametrize("options", ["", 0, None, [], "sets"])
def test_options_of_the_wrong_type_are_refused(saves, options, tmp_path, capsys):
    """Door: the saved game's `options`. Wrong: `data.get("options") or {}` turned "", 0, null
    and [] into no options, silently; an object is expected (absent is still no options)."""
    data = copy.deepcopy(saves["9-ball"][0])
    data["options"] = options
    _refused(data, tmp_path / "save.json", "9-ball", "options", capsys, "an object")
    del data["options"]
    assert session_from_dict(data, "save.json").load_note is None  # absent: fine


@pytest.mark.parametrize("version", [True, 1.0, "1", None])
def test_a_version_that_is_not_the_integer_1_is_refused(saves, version, tmp_path, capsys):
    """Door: the saved game's `version`. Wrong: `!= 1` let true (True == 1 in Python) and 1.0
    pass as version 1; the whole number 1 is expected (absent is still version 1)."""
    data = copy.deepcopy(saves["9-ball"][0])
    data["version"] = version
    _refused(data, tmp_path / "save.json", "9-ball", "version", capsys, "1")
    del data["version"]
    assert session_from_dict(data, "save.json").load_note is None


@pytest.mark.parametrize(("change", "field", "expected"), [
    (lambda d: d.update(foo=1), "foo", "a saved game's fields are"),
    (lambda d: d.update(computer=["Ann", "Ann"]), "computer", "each once"),
    (lambda d: d["options"].update(games=2), "options", "must be odd"),
])
def test_fields_no_saved_game_has_are_refused(saves, change, field, expected, tmp_path,
                                              capsys):
    """Door: a field this version never writes (it was ignored), a computer player named
    twice (accepted), and a match the referee refuses (5-pins 2: an even number of games gave
    a bare ValueError naming no file) are refused naming the file and the field."""
    data = copy.deepcopy(saves["5-pins"][0])
    change(data)
    _refused(data, tmp_path / "save.json", "5-pins", field, capsys, expected)


# -- b) a shot's values, checked by the shot classes ------------------------------------------
@pytest.mark.parametrize("game", ["novus", "9-ball", "5-pins"])
@pytest.mark.parametrize(("field", "value", "expected"), [
    ("speed", 1e308, "a speed in (0, 15] m/s"),
    ("speed", -2.0, "a speed in (0, 15] m/s"),
    ("angle", 1e30, "an aim within [-6283.2, 6283.2] rad"),
    ("side", 40.0, ""),
])
def test_a_shot_value_no_shot_can_have_is_refused_not_carried_on(saves, game, field, value,
                                                                 expected, tmp_path, capsys):
    """Door: a saved shot's numbers. Wrong: a speed of 1e308 m/s, an aim of 1e30 rad or a tip
    far off the ball passed the door (only 'finite' and 'speed > 0' were checked) and became a
    'cannot be replayed' note, the game carrying on from the saved table as if the file came
    from other physics; the shot classes' own bounds are expected (cuesim.shot)."""
    data = copy.deepcopy(saves[game][0])
    k = _shot(data, 1)
    data["actions"][k][field] = value
    _refused(data, tmp_path / "save.json", game, f"actions[{k}].{field}", capsys, expected)


@pytest.mark.parametrize("game", ["9-ball", "5-pins"])
def test_a_tip_beyond_the_miscue_limit_is_refused(saves, game, tmp_path, capsys):
    """Door: a saved ball shot's tip. Wrong: side 0.45 with height 0.45 (|tip| 0.64 R, past the
    0.5 R miscue limit of cuesim.sim.cue that CueShot plays by) became a carry-on note."""
    data = copy.deepcopy(saves[game][0])
    k = _shot(data, 1)
    data["actions"][k].update(side=0.45, height=0.45)
    _refused(data, tmp_path / "save.json", game, f"actions[{k}].side", capsys, "miscue limit")


@pytest.mark.parametrize(("game", "declaration", "field"), [
    ("9-ball", {"called_ball": True}, "actions[0].declaration.called_ball"),
    ("14.1", {"safety": "yes"}, "actions[0].declaration.safety"),
    ("9-ball", {"called_bal": "1"}, "actions[0].declaration"),
    ("5-pins", {"in_contact": "white"}, "actions[0].declaration.in_contact"),
    ("novus", {"called_ball": "red1"}, "actions[0].declaration"),
])
def test_a_declaration_field_of_the_wrong_type_is_refused(saves, game, declaration, field,
                                                          tmp_path, capsys):
    """Door: a saved shot's declaration. Wrong: `"called_ball": true` (and any field of the
    wrong type) became a carry-on note, and an unknown field (or any in novus, whose shots have
    no declaration) was dropped silently; the game's referee's declaration is expected, as its
    scenario files check it (rules.pool.scenario / rules.fivepins.scenario)."""
    data = copy.deepcopy(saves[game][0])
    k = _shot(data)
    data["actions"][k]["declaration"] = declaration
    _refused(data, tmp_path / "save.json", game, field.replace("[0]", f"[{k}]"), capsys)


def test_a_valid_shot_that_replays_differently_still_carries_on(saves):
    """The carry-on the README keeps for a file from other physics: a shot whose values a shot
    can have but whose replay this version refuses (here the turn went the other way) loads
    from the saved table with a note, not refused."""
    data = copy.deepcopy(saves["9-ball"][0])
    action = data["actions"][_shot(data, 1)]
    action["player"] = next(p for p in data["players"] if p != action["player"])
    session = session_from_dict(data, "save.json")
    assert session.load_note and "carries on from the table" in session.load_note


def test_a_game_carried_on_keeps_its_pieces_kinds_and_groups(saves):
    """The carried-on table is resumed without a replay, so nothing checked its pieces' groups:
    a ball of group 'zz' was carried on. The game's own pieces are the reference."""
    data = copy.deepcopy(saves["9-ball"][0])
    action = data["actions"][_shot(data, 1)]
    action["player"] = next(p for p in data["players"] if p != action["player"])
    data["layout"]["pieces"][0]["group"] = "zz"
    with pytest.raises(SaveFileError, match=r"layout.pieces\[0\].group must be"):
        session_from_dict(data, "save.json")


# -- c) fields the replay does not read ---------------------------------------------------------
@pytest.mark.parametrize("game", ["9-ball", "14.1", "5-pins"])
@pytest.mark.parametrize("field", ["x", "y"])
def test_an_off_table_place_of_a_ball_played_where_it_lies_is_refused(saves, game, field,
                                                                     tmp_path, capsys):
    """Door: a saved shot's x, y when the ball was not in hand. Wrong: the replay plays the
    ball where it lies and never reads them, so 1e308 loaded without a word; a place of the
    struck ball on the game's table is expected (the table's own layout check)."""
    data, placements = saves[game]
    data = copy.deepcopy(data)
    k = _shot_played_where_it_lies(data, placements)
    data["actions"][k][field] = 1e308
    _refused(data, tmp_path / "save.json", game, f"actions[{k}].{field}", capsys,
             "on the table")


def test_a_novus_shot_with_a_height_is_refused(saves, tmp_path, capsys):
    """Door: a saved novus shot's height. Wrong: the striker is struck on its side only, the
    replay ignores `height`, and 1e308 loaded silently; 0 is expected (what the viewer saves)."""
    data = copy.deepcopy(saves["novus"][0])
    data["actions"][0]["height"] = 1e308
    _refused(data, tmp_path / "save.json", "novus", "actions[0].height", capsys, "0")


@pytest.mark.parametrize("game", ["novus", "9-ball", "5-pins"])
@pytest.mark.parametrize(("field", "value"), [("group", "zz"), ("group", ""),
                                               ("kind", "pin")])
def test_a_saved_piece_of_another_group_or_kind_is_refused(saves, game, field, value, tmp_path,
                                                         capsys):
    """Door: the saved `layout`'s pieces. Wrong: a piece's group changed to "zz" loaded
    silently (only the ids and places were compared with the replay); the kind and group the
    game gives that piece are expected."""
    data = copy.deepcopy(saves[game][0])
    piece = data["layout"]["pieces"][0]
    if piece[field] == value:
        pytest.skip("the piece already has that value")
    piece[field] = value
    message = _refused(data, tmp_path / "save.json", game, "layout", capsys)
    assert "pieces[0]" in message or "kind" in message


def test_a_base_layout_with_a_piece_of_another_group_is_refused(saves, tmp_path, capsys):
    """Door: a saved game's `base` (the table it carried on from, resumed without a replay).
    Wrong: its pieces' groups were never compared with the game's (a novus puck of group "zz"
    would be counted for neither colour); the game's own group is expected."""
    data = copy.deepcopy(saves["novus"][0])
    session = session_from_dict(copy.deepcopy(data), "save.json")
    session.resume(session.layout(), data["state"])
    based = json.loads(json.dumps(session.to_dict()))
    session_from_dict(copy.deepcopy(based), "save.json")  # the honest base loads
    based["base"]["layout"]["pieces"][0]["group"] = "zz"
    _refused(based, tmp_path / "save.json", "novus", "base: layout.pieces[0].group", capsys,
             "'red'")


@pytest.mark.parametrize("game", ["novus", "9-ball", "5-pins"])
def test_a_game_resumed_after_its_shots_saves_without_them(saves, game):
    """Session.resume carries on "without the shots that led there": a played game resumed
    from its own table kept its actions, so its save replayed them again from the base, on
    the table they had already been played to (a novus puck pocketed twice over: refused, or
    loaded as another game when the replay happened to fail and carry on)."""
    session = session_from_dict(copy.deepcopy(saves[game][0]), "save.json")
    assert session.actions
    session.resume(session.layout(), saves[game][0]["state"])
    assert session.actions == [] and session.history == []
    again = session_from_dict(json.loads(json.dumps(session.to_dict())), "save.json")
    assert again.layout() == session.layout() and again.load_note is None


@pytest.mark.parametrize(("kind_of", "field"), [("shot", "speeed"), ("shot", "ball"),
                                                 ("choice", "player")])
def test_a_field_an_action_does_not_have_is_refused(saves, kind_of, field, tmp_path, capsys):
    """Door: a saved action's fields. Wrong: a field the action's kind does not have (a typo,
    a field of another game's action) was ignored silently; absent is expected."""
    data = copy.deepcopy(saves["9-ball"][0])
    if kind_of == "shot":
        data["actions"][0][field] = 1.0
        k = 0
    else:
        data["actions"].append({"kind": "choice", "option": "x", field: "Ann"})
        k = len(data["actions"]) - 1
    _refused(data, tmp_path / "save.json", "9-ball", f"actions[{k}].{field}", capsys,
             "absent")


# -- d) every message starts with the file ------------------------------------------------------
@pytest.mark.parametrize("field", ["speed", "player", "x"])
def test_a_missing_action_field_names_the_file(saves, field, tmp_path, capsys):
    """Door: a saved action's required fields. Wrong: "actions[0] (shot) is missing field
    'speed'" did not name the file, unlike every other SaveFileError."""
    data = copy.deepcopy(saves["9-ball"][0])
    del data["actions"][0][field]
    path = tmp_path / "save.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SaveFileError, match=rf"^{path}: actions\[0\] \(shot\) is missing field "
                                            rf"'{field}'$"):
        load_session(path)
    assert main(["play", "9-ball", "--load", str(path), "--screenshot",
                 str(tmp_path / "s.png")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(path) in err and f"'{field}'" in err


def test_an_unprintable_player_name_is_refused_naming_the_file(saves, tmp_path, capsys):
    """Door: the saved game's `players`. Wrong: a name with a terminal escape passed the file's
    checks and the game's own name check then raised a bare ValueError; a printable name is
    expected, named with the file."""
    data = copy.deepcopy(saves["9-ball"][0])
    old, new = data["players"][0], "Ann\x1b[2J"
    data["players"][0] = new
    for action in data["actions"]:
        if action.get("player") == old:
            action["player"] = new
    _refused(data, tmp_path / "save.json", "9-ball", "players[0]", capsys, "printable")
