"""bench/computer_turn.py: it times the computer's turns after each game's opening, counts the
candidates it simulated, and its clock on the compiled loop leaves the engine as it was."""

from __future__ import annotations

import json

import pytest

from bench import computer_turn
from cuesim.sim import engine


def test_computer_turn_rows_for_a_ball_game_and_novus(tmp_path, capsys):
    out = tmp_path / "turns.json"
    loop = engine.run_events_grid
    assert computer_turn.main(["--turns", "1", "--games", "novus,9-ball", "--level", "beginner",
                               "--json", str(out)]) == 0
    assert engine.run_events_grid is loop  # the clock took itself out
    rows = json.loads(out.read_text())
    assert [r["game"] for r in rows] == ["novus", "9-ball"]
    for row in rows:
        assert row["candidates_per_turn"] >= 1 and 0.0 < row["loop_share"] < 1.0
        assert 0.0 < row["best_ms"] <= row["median_ms"]
    printed = capsys.readouterr().out
    assert "novus   beginner:" in printed and "candidates simulated a turn" in printed


def test_computer_turn_refuses_an_unknown_game():
    with pytest.raises(SystemExit) as stop:
        computer_turn.main(["--games", "snooker"])
    assert stop.value.code == 2
