"""`cuesim play`: the opening screen of every game saved with --screenshot (headless), a clear
message without a display, and loading a saved game."""

from __future__ import annotations

import json
import math
import re

import pygame
import pytest

from cuesim.cli import main
from cuesim.viewer.session import SESSION_GAMES, new_session


@pytest.mark.parametrize("game", SESSION_GAMES)
def test_screenshot_of_the_opening_screen_is_written(tmp_path, game, capsys):
    out = tmp_path / f"{game}.png"
    assert main(["play", game, "--screenshot", str(out)]) == 0
    assert out.exists() and out.stat().st_size > 2000
    image = pygame.image.load(str(out))
    assert image.get_size() == (1200, 760)
    assert "saved" in capsys.readouterr().out


def test_screenshot_shows_the_table_colours(tmp_path):
    out = tmp_path / "novus.png"
    assert main(["play", "novus", "--screenshot", str(out)]) == 0
    image = pygame.image.load(str(out))
    # the middle of the board (off the centre circle's line) is the lacquered board colour
    assert image.get_at((300, 300))[:3] == (214, 186, 140)


def test_without_a_display_the_message_names_the_headless_alternatives(monkeypatch, capsys):
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    assert main(["play", "9-ball"]) == 2
    err = capsys.readouterr().err
    assert "no display" in err and "--screenshot" in err and "Traceback" not in err


def test_unknown_game_is_a_one_line_error(capsys):
    assert main(["play", "snooker", "--screenshot", "x.png"]) == 2
    assert "unknown game 'snooker'" in capsys.readouterr().err


def test_load_a_saved_game_and_screenshot_it(tmp_path):
    s = new_session("novus")
    s.play(s.struck_position(), math.pi / 2, 3.0)
    path = tmp_path / "game.json"
    s.save(path)
    out = tmp_path / "loaded.png"
    assert main(["play", "novus", "--load", str(path), "--screenshot", str(out)]) == 0
    assert out.exists()


def test_vs_computer_names_the_computer_on_the_screen(tmp_path):
    out = tmp_path / "vs.png"
    assert main(["play", "8-ball", "--vs-computer", "--screenshot", str(out)]) == 0
    assert out.exists()


# -- the multiple impact's resolution (issue 16: `impact_steps` at every door) ----------------
def test_impact_steps_set_the_games_physics_and_survive_a_save(tmp_path):
    """`cuesim play --impact-steps N` plays the game's shots (and the computer's trials, which
    simulate through the same session) at that resolution; the save keeps it, so a loaded game
    replays the same shots."""
    from cuesim.viewer.app import caption
    from cuesim.viewer.session import load_session

    coarse, default = new_session("9-ball", options={"impact_steps": 10.0}), new_session("9-ball")
    assert coarse.table.physics.impact_steps == 10.0
    assert coarse.table.with_physics(impact_steps=20.0) == default.table
    assert caption(coarse) == "cuesim: 9-ball (impact steps 10)"
    assert caption(default) == "cuesim: 9-ball"
    action = coarse.shot_action(coarse.struck_position(), math.pi / 2, 8.0)
    a, b = coarse.simulate(action), default.simulate(action)
    assert not (a.segments.shape == b.segments.shape and (a.segments == b.segments).all()), \
        "the break at 10 steps is another shot than at 20"
    coarse.apply(action)
    path = tmp_path / "game.json"
    coarse.save(path)
    loaded = load_session(path)
    assert loaded.table.physics.impact_steps == 10.0
    assert loaded.layout() == coarse.layout()


def test_impact_steps_on_the_command_line(tmp_path, capsys):
    out = tmp_path / "coarse.png"
    assert main(["play", "novus", "--impact-steps", "12.5", "--screenshot", str(out)]) == 0
    assert out.exists()
    from cuesim.viewer.app import App

    app = App(new_session("novus", options={"impact_steps": 12.5}), save_path=tmp_path / "s")
    assert "Multiple impact at 12.5 steps (default 20)" in app.screen_text()
    app = App(new_session("novus"), save_path=tmp_path / "s")
    assert "Multiple impact" not in app.screen_text()
    for bad in ("1", "321", "nan", "ten"):
        with pytest.raises(SystemExit) as stop:
            main(["play", "novus", "--impact-steps", bad, "--screenshot", str(out)])
        assert stop.value.code == 2
        assert "--impact-steps" in capsys.readouterr().err
    s = new_session("novus")
    s.save(tmp_path / "game.json")
    assert main(["play", "novus", "--load", str(tmp_path / "game.json"), "--impact-steps", "10",
                 "--screenshot", str(out)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "saved game" in err


# -- the cue's end mass (its squirt) at every door of a game ---------------------------------
@pytest.mark.parametrize("game", ["9-ball", "5-pins"])
def test_end_mass_sets_the_cue_of_the_games_shots_and_survives_a_save(tmp_path, game):
    """`cuesim play --end-mass G` plays every shot of the game (the computer's trials simulate
    through the same session) with that cue: a shot with side english leaves as
    `CueShot(end_mass=...)` says, and the save keeps the cue."""
    from cuesim import CueShot
    from cuesim.viewer.app import caption
    from cuesim.viewer.session import load_session

    plain, stiff = new_session(game), new_session(game, options={"end_mass": 0.0})
    assert plain.cue_end_mass() == CueShot(angle=0.0, speed=1.0).end_mass
    assert caption(stiff) == f"cuesim: {game} (cue end mass 0 g)" and caption(plain) == \
        f"cuesim: {game}"
    action = plain.shot_action(plain.struck_position(), math.pi / 2, 3.0, side=0.4)
    a, b = plain.simulate(action), stiff.simulate(action)
    assert b.shot.end_mass == 0.0 and a.shot.end_mass == pytest.approx(0.0057)
    ball, (x0, _) = a.shot.ball, plain.struck_position()
    # side english right of centre: the standard cue sends the ball left of the aim (-x here),
    # the cue without end mass straight along it; before any contact the path is straight
    xa, xb = (r.positions_at(0.01)[0][r.initial.index(ball)][0] for r in (a, b))
    assert xb == pytest.approx(x0, abs=1e-12) and xa < x0 - 1e-5
    stiff.apply(action)
    stiff.save(tmp_path / "game.json")
    loaded = load_session(tmp_path / "game.json")
    assert loaded.cue_end_mass() == 0.0 and loaded.layout() == stiff.layout()


def test_end_mass_is_refused_where_there_is_no_cue_ball_or_no_such_cue(tmp_path, capsys):
    from cuesim.viewer.app import App
    from cuesim.viewer.session import SaveFileError, load_session

    with pytest.raises(ValueError, match=r"options.end_mass must be absent in novus \(an option"):
        new_session("novus", options={"end_mass": 0.003})
    with pytest.raises(ValueError, match=r"options.end_mass must be a mass in \[0, 0.54\] kg"):
        new_session("9-ball", options={"end_mass": -0.001})
    out = tmp_path / "x.png"
    assert main(["play", "novus", "--end-mass", "3", "--screenshot", str(out)]) == 2
    assert "--end-mass is an option of 8-ball, 9-ball, 14.1, 5-pins, not of novus" in \
        capsys.readouterr().err
    for bad in ("-1", "541", "nan", "heavy"):
        with pytest.raises(SystemExit) as stop:
            main(["play", "9-ball", "--end-mass", bad, "--screenshot", str(out)])
        assert stop.value.code == 2 and "--end-mass" in capsys.readouterr().err
    s = new_session("9-ball")
    s.save(tmp_path / "game.json")
    assert main(["play", "9-ball", "--load", str(tmp_path / "game.json"), "--end-mass", "3",
                 "--screenshot", str(out)]) == 2
    assert "saved game" in capsys.readouterr().err
    for game, mass, message in (("novus", 0.003, "absent in novus (an option of 8-ball"),
                                ("9-ball", 1.0, "a mass in [0, 0.54] kg")):
        data = new_session(game).to_dict()
        data["options"]["end_mass"] = mass
        bad = tmp_path / f"bad-{game}.json"
        bad.write_text(json.dumps(data))
        with pytest.raises(SaveFileError, match=re.escape(f"options.end_mass must be {message}")):
            load_session(bad)
    assert main(["play", "9-ball", "--end-mass", "3", "--screenshot", str(out)]) == 0
    app = App(new_session("9-ball", options={"end_mass": 0.003}), save_path=tmp_path / "s")
    assert "Cue end mass 3 g (standard 5.7 g): less squirt" in app.screen_text()
    app = App(new_session("9-ball"), save_path=tmp_path / "s")
    assert "Cue end mass" not in app.screen_text()


def test_a_new_game_of_another_game_keeps_the_cue_where_it_has_one(tmp_path):
    """The viewer's "N: a new game" passes the sitting's options on: the cue's end mass goes to
    another ball game and is left out of novus, which has no cue ball (before, novus refused
    it and the window ended in a traceback)."""
    from cuesim.viewer.app import App

    app = App(new_session("9-ball", options={"end_mass": 0.0, "race_to": 2}),
              save_path=tmp_path / "s")
    app.new_game("5-pins", rematch=False)
    assert app.session.game == "5-pins" and app.session.cue_end_mass() == 0.0
    app.new_game("novus", rematch=False)
    assert app.session.game == "novus" and "end_mass" not in app.session.options
    assert app.session.options["race_to"] == 2  # the match options stay, as before
