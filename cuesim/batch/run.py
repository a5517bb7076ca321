"""Running a batch: chunks, workers (local processes or a Dask cluster), results in memory or
streamed to a file, progress on stderr."""

from __future__ import annotations

import atexit
import concurrent.futures as cf
import hashlib
import ipaddress
import json
import math
import multiprocessing
import os
import re
import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from cuesim.batch.core import (
    KIND_NAMES,
    Setup,
    default_struck,
    family_of,
    infer_ruling,
    make_shot,
    piece_ids,
    simulate_chunk,
)
from cuesim.batch.params import BatchError, ShotSampler, n_rows, shot_table
from cuesim.batch.store import (
    chunk_path,
    done_chunks,
    finish_run,
    is_finished,
    open_run,
    out_format,
    read_manifest,
    write_chunk,
)
from cuesim.output import check_writable
from cuesim.shot import ShotError
from cuesim.sim.engine import DEFAULT_MAX_EVENTS, table_arrays
from cuesim.tables.layout import Layout, LayoutError

DEFAULT_CHUNK_SIZE = 2000
CLUSTER_TIMEOUT = 10.0  # s to reach a Dask scheduler
FIRST_KINDS = ("none", "piece", "rail")


class BatchResult:
    """The summary arrays of a batch, one row per shot, in shot order.

    shot (N,) run-wide index; param.<name> (N,) the shot's parameters (SI, radians);
    status (N,) 0 = simulated, 1 = not playable (with errors='mark'); final_xy (N, n, 2) where
    each piece stopped (or was captured); final_on (N, n) still on the table; pocketed (N, n)
    captured during the shot; first_kind (N,) 0 none / 1 piece / 2 rail, first_index (N,) the
    piece index (1) or rail index (2) the struck piece touched first, first_t its time;
    event_counts (N, 9) events per kind (EventKind order), n_events, duration (s), truncated
    (the event limit stopped the shot); with a ruling: legal, turn_passes, articles (the
    violated articles, ';'-separated). `ids` names the n pieces.
    """

    def __init__(self, arrays: dict[str, np.ndarray], ids: list[str],
                 manifest: dict[str, Any]) -> None:
        self.arrays = arrays
        self.ids = list(ids)
        self.manifest = manifest

    def __getitem__(self, name: str) -> np.ndarray:
        return self.arrays[name]

    def __contains__(self, name: object) -> bool:
        return name in self.arrays

    def __len__(self) -> int:
        return len(self.arrays["shot"])

    def keys(self) -> list[str]:
        return list(self.arrays)

    @property
    def params(self) -> dict[str, np.ndarray]:
        return {k[len("param."):]: v for k, v in self.arrays.items() if k.startswith("param.")}

    def pocketed_ids(self, k: int) -> list[str]:
        return [self.ids[i] for i in np.flatnonzero(self.arrays["pocketed"][k])]

    def first_contact(self, k: int) -> str | None:
        """What the struck piece touched first in shot k: a piece id, 'rail:<name>' or None."""
        kind, idx = int(self.arrays["first_kind"][k]), int(self.arrays["first_index"][k])
        if kind == 1:
            return self.ids[idx]
        if kind == 2:
            rails = self.manifest.get("rails", [])
            return f"rail:{rails[idx] if idx < len(rails) else idx}"
        return None


# -- the job ----------------------------------------------------------------------------------
@dataclass
class Job:
    setup: Setup
    n: int
    chunk_size: int
    sampler: ShotSampler | None = None
    table: dict[str, np.ndarray] | None = None

    @property
    def n_chunks(self) -> int:
        return max(1, math.ceil(self.n / self.chunk_size))

    def bounds(self, c: int) -> tuple[int, int]:
        return c * self.chunk_size, min(self.n, (c + 1) * self.chunk_size)

    def task(self, c: int) -> tuple[Any, ...]:
        start, stop = self.bounds(c)
        if self.sampler is not None:
            return (self.setup, self.sampler, c, start, stop)
        assert self.table is not None
        return (self.setup, {k: v[start:stop] for k, v in self.table.items()}, c, start, stop)

    def source(self) -> dict[str, Any]:
        if self.sampler is not None:
            return self.sampler.to_dict()
        assert self.table is not None
        digest = hashlib.sha256()
        for name in sorted(self.table):
            digest.update(name.encode())
            digest.update(np.ascontiguousarray(self.table[name]).tobytes())
        return {"kind": "table", "n": self.n, "columns": sorted(self.table),
                "sha256": digest.hexdigest()}


def run_task(setup: Setup, source: ShotSampler | dict[str, np.ndarray], index: int, start: int,
             stop: int) -> dict[str, np.ndarray]:
    """Simulate chunk `index` (shots start..stop-1); what every worker runs."""
    if isinstance(source, ShotSampler):
        params = source.chunk(setup.family, index, start, stop)
    else:
        params = source
    return simulate_chunk(setup, params, start)


def _make_job(table: Any, layout: Layout, shots: Any, chunk_size: int | None,
              ruling: bool | str | None, struck: str | None, max_events: int,
              errors: str) -> Job:
    if not isinstance(layout, Layout):
        raise BatchError(f"layout must be a cuesim Layout, got {type(layout).__name__}")
    if errors not in ("raise", "mark"):
        raise BatchError(f"errors must be 'raise' or 'mark', got {errors!r}")
    chunk_size = DEFAULT_CHUNK_SIZE if chunk_size is None else chunk_size
    if not isinstance(chunk_size, int | np.integer) or chunk_size < 1:
        raise BatchError(f"chunk_size must be a positive integer, got {chunk_size!r}")
    family = family_of(table)
    try:
        table_arrays(table)
    except Exception as exc:
        raise BatchError(f"cannot simulate on table {table!r}: {exc}") from None
    setup = Setup(table, layout, struck or default_struck(table, layout),
                  infer_ruling(table, layout, ruling), int(max_events), errors)
    piece_ids(setup)  # checks the layout and the struck piece
    if isinstance(shots, ShotSampler):
        shots.check(family)
        _probe(setup, shots)
        return Job(setup, int(shots.n), int(chunk_size), sampler=shots)
    params = shot_table(family, shots)
    if n_rows(params) == 0:
        raise BatchError("shots: no shots given")
    return Job(setup, n_rows(params), int(chunk_size), table=params)


def _probe(setup: Setup, sampler: ShotSampler) -> None:
    """Check each varied parameter at both ends of its range, the others at their fixed or
    default values: a range that leaves what a shot can be fails before anything runs."""
    base = sampler.chunk(setup.family, 0, 0, 1)
    for name, (lo, hi) in sampler.vary.items():
        for value in (lo, hi):
            params = {k: v.copy() for k, v in base.items()}
            for other, (a, b) in sampler.vary.items():
                params[other][0] = (a + b) / 2
            params[name][0] = value
            shot = make_shot(setup, params, 0)
            try:
                if setup.family == "novus":
                    shot.striker_position(setup.table)  # type: ignore[union-attr]
                    shot.striker_motion(setup.table)  # type: ignore[union-attr]
                else:
                    shot.ball_motion(setup.table)  # type: ignore[union-attr]
            except (ShotError, LayoutError, ValueError) as exc:
                raise BatchError(f"range of {name!r} ({lo:g}:{hi:g}) includes shots that "
                                 f"cannot be played: at {name}={value:g}: {exc}") from None


def _manifest(job: Job, workers: int, cluster: str | None) -> dict[str, Any]:
    import cuesim

    s = job.setup
    geo = s.table.geometry
    return {
        "format": "cuesim-batch/1", "cuesim": cuesim.__version__,
        "table": s.table.name, "table_repr": repr(s.table), "layout": s.layout.to_dict(),
        "struck": s.struck, "ruling": s.ruling, "max_events": s.max_events,
        "errors": s.errors, "n_shots": job.n, "chunk_size": job.chunk_size,
        "n_chunks": job.n_chunks, "source": job.source(), "ids": piece_ids(s),
        "event_kinds": list(KIND_NAMES), "first_kinds": list(FIRST_KINDS),
        "rails": [r.name for r in geo.rails] + [k.name for k in geo.knuckles],
        "units": "SI (m, s, m/s), angles in radians",
        "workers": workers, "cluster": cluster,
    }


# -- progress ---------------------------------------------------------------------------------
class Progress:
    """A one-line progress report on stderr: shots done, throughput, time left."""

    def __init__(self, total: int, done: int, enabled: bool = True,
                 stream: TextIO | None = None, every: float = 0.5) -> None:
        self.total, self.done, self.start_done = total, done, done
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self.every = every
        self.t0 = time.perf_counter()
        self.last = -math.inf
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def rate(self) -> float:
        dt = time.perf_counter() - self.t0
        return (self.done - self.start_done) / dt if dt > 0 else 0.0

    def line(self) -> str:
        rate = self.rate()
        left = (self.total - self.done) / rate if rate > 0 else math.inf
        pct = 100.0 * self.done / self.total if self.total else 100.0
        eta = "?" if not math.isfinite(left) else _duration(left)
        return (f"batch: {self.done}/{self.total} shots ({pct:.1f}%) | {rate:,.0f} shots/s | "
                f"{eta} left")

    def update(self, shots: int) -> None:
        self.done += shots
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.last >= self.every or self.done >= self.total:
            self.last = now
            end = "\r" if self.tty and self.done < self.total else "\n"
            print(self.line(), end=end, file=self.stream, flush=True)

    def close(self) -> None:
        if self.enabled:
            dt = time.perf_counter() - self.t0
            print(f"batch: {self.done - self.start_done} shots in {_duration(dt)} "
                  f"({self.rate():,.0f} shots/s)", file=self.stream, flush=True)


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f} s"
    m, s = divmod(int(seconds), 60)
    h, m = divmod(m, 60)
    return f"{h}h{m:02d}m{s:02d}s" if h else f"{m}m{s:02d}s"


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


def _mp_context() -> multiprocessing.context.BaseContext:
    """fork where it is safe (POSIX, one thread: the workers inherit the loaded core and no
    `if __name__ == "__main__"` guard is needed), spawn otherwise (scripts then need the
    guard)."""
    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


_POOL: list[Any] = []  # [workers, executor]: kept between runs, so workers start once
_POOL_EXIT: list[bool] = []


def _pool(workers: int) -> cf.ProcessPoolExecutor:
    """The process pool of `workers` workers, started once and reused by later runs (each
    worker loads the compiled core once)."""
    if _POOL and _POOL[0] == workers:
        return _POOL[1]
    _drop_pool()
    pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=_mp_context(),
                                  initializer=_warm, initargs=(os.getpid(),))
    if not _POOL_EXIT:
        atexit.register(_drop_pool)  # ended before the interpreter tears modules down
        _POOL_EXIT.append(True)
    _POOL[:] = [workers, pool]
    return pool


def _drop_pool() -> None:
    if _POOL:
        _POOL[1].shutdown(wait=True, cancel_futures=True)
        _POOL.clear()


def _run_local(job: Job, chunks: list[int], workers: int
               ) -> Iterator[tuple[int, dict[str, np.ndarray]]]:
    if workers <= 1 or len(chunks) <= 1:
        for c in chunks:
            yield c, run_task(*job.task(c))
        return
    pool = _pool(workers)
    pending: dict[cf.Future[dict[str, np.ndarray]], int] = {}
    todo = list(chunks)
    clean = False
    try:
        while todo or pending:
            while todo and len(pending) < 2 * workers:
                c = todo.pop(0)
                pending[pool.submit(run_task, *job.task(c))] = c
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


_HOST = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*\.?")
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")


def check_address(address: str) -> None:
    """Refuse, at once, a Dask scheduler address that cannot be one: [scheme://]host:port with
    a known scheme, a host name or IP address and a port in 1..65535 (distributed would try
    to resolve anything for its whole timeout). `inproc://` addresses pass as they are."""
    text = address.strip()
    if text.startswith("inproc://"):
        return
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    hint = "expected [scheme://]host:port, such as tcp://10.0.0.5:8786"
    if scheme not in SCHEMES:
        raise BatchError(f"cluster address {address!r}: unknown scheme {scheme!r}; {hint}")
    host, colon, port = rest.rpartition(":")
    if not colon or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise BatchError(f"cluster address {address!r} has no valid port; {hint}")
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        ipaddress.ip_address(bare)
    except ValueError:
        if not _HOST.fullmatch(host):
            raise BatchError(f"cluster address {address!r}: {host!r} is not a host name or IP "
                             f"address; {hint}") from None


def connect(cluster: Any, timeout: float | None = None) -> tuple[Any, bool]:
    """A dask.distributed Client for `cluster` (an address or a Client); True when it was
    opened here (and must be closed)."""
    try:
        import distributed
    except ImportError:
        raise BatchError("running on a cluster needs dask.distributed: "
                         "pip install 'cuesim[cluster]'") from None
    if isinstance(cluster, distributed.Client):
        return cluster, False
    if not isinstance(cluster, str) or not cluster.strip():
        raise BatchError(f"cluster must be a scheduler address such as tcp://host:8786 or a "
                         f"distributed.Client, got {cluster!r}")
    check_address(cluster)
    timeout = CLUSTER_TIMEOUT if timeout is None else timeout
    try:
        client = distributed.Client(cluster, timeout=timeout, set_as_default=False)
    except Exception as exc:  # OSError, TimeoutError, ValueError for a malformed address
        raise BatchError(f"cannot reach the Dask cluster at {cluster!r} "
                         f"(within {timeout:g} s): {exc}") from None
    return client, True


def _run_dask(job: Job, chunks: list[int], client: Any
              ) -> Iterator[tuple[int, dict[str, np.ndarray]]]:
    import distributed

    threads = max(1, sum(client.nthreads().values()))
    todo = list(chunks)
    ac = distributed.as_completed()
    index: dict[str, int] = {}
    token = os.urandom(4).hex()

    def submit() -> None:
        c = todo.pop(0)
        fut = client.submit(run_task, *job.task(c), pure=False,
                            key=f"cuesim-batch-{token}-{c}")
        index[fut.key] = c
        ac.add(fut)

    for _ in range(min(len(todo), 2 * threads)):
        submit()
    for fut in ac:
        c = index.pop(fut.key)
        try:
            arrays = fut.result()
        except BatchError:
            raise
        except Exception as exc:
            raise BatchError(f"chunk {c} failed on the cluster: {exc}") from exc
        fut.release()
        if todo:
            submit()
        yield c, arrays


def _execute(job: Job, chunks: list[int], workers: int | None, cluster: Any
             ) -> Iterator[tuple[int, dict[str, np.ndarray]]]:
    if cluster is not None:
        return _run_dask(job, chunks, cluster)
    return _run_local(job, chunks, _workers(workers))


def _workers(workers: int | None) -> int:
    if workers is None:
        return local_cores()
    if not isinstance(workers, int | np.integer) or workers < 1:
        raise BatchError(f"workers must be a positive integer, got {workers!r}")
    return int(workers)


# -- the public entry points ------------------------------------------------------------------
def simulate_many(table: Any, layout: Layout, shots: Any, workers: int | None = None,
                  chunk_size: int | None = None, ruling: bool | str = False,
                  cluster: Any = None, struck: str | None = None,
                  max_events: int = DEFAULT_MAX_EVENTS, errors: str = "raise",
                  progress: bool = False) -> BatchResult:
    """Simulate many shots on one table from one layout; results as arrays (BatchResult).

    shots: a numpy structured array, a dict of arrays or a pyarrow table of shot parameters
    (novus: x, angle, speed, optional y, offset; ball games: angle, speed, optional side,
    height, elevation, and x, y to place the struck ball), SI units and radians; or a
    ShotSampler. workers: local processes (default: every core); cluster: a Dask scheduler
    address or distributed.Client to run the chunks on instead. ruling: True (or the game's
    name) adds each shot's ruling as the first shot of a fresh game. errors: 'raise' stops
    at the first shot that cannot be played, 'mark' gives it status 1.
    """
    job = _make_job(table, layout, shots, chunk_size, ruling, struck, max_events, errors)
    n_workers = _workers(workers)
    manifest = _manifest(job, n_workers, cluster if isinstance(cluster, str) else None)
    bar = Progress(job.n, 0, enabled=progress)
    parts: dict[int, dict[str, np.ndarray]] = {}
    client, own = connect(cluster) if cluster is not None else (None, False)
    try:
        for c, arrays in _execute(job, list(range(job.n_chunks)), n_workers, client):
            parts[c] = arrays
            bar.update(len(arrays["shot"]))
    finally:
        if own:
            client.close()
    bar.close()
    ordered = [parts[c] for c in range(job.n_chunks)]
    arrays = {k: np.concatenate([p[k] for p in ordered]) for k in ordered[0]}
    return BatchResult(arrays, manifest["ids"], manifest)


def simulate_to_file(table: Any, layout: Layout, shots: Any, out: str | os.PathLike[str],
                     workers: int | None = None, chunk_size: int | None = None,
                     ruling: bool | str = False, cluster: Any = None,
                     struck: str | None = None, max_events: int = DEFAULT_MAX_EVENTS,
                     errors: str = "raise", overwrite: bool = False, progress: bool = False,
                     game: str | None = None,
                     on_chunk: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Like simulate_many, streaming each chunk to disk and writing `out` (.parquet or .npz)
    only when every chunk is done (see cuesim.batch.store). An interrupted run resumes from
    its chunks when run again with the same settings; a finished `out` of the same settings is
    left as it is (nothing to do). Returns the manifest, with "already_complete": True in the
    second case."""
    out_format(out)
    job = _make_job(table, layout, shots, chunk_size, ruling, struck, max_events, errors)
    n_workers = _workers(workers)
    manifest = _manifest(job, n_workers, cluster if isinstance(cluster, str) else None)
    manifest["game"] = game
    if not overwrite and is_finished(out, manifest):
        done = read_manifest(out) or {}
        return {**json.loads(json.dumps(done)), "already_complete": True}
    check_writable(out, "output", BatchError)
    client, own = connect(cluster) if cluster is not None else (None, False)
    try:
        _stream(job, out, manifest, overwrite, n_workers, client, progress, on_chunk)
    finally:
        if own:
            client.close()
    return json.loads(json.dumps(manifest))


def _stream(job: Job, out: str | os.PathLike[str], manifest: dict[str, Any], overwrite: bool,
            n_workers: int, client: Any, progress: bool,
            on_chunk: Callable[[int], None] | None) -> None:
    parts, done = open_run(out, manifest, overwrite)
    todo = [c for c in range(job.n_chunks) if c not in done]
    fmt = Path(out).suffix.lower()
    bar = Progress(job.n, sum(job.bounds(c)[1] - job.bounds(c)[0] for c in done),
                   enabled=progress)
    if done and progress:
        print(f"batch: resuming, {len(done)} of {job.n_chunks} chunks already written",
              file=sys.stderr)
    ids, kinds = manifest["ids"], tuple(manifest["event_kinds"])
    try:
        for c, arrays in _execute(job, todo, n_workers, client) if todo else ():
            write_chunk(chunk_path(parts, c, fmt), arrays, ids, kinds)
            bar.update(len(arrays["shot"]))
            if on_chunk is not None:
                on_chunk(c)
    except BatchError:
        if not done_chunks(parts, fmt):  # nothing to resume from: leave no folder behind
            shutil.rmtree(parts, ignore_errors=True)
        raise
    bar.close()
    finish_run(out, parts, manifest)
