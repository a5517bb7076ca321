"""The suite's memory figures (bench/suite.py): a pass per scenario with tracemalloc on (the
peak of Python and numpy allocations, which misses numba's own arrays) and the Linux peak RSS
(VmHWM, reset through /proc/self/clear_refs before the scenario): its growth over the RSS at
the start. Each scenario runs in a fresh process unless the configuration says otherwise."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

from bench import scenarios as sc
from bench.suite_config import Config, build_scenarios
from bench.suite_timing import run_case


def _status_kb(key: str) -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def _reset_peak_rss() -> bool:
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


MEMORY_CHILD = """
import json, sys
sys.path.insert(0, {root!r})
from bench import suite_memory
print(json.dumps(suite_memory.memory_child(json.loads(sys.argv[1]))))
"""


def memory_child(spec: dict[str, Any]) -> dict[str, Any]:
    """In a fresh process: load the compiled core on a small shot of another kind, then
    measure one scenario (built from `spec`: its name and the Config fields it needs)."""
    cfg = Config(quick=spec["quick"], counts=spec["counts"], box_ns=tuple(spec["box_ns"]),
                 only=(spec["name"],))
    for warm in (sc.two_ball_pot(1), sc.novus_midgame(1)):
        run_case(warm.cases[0], warm.max_events)
    (scenario,) = build_scenarios(cfg)
    return measure_memory(scenario)


def memory_in_subprocess(name: str, cfg: Config) -> dict[str, Any]:
    """measure_memory in a fresh interpreter, with glibc's mmap threshold fixed at 128 KiB so
    that large arrays are mapped and unmapped (not kept in the heap by an earlier shot)."""
    spec = {"name": name, "quick": cfg.quick, "counts": cfg.counts, "box_ns": list(cfg.box_ns)}
    root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "MALLOC_MMAP_THRESHOLD_": "131072"}
    proc = subprocess.run([sys.executable, "-c", MEMORY_CHILD.format(root=root),
                           json.dumps(spec)], env=env, capture_output=True, text=True,
                          check=True)
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["fresh_process"] = True
    return out


def measure_memory(scenario: sc.Scenario) -> dict[str, Any]:
    """Peak memory of running every case once: tracemalloc's peak and the growth of the
    process's peak RSS over its RSS at the start (Linux: VmHWM reset through clear_refs)."""
    out: dict[str, Any] = {}
    reset = _reset_peak_rss()
    rss0 = _status_kb("VmRSS")
    tracemalloc.start()
    try:
        for case in scenario.cases:
            run_case(case, scenario.max_events)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    out["tracemalloc_peak_mb"] = peak / 2**20
    hwm = _status_kb("VmHWM")
    if reset and rss0 is not None and hwm is not None:
        out["rss_peak_mb"] = hwm / 1024
        out["rss_growth_mb"] = max(0, hwm - rss0) / 1024
    else:  # not Linux: the process's peak so far
        try:
            import resource

            out["rss_peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        except ImportError:
            pass
        out["rss_growth_mb"] = None
    return out
