"""`cuesim play --physics NAME=VALUE`: a game played, by people and by the computer, on those
coefficients of the game's physics; the window says so, the save keeps them, and every door
(the command line, the session's options, a saved game) checks them."""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from cuesim.cli import main  # noqa: E402
from cuesim.viewer.savefile import SaveFileError  # noqa: E402
from cuesim.viewer.session import load_session, new_session  # noqa: E402

CLOTH = {"mu_slide": 0.3, "e_cushion": 0.7}


def test_the_games_shots_are_played_on_them_and_a_save_keeps_them(tmp_path: Path) -> None:
    from cuesim.viewer.app import caption

    game, plain = new_session("9-ball", options={"physics": CLOTH}), new_session("9-ball")
    p = game.table.physics
    assert (p.mu_slide, p.e_cushion) == (0.3, 0.7)
    assert game.table.with_physics(mu_slide=0.2, e_cushion=0.85) == plain.table
    assert caption(game) == "cuesim: 9-ball (mu_slide 0.3, e_cushion 0.7)"
    action = game.shot_action(game.struck_position(), math.pi / 2, 8.0)
    result = game.simulate(action)
    assert result.physics is not None and result.physics["mu_slide"] == 0.3
    assert result.events.tobytes() != plain.simulate(action).events.tobytes()
    game.apply(action)
    game.save(tmp_path / "game.json")
    loaded = load_session(tmp_path / "game.json")
    assert loaded.table == game.table and loaded.layout() == game.layout()
    assert json.loads((tmp_path / "game.json").read_text())["options"]["physics"] == CLOTH


def test_the_panel_names_them(tmp_path: Path) -> None:
    from cuesim.viewer.app import App

    app = App(new_session("novus", options={"physics": {"mu_puck": 0.2}}),
              save_path=tmp_path / "s")
    assert "Physics: mu_puck 0.2" in app.screen_text()
    assert "Physics:" not in App(new_session("novus"), save_path=tmp_path / "s").screen_text()


def test_play_takes_them_on_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "cloth.png"
    assert main(["play", "9-ball", "--vs-computer", "--physics", "mu_slide=0.3", "--physics",
                 "e_cushion=0.7", "--screenshot", str(out)]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("argv, message", [
    (["9-ball", "--physics", "mu=0.3"], r"--physics: BallPhysics has no coefficient 'mu'"),
    (["novus", "--physics", "mu_slide=0.3"], r"--physics: NovusPhysics has no coefficient "),
    (["9-ball", "--physics", "e_ball=1.5"], r"--physics: BallPhysics\.e_ball must be a real "),
    (["9-ball", "--physics", "e_ball"], r"--physics 'e_ball': expected NAME=VALUE"),
    (["9-ball", "--physics", "impact_steps=10", "--impact-steps", "12"],
     r"--impact-steps and --physics impact_steps=\.\.\. both set"),
])
def test_bad_ones_are_one_line(tmp_path: Path, capsys, argv, message: str) -> None:
    assert main(["play", *argv, "--screenshot", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and re.search(message, err), err
    assert not (tmp_path / "x.png").exists()


def test_a_saved_game_keeps_its_own(tmp_path: Path, capsys) -> None:
    new_session("9-ball").save(tmp_path / "game.json")
    assert main(["play", "9-ball", "--load", str(tmp_path / "game.json"), "--physics",
                 "mu_slide=0.3", "--screenshot", str(tmp_path / "x.png")]) == 2
    assert "--physics sets up a new game; a saved game (--load) is replayed with its own " \
        in capsys.readouterr().err


@pytest.mark.parametrize("physics, message", [
    ([0.3], r"options\.physics must be an object of BallPhysics's coefficients by name "
            r"\(mu_slide, "),
    ({}, r"options\.physics must be an object of BallPhysics's coefficients"),
    ({"mu_puck": 0.2}, r"options\.physics must be an object of BallPhysics's coefficients by "
                       r"name \(.*\); 'mu_puck' is none of them"),
    ({"mu_slide": "0.3"}, r"options\.physics must be .*, each a finite number"),
    ({"mu_slide": -1}, r"options\.physics must be .*, each in its range \(BallPhysics\.mu_slide "
                       r"must be"),
])
def test_a_saved_game_and_a_session_check_them(tmp_path: Path, physics, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        new_session("9-ball", options={"physics": physics})
    new_session("9-ball").save(tmp_path / "game.json")
    data = json.loads((tmp_path / "game.json").read_text())
    data["options"]["physics"] = physics
    (tmp_path / "game.json").write_text(json.dumps(data))
    with pytest.raises(SaveFileError, match=r"game\.json: " + message):
        load_session(tmp_path / "game.json")


def test_a_new_game_of_the_sitting_keeps_what_it_has() -> None:
    """The viewer's next game keeps the coefficients its physics has (9-ball after 8-ball),
    none of another's (novus after 9-ball)."""
    from cuesim.viewer.savefile import options_for

    options = {"race_to": 1, "physics": CLOTH}
    assert options_for("8-ball", options) == options
    assert options_for("novus", options) == {"race_to": 1}
