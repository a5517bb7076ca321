"""The viewer's sounds: one per contact, rail, pocket and pin event of a shot, with the volume
from the impact speed, played as the animation passes the event; a mute key; silent and
without errors under the dummy audio driver and when no mixer can be opened."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pygame
import pytest

from cuesim.sim.events import COL_KIND, COL_SPEED, EventKind
from cuesim.viewer import sound
from cuesim.viewer.sound import MAX_VOICES, SoundPlayer, cues, volume
from tests.shot_fixtures import five_pins_shot, nine_ball_break, novus_opening
from tests.viewer_driver import finish_animation, key, make_app, step


def test_a_break_sounds_the_cue_the_contacts_the_rails_and_the_pockets():
    result = nine_ball_break()
    c = cues(result)
    assert c.names[0] == "cue" and c.t[0] == 0.0
    assert {"ball", "rail", "pocket"} <= set(c.names)
    assert c.names.count("pocket") == len(result.pocketed)
    assert np.all(np.diff(c.t) >= 0) and np.all((c.volume > 0) & (c.volume <= 1))
    # the hardest ball-ball contact of the break is the loudest ball sound
    rows = result.events[result.events[:, COL_KIND] == int(EventKind.COLLIDE)]
    loudest = max(v for n, v in zip(c.names, c.volume, strict=True) if n == "ball")
    assert loudest == pytest.approx(volume("ball", float(rows[:, COL_SPEED].max())))


def test_novus_has_puck_sounds_and_no_cue_and_5_pins_a_falling_pin():
    c = cues(novus_opening())
    assert "puck" in c.names and "cue" not in c.names and "ball" not in c.names
    c = cues(five_pins_shot())
    assert c.names.count("pin") == len(five_pins_shot().events_of(EventKind.PIN))
    assert sound._sound_of(int(EventKind.COLLIDE), "ball", "pin") == "knock"


def test_volume_grows_with_the_impact_speed_and_a_fall_always_sounds():
    speeds = [0.1, 0.5, 1.0, 3.0, 6.0, 20.0]
    for name in sound.LOUDNESS:
        v = [volume(name, s) for s in speeds]
        assert v == sorted(v) and v[-1] == 1.0 and v[0] < 0.6
    assert volume("ball", 0.0) == 0.0
    assert volume("pocket", 0.0) == volume("pin", 0.0) == 0.5
    # Hertzian contact: the peak force, and the sound pressure, go as v ** 1.2
    assert volume("ball", 1.0) / volume("ball", 0.5) == pytest.approx(2 ** 1.2)


def test_an_animation_step_passes_each_sound_once_the_strike_included():
    c = cues(nine_ball_break())
    assert c.between(0.0, 0.0) == []  # a step that does not move forward (a paused shot)
    assert c.between(0.0, 1e-6)[0][0] == "cue"
    steps = np.linspace(0.0, c.t[-1] + 0.1, 4000)
    got = [s for t0, t1 in zip(steps[:-1], steps[1:], strict=True) for s in c.between(t0, t1)]
    # every sound once, except beyond the MAX_VOICES loudest of one instant (a rack's
    # contacts at the break are one multiple impact)
    _, per_instant = np.unique(c.t, return_counts=True)
    assert len(got) == sum(min(k, MAX_VOICES) for k in per_instant) > MAX_VOICES
    loud = c.between(0.0, c.t[-1])
    assert len(loud) == MAX_VOICES
    assert [v for _, v in loud] == sorted(c.volume, reverse=True)[:MAX_VOICES]


def test_the_dummy_driver_plays_silently_and_mute_stops_it():
    player = SoundPlayer()
    assert player.available, player.reason
    result = nine_ball_break()
    assert player.play_between(result, 0.0, 0.2)[0][0] == "cue"
    assert player.toggle_mute() is True
    assert player.play_between(result, 0.0, 0.2) == []
    assert player.toggle_mute() is False


def test_no_mixer_means_silence_without_errors(monkeypatch, tmp_path):
    def refuse(*args, **kwargs):
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", refuse)
    player = SoundPlayer()
    assert not player.available and "no audio device" in player.reason
    assert player.play_between(nine_ball_break(), 0.0, 10.0) == []
    app = make_app("9-ball", tmp_path)
    assert not app.sound.available
    app.shoot()
    finish_animation(app, dt=0.05)
    step(app, [key(pygame.K_v)])
    assert app.message == "Sound off."
    step(app, [key(pygame.K_v)])
    assert app.message.startswith("Sound on, but no sound")


def test_a_machine_without_a_sound_card_prints_no_driver_errors(tmp_path):
    """The real ALSA driver on a machine without a card (as the CI's) prints a dozen "ALSA lib"
    lines from C when the mixer opens; the viewer (a whole window: pygame.init() would open the
    mixer too) stays silent and prints none. With a card it opens it, and prints nothing
    either."""
    code = ("import pathlib\n"
            "from tests.viewer_driver import make_app\n"
            f"app = make_app('9-ball', pathlib.Path({str(tmp_path)!r}))\n"
            "print('available' if app.sound.available else app.sound.reason)\n")
    env = {**os.environ, "SDL_AUDIODRIVER": "alsa", "SDL_VIDEODRIVER": "dummy",
           "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=300, cwd=Path(__file__).resolve().parents[1])
    assert out.returncode == 0, out.stderr
    assert "ALSA lib" not in out.stderr and out.stderr.strip() == ""
    assert out.stdout.startswith(("available", "no sound"))


def test_the_viewer_plays_the_sounds_as_the_animation_passes_them(tmp_path, monkeypatch):
    app = make_app("9-ball", tmp_path)
    played: list[tuple[str, float]] = []
    real = app.sound.play_between
    monkeypatch.setattr(app.sound, "play_between",
                        lambda r, t0, t1: played.extend(real(r, t0, t1)) or [])
    app.shoot()
    step(app, dt=0.01)
    assert played[0][0] == "cue" and not any(n == "pocket" for n, _ in played)
    step(app, [key(pygame.K_RETURN)], dt=0.01)  # skipped: what it skips stays silent
    assert app.mode != "animate" and not any(n == "pocket" for n, _ in played)
    step(app, [key(pygame.K_v)])  # mute, then replay: nothing plays
    assert app.message == "Sound off."
    n = len(played)
    step(app, [key(pygame.K_r)])
    finish_animation(app, dt=0.02)
    assert len(played) == n
