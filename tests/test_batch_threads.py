"""Batch chunks run in one compiled kernel on several threads at once (`cuesim.sim.threads`):
the numbers are those of one thread and of a loop of `simulate`, bit for bit, whatever the
threads and processes; `threads` / `--threads` are checked at the door."""

from __future__ import annotations

import json
import math
import threading

import numba
import numpy as np
import pytest

from cuesim import start_layout
from cuesim.api import game_table
from cuesim.batch import BatchError, ShotGrid, ShotSampler, read_results, simulate_many
from cuesim.batch.core import Setup
from cuesim.batch.job import make_job, run_group
from cuesim.batch.run import _POOL, _drop_pool, plan, simulate_to_file
from cuesim.batch.store import parts_dir
from cuesim.cli import main
from cuesim.sim.batch_kernel import fork_unsafe, max_threads
from cuesim.sim.engine import DEFAULT_MAX_EVENTS
from tests.batch_util import assert_equals_loop, assert_same

VARY = {"x": (0.2, 0.8), "angle": (math.radians(75), math.radians(105)), "speed": (2.0, 9.0)}
TWO = pytest.mark.skipif(max_threads() < 2, reason="numba has a single thread here")


def _break_vary() -> dict[str, tuple[float, float]]:
    table = game_table("9-ball")
    layout = start_layout("9-ball", table)
    cue, apex = layout.get("cue"), layout.get("1")
    aim = math.atan2(apex.y - cue.y, apex.x - cue.x)
    return {"angle": (aim - 0.01, aim + 0.01), "speed": (7.0, 10.0), "side": (-0.2, 0.2)}


@TWO
def test_one_and_two_threads_give_identical_results(table, singles):
    sampler = ShotSampler(30, VARY, seed=11)
    one = simulate_many(table, singles, sampler, workers=1, threads=1, chunk_size=12)
    two = simulate_many(table, singles, sampler, workers=1, threads=2, chunk_size=12)
    default = simulate_many(table, singles, sampler, chunk_size=12)
    assert_same(one, two)
    assert_same(one, default)
    assert (one.manifest["workers"], one.manifest["threads"]) == (1, 1)
    assert (two.manifest["workers"], two.manifest["threads"]) == (1, 2)
    # by default: one process on numba's threads
    assert default.manifest["workers"] == 1
    assert default.manifest["threads"] == numba.get_num_threads()


@TWO
def test_threads_equal_a_loop_of_simulate(table, singles):
    res = simulate_many(table, singles, ShotSampler(16, VARY, seed=5), threads=2, chunk_size=7)
    assert (res["status"] == 0).all()
    assert_equals_loop(table, singles, res, "striker")


@TWO
def test_nine_ball_breaks_on_two_threads_equal_simulate():
    """Breaks on a grid sorted by speed (every thread takes shots from the whole range)."""
    table = game_table("9-ball")
    layout = start_layout("9-ball", table)
    vary = _break_vary()
    grid = ShotGrid({"speed": (*vary["speed"], 3), "angle": (*vary["angle"], 3)})
    res = simulate_many(table, layout, grid, threads=2)
    assert res["n_events"].min() > 50
    assert_equals_loop(table, layout, res, "cue")
    assert_same(res, simulate_many(table, layout, grid, threads=1))


@TWO
@pytest.mark.parametrize("first", [(4, 9), (64, 4096)])
def test_buffers_that_fill_grow_on_every_thread(monkeypatch, first):
    """A shot that fills its thread's event or segment buffer runs again with larger ones, on
    each thread at once; the larger buffers stay for the thread's later shots (first = (4, 9):
    every shot regrows; (64, 4096): the shots of more than 64 events do, the slow ones first
    in the grid do not)."""
    from cuesim.sim import batch_kernel

    table = game_table("9-ball")
    layout = start_layout("9-ball", table)
    grid = ShotGrid({"speed": (2.0, 10.0, 4), "angle": (*_break_vary()["angle"], 3)})
    full = simulate_many(table, layout, grid, threads=1)
    assert full["n_events"].max() > 64 > full["n_events"].min()
    monkeypatch.setattr(batch_kernel, "block_capacity", lambda n: first)
    for threads in (1, 2):
        assert_same(full, simulate_many(table, layout, grid, threads=threads))
    assert_equals_loop(table, layout, full, "cue")


@TWO
def test_marked_shots_and_a_chunk_smaller_than_the_threads(table, singles):
    shots = {"x": np.array([0.5, 0.05, 0.6, 0.4, 0.5]),  # shot 1: outside the zone
             "angle": np.radians([90.0, 90.0, 80.0, 100.0, 95.0]),
             "speed": np.array([6.0, 5.0, 4.0, 7.0, 3.0])}
    one = simulate_many(table, singles, shots, threads=1, errors="mark", chunk_size=1)
    two = simulate_many(table, singles, shots, threads=2, errors="mark", chunk_size=1)
    three = simulate_many(table, singles, shots, threads=2, errors="mark", chunk_size=3)
    assert list(one["status"]) == [0, 1, 0, 0, 0]
    assert_same(one, two)
    assert_same(one, three)


@TWO
def test_worker_processes_with_threads_give_the_same_numbers(table, singles):
    """Two processes of two threads each, after this process has run threads (when numba's
    threading layer was started here, by numba.get_num_threads in these tests, and is GNU
    OpenMP, the pool is spawned, not forked: a forked child could not run numba's threads)."""
    numba.get_num_threads()  # starts the layer here, also when this test runs alone
    sampler = ShotSampler(24, VARY, seed=2)
    here = simulate_many(table, singles, sampler, threads=2, chunk_size=6)
    unsafe = fork_unsafe()
    assert unsafe == (numba.threading_layer() == "omp")  # GNU OpenMP on Linux
    _drop_pool()
    procs = simulate_many(table, singles, sampler, workers=2, chunk_size=6)
    assert (procs.manifest["workers"], procs.manifest["threads"]) == (2, 1)
    both = simulate_many(table, singles, sampler, workers=2, threads=2, chunk_size=6)
    assert (both.manifest["workers"], both.manifest["threads"]) == (2, 2)
    if unsafe:
        assert _POOL[1]._mp_context.get_start_method() == "spawn"
    assert_same(here, procs)
    assert_same(here, both)


@TWO
@pytest.mark.parametrize("threads", [1, 2])
def test_a_shot_that_cannot_be_played_stops_after_the_chunks_before_it(tmp_path, table,
                                                                       singles, threads):
    """In one process the next chunk's shots are made while the loop of the one before runs
    (2 threads): the error still comes after every chunk before it is written, and no helper
    thread is left behind (a later pool could not be forked)."""
    x = np.full(9, 0.5)
    x[7] = 0.05  # outside the zone
    shots = {"x": x, "angle": np.radians(np.linspace(80, 100, 9)), "speed": np.full(9, 5.0)}
    out = tmp_path / "s.npz"
    before = threading.active_count()
    with pytest.raises(BatchError, match="shot 7"):
        simulate_to_file(table, singles, shots, out, threads=threads, chunk_size=3)
    assert threading.active_count() == before
    assert not out.exists()
    assert len(list(parts_dir(out).glob("chunk-*.npz"))) == 2


def test_a_cluster_task_runs_on_the_threads_asked(table, singles):
    """What a Dask worker runs (run_group): the same numbers for 1 and 2 threads; a cluster
    run defaults to one thread per task, and the bound of this machine does not apply."""
    setup = Setup(table, singles, "striker")
    sampler = ShotSampler(12, VARY, seed=4)
    parts = [(sampler, 0, 0, 6), (sampler, 1, 6, 12)]
    one = run_group(setup, parts, threads=1)["chunks"]
    two = run_group(setup, parts, threads=2)["chunks"]
    for (c1, a), (c2, b) in zip(one, two, strict=True):
        assert c1 == c2
        assert_same(a, b)
    job = make_job(table, singles, sampler, 6, False, None, DEFAULT_MAX_EVENTS, "raise")
    assert plan(job, None, None, cluster="tcp://127.0.0.1:8786")[1] == 1 and job.threads == 1
    assert plan(job, None, max_threads() + 4, cluster="tcp://127.0.0.1:8786")[1] == \
        max_threads() + 4


def test_how_processes_and_threads_combine(table, singles):
    sampler = ShotSampler(4, VARY, seed=1)

    def split(workers, threads, **kw):
        job = make_job(table, singles, sampler, None, kw.get("ruling", False), None,
                       DEFAULT_MAX_EVENTS, "raise", events=kw.get("events", False))
        return plan(job, workers, threads)

    assert split(None, None) == (1, numba.get_num_threads())
    assert split(None, 1) == (1, 1)
    assert split(3, None) == (3, 1)
    assert split(3, 1) == (3, 1)
    assert split(1, None) == (1, numba.get_num_threads())
    # through simulate (a ruling, event logs): one process per core, one thread each
    from cuesim.batch.run import local_cores

    assert split(None, None, ruling="novus") == (local_cores(), 1)
    assert split(None, None, events=True) == (local_cores(), 1)


BAD_THREADS = [0, -1, 1.5, 2.0, "2", True]


@pytest.mark.parametrize("threads", BAD_THREADS)
def test_bad_threads_are_refused(table, singles, tmp_path, threads):
    shots = {"x": np.array([0.5]), "angle": np.array([1.5]), "speed": np.array([5.0])}
    with pytest.raises(BatchError, match="threads must be a positive integer"):
        simulate_many(table, singles, shots, threads=threads)
    out = tmp_path / "t.npz"
    with pytest.raises(BatchError, match="threads must be a positive integer"):
        simulate_to_file(table, singles, shots, out, threads=threads)
    assert not out.exists() and not parts_dir(out).exists()


def test_more_threads_than_numba_has_are_refused(table, singles):
    shots = {"x": np.array([0.5]), "angle": np.array([1.5]), "speed": np.array([5.0])}
    with pytest.raises(BatchError, match=f"threads must be at most {max_threads()} here"):
        simulate_many(table, singles, shots, threads=max_threads() + 1)


def _cli(args, capsys):
    code = main(["batch", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@TWO
def test_cli_threads(tmp_path, capsys):
    common = ["novus", "--shots", "20", "--vary", "speed=2:8", "--vary", "angle=80:100",
              "--seed", "4", "--chunk-size", "8"]
    one, two = tmp_path / "one.npz", tmp_path / "two.npz"
    code, _, err = _cli([*common, "--threads", "1", "--out", str(one)], capsys)
    assert code == 0, err
    assert "1 process x 1 thread" in err
    code, _, err = _cli([*common, "--threads", "2", "--out", str(two), "--quiet"], capsys)
    assert code == 0 and err == ""
    a, b = read_results(one), read_results(two)
    assert_same(a, b)
    assert (a.manifest["threads"], b.manifest["threads"]) == (1, 2)
    # the same run with other threads is complete already: threads do not change the numbers
    code, stdout, err = _cli([*common, "--threads", "1", "--out", str(two)], capsys)
    assert code == 0 and "already complete" in stdout, err
    assert json.loads(json.dumps(read_results(two).manifest))["threads"] == 2


@pytest.mark.parametrize("value, message", [
    ("0", "--threads must be a positive integer, got 0"),
    ("-2", "--threads must be a positive integer, got -2"),
    ("two", "--threads must be a positive integer, got 'two'"),
    ("1.5", "--threads must be a positive integer, got '1.5'"),
    ("9999", f"threads must be at most {max_threads()} here"),
])
def test_cli_bad_threads(tmp_path, capsys, value, message):
    out = tmp_path / "o.npz"
    code, _, err = _cli(["novus", "--shots", "5", "--threads", value, "--out", str(out)],
                        capsys)
    assert code == 2
    assert message in err and err.startswith("cuesim: error:") and err.count("\n") == 1
    assert not out.exists() and not parts_dir(out).exists()


NO_THREADING_LAYER = """
import math
from numba.np.ufunc import parallel
from cuesim import NovusShot, novus_table, start_layout
from cuesim.api import simulate_input
from cuesim.batch import ShotSampler, simulate_many
from cuesim.sim.batch_kernel import fork_unsafe
from cuesim.sim.batch_parallel import run_inputs
table = novus_table()
layout = start_layout("novus", table)
vary = {"angle": (math.radians(80), math.radians(100)), "speed": (3.0, 8.0)}
out = simulate_many(table, layout, ShotSampler(8, vary, seed=1), workers=1, threads=2,
                    chunk_size=4)
shots = [simulate_input(table, layout, NovusShot(x=0.5, angle=a, speed=5.0))
         for a in (1.4, 1.5, 1.6, 1.7)]
results = run_inputs(shots)
print(int(out["n_events"].sum()) > 0 and all(r.n_events > 0 for r in results),
      parallel._is_initialized, fork_unsafe())
"""


@TWO
def test_a_threaded_batch_never_starts_numbas_threading_layer(tmp_path):
    """Issue 16: the batch and the vector environments' runner (run_inputs) run their kernels
    on Python threads (the kernels release the GIL), not numba's parallel loops: numba's
    threading layer (GNU OpenMP here) never starts, so the process can still fork workers."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", NO_THREADING_LAYER], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False", "False"]


def test_run_on_threads_raises_the_first_error_and_leaves_no_thread():
    from cuesim.sim.threads import run_on_threads

    calls = []

    def kernel(k: int) -> None:
        calls.append(k)
        if len(calls) == 2:
            raise ValueError("the second call fails")

    before = threading.active_count()
    with pytest.raises(ValueError, match="second call"):
        run_on_threads(3, kernel, 7)
    assert calls == [7, 7, 7]
    assert threading.active_count() == before


def test_kept_threads_serve_every_call_and_end_with_the_run():
    """KeptThreads: the helper threads start at the first call that needs them, serve every
    later call (no thread started per call), raise a helper's error in the caller, and are
    gone once the run closes them (a later worker pool can still fork)."""
    from cuesim.sim.threads import KeptThreads, run_on_threads

    seen: list[str] = []
    lock = threading.Lock()

    def kernel(k: int) -> None:
        with lock:
            seen.append(threading.current_thread().name)
        if k < 0 and threading.current_thread() is not threading.main_thread():
            raise ValueError("a helper fails")

    before = threading.active_count()
    with KeptThreads() as kept:
        for _ in range(5):
            kept.call(run_on_threads, 3, kernel, 1)
        assert threading.active_count() == before + 2
        with pytest.raises(ValueError, match="a helper fails"):
            kept.call(run_on_threads, 3, kernel, -1)
        kept.call(run_on_threads, 2, kernel, 1)  # fewer than kept: the others wait
        run_on_threads(2, kernel, 1)  # in the `with` block: the kept helpers as well
        other = threading.Thread(target=run_on_threads, args=(2, kernel, 1))
        other.start()  # another thread, outside `call`: a thread of its own, joined
        other.join()
    assert threading.active_count() == before
    run_on_threads(2, kernel, 1)  # after the block: a thread of its own again
    helpers = {name for name in seen if name.startswith("cuesim-kept-")}
    assert helpers == {"cuesim-kept-1", "cuesim-kept-2"}
    assert sum(name.startswith("cuesim-kernel-") for name in seen) == 2
    assert len(seen) == 5 * 3 + 3 + 2 + 2 + 2 + 2


@TWO
def test_a_threaded_batch_leaves_no_thread_and_equals_one_thread(table, singles):
    """A batch of several chunks on 2 threads runs its chunks on kept helper threads: the
    numbers are those of one thread, and no thread is left once it returns."""
    before = threading.active_count()
    two = simulate_many(table, singles, ShotSampler(60, VARY, seed=4), threads=2,
                        chunk_size=7)
    assert threading.active_count() == before
    one = simulate_many(table, singles, ShotSampler(60, VARY, seed=4), threads=1,
                        chunk_size=7)
    assert_same(one, two)


def test_take_claims_rows_atomically_on_every_thread():
    """threads.take: counter[0] += amount, returning the value before; threads claiming rows
    at once get disjoint runs that tile the claimed range (run_many packs shots this way)."""
    from numba import njit

    from cuesim.sim.threads import run_on_threads, take

    @njit(nogil=True)
    def claim(counter: np.ndarray, starts: np.ndarray, sizes: np.ndarray,
              turn: np.ndarray) -> None:
        while True:
            k = take(turn, 1)
            if k >= sizes.shape[0]:
                break
            starts[k] = take(counter, sizes[k])

    sizes = np.arange(1, 2001, dtype=np.int64) % 7
    counter, starts = np.zeros(1, np.int64), np.zeros(sizes.size, np.int64)
    run_on_threads(2, claim, counter, starts, sizes, np.zeros(1, np.int64))
    assert counter[0] == sizes.sum()
    covered = np.zeros(int(sizes.sum()), np.int64)
    for s, n in zip(starts, sizes, strict=True):
        covered[s:s + n] += 1
    assert (covered == 1).all()
