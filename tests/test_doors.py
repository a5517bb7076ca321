"""Doors that refused too little: huge integers, names of the wrong type, an output over its own
input, options of another game, a saved game under another game's name, argparse's usage
block. Each gives an exception or one line on stderr with exit status 2 naming what is wrong."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from cuesim import CueShot, Layout, NovusShot, Piece, ShotError, novus_table, simulate, start_layout
from cuesim.cli import main
from cuesim.sim import SimulationError
from cuesim.tables.layout import LayoutError


def _error(capsys, args: list[str]) -> str:
    """Run the CLI, expecting exit status 2 and one line on stderr; that line."""
    try:
        code = main(args)
    except SystemExit as stop:
        code = stop.code
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def _layout_file(tmp_path, pieces, table="novus", name="lay.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"table": table, "pieces": pieces}))
    return path


RED = {"id": "red1", "kind": "puck", "group": "red", "x": 0.5, "y": 0.5}


@pytest.mark.parametrize("digits", [401, 5001])
def test_json_integer_too_large_for_a_float_is_refused_naming_the_file(tmp_path, capsys,
                                                                        digits):
    """A 401-digit integer overflowed wherever it was used (OverflowError, a traceback); one of
    5,001 digits hit Python's own limit with a message naming neither file nor field."""
    path = tmp_path / "big.json"
    path.write_text('{"table": "novus", "pieces": [{"id": "red1", "kind": "puck", "x": 1'
                    + "0" * (digits - 1) + ', "y": 0.5}]}')
    err = _error(capsys, ["shoot", "novus", "--speed", "3", "--layout", str(path)])
    assert str(path) in err and "too large" in err
    with pytest.raises(LayoutError, match="too large"):
        Layout.load(path)


def test_json_field_given_twice_is_refused(tmp_path):
    """{"x": 0.1, "x": 0.9} kept the last value silently; which one a reader keeps is not
    defined by JSON."""
    path = tmp_path / "dup.json"
    path.write_text('{"table": "novus", "pieces": [{"id": "red1", "kind": "puck", "x": 0.1, '
                    '"x": 0.9, "y": 0.5}]}')
    with pytest.raises(LayoutError, match=f"{path}: the field 'x' is given twice"):
        Layout.load(path)


def test_api_integers_too_large_for_a_float_are_refused():
    """Python ints past the largest float: the door's own error, not OverflowError."""
    with pytest.raises(ShotError, match="angle must be a finite number"):
        NovusShot(x=0.5, angle=10**400, speed=2.0)
    with pytest.raises(ShotError, match="speed must be a finite number"):
        CueShot(angle=0.0, speed=10**400)
    with pytest.raises(LayoutError, match="non-finite position"):
        Layout("novus", (Piece("a", "puck", 10**400, 0.5, "red"),))


def test_aim_angles_past_a_thousand_turns_are_refused():
    """A float of 1e300 rad has no fractional turn left: the direction would be rounding's
    accident. A thousand turns either way is accepted; a shot a turn apart is the same shot."""
    for make in (lambda a: NovusShot(x=0.5, angle=a, speed=2.0),
                 lambda a: CueShot(angle=a, speed=2.0)):
        for angle in (1e300, -1e300, 2001 * math.pi):
            with pytest.raises(ShotError, match="more than a thousand turns"):
                make(angle)
        assert make(-2000 * math.pi).angle == -2000 * math.pi
    table = novus_table()
    layout = start_layout("novus", table)
    once, again = (simulate(table, layout, NovusShot(x=0.5, angle=a, speed=4.0))
                   for a in (1.4, 1.4 + 2 * math.pi))
    assert np.allclose(once.final_positions, again.final_positions, atol=1e-9)


def test_positions_at_wants_a_number_of_seconds():
    from cuesim import novus_table, simulate

    result = simulate(novus_table(), start_layout("novus"), NovusShot(x=0.5, angle=1.6,
                                                                      speed=2.0))
    for bad in ("1", None, True, 10**400, float("nan"), -1.0):
        with pytest.raises(SimulationError, match="positions_at needs"):
            result.positions_at(bad)
    assert result.positions_at(0)[0].shape == (len(result.initial), 2)


@pytest.mark.parametrize("field, value, message", [
    ("id", 7, "pieces[0].id must be a non-empty string"),
    ("id", [1, 2], "pieces[0].id must be a non-empty string"),
    ("id", "", "pieces[0].id must be a non-empty string"),
    ("id", "red\n1", "pieces[0].id must be a non-empty string of printable characters"),
    ("kind", 3, "pieces[0].kind must be a non-empty string"),
    ("group", "a\x00", "pieces[0].group must be a string of printable characters"),
])
def test_layout_file_names_are_strings_not_converted(tmp_path, field, value, message):
    """A layout file's id 7 became the piece '7' and [1, 2] the piece '[1, 2]' (the Python
    constructor refuses both); empty names and control characters went into rulings and CSVs."""
    path = _layout_file(tmp_path, [dict(RED, **{field: value})])
    with pytest.raises(LayoutError, match=message.replace("[", r"\[").replace("]", r"\]")):
        Layout.load(path)


@pytest.mark.parametrize("table", [5, ["novus"], ""])
def test_layout_file_table_must_be_a_name(tmp_path, table):
    with pytest.raises(LayoutError, match="'table' must be a table name"):
        Layout.load(_layout_file(tmp_path, [RED], table=table))


def test_shoot_layout_checked_against_the_game_naming_the_file(tmp_path, capsys):
    """`shoot 9-ball --layout novus.json` said "no ball 'cue' on the table"; pieces off the
    board or overlapping were named without the file."""
    novus = tmp_path / "novus.json"
    start_layout("novus").save(novus)
    err = _error(capsys, ["shoot", "9-ball", "--speed", "3", "--layout", str(novus)])
    assert f"--layout {novus}: layout is for table 'novus', not 'pool_9ft'" in err
    off = _layout_file(tmp_path, [dict(RED, x=2.0)], name="off.json")
    err = _error(capsys, ["shoot", "novus", "--speed", "3", "--layout", str(off)])
    assert f"--layout {off}: piece 'red1'" in err and "not wholly on the board" in err


@pytest.mark.parametrize("game, struck", [("9-ball", "cue"), ("5-pins", "white")])
def test_shoot_layout_without_the_struck_ball_names_the_file(tmp_path, capsys, game, struck):
    """A layout file without the ball to strike said only "no ball 'cue' on the table": it now
    names the file and the ways on. --x and --y put a missing cue ball down (ball in hand, as
    after a scratch: CueShot.place), so they are the first way on."""
    path = tmp_path / "no_cue.json"
    start_layout(game).without([struck]).save(path)
    err = _error(capsys, ["shoot", game, "--speed", "3", "--layout", str(path)])
    assert f"--layout {path}: no ball {struck!r} in it (its balls: " in err
    assert "give --x and --y to put it down (ball in hand), add it to the file, or strike " \
           "another with --ball" in err
    assert main(["shoot", game, "--speed", "3", "--angle", "60", "--layout", str(path),
                 "--x", "0.3", "--y", "0.4"]) == 0
    assert f"{struck} first touched" in capsys.readouterr().out


def test_shoot_layout_without_a_struck_object_ball_names_the_file(tmp_path, capsys):
    """Only a cue ball is put down from hand: a missing object ball to strike is named, with
    --x and --y too."""
    path = tmp_path / "no_one.json"
    start_layout("9-ball").without(["1"]).save(path)
    for place in ([], ["--x", "0.3", "--y", "0.4"]):
        err = _error(capsys, ["shoot", "9-ball", "--speed", "3", "--ball", "1", "--layout",
                              str(path), *place])
        assert f"--layout {path}: no ball '1' in it (its balls: " in err
        assert "add it to the file (--x and --y then place it in hand)" in err


def test_novus_layout_has_one_striker(tmp_path, capsys):
    """novus 26.1: one striker. A second piece of kind 'striker' was simulated and ruled on."""
    two = start_layout("novus").with_piece(Piece("striker2", "striker", 0.2, 0.5))
    with pytest.raises(LayoutError, match="at most one striker"):
        novus_table().check_layout(two)
    path = tmp_path / "two.json"
    two.save(path)
    err = _error(capsys, ["shoot", "novus", "--speed", "3", "--layout", str(path)])
    assert "'striker2' is a second striker" in err
    with pytest.raises(ShotError, match="one striker"):
        NovusShot(x=0.5, angle=1.6, speed=2.0).place(novus_table(), two)


def test_a_novus_piece_named_striker_is_not_dropped(tmp_path, capsys):
    """A puck with the id 'striker' was deleted without a word (the shot places the striker
    under that id) and the shot simulated on a board without it; the API refused it already."""
    path = _layout_file(tmp_path, [dict(RED, id="striker")], name="named.json")
    err = _error(capsys, ["shoot", "novus", "--speed", "3", "--layout", str(path)])
    assert f"--layout {path}: piece 'striker' is a puck" in err


def test_shoot_places_no_ball_by_hand_that_the_state_has_not_in_hand(tmp_path, capsys):
    """`shoot --rule --state` with no ball in hand ("ball_in_hand": null) still let --x/--y
    move the cue ball, and the ruling never said so (a shot that cannot have happened)."""
    state = tmp_path / "st.json"
    state.write_text(json.dumps({"game": "nine_ball", "players": ["A", "B"], "shooter": "B",
                                 "breaker": "A", "phase": "play", "ball_in_hand": None}))
    err = _error(capsys, ["shoot", "9-ball", "--speed", "4", "--x", "0.5", "--y", "1.5",
                          "--rule", "--state", str(state)])
    assert "--x/--y place the ball in hand" in err
    # the break's ball in hand behind the head string is placed as before
    assert main(["shoot", "9-ball", "--speed", "4", "--x", "0.5", "--y", "0.4", "--rule"]) == 0


@pytest.mark.parametrize("option", ["--save", "--plot"])
def test_shoot_output_over_its_own_input_is_refused(tmp_path, capsys, option):
    """`shoot --layout a.json --save a.json` replaced the layout with the shot: data lost."""
    path = tmp_path / ("lay.json" if option == "--save" else "lay.png")
    if option == "--plot":
        pytest.importorskip("matplotlib")
    start_layout("novus").save(path)
    before = path.read_bytes()
    args = ["shoot", "novus", "--speed", "3", "--layout", str(path), option,
            str(tmp_path / "." / path.name)]
    err = _error(capsys, args)
    assert "is the --layout file" in err
    assert path.read_bytes() == before


def test_shoot_outputs_on_one_path_are_refused(tmp_path, capsys):
    """`shoot --plot x.gif --gif x.gif` wrote the animation over the plot and said nothing:
    one output lost. Two outputs on one path are refused before the shot."""
    pytest.importorskip("matplotlib")
    path = tmp_path / "both.gif"
    err = _error(capsys, ["shoot", "novus", "--speed", "3", "--plot", str(path), "--gif",
                          str(tmp_path / "." / "both.gif")])
    assert "--plot and --gif name one file" in err and not path.exists()


def test_play_screenshot_over_the_saved_game_is_refused(tmp_path, capsys, monkeypatch):
    """`play --load game.png --screenshot game.png` replaced the saved game with the picture
    (a saved game whose name ends in .png); so would --save. Refused, the game kept."""
    from cuesim.viewer.session import new_session

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    saved = tmp_path / "game.png"
    new_session("9-ball").save(saved)
    before = saved.read_bytes()
    for opt in ("--load", "--save"):
        err = _error(capsys, ["play", "9-ball", opt, str(saved), "--screenshot",
                              str(tmp_path / "." / "game.png")])
        assert f"is the {opt} file" in err and "would replace the saved game" in err
        assert saved.read_bytes() == before


@pytest.mark.parametrize("args, option", [
    (["novus", "--english", "0.2"], "--english is an option of ball games, not of novus"),
    (["novus-doubles", "--ball", "cue"], "--ball is an option of ball games"),
    (["novus", "--elevation", "5"], "--elevation is an option of ball games"),
    (["9-ball", "--offset", "0.01"], "--offset is an option of novus, not of 9-ball"),
    (["5-pins", "--side", "north"], "--side is an option of novus, not of 5-pins"),
    (["novus", "--end-mass", "3"], "--end-mass is an option of ball games, not of novus"),
    (["9-ball", "--end-mass", "600"], "--end-mass must lie in [0, 540] grams"),
    (["9-ball", "--end-mass", "-1"], "--end-mass must lie in [0, 540] grams"),
])
def test_shoot_refuses_the_other_family_s_options(capsys, args, option):
    """They were ignored: a novus shot 'with English' was played without it."""
    err = _error(capsys, ["shoot", *args, "--speed", "3"])
    assert option in err


@pytest.mark.parametrize("args, message", [
    (["shoot", "novus", "--speed", "abc"], "argument --speed: 'abc' is not a number"),
    (["shoot", "novus"], "the following arguments are required: --speed"),
    (["shoot", "novus", "--speed", "3", "--angle", "1e300"],
     "argument --angle: '1e300' degrees is more than a thousand turns"),
    (["batch", "9-ball", "--seed", "1e3"], "argument --seed"),
    (["play", "9-ball", "--race-to", "0"], "argument --race-to"),
    # a race to 10**30 was taken: a match that never ends (the env refused beyond 1000)
    (["play", "9-ball", "--race-to", "1000001"], "'1000001' must be at most 1000"),
    (["play", "9-ball", "--vs-computer", "--candidates", "10000000"],
     "'10000000' must be at most 100000"),
])
def test_argument_errors_are_one_line(capsys, args, message):
    """argparse printed its usage block (7-10 lines) above the message."""
    err = _error(capsys, args)
    assert message in err and f"(see cuesim {args[0]} --help)" in err


@pytest.mark.parametrize("args, message", [
    (["9-ball", "--sets", "3"], "--sets is an option of novus, novus-doubles, not of 9-ball"),
    (["novus", "--race-to", "2"], "--race-to is an option of 8-ball, 9-ball, 14.1"),
    (["novus", "--points-to", "5"], "--points-to is an option of 14.1, 5-pins"),
    (["9-ball", "--games", "3"], "--games is an option of 5-pins, not of 9-ball"),
    (["5-pins", "--games", "2"], "--games must be odd (WCBS 2"),
])
def test_play_refuses_options_the_game_does_not_have(tmp_path, capsys, args, message):
    err = _error(capsys, ["play", *args, "--screenshot", str(tmp_path / "x.png")])
    assert message in err
    assert not (tmp_path / "x.png").exists()


def test_play_sets_the_number_of_5_pins_games(tmp_path, monkeypatch):
    """The env's `games` option (5-pins) was said to be "as in cuesim play", which had no such
    option: a match of 3 games, played from the window's session."""
    from cuesim.viewer import session

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    seen = {}
    real = session.new_session

    def spy(game, players, computer, options):
        seen.update(options)
        return real(game, players, computer, options)

    monkeypatch.setattr(session, "new_session", spy)
    assert main(["play", "5-pins", "--games", "3", "--screenshot",
                 str(tmp_path / "x.png")]) == 0
    assert seen["games"] == 3


def test_play_load_keeps_the_saved_game_and_refuses_new_game_options(tmp_path, capsys,
                                                                      monkeypatch):
    """`play novus --load nine_ball.json` played the 9-ball game; --players, --race-to,
    --vs-computer and the others were ignored with --load."""
    from cuesim.viewer.session import new_session

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    saved = tmp_path / "nine.json"
    new_session("9-ball").save(saved)
    shot = str(tmp_path / "x.png")
    err = _error(capsys, ["play", "novus", "--load", str(saved), "--screenshot", shot])
    assert "the saved game is 9-ball, not novus" in err
    for extra in (["--players", "A", "B"], ["--race-to", "3"], ["--vs-computer"]):
        err = _error(capsys, ["play", "9-ball", "--load", str(saved), *extra,
                              "--screenshot", shot])
        assert "sets up a new game" in err, extra
    assert main(["play", "9-ball", "--load", str(saved), "--screenshot", shot]) == 0


def test_play_save_is_checked_before_the_game(tmp_path, capsys):
    """--save into a folder that does not exist was found only at the first F5."""
    err = _error(capsys, ["play", "novus", "--save", str(tmp_path / "no" / "s.json"),
                          "--screenshot", str(tmp_path / "x.png")])
    assert "--save" in err and "does not exist" in err


def test_batch_params_binary_or_folder(tmp_path, capsys):
    """A binary CSV gave "'utf-8' codec can't decode ..." naming no file; a folder was
    reported as missing."""
    binary = tmp_path / "shots.csv"
    binary.write_bytes(bytes(range(256)))
    out = str(tmp_path / "o.npz")
    err = _error(capsys, ["batch", "9-ball", "--params", str(binary), "--out", out])
    assert f"parameter file '{binary}' is not UTF-8 text" in err
    folder = tmp_path / "dir.csv"
    folder.mkdir()
    err = _error(capsys, ["batch", "9-ball", "--params", str(folder), "--out", out])
    assert "is a folder" in err
