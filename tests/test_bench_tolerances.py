"""bench/tolerances.py: random hunter shots with the core's floors and tolerances x10 and /10,
the interpreted core against itself unscaled (bench/README.md, "A parting pair")."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from bench import tolerances as tol
from tests.scaled_constants import REPO


def test_a_short_hunt_runs_interpreted_and_reports_each_game(tmp_path) -> None:
    """The script restarts itself interpreted (the constants are read at each call only
    there); two shots of two games, every count printed and written; nothing visible."""
    out = tmp_path / "hunt.json"
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    run = subprocess.run([sys.executable, "bench/tolerances.py", "--shots", "2", "--games",
                          "novus,9-ball", "--seed", "3", "--json", str(out)], cwd=REPO,
                         env=env, capture_output=True, text=True, check=True)
    assert "novus: 2 shots, 4 scaled runs:" in run.stdout
    assert "9-ball: 2 shots, 4 scaled runs:" in run.stdout
    data = json.loads(out.read_text())
    assert set(data) == {"novus", "9-ball"}
    for row in data.values():
        assert row["runs"] == 4 and row["visible"] == row["chaotic"] == 0
        assert row["largest_move_mm"] < 1.0


def test_a_scale_that_reaches_the_core_is_seen() -> None:
    """x1e8 changes shots (under NUMBA_DISABLE_JIT, as the script runs): the scaling reaches
    the core and a change is counted; compiled, the constants are frozen and nothing moves,
    so this runs in an interpreted subprocess."""
    code = ("import bench.tolerances as t; t.FACTORS = (1e8,); "
            "r = t.hunt(('9-ball',), 6, 0, t.NAMES, 1e-3, verbose=False); "
            "print(r['9-ball']['log_changed'], r['9-ball']['visible'])")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    run = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True,
                         text=True, check=True)
    changed, visible = map(int, run.stdout.split()[-2:])
    assert changed >= 3 and visible >= 3


def test_the_v_stick_mode_scales_the_table_compiled() -> None:
    """--v-stick scales the table's coefficient (the compiled core takes it as an argument):
    every run counted, each visible one with its nudged shot's move."""
    out = tol.hunt(("9-ball",), 2, 7000098, (), 1e-3, verbose=False, v_stick=True)["9-ball"]
    assert out["runs"] == 4 and 0 <= out["chaotic"] <= out["visible"] <= out["rests_moved"] <= 4
    assert all({"seed", "factor", "moved_mm", "nudge_mm"} <= set(r) for r in out["visible_runs"])


def test_bounce_gap_follows_touch() -> None:
    """BOUNCE_GAP is 10 TOUCH in its module (sim.resolve.sliding_pair): scaled with it."""
    from cuesim.sim.detect import TOUCH
    from cuesim.sim.resolve.sliding_pair import BOUNCE_GAP

    assert BOUNCE_GAP == 10.0 * TOUCH and tol.DERIVED == {"BOUNCE_GAP": "TOUCH"}


@pytest.mark.parametrize("args", [["--shots", "0"], ["--games", "snooker"], ["--games", ","],
                                  ["--visible", "0"], ["--visible", "nan"], ["--names", ","],
                                  ["--names", "NO_SUCH_CONSTANT"],
                                  ["--json", "/no/such/folder/x.json"]])
def test_bad_arguments_exit_2(args) -> None:
    with pytest.raises(SystemExit) as exc:
        tol.main(args)
    assert exc.value.code == 2
