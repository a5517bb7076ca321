"""Benchmark: batch shot simulation (cuesim.batch): numba threads, local workers, Dask.

    python bench/batch.py [--quick] [--json FILE] [--dask-shots N] [--memory-shots N]

Measured (wall-clock, time.perf_counter, each run end to end through `simulate_many`, the
worker processes started inside the timing):
- shots/s on the novus opening (singles, aims 80-100 degrees, speeds 3-9 m/s, the striker
  anywhere along the zone) and on the 9-ball break (aims within half a degree of the apex,
  speeds 7-11 m/s, side spin), side by side: one process on 1 numba thread, one process on 2
  numba threads (each chunk's shots in parallel in one compiled call; the speed-up 2 threads
  over 1, target 1.9x), and 2 local worker processes of 1 thread each (the speed-up 2 workers
  over 1, target 1.8x); a plain loop of `simulate` for comparison;
- the Dask path against the local path on the same chunks (same seed, same chunk size):
  a LocalCluster of 2 worker processes with 1 thread each, started and warmed before the
  timing, against 2 local workers; overhead = dask time / local time - 1 (target < 5%), with
  the results coming back to the client (simulate_many) and with the workers writing a
  partitioned Parquet dataset themselves (simulate_to_dataset), side by side;
- the figures of the scaling model in bench/README.md: the compute cost per shot and per
  chunk, the scheduler's cost per task (a few hundred empty tasks through the same cluster,
  2 in flight per worker thread), and the Parquet bytes per shot;
- the peak memory of a run streamed to Parquet (`cuesim batch novus ... --out x.parquet` in
  a fresh process): the driver's peak RSS and the largest worker's, from getrusage, with 2
  workers; and, side by side against the number of shots (it should stay flat), the peak RSS
  of one process on 2 numba threads (`--threads 2`);
- ruled shots (`ruling=True`: each shot through `simulate`, then its game's referee as the
  first shot of a fresh game) against the same shots unruled, one process, one thread, on
  9-ball, novus and 5-pins: shots/s both ways and the referee's cost per shot.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import tempfile
import time

import numpy as np

import cuesim
from cuesim import simulate, start_layout
from cuesim.api import game_table
from cuesim.batch import ShotSampler, simulate_many
from cuesim.batch.dataset import simulate_to_dataset
from cuesim.commands import output_file, positive_int

NOVUS_VARY = {"x": (0.2, 0.8), "angle": (math.radians(80), math.radians(100)),
              "speed": (3.0, 9.0)}

MEMORY_SCRIPT = """
import resource, sys, time
from cuesim.cli import main
from cuesim.batch.run import _drop_pool
t0 = time.perf_counter()
code = main(sys.argv[1:])
_drop_pool()  # the pool's workers end and are reaped, so RUSAGE_CHILDREN counts them
dt = time.perf_counter() - t0
me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print("MEM", code, dt, me, kids)
"""


def nine_ball_vary():
    table = game_table("9-ball")
    layout = start_layout("9-ball", table)
    cue, apex = layout.get("cue"), layout.get("1")
    aim = math.atan2(apex.y - cue.y, apex.x - cue.x)
    d = math.radians(0.5)
    return {"angle": (aim - d, aim + d), "speed": (7.0, 11.0), "side": (-0.2, 0.2)}


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def _cpu_seconds() -> float:
    """CPU time (user + system) of this process and of the batch pool's workers (from
    /proc, since the kept pool's workers are not reaped)."""
    from cuesim.batch.run import _POOL

    total = time.process_time()
    if _POOL:
        tick = os.sysconf("SC_CLK_TCK")
        for pid in list(_POOL[1]._processes or {}):
            try:
                with open(f"/proc/{pid}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / tick
            except OSError:
                pass
    return total


def timed_cpu(fn):
    c0 = _cpu_seconds()
    dt, out = timed(fn)
    return dt, _cpu_seconds() - c0, out


def local_rates(name, table, layout, sampler, loop_shots, chunk_size, repeats):
    """1 process on 1 numba thread, 2 worker processes of 1 thread, 1 process on 2 numba
    threads: alternated runs of the same shots, identical results."""
    # warm: this process (both kernels) and the 2 pool workers load the compiled core (the
    # pool is kept between runs, so its start is not in the timings); the pool is forked
    # before this process starts numba's threads, as a session would
    warm = ShotSampler(50, sampler.vary, seed=99)
    simulate_many(table, layout, warm, workers=1, threads=1)
    simulate_many(table, layout, warm, workers=2, chunk_size=10)
    simulate_many(table, layout, warm, workers=1, threads=2)
    t1s, t2s, tts, c1s, c2s, cts = [], [], [], [], [], []
    for _ in range(repeats):  # alternated, so a burst of load elsewhere hits all three
        t1, c1, one = timed_cpu(lambda: simulate_many(table, layout, sampler, workers=1,
                                                      threads=1, chunk_size=chunk_size))
        t2, c2, two = timed_cpu(lambda: simulate_many(table, layout, sampler, workers=2,
                                                      chunk_size=chunk_size))
        tt, ct, thr = timed_cpu(lambda: simulate_many(table, layout, sampler, workers=1,
                                                      threads=2, chunk_size=chunk_size))
        for k in one.keys():
            assert np.array_equal(one[k], two[k], equal_nan=True), k
            assert np.array_equal(one[k], thr[k], equal_nan=True), k
        t1s.append(t1)
        t2s.append(t2)
        tts.append(tt)
        c1s.append(c1)
        c2s.append(c2)
        cts.append(ct)
    t1, t2, tt = min(t1s), min(t2s), min(tts)
    c1, c2, ct = min(c1s), min(c2s), min(cts)
    m1, m2, mt = float(np.median(t1s)), float(np.median(t2s)), float(np.median(tts))
    # each round's three runs are next to each other in time: the median of their ratios is
    # the figure least moved by the machine's speed changing between the rounds
    p2 = float(np.median([a / b for a, b in zip(t1s, t2s, strict=True)]))
    pt = float(np.median([a / b for a, b in zip(t1s, tts, strict=True)]))
    # a plain loop of simulate on the first shots
    from cuesim.batch.core import Setup, make_shot

    setup = Setup(table, layout, "striker" if name == "novus" else "cue")
    loop_shots = min(loop_shots, sampler.n)
    shots = [make_shot(setup, one.params, k) for k in range(loop_shots)]
    tl, _ = timed(lambda: [simulate(table, layout, s) for s in shots])
    row = {
        "game": name, "shots": sampler.n, "chunk_size": chunk_size, "repeats": repeats,
        "mean_events": float(one["n_events"].mean()),
        "workers1_s": t1s, "workers1_shots_per_s": sampler.n / t1,
        "workers2_s": t2s, "workers2_shots_per_s": sampler.n / t2,
        "speedup": t1 / t2, "median_speedup": m1 / m2, "paired_speedup": p2,
        "simulate_loop_shots_per_s": loop_shots / tl,
        "cpu_s_workers1": c1s, "cpu_s_workers2": c2s,
        "cpu_overhead_of_2_workers": c2 / c1 - 1.0,
        "threads2_s": tts, "threads2_shots_per_s": sampler.n / tt,
        "thread_speedup": t1 / tt, "median_thread_speedup": m1 / mt,
        "paired_thread_speedup": pt,
        "cpu_s_threads2": cts, "cpu_overhead_of_2_threads": ct / c1 - 1.0,
    }
    print(f"{name:7s} {sampler.n} shots ({row['mean_events']:.1f} events/shot), chunks of "
          f"{chunk_size}, best of {repeats}: 1 thread {row['workers1_shots_per_s']:,.0f} "
          f"shots/s | 2 threads {row['threads2_shots_per_s']:,.0f} shots/s, speed-up "
          f"{row['thread_speedup']:.2f}x (target 1.9x) | 2 workers "
          f"{row['workers2_shots_per_s']:,.0f} shots/s, speed-up {row['speedup']:.2f}x "
          f"(target 1.8x) | plain loop of simulate "
          f"{row['simulate_loop_shots_per_s']:,.0f} shots/s\n"
          f"        (all runs, s: 1 thread {', '.join(f'{t:.2f}' for t in t1s)}; 2 threads "
          f"{', '.join(f'{t:.2f}' for t in tts)}; 2 workers "
          f"{', '.join(f'{t:.2f}' for t in t2s)}; median speed-ups: 2 threads "
          f"{m1 / mt:.2f}x, 2 workers {m1 / m2:.2f}x; median of each round's ratio: 2 threads "
          f"{pt:.2f}x, 2 workers {p2:.2f}x)\n"
          f"        CPU seconds (driver + workers), best: 1 thread {c1:.2f}, 2 threads "
          f"{ct:.2f} ({100 * (ct / c1 - 1):+.0f}%), 2 workers {c2:.2f} "
          f"({100 * (c2 / c1 - 1):+.0f}% CPU for running in parallel)")
    return row


def _timed_batch(table, layout, sampler, ruling: bool) -> float:
    t0 = time.perf_counter()
    simulate_many(table, layout, sampler, workers=1, threads=1, ruling=ruling, errors="mark")
    return time.perf_counter() - t0


def ruled_rates(n: int, repeats: int) -> list[dict[str, float]]:
    """Ruled against unruled shots/s, 1 process and 1 thread, random shots of three games
    from their opening layouts (the referee made fresh for each shot)."""
    rows = []
    for game in ("9-ball", "novus", "5-pins"):
        table = game_table(game)
        layout = start_layout(game, table)
        vary = NOVUS_VARY if game == "novus" else {"angle": (-math.pi, math.pi),
                                                   "speed": (1.0, 6.0)}
        sampler = ShotSampler(n, vary, seed=3)
        simulate_many(table, layout, ShotSampler(20, vary, seed=4), workers=1, threads=1,
                      ruling=True, errors="mark")
        plain, ruled = [], []
        for _ in range(repeats):  # alternated, so a burst of load elsewhere hits both
            plain.append(_timed_batch(table, layout, sampler, False))
            ruled.append(_timed_batch(table, layout, sampler, True))
        row = {"game": game, "shots": n, "unruled_shots_per_s": n / min(plain),
               "ruled_shots_per_s": n / min(ruled),
               "referee_us_per_shot": 1e6 * (min(ruled) - min(plain)) / n}
        print(f"ruled   {game:7s} {n} shots, best of {repeats}: unruled "
              f"{row['unruled_shots_per_s']:,.0f} shots/s (compiled batch) | ruled "
              f"{row['ruled_shots_per_s']:,.0f} shots/s (simulate + referee each) | the "
              f"difference {row['referee_us_per_shot']:.0f} us per shot")
        rows.append(row)
    return rows


def _noop(k):
    return k


def _best(label, n, local, dask):
    tl, td = min(local), min(dask)
    ml, md = float(np.median(local)), float(np.median(dask))
    row = {"shots": n, "local_s": local, "dask_s": dask, "overhead": td / tl - 1.0,
           "median_overhead": md / ml - 1.0}
    print(f"dask    {label}, best of {len(local)}: local 2 workers {tl:.2f} s "
          f"({n / tl:,.0f} shots/s) | LocalCluster 2x1 {td:.2f} s ({n / td:,.0f} shots/s) | "
          f"overhead {100 * row['overhead']:+.1f}% (medians: {100 * row['median_overhead']:+.1f}%)"
          f"\n        (all runs, s: local {', '.join(f'{t:.2f}' for t in local)}; "
          f"dask {', '.join(f'{t:.2f}' for t in dask)})")
    return row


def dask_overhead(n, chunk_sizes, repeats):
    import distributed

    table = cuesim.novus_table()
    layout = start_layout("novus", table)
    sampler = ShotSampler(n, NOVUS_VARY, seed=1)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    client = distributed.Client(cluster)
    rows = []
    try:
        simulate_many(table, layout, ShotSampler(200, NOVUS_VARY, seed=2), chunk_size=50,
                      cluster=client)  # warm: every worker loads the compiled core
        simulate_many(table, layout, ShotSampler(200, NOVUS_VARY, seed=2), chunk_size=50,
                      workers=2)  # the same for the local pool
        for chunk_size in chunk_sizes:
            local, dask = [], []
            for _ in range(repeats):
                tl, a = timed(lambda cs=chunk_size: simulate_many(table, layout, sampler,
                                                                  workers=2, chunk_size=cs))
                td, b = timed(lambda cs=chunk_size: simulate_many(table, layout, sampler,
                                                                  chunk_size=cs, cluster=client))
                for k in a.keys():
                    assert np.array_equal(a[k], b[k], equal_nan=True), k
                local.append(tl)
                dask.append(td)
            row = _best(f"{n} novus shots to memory, chunks of {chunk_size}", n, local, dask)
            rows.append({**row, "chunk_size": chunk_size, "output": "memory"})
        rows.append(dataset_overhead(client, table, layout, sampler, repeats))
        rows.append(scale_figures(client, table, layout))
    finally:
        client.close()
        cluster.close()
    return rows


def dataset_overhead(client, table, layout, sampler, repeats, chunk_size=10_000):
    """Workers writing a partitioned dataset: the local pool against the cluster."""
    local, dask = [], []
    with tempfile.TemporaryDirectory() as d:
        for r in range(repeats):
            tl, _ = timed(lambda r=r: simulate_to_dataset(
                table, layout, sampler, os.path.join(d, f"l{r}"), workers=2,
                chunk_size=chunk_size))
            td, _ = timed(lambda r=r: simulate_to_dataset(
                table, layout, sampler, os.path.join(d, f"d{r}"), cluster=client,
                chunk_size=chunk_size))
            local.append(tl)
            dask.append(td)
        parts = [os.path.join(d, "d0", f) for f in os.listdir(os.path.join(d, "d0"))
                 if f.startswith("part-")]
        size = sum(os.path.getsize(p) for p in parts)
    row = _best(f"{sampler.n} novus shots to a dataset written by the workers, chunks of "
                f"{chunk_size}", sampler.n, local, dask)
    return {**row, "chunk_size": chunk_size, "output": "dataset",
            "parquet_bytes_per_shot": size / sampler.n}


def scale_figures(client, table, layout, chunk_size=2000, tasks=400):
    """The inputs of the scaling model: compute cost per shot and per chunk (one chunk here,
    in this process), and the scheduler's cost per task (empty tasks, 2 in flight per
    worker thread, as the batch keeps them)."""
    import distributed

    from cuesim.batch.core import Setup
    from cuesim.batch.job import run_task

    setup = Setup(table, layout, "striker")
    sampler = ShotSampler(chunk_size, NOVUS_VARY, seed=3)
    run_task(setup, sampler, 0, 0, chunk_size, threads=1)  # warm
    per_chunk = min(timed(lambda: run_task(setup, sampler, 0, 0, chunk_size, threads=1))[0]
                    for _ in range(3))
    threads = sum(client.nthreads().values())
    t0 = time.perf_counter()
    ac = distributed.as_completed(loop=client.loop)
    submitted = 0
    for _ in range(2 * threads):
        ac.add(client.submit(_noop, submitted, pure=False))
        submitted += 1
    for _ in ac:
        if submitted < tasks:
            ac.add(client.submit(_noop, submitted, pure=False))
            submitted += 1
    per_task = (time.perf_counter() - t0) / tasks
    many = 10 * tasks  # all at once: the scheduler's throughput, not the round trip
    t0 = time.perf_counter()
    client.gather(client.map(_noop, range(many), pure=False))
    throughput = many / (time.perf_counter() - t0)
    row = {"chunk_size": chunk_size, "chunk_s": per_chunk, "shot_s": per_chunk / chunk_size,
           "round_trip_s": per_task, "tasks_per_s": throughput, "threads": threads}
    print(f"scale   one chunk of {chunk_size} novus shots: {per_chunk * 1e3:.0f} ms "
          f"({per_chunk / chunk_size * 1e6:.1f} us/shot, one core); the scheduler: "
          f"{per_task * 1e3:.2f} ms per task with 2 in flight per worker thread (the round "
          f"trip through the client, {tasks} empty tasks, {threads} worker threads), "
          f"{throughput:,.0f} tasks/s with {many} submitted at once")
    return row


def cli_memory(n, flags):
    """`cuesim batch novus` of n shots streamed to Parquet with `flags` in a fresh process:
    (exit code, seconds, the process's peak RSS in kB, its children's, the file's bytes)."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "m.parquet")
        args = ["batch", "novus", "--shots", str(n), "--vary", "speed=3:9", "--vary",
                "angle=80:100", "--vary", "x=0.2:0.8", *flags, "--out", out, "--quiet"]
        proc = subprocess.run([sys.executable, "-c", MEMORY_SCRIPT, *args],
                              capture_output=True, text=True, check=True)
        line = [x for x in proc.stdout.splitlines() if x.startswith("MEM")][-1].split()
        return int(line[1]), float(line[2]), int(line[3]), int(line[4]), os.path.getsize(out)


def streamed_memory(n):
    code, dt, me_kb, kids_kb, size = cli_memory(n, ["--workers", "2"])
    in_memory = n * 17 * (2 * 8 + 2) / 2 ** 20
    row = {"shots": n, "exit": code, "seconds": dt, "driver_peak_mib": me_kb / 1024,
           "worker_peak_mib": kids_kb / 1024, "file_mib": size / 2 ** 20,
           "per_piece_arrays_in_memory_mib": in_memory}
    print(f"memory  {n} novus shots streamed to Parquet with 2 workers in {dt:.1f} s: peak RSS "
          f"driver {row['driver_peak_mib']:.0f} MiB, largest worker "
          f"{row['worker_peak_mib']:.0f} MiB; file {row['file_mib']:.0f} MiB (the per-piece "
          f"arrays alone would take {in_memory:.0f} MiB in memory)")
    return row


def threaded_memory(sizes):
    """Peak RSS of one process on 2 numba threads (`cuesim batch novus ... --threads 2 --out
    x.parquet`, a fresh process each) against the number of shots: it should stay flat."""
    rows = []
    for n in sizes:
        code, dt, me_kb, _, size = cli_memory(n, ["--threads", "2"])
        rows.append({"shots": n, "exit": code, "seconds": dt, "peak_mib": me_kb / 1024,
                     "file_mib": size / 2 ** 20,
                     "per_piece_arrays_in_memory_mib": n * 17 * (2 * 8 + 2) / 2 ** 20})
    print("memory  one process on 2 numba threads, novus shots streamed to Parquet "
          "(a fresh process each):")
    print(f"        {'shots':>10} {'seconds':>8} {'shots/s':>9} {'peak RSS MiB':>13} "
          f"{'file MiB':>9} {'arrays in memory MiB':>21}")
    for r in rows:
        print(f"        {r['shots']:>10,} {r['seconds']:>8.1f} {r['shots'] / r['seconds']:>9,.0f} "
              f"{r['peak_mib']:>13.0f} {r['file_mib']:>9.1f} "
              f"{r['per_piece_arrays_in_memory_mib']:>21.1f}")
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="small counts (a smoke run)")
    ap.add_argument("--json", default=None, type=output_file,
                    help="also write every figure as JSON")
    ap.add_argument("--novus-shots", type=positive_int, default=None)
    ap.add_argument("--break-shots", type=positive_int, default=None)
    ap.add_argument("--dask-shots", type=positive_int, default=None)
    ap.add_argument("--memory-shots", type=positive_int, default=None)
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--no-memory", action="store_true")
    ap.add_argument("--no-ruled", action="store_true", help="skip the ruled shots' rates")
    ap.add_argument("--no-local", action="store_true",
                    help="skip the 1-vs-2 thread and worker rates")
    ap.add_argument("--repeats", type=positive_int, default=None,
                    help="runs per figure (default 5)")
    a = ap.parse_args(argv)
    if a.memory_shots is not None and a.memory_shots < 100:
        ap.error(f"--memory-shots must be at least 100 (its runs stream a hundredth, a tenth and "
                 f"all of it), got {a.memory_shots}")
    q = a.quick
    n_novus = a.novus_shots or (4000 if q else 40_000)
    n_break = a.break_shots or (400 if q else 4_000)
    n_dask = a.dask_shots or (4000 if q else 100_000)
    n_mem = a.memory_shots or (20_000 if q else 1_000_000)
    print(f"cuesim {cuesim.__version__} | Python {platform.python_version()} | "
          f"{platform.machine()} | {os.cpu_count()} CPUs visible | load average at start "
          f"{os.getloadavg()[0]:.2f} (other processes share the CPUs)")
    out: dict[str, object] = {}
    repeats = a.repeats or (1 if q else 5)
    table = cuesim.novus_table()
    if not a.no_local:
        out["novus"] = local_rates("novus", table, start_layout("novus", table),
                                   ShotSampler(n_novus, NOVUS_VARY, seed=1),
                                   300 if q else 2000, 2000, repeats)
        pool = game_table("9-ball")
        out["nine_ball_break"] = local_rates("9-ball", pool, start_layout("9-ball", pool),
                                             ShotSampler(n_break, nine_ball_vary(), seed=1),
                                             50 if q else 300, 200, repeats)
    if not a.no_ruled:
        out["ruled"] = ruled_rates(300 if q else 3000, repeats)
    if not a.no_memory:  # before Dask: a LocalCluster started here changes what the
        # fresh process of the memory run measures (its environment)
        out["memory"] = [streamed_memory(n_mem // 10), streamed_memory(n_mem)]
        out["memory_threads"] = threaded_memory([n_mem // 100, n_mem // 10, n_mem])
    if not a.no_dask:
        out["dask"] = dask_overhead(n_dask, (2000, 10000), repeats)
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
