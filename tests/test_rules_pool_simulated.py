"""The pool referee on real simulated shots (issue 3's physics feeding issue 5's referee)."""

from __future__ import annotations

import math

import pytest

from cuesim import CueShot, simulate, start_layout
from cuesim.rules.pool import EightBall, NineBall, shot_from_result


def _break(pool, game: str, speed: float):
    layout = start_layout(game, pool)
    cue, apex = layout.get("cue"), layout.get("1")
    aim = math.atan2(apex.y - cue.y, apex.x - cue.x)
    return simulate(pool, layout, CueShot(angle=aim, speed=speed))


@pytest.mark.parametrize("speed", [8.0, 11.0])
def test_simulated_nine_ball_break_is_legal_and_a_pot_continues_wpa_5_4_5_5(pool, speed):
    result = _break(pool, "9-ball", speed)
    assert result.first_contact("cue").b == "1"
    out = NineBall(["Ann", "Bob"]).play(shot_from_result(result))
    assert out.ruling.legal
    pocketed_object = [b for b in result.pocketed if b != "cue"]
    assert (out.ruling.next_player == "Ann") == bool(pocketed_object)


def test_simulated_eight_ball_break_is_ruled_wpa_4_5(pool):
    result = _break(pool, "8-ball", 10.0)
    out = EightBall(["Ann", "Bob"]).play(shot_from_result(result))
    assert out.ruling.next_player in ("Ann", "Bob")
    assert all(v.article.startswith("WPA") for v in out.ruling.violations)
