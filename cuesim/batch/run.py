"""Running a batch: chunks, workers (local processes or a Dask cluster), results in memory or
streamed to a file, progress on stderr.

Each chunk runs in one compiled kernel on several threads at once, the kernel releasing the
GIL (cuesim.sim.batch_kernel.run_shots, cuesim.sim.threads; their number is numba's setting,
NUMBA_NUM_THREADS or numba.set_num_threads). How a local run splits the cores (`plan`): by
default one process whose threads take every core; `workers=N` (N > 1) processes take one
thread each unless `threads` says otherwise; runs with a ruling or event logs go through
`simulate` shot by shot (one thread a process) on every core's process. On a Dask cluster each
task uses `threads` threads (default 1: the cluster's worker threads are its parallelism). In
one process on several threads, each chunk's Python work (its shots made and checked) and the
writing of the chunk before overlap the compiled loop (`_pipelined`). The numbers are bit for
bit the same whatever the split.
"""

from __future__ import annotations

import atexit
import concurrent.futures as cf
import json
import multiprocessing
import os
import shutil
import threading
import time
from collections.abc import Callable, Collection, Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any

import numpy as np

from cuesim.batch.chunks import Todo
from cuesim.batch.cluster import connect, dashboard, run_dask
from cuesim.batch.job import (
    Job,
    Payload,
    check_game_label,
    make_job,
    manifest,
    prepare_task,
    run_group,
    run_task,
)
from cuesim.batch.limits import check_held, check_parquet_file
from cuesim.batch.params import BatchError
from cuesim.batch.progress import Progress
from cuesim.batch.store import (
    chunk_path,
    contact_label,
    done_chunks,
    finish_run,
    is_finished,
    open_run,
    out_format,
    read_manifest,
    run_lock,
    write_chunk,
)
from cuesim.output import check_writable
from cuesim.sim.batch_kernel import fork_unsafe, max_threads
from cuesim.sim.engine import DEFAULT_MAX_EVENTS
from cuesim.sim.threads import KeptThreads, default_threads
from cuesim.tables.layout import Layout


class BatchResult:
    """The summary arrays of a batch, one row per shot, in shot order.

    shot (N,) run-wide index; param.<name> (N,) the shot's parameters (SI, radians);
    status (N,) 0 = simulated, 1 = not playable (with errors='mark'; the labels are the
    manifest's "status_labels", the categories of the Parquet files); final_xy (N, n, 2) where
    each piece stopped (or was captured); final_on (N, n) still on the table; pocketed (N, n)
    captured during the shot; first_kind (N,) 0 none / 1 piece / 2 rail, first_index (N,) the
    piece index (1) or rail index (2) the struck piece touched first, first_t its time;
    event_counts (N, 9) events per kind (EventKind order), n_events, duration (s), truncated
    (the event limit stopped the shot); with a ruling: legal, turn_passes, articles (the
    violated articles, ';'-separated), and in 5-pins and 14.1 points and points_opponent (the
    shot's points for the shooter and for the opponent; a 14.1 foul's are the shooter's, < 0);
    a truncated shot is not ruled (False, False, '' and 0: it has no end to rule on);
    with events: events (sum of n_events, 7) every shot's event log one after the other
    (columns of cuesim.sim.events; events(k) gives shot k's).
    `ids` names the n pieces.
    """

    def __init__(self, arrays: dict[str, np.ndarray], ids: list[str],
                 manifest: dict[str, Any]) -> None:
        self.arrays = arrays
        self.ids = list(ids)
        self.manifest = manifest

    def __getitem__(self, name: str) -> np.ndarray:
        """A column by name; KeyError naming the columns there are (a shot's parameter is
        `param.<name>`: res["param.speed"], not res["speed"])."""
        try:
            return self.arrays[name]
        except KeyError:
            hint = f" (its parameter is 'param.{name}')" if f"param.{name}" in self.arrays else ""
            raise KeyError(f"no column {name!r}{hint}; the columns are "
                           f"{', '.join(self.arrays)}") from None

    def __contains__(self, name: object) -> bool:
        return name in self.arrays

    def __len__(self) -> int:
        return len(self.arrays["shot"])

    def keys(self) -> list[str]:
        return list(self.arrays)

    @property
    def params(self) -> dict[str, np.ndarray]:
        return {k[len("param."):]: v for k, v in self.arrays.items() if k.startswith("param.")}

    def _row(self, k: Any, what: str) -> int:
        """Shot row k checked: an integer (not a bool) within the result, negative from the
        end as for a list; else a BatchError naming the method, the row and the range."""
        n = len(self)
        if isinstance(k, bool) or not isinstance(k, int | np.integer):
            raise BatchError(f"{what}: the shot row must be an integer, got {k!r}")
        if not -n <= k < n:
            raise BatchError(f"{what}: shot row {k} is not in this result of {n} shots "
                             f"(rows 0 to {n - 1}, or -{n} to -1 from the end)")
        return int(k) % n

    def events(self, k: int) -> np.ndarray:
        """The event log of shot k: rows of time, kind, a, b, index, speed, direction."""
        if "events" not in self.arrays:
            raise BatchError("this result holds no event logs; run with events=True (--events)")
        k = self._row(k, "events")
        ends = self.__dict__.get("_ends")
        if ends is None:
            ends = self.__dict__["_ends"] = np.cumsum(self.arrays["n_events"])
        stop = int(ends[k])
        return self.arrays["events"][stop - int(self.arrays["n_events"][k]):stop]

    def pocketed_ids(self, k: int) -> list[str]:
        k = self._row(k, "pocketed_ids")
        return [self.ids[i] for i in np.flatnonzero(self.arrays["pocketed"][k])]

    def first_contact(self, k: int) -> str | None:
        """What the struck piece touched first in shot k: a piece id, 'rail:<name>' or None."""
        k = self._row(k, "first_contact")
        return contact_label(int(self.arrays["first_kind"][k]),
                             int(self.arrays["first_index"][k]), self.ids,
                             self.manifest.get("rails", []))


# -- executors --------------------------------------------------------------------------------
def local_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


PARENT_POLL = 0.5  # s between a worker's checks that the process that started it still lives


def _die_with(parent: int) -> None:
    """Watch the parent (a daemon thread of each worker): when it is gone (killed, even with
    SIGKILL, which runs no clean-up), the worker is re-parented and ends itself at once."""
    while True:
        time.sleep(PARENT_POLL)
        if os.getppid() != parent:
            os._exit(1)


def _warm(parent: int | None = None) -> None:
    """Worker start-up: tie the worker's life to its parent, import the core (its compiled
    code comes from numba's cache)."""
    if parent is not None:
        threading.Thread(target=_die_with, args=(parent,), daemon=True,
                         name="cuesim-parent-watch").start()
    import cuesim.batch.core  # noqa: F401
    import cuesim.sim.batch_kernel  # noqa: F401


def _mp_context(threaded: bool = False) -> multiprocessing.context.BaseContext:
    """fork where it is safe (POSIX, one thread: the workers inherit the loaded core and no
    `if __name__ == "__main__"` guard is needed), spawn otherwise (scripts then need the
    guard). Workers that run numba threads (`threaded`) are spawned too once this process has
    started GNU OpenMP's threads, which a forked child cannot use (numba ends it)."""
    if ("fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1
            and not (threaded and fork_unsafe())):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


# [workers, executor, whether its workers may run numba threads]: kept between runs, so
# workers start once
_POOL: list[Any] = []
_POOL_EXIT: list[bool] = []


def _pool(workers: int, threaded: bool = False) -> cf.ProcessPoolExecutor:
    """The process pool of `workers` workers, started once and reused by later runs (each
    worker loads the compiled core once). `threaded`: its workers will run numba threads (a
    pool forked after this process started GNU OpenMP is replaced by a spawned one)."""
    if _POOL and _POOL[0] == workers and (_POOL[2] or not threaded):
        return _POOL[1]
    _drop_pool()
    context = _mp_context(threaded)
    pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=context,
                                  initializer=_warm, initargs=(os.getpid(),))
    if not _POOL_EXIT:
        atexit.register(_drop_pool)  # ended before the interpreter tears modules down
        _POOL_EXIT.append(True)
    _POOL[:] = [workers, pool, context.get_start_method() != "fork" or not fork_unsafe()]
    return pool


def _drop_pool() -> None:
    if _POOL:
        _POOL[1].shutdown(wait=True, cancel_futures=True)
        _POOL.clear()


def _local_task(job: Job, c: int, sink: Any) -> tuple[Any, tuple[Any, ...]]:
    """The function and arguments that compute chunk c in a local worker: its arrays, or
    (with a sink) the chunk written by the worker and its row count."""
    if sink is None:
        return run_task, (*job.task(c), job.threads)
    return _written, (job.setup, job.task(c)[1:], sink, job.threads)


def _written(setup: Any, part: tuple[Any, int, int, int], sink: Any,
             threads: int | None = None) -> int:
    return int(run_group(setup, [part], sink, threads)["chunks"][0][1])


def _pipelined(job: Job, chunks: Iterable[int], sink: Any = None
               ) -> Iterator[tuple[int, Payload]]:
    """The chunks in this process, in order, each chunk's Python work (its shots made and
    checked) done while the compiled loop of the chunk before runs on its threads in a helper
    thread (the loop releases the GIL), and each chunk given out (written, by the caller or
    the sink) while the next one's loop runs: no core waits for a chunk's Python. The loops'
    helper threads are kept from chunk to chunk (`KeptThreads`) and end with the run. A shot
    that cannot be played stops the run once every chunk before it has been given out."""
    with KeptThreads() as kept, cf.ThreadPoolExecutor(1, thread_name_prefix="cuesim-batch") \
            as helper:
        running: tuple[int, dict[str, np.ndarray], cf.Future[None]] | None = None
        for c in chunks:
            try:
                out, loop = prepare_task(*job.task(c))
            except BatchError:
                if running is not None:
                    running[2].result()
                    yield _given(job, running[0], running[1], sink)
                raise
            done, running = running, (c, out, helper.submit(kept.call, loop, job.threads))
            if done is not None:
                done[2].result()
                yield _given(job, done[0], done[1], sink)
        if running is not None:
            running[2].result()
            yield _given(job, running[0], running[1], sink)


def _given(job: Job, c: int, out: dict[str, np.ndarray], sink: Any) -> tuple[int, Payload]:
    """Chunk c's payload: its arrays, or (with a sink) its row count once the sink wrote it."""
    if sink is None:
        return c, out
    sink.write(c, out)
    return c, job.rows(c)


def _run_local(job: Job, chunks: Collection[int], workers: int, sink: Any = None
               ) -> Iterator[tuple[int, Payload]]:
    """`chunks` (a range or a Todo: read as they are run, never listed) in this process or
    a pool of `workers` processes."""
    if (workers <= 1 or len(chunks) <= 1) and len(chunks) > 1 and (job.threads or 1) > 1:
        yield from _pipelined(job, chunks, sink)
        return
    if workers <= 1 or len(chunks) <= 1:
        for c in chunks:
            fn, args = _local_task(job, c, sink)
            yield c, fn(*args)
        return
    pool = _pool(workers, threaded=job.threads is None or job.threads > 1)
    pending: dict[cf.Future[Payload], int] = {}
    todo = iter(chunks)
    clean = False
    try:
        while True:
            for c in islice(todo, max(0, 2 * workers - len(pending))):
                fn, args = _local_task(job, c, sink)
                pending[pool.submit(fn, *args)] = c
            if not pending:
                break
            finished, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for fut in sorted(finished, key=lambda f: pending[f]):
                c = pending.pop(fut)
                yield c, fut.result()
        clean = True
    except BatchError:
        for fut in pending:
            fut.cancel()
        cf.wait(pending)
        clean = True
        raise
    finally:
        if not clean:  # interrupted, a worker died, or the caller stopped reading
            _drop_pool()


def _execute(job: Job, chunks: Collection[int], workers: int | None, client: Any, sink: Any = None,
             bar: Progress | None = None) -> Iterator[tuple[int, Payload]]:
    if client is not None:
        return run_dask(job, chunks, client, sink, bar)
    return _run_local(job, chunks, _workers(workers), sink)


def _announce(client: Any, bar: Progress, workers: int = 1, threads: int = 1) -> None:
    """Say where a cluster run goes and where its dashboard is; on a local run, note its
    processes and threads on the progress line."""
    if client is None:
        bar.note = (f"{workers} process{'es' if workers != 1 else ''} x {threads} thread"
                    f"{'s' if threads != 1 else ''}")
        return
    link = dashboard(client)
    workers = len(client.nthreads())
    bar.say(f"on the Dask cluster at {client.scheduler.address} ({workers} worker"
            f"{'s' if workers != 1 else ''})" + (f"; dashboard: {link}" if link else ""))


# local worker processes per core at most: each process loads the whole compiled core (numba,
# numpy and the kernels: 100+ MB each), and the shots are pure computation, so processes past
# the cores only share them; a few per core still lets a user overlap writing with computing
WORKERS_PER_CORE = 4


def _workers(workers: int | None, local: bool = True) -> int:
    """The number of processes of a run, checked: a positive integer, and on this machine at
    most WORKERS_PER_CORE per core (100,000 would start one process per chunk)."""
    if workers is None:
        return local_cores()
    if isinstance(workers, bool) or not isinstance(workers, int | np.integer) or workers < 1:
        raise BatchError(f"workers must be a positive integer, got {workers!r}")
    most = WORKERS_PER_CORE * local_cores()
    if local and workers > most:
        raise BatchError(f"workers must be at most {most} here ({WORKERS_PER_CORE} processes "
                         f"per core, {local_cores()} cores), got {workers}")
    return int(workers)


def _check_threads(threads: int | None) -> int | None:
    if threads is None:
        return None
    if isinstance(threads, bool) or not isinstance(threads, int | np.integer) or threads < 1:
        raise BatchError(f"threads must be a positive integer, got {threads!r}")
    return int(threads)


def plan(job: Job, workers: int | None, threads: int | None, cluster: Any = None
         ) -> tuple[int, int]:
    """(processes, threads per process) of a run, checking both (a BatchError names what
    is wrong); sets job.threads. Local defaults: one process on threads (every core, or
    NUMBA_NUM_THREADS / numba.set_num_threads) for the compiled loop; with workers > 1, one
    thread each; a run with a ruling or event logs (simulate, shot by shot) on every core's
    process. On a cluster (`cluster` given), threads is per task, default 1, and is not
    checked against this machine."""
    threads = _check_threads(threads)
    if cluster is not None:
        job.threads = threads or 1
        return _workers(workers, local=False), job.threads
    compiled = job.setup.ruling is None and not job.setup.events
    if threads is not None and threads > max_threads():
        raise BatchError(f"threads must be at most {max_threads()} here, got {threads} (numba "
                         "starts NUMBA_NUM_THREADS threads, by default one per core)")
    if workers is None:
        workers = 1 if compiled else local_cores()
    n_workers = _workers(workers)
    if threads is None:
        threads = default_threads() if n_workers == 1 and compiled else 1
    job.threads = threads
    return n_workers, threads

# -- the public entry points ------------------------------------------------------------------
def simulate_many(table: Any, layout: Layout, shots: Any, workers: int | None = None,
                  chunk_size: int | None = None, ruling: bool | str = False,
                  cluster: Any = None, struck: str | None = None,
                  max_events: int = DEFAULT_MAX_EVENTS, errors: str = "raise",
                  progress: bool = False, state: Any = None,
                  events: bool = False, threads: int | None = None) -> BatchResult:
    """Simulate many shots on one table from one layout; results as arrays (BatchResult).

    shots: a numpy structured array, a dict of arrays or a pyarrow table of shot parameters
    (novus: x, angle, speed, optional y, offset; ball games: angle, speed, optional side,
    height, elevation, end_mass (the cue's, kg), and x, y to place the struck ball), SI units
    and radians, and any coefficient of the table's physics (mu_slide, e_ball, ...; novus
    mu_puck, e_rail, ...: the names `table.with_physics` takes), each shot then played on
    `table.with_physics(...)` of its own values; a list of NovusShot / CueShot objects; a
    ShotSampler or a ShotGrid (which vary or fix them alike). threads: threads per process,
    running each chunk's shots in parallel in one compiled call; workers: local
    processes. Default: one process whose threads take every core (numba's number:
    NUMBA_NUM_THREADS, numba.set_num_threads); workers > 1 take 1 thread each unless
    `threads` is given; with a ruling or event logs (each shot through `simulate`, one
    thread) workers default to every core. cluster: a Dask scheduler address or a
    distributed.Client (default or not) to run the chunks on instead, `threads` per task
    (default 1). The numbers are the same, bit for bit, for any workers and threads.
    ruling: True (or the game's name) adds each shot's ruling, as the first shot of a fresh
    game or in `state` (a game state: a dict, or a JSON file of one; novus shots are then
    played from the shooter's side, 5-pins shots strike the shooter's ball). events: keep
    every shot's event log (rows of cuesim.sim.events' 7 columns; BatchResult.events(k)).
    errors: 'raise' stops at the first shot that cannot be played, 'mark' gives it status 1.
    The results are held in memory: more shots than it can hold are refused (a BatchError)
    before anything runs; simulate_to_file (.parquet) and simulate_to_dataset stream them.
    """
    job = make_job(table, layout, shots, chunk_size, ruling, struck, max_events, errors,
                   state, events)
    n_workers, n_threads = plan(job, workers, threads, cluster)
    check_held(job, "held in memory by simulate_many",
               "here (simulate_to_file to .parquet, or simulate_to_dataset, stream them)")
    info = manifest(job, n_workers, cluster if isinstance(cluster, str) else None, n_threads)
    bar = Progress(job.n, 0, enabled=progress)
    whole = _Gathered(job)
    client, own = connect(cluster) if cluster is not None else (None, False)
    try:
        _announce(client, bar, n_workers, n_threads)
        for c, arrays in _execute(job, range(job.n_chunks), n_workers, client, None, bar):
            assert isinstance(arrays, dict)
            whole.add(c, arrays)
            bar.update(len(arrays["shot"]))
    finally:
        if own:
            client.close()
    bar.close()
    return BatchResult(whole.arrays(), info["ids"], info)


class _Gathered:
    """A run's chunks gathered into its arrays as they come, in any order: each fixed-width
    array is allocated once and filled in place (memory: the result and the chunks in
    flight); event logs and text (their widths vary) are joined at the end."""

    def __init__(self, job: Job) -> None:
        self.job = job
        self.names: list[str] = []
        self.whole: dict[str, np.ndarray] = {}
        self.ragged: dict[str, dict[int, np.ndarray]] = {}

    def add(self, c: int, arrays: dict[str, np.ndarray]) -> None:
        start, stop = self.job.bounds(c)
        for name, a in arrays.items():
            if name not in self.names:
                self.names.append(name)
            if name == "events" or a.dtype.kind in "OUS":
                self.ragged.setdefault(name, {})[c] = a
                continue
            into = self.whole.get(name)
            if into is None or np.result_type(into, a) != into.dtype:
                grown = np.empty((self.job.n, *a.shape[1:]), a.dtype if into is None
                                 else np.result_type(into, a))
                if into is not None:
                    grown[...] = into
                into = self.whole[name] = grown
            into[start:stop] = a

    def arrays(self) -> dict[str, np.ndarray]:
        chunks = range(self.job.n_chunks)
        return {name: self.whole[name] if name in self.whole else
                np.concatenate([self.ragged[name][c] for c in chunks]) for name in self.names}


def simulate_to_file(table: Any, layout: Layout, shots: Any, out: str | os.PathLike[str],
                     workers: int | None = None, chunk_size: int | None = None,
                     ruling: bool | str = False, cluster: Any = None,
                     struck: str | None = None, max_events: int = DEFAULT_MAX_EVENTS,
                     errors: str = "raise", overwrite: bool = False, progress: bool = False,
                     game: str | None = None,
                     on_chunk: Callable[[int], None] | None = None, state: Any = None,
                     events: bool = False, threads: int | None = None) -> dict[str, Any]:
    """Like simulate_many (workers, threads: see there), streaming each chunk to disk and
    writing `out` (.parquet or .npz) only when every chunk is done (see cuesim.batch.store).
    An interrupted run resumes from its chunks when run again with the same settings (any
    workers and threads); a finished `out` of the same settings is left as it is (nothing to
    do). Returns the manifest, with "already_complete": True in the
    second case. On a cluster the chunks' results travel to this process, which writes them;
    for runs too large for that, see cuesim.batch.dataset.simulate_to_dataset."""
    out_format(out)
    check_game_label(game)
    job = make_job(table, layout, shots, chunk_size, ruling, struck, max_events, errors,
                   state, events)
    n_workers, n_threads = plan(job, workers, threads, cluster)
    info = manifest(job, n_workers, cluster if isinstance(cluster, str) else None, n_threads)
    info["game"] = game
    _check_output(job, out, info)
    if not overwrite and is_finished(out, info):
        done = read_manifest(out) or {}
        return {**json.loads(json.dumps(done)), "already_complete": True}
    check_writable(out, "output", BatchError)
    client, own = connect(cluster) if cluster is not None else (None, False)
    try:
        with run_lock(out):
            _stream(job, out, info, overwrite, n_workers, client, progress, on_chunk)
    finally:
        if own:
            client.close()
    return json.loads(json.dumps(info))


def _check_output(job: Job, out: str | os.PathLike[str], info: dict[str, Any]) -> None:
    """Refuse more shots than the output can hold (see cuesim.batch.limits)."""
    if out_format(out) == ".npz":
        check_held(job, "in an .npz file, which is read back whole (its arrays cannot be read "
                   "in parts)", "in an .npz here (Parquet files and datasets are read in parts)")
    else:
        check_parquet_file(job, info)


def _stream(job: Job, out: str | os.PathLike[str], info: dict[str, Any], overwrite: bool,
            n_workers: int, client: Any, progress: bool,
            on_chunk: Callable[[int], None] | None) -> None:
    parts, done = open_run(out, info, overwrite)
    todo = Todo(job.n_chunks, done)
    fmt = Path(out).suffix.lower()
    bar = Progress(job.n, sum(job.rows(c) for c in done), enabled=progress)
    if done:
        bar.say(f"resuming, {len(done)} of {job.n_chunks} chunks already written")
    _announce(client, bar, n_workers, job.threads or 1)
    ids, kinds = info["ids"], tuple(info["event_kinds"])
    try:
        for c, arrays in _execute(job, todo, n_workers, client, None, bar) if todo else ():
            assert isinstance(arrays, dict)
            write_chunk(chunk_path(parts, c, fmt), arrays, ids, kinds)
            bar.update(len(arrays["shot"]))
            if on_chunk is not None:
                on_chunk(c)
    except Exception:  # refused, out of memory or disk, ...
        if not done_chunks(parts, fmt):  # nothing to resume from: leave no folder behind
            shutil.rmtree(parts, ignore_errors=True)
        raise
    bar.close()
    finish_run(out, parts, info)
