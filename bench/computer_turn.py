"""Benchmark: how long the computer player thinks about one turn, and where the time goes.

    python bench/computer_turn.py [--level club] [--turns 3] [--json FILE]

For each game, the opening shot is played (novus: straight up the board at 4 m/s; the ball
games: a break at 7 m/s), then the computer chooses the next shot `--turns` times with seeds
1, 2, ... (`cuesim.viewer.ai.choose_shot`, after one untimed choice that loads the compiled
code). Prints the milliseconds a turn (best and median of the turns), the candidate shots
simulated a turn, and the share of the turn spent in the compiled event loop (the rest is
Python: placing and checking each candidate, its event log, and the referee's ruling on a copy
of the game). This is what a person waits for in `cuesim play --vs-computer` and what each
step of a Gymnasium environment with a computer opponent costs.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cuesim.commands import output_file, positive_int  # noqa: E402
from cuesim.sim import engine  # noqa: E402
from cuesim.viewer.ai import choose_shot  # noqa: E402
from cuesim.viewer.ai.levels import LEVELS  # noqa: E402
from cuesim.viewer.session import Session, new_session  # noqa: E402

GAMES = ("novus", "9-ball", "8-ball", "5-pins")
OPENING_SPEED = {"novus": 4.0, "9-ball": 7.0, "8-ball": 7.0, "5-pins": 3.0}


def after_opening(game: str) -> Session:
    """The game after its opening shot, straight ahead from the default place."""
    session = new_session(game)
    session.apply(session.shot_action(session.struck_position(), math.pi / 2,
                                      OPENING_SPEED[game]))
    return session


class LoopClock:
    """Counts the compiled event loop's calls and time while installed (`run_events_grid`,
    which `engine.run_input` calls for every candidate's simulation)."""

    def __init__(self) -> None:
        self.calls, self.seconds = 0, 0.0
        self._inner = engine.run_events_grid

    def __enter__(self) -> LoopClock:
        def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return self._inner(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - t0
                self.calls += 1
        engine.run_events_grid = timed
        return self

    def __exit__(self, *exc: object) -> None:
        engine.run_events_grid = self._inner


def time_turns(game: str, level: str, turns: int) -> dict[str, Any]:
    session = after_opening(game)
    choose_shot(session, level=level, seed=0)  # loads the compiled code, untimed
    walls = []
    with LoopClock() as clock:
        for seed in range(1, turns + 1):
            t0 = time.perf_counter()
            choose_shot(session, level=level, seed=seed)
            walls.append(time.perf_counter() - t0)
    return {"game": game, "level": level, "turns": turns,
            "best_ms": 1e3 * min(walls), "median_ms": 1e3 * statistics.median(walls),
            "candidates_per_turn": clock.calls / turns,
            "loop_share": clock.seconds / sum(walls)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--level", choices=list(LEVELS), default="club")
    ap.add_argument("--turns", type=positive_int, default=3, help="timed turns a game (default 3)")
    ap.add_argument("--games", default=",".join(GAMES),
                    help=f"comma-separated, of {', '.join(GAMES)}")
    ap.add_argument("--json", default=None, type=output_file, help="also write the rows as JSON")
    a = ap.parse_args(argv)
    games = a.games.split(",")
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        ap.error(f"unknown game {unknown[0]!r}")
    rows = []
    for game in games:
        row = time_turns(game, a.level, a.turns)
        rows.append(row)
        print(f"{game:7s} {a.level}: {row['best_ms']:.0f} ms a turn best, "
              f"{row['median_ms']:.0f} median of {a.turns}; {row['candidates_per_turn']:.0f} "
              f"candidates simulated a turn; the compiled loop {100 * row['loop_share']:.0f} %")
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
