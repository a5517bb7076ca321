"""The CLI and bad input: clear messages naming the problem, never a crash inside numba."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest

from cuesim import CueShot, Layout, NovusShot, Piece, ShotError, simulate
from cuesim.cli import main
from cuesim.sim import SimulationError, run_motion


def test_shoot_prints_a_summary(capsys):
    assert main(["shoot", "novus", "--x", "0.5", "--angle", "90", "--speed", "6"]) == 0
    out = capsys.readouterr().out
    assert "s of simulated time" in out and "striker first touched red" in out
    assert "pocketed:" in out


def test_shoot_json_has_events_and_final_positions(capsys):
    assert main(["shoot", "novus-doubles", "--speed", "4", "--json", "--trajectories"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["events"][0]["kind"] == "strike"
    assert len(data["final"]["pieces"]) + len(data["pocketed"]) == 33
    assert data["segments"][0]["t0"] == 0.0


def test_shoot_from_a_layout_file(tmp_path, capsys):
    path = tmp_path / "lay.json"
    Layout("novus", (Piece("a", "puck", 0.5, 0.5, "red"),)).save(path)
    assert main(["shoot", "novus", "--speed", "3", "--layout", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    first = [e for e in data["events"] if e["kind"] == "collide"][0]
    assert {first["a"], first["b"]} == {"a", "striker"}


def test_layout_command_round_trips(capsys):
    assert main(["layout", "novus"]) == 0
    lay = Layout.from_dict(json.loads(capsys.readouterr().out))
    assert len(lay) == 17


def test_a_built_in_command_leaves_the_other_commands_modules_unimported():
    """`cuesim shoot` (the main job) and `cuesim layout` import neither the batch nor the
    viewer code the other commands need; `cuesim --help` still lists every command."""
    import subprocess
    import sys

    probe = ("import sys; from cuesim.cli import main; main(sys.argv[1:]); "
             "print(sorted(m for m in sys.modules if m.startswith(('cuesim.batch', "
             "'cuesim.viewer', 'cuesim.commands.'))), file=sys.stderr)")
    for argv in (["layout", "novus"], ["shoot", "novus", "--speed", "3"]):
        done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True,
                              text=True)
        assert done.returncode == 0, done.stderr
        assert done.stderr.strip().splitlines()[-1] == "[]"
    done = subprocess.run([sys.executable, "-m", "cuesim.cli", "--help"], capture_output=True,
                          text=True)
    assert done.returncode == 0
    assert "{shoot,layout,adjudicate,batch,bench,play,show}" in done.stdout


def test_the_command_exits_with_mains_status_and_its_output_whole():
    """`python -m cuesim` (and the `cuesim` script) is `cli.run`: main's status, then an exit
    whose final collections skip what the process made (gc.freeze); its output is whole."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "cuesim", "layout", "novus"],
                          capture_output=True, text=True)
    assert done.returncode == 0
    assert len(Layout.from_dict(json.loads(done.stdout))) == 17
    done = subprocess.run([sys.executable, "-m", "cuesim", "shoot", "novus", "--speed", "-1"],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.startswith("cuesim: error: ") and "speed must be positive" in done.stderr


@pytest.mark.parametrize("argv, message", [
    (["shoot", "novus", "--x", "0.05", "--speed", "3"], "novus 12: the striker"),
    (["shoot", "novus", "--speed", "-1"], "speed must be positive"),
    (["shoot", "pool", "--speed", "3"], "unknown game 'pool'"),
    (["shoot", "novus", "--speed", "3", "--layout", "/nonexistent.json"], "cannot read"),
    (["shoot", "novus", "--speed", "3", "--offset", "0.03"], "misses the striker"),
    (["shoot", "9-ball", "--speed", "3", "--x", "0.6"], "give both --x and --y"),
    (["shoot", "9-ball", "--speed", "3", "--y", "0.4"], "give both --x and --y"),
    (["shoot", "9-ball", "--speed", "3", "--impact-steps", "1"],
     "--impact-steps: BallPhysics.impact_steps must be a real number in [2, 320]"),
])
def test_cli_errors_are_one_clear_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("cuesim: error: ") and message in err


def test_shoot_at_another_impact_resolution(capsys):
    """--impact-steps: the shot simulated with that multiple-impact resolution (README,
    "Python API"): another result, the same pucks pocketed (in another order: the opening's
    pucks reach the holes a little sooner or later)."""
    assert main(["shoot", "novus", "--speed", "6", "--json"]) == 0
    default = json.loads(capsys.readouterr().out)
    assert main(["shoot", "novus", "--speed", "6", "--json", "--impact-steps", "40"]) == 0
    finer = json.loads(capsys.readouterr().out)
    assert finer != default
    assert sorted(finer["pocketed"]) == sorted(default["pocketed"])


def test_cli_rejects_nan_before_anything_runs(capsys):
    with pytest.raises(SystemExit):
        main(["shoot", "novus", "--speed", "nan"])
    assert "not a finite number" in capsys.readouterr().err


def test_corrupt_layout_file_is_named(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text('{"table": "novus", "pieces": [')
    assert main(["shoot", "novus", "--speed", "3", "--layout", str(path)]) == 2
    assert "is not valid JSON" in capsys.readouterr().err


@pytest.mark.parametrize("kwargs, message", [
    ({"speed": math.nan}, "must be a finite number"),
    ({"speed": 0.0}, "must be positive"),
    ({"speed": 100.0}, "beyond what a cue gives"),
    ({"speed": 3.0, "side": "up"}, "unknown side"),
    ({"speed": 3.0, "side": None}, "unknown side"),
])
def test_impossible_novus_shots_are_refused_when_made(kwargs, message):
    with pytest.raises(ShotError, match=message):
        NovusShot(**{"x": 0.5, "angle": 1.0, **kwargs})


@pytest.mark.parametrize("kwargs, message", [
    ({"speed": 3.0, "x": 0.95}, "outside the south player's zone"),
    ({"speed": 3.0, "y": 0.2}, "outside the south player's zone"),
    ({"speed": 3.0, "offset": 0.03}, "misses the striker"),
])
def test_bad_shots_article_12(table, singles, kwargs, message):
    shot = NovusShot(**{"x": 0.5, "angle": 1.0, **kwargs})
    with pytest.raises(ShotError, match=message):
        simulate(table, singles, shot)


def test_striker_touching_a_puck_is_refused_article_12(table):
    lay = Layout("novus", (Piece("a", "puck", 0.5, 0.1, "red"),))
    with pytest.raises(ShotError, match="novus 12: the striker .* touches 'a'"):
        simulate(table, lay, NovusShot(x=0.5, angle=1.0, speed=2.0))


@pytest.mark.parametrize("gap, refused", [(0.0, True), (0.5e-6, True), (2e-6, False)])
def test_striker_within_a_micron_of_a_puck_touches_it_article_12(table, gap, refused):
    """novus 12: the simulator refuses to place the striker closer to a puck than
    STRIKER_TOUCH_GAP, the gap the referee counts as touching (17.1.л), so a shot it plays
    is never ruled 17.1.л for a placement the simulator made."""
    from cuesim.rules.novus import NovusGame

    striker_r = table.piece_spec("striker").radius
    y = NovusShot(x=0.5, angle=1.0, speed=2.0).striker_position(table)[1]
    lay = Layout("novus", (Piece("a", "puck", 0.5, y + striker_r + 0.015 + gap, "red"),))
    shot = NovusShot(x=0.5, angle=1.0, speed=2.0)
    if refused:
        with pytest.raises(ShotError, match="touches 'a'"):
            simulate(table, lay, shot)
    else:
        placed = shot.place(table, lay)
        assert NovusGame.placement_touch(placed) == []


@pytest.mark.parametrize("kind", ["puck", "True", "{}"])
def test_a_layouts_striker_of_another_kind_is_refused(table, singles, kind):
    """The shot strikes the piece 'striker': one of another kind (a layout file's `"kind":
    true` reads as 'True') is refused by name, not played as an unknown kind."""
    lay = singles.without(["striker"]).with_piece(Piece("striker", kind, 0.5, 0.07))
    with pytest.raises(ShotError, match=f"piece 'striker' is of kind '{re.escape(kind)}'"):
        simulate(table, lay, NovusShot(x=0.5, angle=1.0, speed=2.0))


@pytest.mark.parametrize("position", [(0.5,), "ab", (0.6, 0.6, 0.6), (0.6, None),
                                      (math.nan, 0.6), (True, 0.6)])
def test_a_cue_shots_malformed_position_is_refused_by_name(position):
    """Ball in hand: CueShot.position is None or (x, y) of finite numbers; anything else is a
    ShotError naming the field (from_dict checks a file's; this is the constructor's door)."""
    with pytest.raises(ShotError, match="shot position must be None or"):
        CueShot(angle=1.5, speed=5.0, position=position)


def test_a_cue_shots_position_may_be_a_numpy_pair():
    from cuesim.tables import cue_ball_in_kitchen, nine_ball_rack, pool_table

    table = pool_table()
    rack = nine_ball_rack(table, cue=cue_ball_in_kitchen(table))
    here = rack.get("cue")
    a = simulate(table, rack, CueShot(angle=1.5, speed=5.0, position=np.array([here.x, 0.4])))
    b = simulate(table, rack, CueShot(angle=1.5, speed=5.0, position=(here.x, 0.4)))
    assert a.n_events == b.n_events and a.final == b.final


def test_overlapping_layout_never_reaches_the_core(table):
    lay = Layout("novus", (Piece("a", "puck", 0.5, 0.5), Piece("b", "puck", 0.51, 0.5)))
    with pytest.raises(ShotError, match="overlap"):
        simulate(table, lay, NovusShot(x=0.5, angle=1.0, speed=2.0))


def test_run_motion_rejects_non_finite_velocity_and_unknown_ids(table):
    lay = Layout("novus", (Piece("a", "puck", 0.5, 0.5),))
    with pytest.raises(SimulationError, match="not finite"):
        run_motion(table, lay, {"a": (math.inf, 0.0, 0.0)})
    with pytest.raises(SimulationError, match="no piece 'b'"):
        run_motion(table, lay, {"b": (1.0, 0.0, 0.0)})


@pytest.mark.parametrize("path, game", [
    ("tests/novus_scenarios/pocket_keeps_turn.json", None),
    ("tests/scenarios/pool/nine_ball_push_out.json", "nine_ball"),
])
def test_adjudicate_rules_on_scenario_files_of_each_game(path, game, capsys):
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    assert main(["adjudicate", str(root / path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    if game is None:
        assert "ruling" in out and "articles" not in out
    else:
        assert out["game"] == game and out["steps"]


@pytest.mark.parametrize("content, message", [
    ("{oops", "is not valid JSON"),
    ('{"game": "snooker"}', "unknown game 'snooker'"),
    ('[1, 2]', "must be a JSON object"),
])
def test_adjudicate_bad_scenarios_get_one_clear_line(tmp_path, content, message, capsys):
    path = tmp_path / "s.json"
    path.write_text(content)
    assert main(["adjudicate", str(path)]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("game, extra, first", [
    ("9-ball", [], "cue first touched 1"),
    ("8-ball", ["--x", "0.5", "--y", "0.5", "--angle", "80"], "cue first touched"),
    ("14.1", ["--height", "-0.3"], "cue first touched"),
    ("5-pins", ["--angle", "60"], "white first touched"),
    ("9-ball", ["--x", "0.5", "--y", "1.0"], "cue first touched the foot rail at"),
    ("5-pins", ["--angle", "0"], "white first touched the right rail at"),
    ("novus", ["--angle", "10"], "striker first touched the east rail at"),
])
def test_shoot_ball_games(game, extra, first, capsys):
    assert main(["shoot", game, "--speed", "5", *extra]) == 0
    assert first in capsys.readouterr().out


def test_shoot_ball_games_refuse_a_miscue_and_half_a_placement(capsys):
    assert main(["shoot", "9-ball", "--speed", "5", "--english", "0.5", "--height", "0.3"]) == 2
    assert "miscue limit" in capsys.readouterr().err
    assert main(["shoot", "9-ball", "--speed", "5", "--x", "0.5"]) == 2
    assert "both --x and --y" in capsys.readouterr().err


def test_output_into_a_closed_pipe_ends_quietly():
    """`cuesim shoot ... | head -1`: the reader stops reading; cuesim ends as a SIGPIPE would
    (status 141), without an error line (the reader here is gone before the first write)."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "cuesim", "shoot", "novus", "--x", "0.5",
                             "--angle", "90", "--speed", "6"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait() == 141, err
    assert err == ""


@pytest.mark.parametrize("x", [1e308, -1e300, 3.5e7])
def test_a_huge_coordinate_is_named_in_a_short_line(tmp_path, capsys, x):
    """A layout file's piece at x = 1e308 is refused in one readable line (4 significant
    digits), not with the 300 digits of its fixed-point form."""
    path = tmp_path / "far.json"
    path.write_text(json.dumps({"table": "novus", "pieces": [
        {"id": "striker", "kind": "striker", "x": 0.5, "y": 0.07},
        {"id": "r1", "kind": "puck", "group": "red", "x": x, "y": 0.5}]}))
    assert main(["shoot", "novus", "--speed", "3", "--layout", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and len(err) < 250 and f"{x:.4g}" in err
