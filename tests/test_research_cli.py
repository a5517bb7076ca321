"""The research options of the command line: `shoot --save`, `--plot`, `--rule`; the readable
`adjudicate`."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from cuesim import ShotResult
from cuesim.cli import main


@pytest.mark.parametrize("suffix", [".json", ".npz"])
def test_shoot_save_writes_a_shot_that_reloads(tmp_path, suffix, capsys):
    path = tmp_path / f"break{suffix}"
    assert main(["shoot", "9-ball", "--speed", "7", "--save", str(path)]) == 0
    result = ShotResult.load(path)
    assert f"{result.n_events} events" in capsys.readouterr().out
    assert result.shot.speed == 7.0


@pytest.mark.parametrize("name, message", [
    ("shot.txt", "--save '.*shot.txt': the name must end in .json or .npz"),
    ("missing/shot.json", "the folder '.*missing' does not exist"),
])
def test_shoot_save_refuses_a_bad_path_before_simulating(tmp_path, name, message, capsys):
    assert main(["shoot", "9-ball", "--speed", "7", "--save", str(tmp_path / name)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert "\n" not in err and err.startswith("cuesim: error: --save")
    assert re.search(message, err)


# -- shoot --rule -------------------------------------------------------------------------------
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("game, extra", [
    ("9-ball", []), ("8-ball", []), ("14.1", []), ("novus", ["--angle", "85"]),
    ("novus-doubles", []), ("5-pins", ["--angle", "60"]),
])
def test_shoot_rule_prints_the_ruling_after_the_summary(game, extra, capsys):
    assert main(["shoot", game, "--speed", "5", "--rule", *extra]) == 0
    out = capsys.readouterr().out.strip().split("\n")
    assert "events," in out[0]
    assert out[-1].startswith("ruling: A legal shot.") or out[-1].startswith("ruling: A foul.")
    assert " plays next" in out[-1]


def test_shoot_rule_json_holds_the_ruling_and_the_next_state(capsys):
    assert main(["shoot", "9-ball", "--speed", "7", "--rule", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["ruling"]) >= {"legal", "violations", "next_player", "placement"}
    assert data["referee_state"]["phase"] == "play" and data["events"][0]["kind"] == "strike"


def test_shoot_rule_from_a_state_file_plays_the_shooter(tmp_path, capsys):
    from cuesim.rulings import referee

    novus = tmp_path / "novus.json"
    novus.write_text(json.dumps({"players": ["Ann", "Bob"], "shooter": "Bob"}))
    assert main(["shoot", "novus", "--speed", "4", "--rule", "--state", str(novus),
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["shot"]["side"] == "north"  # Bob sits north: his side by default
    state = referee("5-pins").state.to_dict()
    other = [p for p in state["players"] if p != state["shooter"]][0]
    state.update(shooter=other, phase="play", placement=None)
    five = tmp_path / "five.json"
    five.write_text(json.dumps(state))
    assert main(["shoot", "5-pins", "--speed", "3", "--angle", "250", "--rule", "--state",
                 str(five), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["shot"]["ball"] == state["balls"][other] == "yellow"


def test_shoot_rule_refuses_a_side_not_the_shooters(tmp_path, capsys):
    """novus 12: the referee refuses a striker placed outside the shooter's own zone before the
    shot, so a shot from another side cannot be ruled on: one line, exit 2, nothing played."""
    assert main(["shoot", "novus-doubles", "--side", "east", "--speed", "6", "--rule"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert "--side east: with --rule the player to shoot, A, plays from the south (novus 12)" \
        in captured.err
    novus = tmp_path / "novus.json"
    novus.write_text(json.dumps({"players": ["Ann", "Bob"], "shooter": "Bob"}))
    assert main(["shoot", "novus", "--side", "north", "--speed", "4", "--rule", "--state",
                 str(novus)]) == 0  # Bob's own side, given
    assert "ruling: " in capsys.readouterr().out


@pytest.mark.parametrize("content, args, message", [
    (None, ["--state", "s.json"], "--state gives the game state to rule from: use it with "
                                  "--rule"),
    ("{oops", ["--rule", "--state", "s.json"], "--state file .*s.json is not valid JSON"),
    ("[1]", ["--rule", "--state", "s.json"], "expected a JSON object"),
    ('{"mood": 1}', ["--rule", "--state", "s.json"], "--state .*s.json: .*unknown field"),
    ('{"mode": "doubles"}', ["--rule", "--state", "s.json"],
     "--state .*s.json: state.mode is 'doubles', but the game is novus: give a singles state, "
     "or play novus-doubles"),
])
def test_shoot_rule_bad_state_is_one_line(tmp_path, content, args, message, capsys):
    if content is not None:
        (tmp_path / "s.json").write_text(content)
    args = [str(tmp_path / a) if a == "s.json" else a for a in args]
    assert main(["shoot", "novus", "--speed", "4", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and re.search(message, err), err


@pytest.mark.parametrize("scenario, game, message", [
    ("pool/straight_pool_third_foul.json", "14.1",
     r"Bob must first choose \(WPA 6.12: accept, rerack\); shoot gives no choice: rule it as "
     r"a scenario's step \(cuesim adjudicate\)"),
    ("pool/eight_ball_break_and_run.json", "8-ball",
     r"the match is over \(won by Ann\): there is no shot to rule on"),
    ("fivepins/game_point_capped.json", "5-pins",
     r"the match is over \(won by Ann\): there is no shot to rule on"),
])
def test_shoot_rule_from_a_state_with_no_shot_to_play_is_refused_before_simulating(
        tmp_path, capsys, monkeypatch, scenario, game, message):
    """The state `cuesim adjudicate` leaves after a scenario, given to `shoot --rule`: a
    choice pending (14.1's third foul, WPA 6.12) or a match over. It was refused only after
    the shot was simulated ("the referee cannot rule on this shot"); now before, as batch
    refuses it, naming the state file."""
    import cuesim.cli as cli

    assert main(["adjudicate", "--json", f"tests/scenarios/{scenario}"]) == 0
    state = tmp_path / "state.json"
    state.write_text(json.dumps(json.loads(capsys.readouterr().out)["state"]))
    monkeypatch.setattr(cli, "simulate", lambda *a, **k: pytest.fail("simulated"))
    assert main(["shoot", game, "--speed", "3", "--rule", "--state", str(state)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and re.search(f"--state {state}: {message}", err), err


def test_shoot_rule_a_novus_state_without_a_mode_is_the_games(tmp_path, capsys):
    """A novus state is every field optional (rules/novus/README.md): one without a mode is
    the game's own, doubles for novus-doubles (a fresh doubles match), where it was the
    singles default and the singles referee refused the doubles layout.
    A doubles state given to novus is refused above, never ruled as singles."""
    state = tmp_path / "s.json"
    state.write_text("{}")
    assert main(["shoot", "novus-doubles", "--speed", "4", "--rule", "--state", str(state),
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["referee_state"]["mode"] == "doubles"
    assert data["referee_state"]["players"] == ["A", "B", "C", "D"]
    assert main(["shoot", "novus-doubles", "--speed", "4", "--rule", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["referee_state"] == data["referee_state"]


@pytest.mark.truncation
def test_a_truncated_shot_is_not_ruled(capsys):
    assert main(["shoot", "9-ball", "--speed", "7", "--rule", "--max-events", "5"]) == 3
    assert capsys.readouterr().out.strip().endswith("ruling: none: a TRUNCATED shot is not "
                                                    "ruled on")


# -- adjudicate in words -------------------------------------------------------------------------
@pytest.mark.parametrize("path, first, article", [
    ("tests/scenarios/pool/nine_ball_push_out.json", "The 9-ball referee rules on 3 steps:",
     "(WPA 5.6)"),
    ("tests/scenarios/pool/straight_pool_rerack.json",
     "The 14.1 continuous referee rules on 1 step:", "(WPA 6.7.6)."),
    ("tests/scenarios/fivepins/opening_foul_and_spot.json", "The 5-pins referee rules on 3 steps:",
     "(WCBS 7.5, 15.3.б)"),  # the violation's own citation and its article, one group
    ("tests/novus_scenarios/opening_miss.json", "The novus referee: A foul.", "(novus 17.1.а)"),
])
def test_adjudicate_prints_the_ruling_in_words(path, first, article, capsys):
    assert main(["adjudicate", str(ROOT / path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(first) and article in out and "{" not in out
    assert main(["adjudicate", str(ROOT / path), "--json"]) == 0
    assert "ruling" in json.dumps(json.loads(capsys.readouterr().out))


def test_a_ruling_on_no_shot_says_no_foul_not_a_legal_shot(tmp_path, capsys):
    """A ruling with no stroke (a choice, an infraction declared between shots) leads with
    'No foul.', not 'A legal shot.': the 9-ball push-out scenario's second step is Ann's
    choice to pass (WPA 5.6), and a novus warning (19.1) declared between shots is no shot."""
    assert main(["adjudicate", str(ROOT / "tests/scenarios/pool/nine_ball_push_out.json")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("1. A legal shot. Bob plays a push-out (WPA 5.6).")
    assert lines[2].startswith("2. No foul. Ann chooses to pass the shot back (WPA 5.6).")
    assert lines[3].startswith("3. A foul.")
    data = json.loads((ROOT / "tests/novus_scenarios/pocket_keeps_turn.json").read_text())
    for key in ("events", "after", "expect"):
        data.pop(key, None)
    data["infractions"] = [{"code": "warning"}]
    path = tmp_path / "warning.json"
    path.write_text(json.dumps(data))
    assert main(["adjudicate", str(path)]) == 0
    assert capsys.readouterr().out.startswith("The novus referee: No foul. Warning to ")


def test_ruling_words_and_dict_round_trip():
    from cuesim.rules.ruling import Ruling, Violation
    from cuesim.rulings import describe_ruling, ruling_from_dict

    r = Ruling(legal=False, violations=[Violation("WPA 6.12", "third consecutive foul")],
               next_player="Bob", placement="kitchen", points={"Ann": -16}, frame_over=True,
               winner="Bob", notes=["re-rack"], spotted=[{"id": "7", "x": 0.1, "y": 0.2,
                                                          "article": "WPA 6.7.6"}])
    assert ruling_from_dict(r.to_dict()) == r
    assert describe_ruling(r.to_dict()) == (
        "A foul. Third consecutive foul (WPA 6.12). Re-rack. Ann loses 16 points. The frame is "
        "over, won by Bob. Bob plays next with the cue ball in hand behind the head string. "
        "The referee puts 7 back at (0.100, 0.200) m (WPA 6.7.6).")


def test_trajectories_without_json_is_refused(capsys):
    """--trajectories only adds to the --json output: alone it would be ignored."""
    assert main(["shoot", "novus", "--speed", "4", "--trajectories"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "use it with --json" in err


def test_first_contact_of_no_piece_of_the_shot_is_an_error():
    from cuesim import NovusShot, novus_table, simulate, start_layout
    from cuesim.sim.errors import SimulationError

    res = simulate(novus_table(), start_layout("novus"),
                   NovusShot(x=0.5, angle=math.pi / 2, speed=4.0))
    assert res.first_contact("striker") is not None
    with pytest.raises(SimulationError, match="'zzz' is no piece of this shot"):
        res.first_contact("zzz")


def test_shoot_rule_refuses_a_ball_the_game_does_not_have_before_simulating(tmp_path, capsys):
    """With --rule the pool referee knows its balls by id: a layout ball '99' in 8-ball is
    refused at once, not after the shot is simulated."""
    from cuesim import start_layout

    data = start_layout("8-ball").to_dict()
    data["pieces"][1]["id"] = "99"
    path = tmp_path / "layout.json"
    path.write_text(json.dumps(data))
    assert main(["shoot", "8-ball", "--speed", "7", "--layout", str(path), "--rule"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "ball '99' is no ball of 8-ball" in captured.err
    assert main(["shoot", "8-ball", "--speed", "7", "--layout", str(path)]) == 0  # no referee


@pytest.mark.parametrize("game,index,field,value,message", [
    ("5-pins", 3, "id", "carom",
     r"piece 'carom' is no piece of 5-pins; its pieces are \['white', "),
    ("novus", 3, "group", "green",
     r"puck 'red3' has group 'green'; this match's pucks are 'red' or 'black' \(state\.colours, "
     r"novus 10\)"),
    ("9-ball", 9, "id", "99", r"ball '99' is no ball of 9-ball"),
])
def test_a_layout_the_referee_cannot_rule_from_is_refused_before_any_shot(
        tmp_path, capsys, monkeypatch, game, index, field, value, message):
    """5-pins 4.1 (the eight pieces by id), novus 10 (the match's two colours), WPA 5.3 (the
    pool balls by id): `shoot --rule` and `batch --ruling` refuse such a --layout before they
    simulate, naming the file. They refused it only after the first shot, as an event log of
    the simulation's own ("events[21].b: unknown piece id") or its initial layout, without
    the file's name. Without a referee the same layout is simulated."""
    import cuesim.cli as cli
    from cuesim import start_layout

    data = start_layout(game).to_dict()
    assert data["pieces"][index][field] != value
    data["pieces"][index][field] = value
    path = tmp_path / "layout.json"
    path.write_text(json.dumps(data))
    shot = ["--speed", "3"] + ([] if game == "novus" else ["--angle", "80"])
    expected = f"--layout {path}: the {game} referee cannot rule on it"
    with monkeypatch.context() as patched:
        patched.setattr(cli, "simulate", lambda *a, **k: pytest.fail("simulated"))
        assert main(["shoot", game, "--layout", str(path), "--rule", *shot]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err and re.search(message, err), err
    out = tmp_path / "out.parquet"
    assert main(["batch", game, "--layout", str(path), "--ruling", "--shots", "3",
                 "--set", "speed=3", "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err and re.search(message, err), err
    assert not out.exists()
    assert main(["shoot", game, "--layout", str(path), *shot]) == 0


def test_a_5_pins_break_of_the_other_player_starts_from_its_own_opening_position(
        tmp_path, capsys, monkeypatch):
    """5-pins 4.1, 4.2: a state where B breaks with the yellow. Without --layout, shoot and
    batch play it from that break's opening position (the yellow in hand on the lag line, the
    white on the top spot), not from the game's start (A's break), which the referee refused
    after simulating. A --layout out of the opening position is refused before the shot,
    naming the file, by shoot and by batch."""
    import cuesim.cli as cli
    from cuesim import start_layout

    state = tmp_path / "state.json"
    state.write_text(json.dumps({"players": ["A", "B"], "shooter": "B", "breaker": "B",
                                 "phase": "break"}))
    assert main(["shoot", "5-pins", "--state", str(state), "--rule", "--speed", "3",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    first = {p["id"]: (p["x"], p["y"]) for p in out["initial"]["pieces"]}
    assert first["white"] == pytest.approx((0.71, 2.74)) and first["yellow"][1] < 1.42
    assert out["events"][0]["a"] == "yellow" and out["ruling"] is not None
    table = tmp_path / "out.parquet"
    assert main(["batch", "5-pins", "--state", str(state), "--ruling", "--shots", "2",
                 "--out", str(table), "--quiet"]) == 0
    import pandas as pd

    rows = pd.read_parquet(table)
    assert (rows["status"] == "simulated").all()
    assert rows["final_x.white"].tolist() == pytest.approx([0.71, 0.71])
    layout = tmp_path / "a_breaks.json"
    layout.write_text(json.dumps(start_layout("5-pins").to_dict()))
    expected = ("the 5-pins referee cannot rule on it (--rule): opening position (5-pins 4.1): "
                "the white ball must stand on the top_spot")
    with monkeypatch.context() as patched:
        patched.setattr(cli, "simulate", lambda *a, **k: pytest.fail("simulated"))
        assert main(["shoot", "5-pins", "--state", str(state), "--rule", "--speed", "3",
                     "--layout", str(layout)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--layout {layout}: {expected}" in err, err
    assert main(["batch", "5-pins", "--state", str(state), "--ruling", "--shots", "2",
                 "--layout", str(layout), "--out", str(tmp_path / "x.parquet"),
                 "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected.replace(" (--rule)", "") in err, err
    assert not (tmp_path / "x.parquet").exists()
