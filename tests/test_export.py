"""Exporting a shot as an animated GIF: from the API, from `cuesim shoot ... --gif` and from
the viewer's G key; frames at a fixed rate of the shot's time, the viewer's drawing, one-line
errors for bad options, paths and a missing Pillow."""

from __future__ import annotations

import math
import re
import shlex
from pathlib import Path

import pygame
import pytest
from PIL import Image

from cuesim.api import game_table
from cuesim.cli import main
from cuesim.viewer import export
from cuesim.viewer.anim import Playback
from tests.shot_fixtures import five_pins_shot, novus_opening
from tests.viewer_driver import finish_animation, key, make_app, step

README = Path(__file__).resolve().parent.parent / "README.md"


def _frames(path: Path) -> tuple[int, tuple[int, int], list[int]]:
    with Image.open(path) as im:
        durations = []
        for k in range(im.n_frames):
            im.seek(k)
            durations.append(im.info["duration"])
        return im.n_frames, im.size, durations


def test_the_gif_has_a_frame_per_step_of_the_shot_time_and_holds_the_end(tmp_path):
    result = novus_opening()
    path = export.save_gif(result, game_table("novus"), tmp_path / "shot.gif", fps=10,
                           width=400)
    n, size, durations = _frames(path)
    end = Playback(result).end
    assert n == math.ceil(end * 10) + 1
    assert size == export.viewport(game_table("novus"), 400)[1] and size[0] == 400
    assert durations[:-1] == [100] * (n - 1) and durations[-1] == 100 + 1000 * export.HOLD
    assert export.frame_times(result, 10)[-1] == end


def test_the_frames_are_the_viewers_drawing_with_fallen_pins(tmp_path, monkeypatch):
    """Each frame is drawn by draw.draw_pieces at its time, with the pins down by then."""
    from cuesim.viewer import draw

    calls = []
    real = draw.draw_pieces
    monkeypatch.setattr(draw, "draw_pieces", lambda *a: calls.append(a) or real(*a))
    result = five_pins_shot()
    frames = list(export.render_frames(result, game_table("5-pins"), fps=5, width=300))
    assert len(frames) == len(calls) == len(export.frame_times(result, 5))
    assert calls[0][6] == [] and len(calls[-1][6]) == len(Playback(result)._pins) > 0


def test_cli_gif_writes_the_animation(tmp_path, capsys):
    out = tmp_path / "break.gif"
    status = main(["shoot", "9-ball", "--speed", "5", "--gif", str(out), "--gif-fps", "20",
                   "--gif-width", "320"])
    assert status == 0
    n, size, _ = _frames(out)
    assert size[0] == 320 and n > 20
    assert "pygame" not in capsys.readouterr().out  # no banner in the shot's summary


@pytest.mark.parametrize("args, message", [
    (["--gif", "{tmp}/x.gif", "--gif-fps", "30"], "--gif-fps must be one of 1, 2, 4, 5"),
    (["--gif", "{tmp}/x.gif", "--gif-width", "10"], "--gif-width must be a whole number"),
    (["--gif", "{tmp}/x.gif", "--gif-fps", "0"], "--gif-fps must be one of 1, 2, 4, 5"),
    (["--gif", "{tmp}/x.gif", "--gif-width", "0"], "--gif-width must be a whole number"),
    (["--gif-width", "0"], "--gif-width sets up the --gif file: use it with --gif"),
    (["--gif-fps", "10"], "--gif-fps sets up the --gif file: use it with --gif"),
    (["--gif", "{tmp}/x.png"], "give a file name ending in .gif"),
    (["--gif", "{tmp}/no/such/x.gif"], "does not exist"),
    (["--gif", "{tmp}/folder.gif"], "is a folder"),
])
def test_cli_gif_errors_are_one_line_and_exit_2(tmp_path, capsys, args, message):
    (tmp_path / "folder.gif").mkdir()
    argv = ["shoot", "novus", "--speed", "3"] + [a.format(tmp=tmp_path) for a in args]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and err.startswith("cuesim: error: ")
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]


def test_an_export_too_big_to_hold_is_refused_before_drawing(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(export, "MAX_PIXELS", 10**6)
    argv = ["shoot", "novus", "--speed", "3", "--gif", str(tmp_path / "x.gif")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "give a lower --gif-fps or --gif-width" in err
    assert not (tmp_path / "x.gif").exists()


def test_cli_gif_without_pillow_says_how_to_get_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(export, "pillow_available", lambda: False)
    assert main(["shoot", "novus", "--speed", "3", "--gif", str(tmp_path / "x.gif")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and 'pip install "cuesim[gif]"' in err
    assert not (tmp_path / "x.gif").exists()


def test_the_readme_gif_command_runs(tmp_path, monkeypatch, capsys):
    lines = [line for line in README.read_text().splitlines()
             if line.startswith("cuesim shoot") and "--gif" in line]
    assert lines
    monkeypatch.chdir(tmp_path)
    for line in lines:
        argv = shlex.split(line.split("#")[0])[1:]
        assert main(argv) == 0, capsys.readouterr().err
        gif = next(a for a in argv if a.endswith(".gif"))
        assert _frames(tmp_path / gif)[0] > 1


def test_viewer_g_saves_the_last_shot(tmp_path):
    app = make_app("novus", tmp_path)
    step(app, [key(pygame.K_g)])
    assert app.message_bad and app.message == "Shot not exported: no shot has been played yet."
    app.shoot()
    finish_animation(app, dt=0.1)
    step(app, [key(pygame.K_g)])
    path = tmp_path / "cuesim-novus-shot-1.gif"
    assert not app.message_bad and app.message == f"Shot saved to {path}."
    n, size, _ = _frames(path)
    assert n == len(export.frame_times(app.session.last_result, export.DEFAULT_FPS))
    assert size[0] == export.DEFAULT_WIDTH


def test_viewer_g_into_a_missing_folder_says_so(tmp_path):
    app = make_app("novus", tmp_path / "gone")
    app.shoot()
    finish_animation(app, dt=0.1)
    step(app, [key(pygame.K_g)])
    assert app.message_bad and re.match(r"Shot not exported: .*does not exist", app.message)


def test_viewer_j_saves_the_last_shot_as_a_shot_file(tmp_path, capsys):
    """J: the last shot as cuesim-GAME-shot-N.json beside the GIFs, the exact result with its
    physics, which `cuesim show --verify` plays again to the bit."""
    from cuesim.sim.result import ShotResult

    app = make_app("9-ball", tmp_path)
    step(app, [key(pygame.K_j)])
    assert app.message_bad and app.message == "Shot file not saved: no shot has been played yet."
    app.shoot()
    finish_animation(app, dt=0.1)
    step(app, [key(pygame.K_j)])
    path = tmp_path / "cuesim-9-ball-shot-1.json"
    assert not app.message_bad and app.message == f"Shot file saved to {path}."
    saved = ShotResult.load(path, verify=True)
    last = app.session.last_result
    assert saved.physics == last.physics and saved.event_log() == last.event_log()
    assert main(["show", str(path), "--verify", "--rule", "9-ball"]) == 0
    assert "ruling: " in capsys.readouterr().out


def test_viewer_j_into_a_missing_folder_says_so(tmp_path):
    app = make_app("novus", tmp_path / "gone")
    app.shoot()
    finish_animation(app, dt=0.1)
    step(app, [key(pygame.K_j)])
    assert app.message_bad and app.message.startswith("Shot file not saved: ")
    assert not (tmp_path / "gone").exists()
