"""The suite's start-up figures (bench/suite.py): a fresh interpreter imports cuesim and plays
the novus opening, then a 9-ball break, with the numba cache warm (cached start) or with an
empty NUMBA_CACHE_DIR (cold compile)."""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

STARTUP_SCRIPT = """
import time
t0 = time.perf_counter()
import math, json, cuesim
from cuesim.tables import cue_ball_in_kitchen, nine_ball_rack, pool_table
t1 = time.perf_counter()
table = cuesim.novus_table()
r = cuesim.simulate(table, cuesim.novus_doubles_layout(table),
                    cuesim.NovusShot(x=0.5, angle=math.pi / 2, speed=6.0))
t2 = time.perf_counter()
first_shot_at = time.time()
pool = pool_table()
rb = cuesim.simulate(pool, nine_ball_rack(pool, cue=cue_ball_in_kitchen(pool)),
                     cuesim.CueShot(angle=math.pi / 2, speed=6.0))
t3 = time.perf_counter()
from cuesim.sim.parallel_compile import balance
print(json.dumps({"import_s": t1 - t0, "first_shot_s": t2 - t1, "first_ball_shot_s": t3 - t2,
                  "first_shot_at": first_shot_at, "events": r.n_events,
                  "ball_events": rb.n_events, "helper": balance()}))
"""


def fresh_process(env: dict[str, str], repeats: int, empty_cache: bool = False
                  ) -> dict[str, Any]:
    """Medians over `repeats` fresh interpreters running STARTUP_SCRIPT: the process's wall
    time, the wall time from its launch to the first shot's result (`wall_to_first_shot_s`,
    issue 16), the script's own import and shot times, and import + first shot
    (`to_first_shot_s`, with its range over the processes). `empty_cache`: each process gets
    an empty NUMBA_CACHE_DIR of its own (a cold compile)."""
    walls, to_first, inner = [], [], []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() if empty_cache else contextlib.nullcontext() as cache:
            run_env = env if cache is None else {**env, "NUMBA_CACHE_DIR": cache}
            t0, launched = time.perf_counter(), time.time()
            proc = subprocess.run([sys.executable, "-c", STARTUP_SCRIPT], env=run_env,
                                  capture_output=True, text=True, check=True)
            walls.append(time.perf_counter() - t0)  # before the cache's removal
        inner.append(json.loads(proc.stdout.strip().splitlines()[-1]))
        to_first.append(inner[-1]["first_shot_at"] - launched)
    out = {"wall_s": statistics.median(walls), "wall_to_first_shot_s": statistics.median(to_first)}
    for key in ("import_s", "first_shot_s", "first_ball_shot_s"):
        out[key] = statistics.median(r[key] for r in inner)
    each = [r["import_s"] + r["first_shot_s"] for r in inner]  # import + first shot, per process
    out["to_first_shot_s"] = statistics.median(each)
    out["to_first_shot_range_s"] = [min(each), max(each)]
    out["repeats"] = repeats
    helped = [r["helper"] for r in inner if r.get("helper")]
    if helped:  # a cold compile with the helper: its balance (parallel_compile.balance)
        out["helper_waited_s"] = statistics.median(h["waited_total_s"] for h in helped)
        out["helper_done_s"] = statistics.median(max(h["reported_s"].values(), default=0.0)
                                                 for h in helped)
    return out


def bytecode_cached(repeats: int) -> dict[str, Any] | None:
    """`fresh_process` with Python's bytecode cache, as an installed package has it (pip
    compiles it at install, an editable checkout writes it on first import), where this
    environment switches it off (PYTHONDONTWRITEBYTECODE: every import then compiles its
    module's source again); None where it is on, since the plain figure is that already. The
    cache is kept in a temporary PYTHONPYCACHEPREFIX, so nothing is written beside the
    sources, and filled by one untimed process."""
    if not os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return None
    with tempfile.TemporaryDirectory() as pyc:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = pyc
        fresh_process(env, 1)
        return fresh_process(env, repeats)
