"""A threshold is not physics: random shots with the core's round-off floors and detection
tolerances scaled x10 and /10, each shot's rests compared with the unscaled core's.

    python bench/tolerances.py [--shots N] [--games novus,9-ball,...] [--seed S]
                               [--visible MM] [--names NAME,NAME,...] [--json FILE]

The shots are the tunnel hunter's (`bench/tunnels.py` `shot_for`: openings and random layouts
of frozen rows, blobs and pieces against cushions, a third extreme; the tables' own physics).
The core runs interpreted (NUMBA_DISABLE_JIT: the script restarts itself so), where its
functions read their module constants at each call, so `tests.scaled_constants.scaler` can
scale them without recompiling: every name in --names at once, x10 and /10, as the fixed shots
of tests/test_core_tolerances.py do; a constant computed from a scaled one (BOUNCE_GAP = 10 TOUCH)
is scaled with it, as a change of the source would. A shot is VISIBLE when a piece
rests more than --visible mm (default 1) from where the unscaled core leaves it, or another set
of pieces is pocketed; the seeds of those are printed (replay: `shot_for(game, seed)`), each
with how far a nudge of the shot alone (its speed x (1 +- 1e-9), x (1 +- 1e-7)) moves the
rests: where that moves them visibly too, the shot is chaotic at that level and says nothing
of the constant. Counts of shots whose event log or rests changed at all are printed too.
Interpreted, a shot takes 0.05-1 s: 1,000 shots a game take some minutes.

    python bench/tolerances.py --v-stick ...

scales the tables' v_stick instead (a coefficient, `with_physics`: the compiled core, fast).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
import time
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# the floors and tolerances of tests/test_core_tolerances.py
NAMES = ("U_ROLL", "EXTENT_TOL", "V_OPEN", "V_ROUND", "TOUCH", "V_TOUCH", "SIMULTANEOUS",
         "BOX_SPARE", "CULL_SPARE", "GRAZE", "PRESS_SHARE")
DERIVED = {"BOUNCE_GAP": "TOUCH"}  # scaled with its source: sim.resolve.sliding_pair's
# BOUNCE_GAP = 10 TOUCH (scaled alone, TOUCH x10 put a sliding pair's bounces inside the
# touching band: a cue ball moved 2 mm, against 0.1 mm with both)
FACTORS = (10.0, 0.1)


def rests(res: Any) -> dict[str, tuple[float, float]]:
    """Where every piece left on the table rests (pocketed pieces absent)."""
    return {p.id: (p.x, p.y) for p in res.final.pieces}


def compare(base: Any, other: Any) -> tuple[bool, float]:
    """(whether the event logs differ, the largest distance between two rests in m; inf when
    another set of pieces is on the table or either shot was truncated)."""
    if base.truncated or other.truncated:
        return True, math.inf
    a, b = rests(base), rests(other)
    if set(a) != set(b):
        return True, math.inf
    logs_differ = [(e.kind, e.a, e.b) for e in base.event_log()] != \
        [(e.kind, e.a, e.b) for e in other.event_log()]
    moved = max((math.hypot(a[k][0] - b[k][0], a[k][1] - b[k][1]) for k in a), default=0.0)
    return logs_differ, moved


def chaos(case: Any, base: Any) -> float:
    """How far the rests move when the shot alone is nudged (its speed x (1 +- 1e-9) and
    x (1 +- 1e-7)): a shot that such a nudge moves visibly is chaotic at that level, and what
    a constant changes there says nothing of the constant."""
    from cuesim import simulate

    return max(compare(base, simulate(case.table, case.layout,
                                      dataclasses.replace(case.shot,
                                                          speed=case.shot.speed * (1 + e))))[1]
               for e in (1e-9, -1e-9, 1e-7, -1e-7))


def hunt(games: tuple[str, ...], shots: int, seed0: int, names: tuple[str, ...],
         visible: float, verbose: bool = True, v_stick: bool = False) -> dict[str, Any]:
    """Per game: shots run, how many changed their event log or any rest, how many VISIBLE
    (and of those, how many the nudge of `chaos` moves visibly too), the largest move (m), and
    the seeds of the visible ones with their moves. `v_stick`: scale the table's v_stick (a
    coefficient: the compiled core takes it as an argument) instead of the module constants."""
    sys.path.insert(0, str(ROOT))
    import cuesim.sim  # noqa: F401  (imports every module holding a constant)
    from bench.tunnels import shot_for
    from cuesim import simulate
    from tests.scaled_constants import scaler

    scale = None if v_stick else scaler(names + tuple(d for d, src in DERIVED.items()
                                                      if src in names and d not in names))
    out: dict[str, Any] = {}
    for game in games:
        changed = moved_any = chaotic = 0
        worst = 0.0
        seen: list[dict[str, Any]] = []
        t0 = time.perf_counter()
        for seed in range(seed0, seed0 + shots):
            case = shot_for(game, seed)
            base = simulate(case.table, case.layout, case.shot)
            for factor in FACTORS:
                table = case.table
                if scale is None:
                    table = table.with_physics(v_stick=table.physics.v_stick * factor)
                else:
                    scale(factor)
                try:
                    other = simulate(table, case.layout, case.shot)
                finally:
                    if scale is not None:
                        scale(1.0)
                logs_differ, moved = compare(base, other)
                changed += logs_differ
                moved_any += moved > 0.0
                worst = max(worst, moved)
                if moved > visible:
                    nudge = chaos(case, base)
                    chaotic += nudge > visible
                    seen.append({"seed": seed, "factor": factor, "moved_mm": moved * 1e3,
                                 "nudge_mm": nudge * 1e3})
                    if verbose:
                        what = (f"{moved * 1e3:.3f} mm" if math.isfinite(moved) else
                                "pocketed set or truncation changed")
                        print(f"  VISIBLE {game} seed {seed} x{factor:g}: {what} (the nudged "
                              f"shot: {nudge * 1e3:.3g} mm)", flush=True)
        out[game] = {"shots": shots, "runs": shots * len(FACTORS), "log_changed": changed,
                     "rests_moved": moved_any, "visible": len(seen), "chaotic": chaotic,
                     "largest_move_mm": worst * 1e3, "visible_runs": seen,
                     "seconds": time.perf_counter() - t0}
        if verbose:
            r = out[game]
            print(f"{game}: {shots} shots, {r['runs']} scaled runs: event log changed in "
                  f"{changed}, a rest moved in {moved_any}, visible (> {visible * 1e3:g} mm) "
                  f"in {len(seen)} ({chaotic} of them chaotic: the nudged shot moves as "
                  f"much); largest move {worst * 1e3:.4g} mm; {r['seconds']:.0f} s",
                  flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--shots", type=int, default=200, help="shots per game")
    p.add_argument("--games", default="novus,9-ball,8-ball,14.1,5-pins")
    p.add_argument("--seed", type=int, default=0, help="first seed")
    p.add_argument("--visible", type=float, default=1.0, help="mm: a move this large is seen")
    p.add_argument("--names", default=",".join(NAMES), help="the module constants to scale")
    p.add_argument("--v-stick", action="store_true",
                   help="scale the table's v_stick instead of the module constants (compiled)")
    p.add_argument("--json", metavar="FILE", help="write the summary here")
    args = p.parse_args(argv)
    from bench.tunnels import GAMES

    games = tuple(g for g in args.games.split(",") if g)
    bad = [g for g in games if g not in GAMES]
    if bad or not games:
        p.error(f"--games: {', '.join(bad) or 'none given'}; games are {', '.join(GAMES)}")
    if args.shots < 1:
        p.error(f"--shots must be at least 1, got {args.shots}")
    if not (math.isfinite(args.visible) and args.visible > 0.0):
        p.error(f"--visible must be a positive number of mm, got {args.visible}")
    names = tuple(n for n in args.names.split(",") if n)
    if not names:
        p.error("--names: give at least one constant")
    if args.json is not None and not Path(args.json).parent.is_dir():
        p.error(f"--json {args.json}: its folder does not exist")
    warnings.simplefilter("ignore", RuntimeWarning)
    try:
        out = hunt(games, args.shots, args.seed, names, args.visible / 1e3,
                   v_stick=args.v_stick)
    except LookupError as exc:  # a name no module holds
        p.error(f"--names: {exc}")
    if args.json is not None:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    if os.environ.get("NUMBA_DISABLE_JIT") != "1" and "--v-stick" not in sys.argv:
        env = dict(os.environ, NUMBA_DISABLE_JIT="1")  # the constants are read at each call
        os.execve(sys.executable, [sys.executable, *sys.argv], env)  # only interpreted
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
