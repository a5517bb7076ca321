"""Whole games in the viewer, played with scripted mouse and keyboard events; the screen must
say what the referee says."""

from __future__ import annotations

import pytest

from tests.viewer_driver import make_app, play_turn, step


@pytest.mark.parametrize("game, options, limit", [
    ("9-ball", {}, 60),
    ("8-ball", {}, 80),
    ("14.1", {"points_to": 4}, 80),
    ("novus-doubles", {}, 120),
    ("5-pins", {"points_to": 20}, 80),
])
def test_a_whole_game_played_with_the_mouse_ends_and_the_screen_shows_the_result(
        tmp_path, game, options, limit):
    app = make_app(game, tmp_path, **options)
    for _ in range(limit):
        if app.session.over():
            break
        play_turn(app)
        text = app.screen_text()
        if app.session.last_ruling is not None and app.mode != "animate":
            assert "Referee:" in text
    assert app.session.over(), f"{game} did not end in {limit} turns"
    step(app)
    text = app.screen_text()
    winner = app.session.last_ruling.winner
    assert winner and f"Match over: {winner} wins." in text
    # the referee panel shows the last ruling in full (wrapped over lines)
    panel = app.panel.text_lines(app.hud_lines())
    panel = "\n".join(panel).split("Referee:\n", 1)[1]
    assert " ".join(panel.split("\n")) == app.session.last_ruling.describe(app.session.unit)
