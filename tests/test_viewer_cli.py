"""`cuesim play`: the opening screen of every game saved with --screenshot (headless), a clear
message without a display, and loading a saved game."""

from __future__ import annotations

import math

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
