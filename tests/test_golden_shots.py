"""Golden shots: whole shots of every game against their stored outcome (rest positions to
1e-9 m, the pocketed balls in order, the number of events of each kind). A deliberate change
of the physics regenerates the file (`python -m tests.golden.regenerate`, see
tests/golden/shots.py) and the diff is reviewed with the change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.golden.shots import POSITION_TOL, SHOTS, outcome

GOLDEN = json.loads((Path(__file__).parent / "golden" / "golden_shots.json").read_text())
REGENERATE = "python -m tests.golden.regenerate"


def test_every_golden_shot_is_stored_and_every_game_has_one():
    assert [s.name for s in SHOTS] == list(GOLDEN), f"run {REGENERATE}"
    assert {s.game.removesuffix("-doubles") for s in SHOTS} == {"novus", "8-ball", "9-ball",
                                                                "14.1", "5-pins"}


@pytest.mark.parametrize("shot", SHOTS, ids=lambda s: s.name)
def test_golden_shot(shot):
    want = GOLDEN[shot.name]
    got = outcome(shot.run())
    hint = f"{shot.name} changed; if the change is deliberate, run {REGENERATE}"
    assert got["pocketed"] == want["pocketed"], hint
    assert got["event_kinds"] == want["event_kinds"], hint
    assert got["n_events"] == want["n_events"], hint
    assert list(got["rest"]) == list(want["rest"]), hint
    for pid, (x, y) in want["rest"].items():
        gx, gy = got["rest"][pid]
        assert abs(gx - x) <= POSITION_TOL and abs(gy - y) <= POSITION_TOL, (
            f"{hint}: {pid} rests at ({gx!r}, {gy!r}), not ({x!r}, {y!r})")
    assert got["duration"] == pytest.approx(want["duration"], rel=1e-9, abs=0.0), hint
