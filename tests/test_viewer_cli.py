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
