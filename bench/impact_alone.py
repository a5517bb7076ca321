"""Benchmark: a shot's multiple impacts timed alone, against the whole shot (issue 16).

    python bench/impact_alone.py [--repeats 200] [--json FILE]

For the novus opening and the 9-ball and 8-ball breaks (bench/scenarios.py, the first case of
each, at the default resolution) it prints how much of the shot's time its multiple impacts
(sim.resolve.multi_impact) take by themselves, and how much of that is friction:
- a child process plays each shot with NUMBA_DISABLE_JIT=1, where every call of
  `solve_multi_impact` is a Python call that can be recorded, and pickles its arguments (about
  a minute: the whole shot runs as Python);
- this process times the compiled `solve_multi_impact` on copies of them (best of the repeats,
  each copy made outside the timing), as recorded and without friction (mu = 0 and the
  ball-ball friction fit's a = b = 0, which switch the friction pass off: the normal impact
  alone, whose outcome differs, timed for its cost);
- and the whole shot (`run_motion`, best of the repeats).
It also prints each impact's contacts and steps, and the time per contact and step. Issue 16's
ratios put a ceiling on the whole shot (250x pymunk on the novus opening, 500x pooltool on the
breaks: `cuesim bench`); this shows what the impacts alone already take of it.
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import scenarios as sc  # noqa: E402
from bench.impact_steps import CASES, shoot  # noqa: E402  (the same three shots)
from cuesim.commands import positive_int  # noqa: E402
from cuesim.sim.resolve import multi_impact  # noqa: E402
from cuesim.sim.state import MP_FIT_A, MP_FIT_B  # noqa: E402

_PARAMS = list(inspect.signature(
    getattr(multi_impact.solve_multi_impact, "py_func", multi_impact.solve_multi_impact)
).parameters)
N_C, MU, MODEL_PARAMS = _PARAMS.index("n_c"), _PARAMS.index("mu"), _PARAMS.index("model_params")


def capture(path: str) -> None:
    """In a process with NUMBA_DISABLE_JIT=1: play each case and pickle the arguments of every
    `solve_multi_impact` call, {case name: [args, ...]}, to path."""
    from cuesim.sim.resolve import impact

    solve = impact.solve_multi_impact
    calls: list[list[Any]] = []

    def recording(*args: Any) -> int:
        calls.append([a.copy() if isinstance(a, np.ndarray) else a for a in args])
        return solve(*args)

    impact.solve_multi_impact = recording
    out = {}
    for name, make in CASES.items():
        calls.clear()
        case = make()
        shoot(case, case.table)
        out[name] = list(calls)
    with open(path, "wb") as f:
        pickle.dump(out, f)


def recorded_impacts() -> dict[str, list[list[Any]]]:
    """The cases' impacts, recorded by a child process (`capture`)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "impacts.pkl")
        subprocess.run([sys.executable, __file__, "--capture", path], check=True,
                       env={**os.environ, "NUMBA_DISABLE_JIT": "1"})
        with open(path, "rb") as f:
            return pickle.load(f)


def frictionless(args: list[Any]) -> list[Any]:
    """The same impact with friction off (mu = 0, the ball-ball fit's a = b = 0); its other
    arrays are the recorded ones (`time_impact` copies them before each call)."""
    out = list(args)
    out[MU] = np.zeros_like(args[MU])
    out[MODEL_PARAMS] = args[MODEL_PARAMS].copy()
    out[MODEL_PARAMS][MP_FIT_A] = out[MODEL_PARAMS][MP_FIT_B] = 0.0
    return out


def time_impact(args: list[Any], repeats: int) -> tuple[float, int]:
    """Best seconds of one compiled call of solve_multi_impact on copies of args, and its
    steps."""
    best, steps = math.inf, 0
    for _ in range(repeats + 1):  # the first call compiles or loads
        fresh = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        t0 = time.perf_counter()
        steps = multi_impact.solve_multi_impact(*fresh)
        best = min(best, time.perf_counter() - t0)
    return best, int(steps)


def time_shot(case: sc.Case, repeats: int) -> float:
    shoot(case, case.table)
    best = math.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        shoot(case, case.table)
        best = min(best, time.perf_counter() - t0)
    return best


def measure(repeats: int) -> list[dict[str, Any]]:
    impacts = recorded_impacts()
    rows = []
    for name, make in CASES.items():
        alone, bare, contact_steps, shape = 0.0, 0.0, 0, []
        for args in impacts[name]:
            seconds, steps = time_impact(args, repeats)
            alone += seconds
            bare += time_impact(frictionless(args), repeats)[0]
            contact_steps += int(args[N_C]) * steps
            shape.append((int(args[N_C]), steps))
        shot = time_shot(make(), repeats)
        rows.append({"shot": name, "impacts": shape, "impacts_us": 1e6 * alone,
                     "frictionless_us": 1e6 * bare, "shot_us": 1e6 * shot,
                     "ns_per_contact_step": 1e9 * alone / max(contact_steps, 1),
                     "share": alone / shot})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=positive_int, default=200,
                    help="timed calls of each impact and runs of each shot (default 200)")
    ap.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    ap.add_argument("--capture", metavar="FILE", help=argparse.SUPPRESS)  # the child's part
    args = ap.parse_args(argv)
    if args.capture:
        capture(args.capture)
        return 0
    rows = measure(args.repeats)
    print(f"{'shot':<14} {'impacts (contacts x steps)':<28} {'impacts us':>10} "
          f"{'no friction':>11} {'ns/contact-step':>15} {'shot us':>8} {'share':>6}")
    for r in rows:
        shape = ", ".join(f"{c}x{s}" for c, s in r["impacts"])
        print(f"{r['shot']:<14} {shape:<28} {r['impacts_us']:>10.1f} "
              f"{r['frictionless_us']:>11.1f} {r['ns_per_contact_step']:>15.1f} "
              f"{r['shot_us']:>8.1f} {100 * r['share']:>5.0f}%")
    if args.json:
        try:
            Path(args.json).write_text(json.dumps(rows, indent=1))
        except OSError as exc:
            print(f"impact_alone: cannot write {args.json}: {exc.strerror}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
