"""Results as a partitioned Parquet dataset that the workers write themselves.

For runs whose results should not all pass through one process (10^9 shots on a cluster), the
output is a folder that every worker can reach (a shared file system, or an fsspec URL such
as s3://bucket/run or gs://... with the matching fsspec package installed):

    OUT/part-000000.parquet   chunk 0, written by the worker that simulated it
    OUT/part-000001.parquet   ...
    OUT/_cuesim.json          the manifest: the run's settings, "done" (ranges [a, b) of the
                              chunks written) and "complete"

The client only schedules chunks and records which are done: the manifest is rewritten (whole,
atomically) at most every FLUSH_EVERY seconds and when the run ends or stops. A run started
again with the same settings reads the manifest and simulates only the chunks not recorded
(a chunk written but not yet recorded is simply written again, with the same numbers).
pyarrow, pandas, Dask or Spark read the folder as one table (files starting with '_' are
not data); `read_results` reads a complete dataset back into a BatchResult.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cuesim.batch.chunks import ChunkRanges, Todo
from cuesim.batch.params import BatchError
from cuesim.batch.store import (
    VOLATILE,
    arrow_arrays,
    arrow_table,
    run_lock,
    settings_differ,
    write_chunk,
)
from cuesim.sim.engine import DEFAULT_MAX_EVENTS
from cuesim.tables.layout import Layout

if TYPE_CHECKING:
    from cuesim.batch.job import Job

MANIFEST = "_cuesim.json"
FLUSH_EVERY = 2.0  # s between rewrites of the manifest during a run
FORMAT = "cuesim-batch-dataset/1"
PROGRESS_KEYS = ("done", "complete", "format")


def part_name(index: int) -> str:
    return f"part-{index:06d}.parquet"


@dataclass(frozen=True)
class Target:
    """Where a dataset lives: a local folder (an absolute path, so workers started elsewhere
    find it) or an fsspec URL."""

    root: str
    url: bool

    @staticmethod
    def of(out: str | os.PathLike[str]) -> Target:
        text = os.fspath(out) if isinstance(out, str | os.PathLike) else None
        if not isinstance(text, str) or not text.strip():
            raise BatchError(f"dataset output must be a folder or URL, got {out!r}")
        if text.startswith("file://"):
            text = text[len("file://"):]
        elif "://" in text:
            target = Target(text.rstrip("/"), True)
            target.fs()  # fsspec and the protocol's package are there
            return target
        if text.lower().endswith((".npz", ".parquet")) and Path(text).is_file():
            raise BatchError(f"dataset output {text!r} is a file; a dataset is a folder")
        return Target(os.path.abspath(text), False)

    def fs(self) -> Any:
        try:
            import fsspec
        except ImportError:
            raise BatchError(f"dataset output {self.root!r}: a URL needs fsspec (pip install "
                             "fsspec, and s3fs for s3://, gcsfs for gs://)") from None
        try:
            return fsspec.core.url_to_fs(self.root)[0]
        except (ImportError, ValueError) as exc:
            msg = " ".join(str(exc).split())
            raise BatchError(f"dataset output {self.root!r}: {msg}") from None

    def path(self, name: str) -> str:
        return f"{self.root}/{name}" if self.url else os.path.join(self.root, name)


@dataclass(frozen=True)
class PartWriter:
    """The sink a worker writes its chunks with (picklable: it travels with each task).
    `rails` (the manifest's rail names) labels the parts (cuesim.batch.store.label_table);
    None writes the raw codes, as the parts of a dataset begun before the labels."""

    target: Target
    ids: tuple[str, ...]
    kinds: tuple[str, ...]
    rails: tuple[str, ...] | None = None

    def write(self, index: int, arrays: dict[str, Any]) -> None:
        rails = None if self.rails is None else list(self.rails)
        if not self.target.url:  # a temporary name, fsync, rename: a part that exists is whole
            write_chunk(Path(self.target.path(part_name(index))), arrays, list(self.ids),
                        self.kinds, rails)
            return
        import pyarrow.parquet as pq

        table = arrow_table(arrays, list(self.ids), self.kinds, rails)
        with self.target.fs().open(self.target.path(part_name(index)), "wb") as fh:
            pq.write_table(table, fh)  # an object store shows a whole object or none


# -- the manifest ---------------------------------------------------------------------------
def _ranges(done: ChunkRanges) -> list[list[int]]:
    return done.ranges()


def _chunks(ranges: Any) -> ChunkRanges:
    """The chunks done, as the manifest's ranges (never one entry a chunk: a run may have
    10^8 chunks)."""
    try:
        return ChunkRanges((a, b) for a, b in ranges)
    except (TypeError, ValueError):
        raise BatchError(f"dataset manifest: 'done' must be ranges [a, b), got {ranges!r}"
                         ) from None


def read_dataset_manifest(target: Target) -> dict[str, Any] | None:
    """The manifest of the dataset at `target`, None when there is none."""
    try:
        if target.url:
            fs = target.fs()
            path = target.path(MANIFEST)
            if not fs.exists(path):
                return None
            text = fs.cat_file(path).decode()
        else:
            path = target.path(MANIFEST)
            if not os.path.exists(path):
                return None
            text = Path(path).read_text()
        data = json.loads(text)
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise BatchError(f"dataset {target.root!r}: its manifest {MANIFEST} is not readable "
                         f"({' '.join(str(exc).split())})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BatchError(f"dataset {target.root!r}: {MANIFEST} is not a cuesim dataset "
                         "manifest")
    return data


def _write_manifest(target: Target, info: dict[str, Any]) -> None:
    text = json.dumps(info, indent=1)
    if target.url:
        target.fs().pipe_file(target.path(MANIFEST), text.encode())
    else:
        from cuesim.output import write_atomic

        write_atomic(Path(target.path(MANIFEST)), text)


def _settings(info: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in json.loads(json.dumps(info)).items()
            if k not in VOLATILE and k not in PROGRESS_KEYS}


def _ours(name: str) -> bool:
    return name == MANIFEST or (name.startswith("part-") and name.endswith(".parquet")) or \
        name.startswith(".part-")


def _prepare(target: Target, info: dict[str, Any], overwrite: bool) -> ChunkRanges | None:
    """Make the folder ready: the chunks already done when the same run resumes, None when
    the complete result of the same run is there; refuse another run's or foreign folder.
    A run begun before the labels (no "status_labels") goes on without them: its parts stay
    alike, so any reader takes them as one table."""
    old = read_dataset_manifest(target)
    diff = settings_differ(old, info, (*VOLATILE, *PROGRESS_KEYS)) if old is not None else []
    if old is not None and not diff:
        if old.get("complete") and not overwrite:
            return None
        if not overwrite:
            if "status_labels" not in old:
                info.pop("status_labels", None)
                info["units"] = old.get("units", info["units"])
            return _chunks(old.get("done", []))
    if old is not None and not overwrite:
        raise BatchError(f"dataset {target.root!r} holds a run with other settings "
                         f"({', '.join(diff)} differ); pass --overwrite to replace it, or run "
                         "the same command to resume it")
    names = _listing(target)
    foreign = sorted(n for n in names if not _ours(n))
    if foreign:
        raise BatchError(f"dataset output {target.root!r} holds files that are not a cuesim "
                         f"dataset ({foreign[0]}, ...); give an empty or new folder")
    if names and old is None and not overwrite:
        raise BatchError(f"dataset output {target.root!r} holds parts but no {MANIFEST}; pass "
                         "--overwrite to replace them")
    for name in names:
        _remove(target, name)
    return ChunkRanges()


def _listing(target: Target) -> list[str]:
    if target.url:
        fs = target.fs()
        fs.makedirs(target.root, exist_ok=True)
        return [p.rstrip("/").rsplit("/", 1)[-1] for p in fs.ls(target.root, detail=False)]
    folder = Path(target.root)
    if folder.exists() and not folder.is_dir():
        raise BatchError(f"dataset output {target.root!r} is a file; a dataset is a folder")
    if not folder.parent.is_dir():
        raise BatchError(f"dataset output folder {str(folder.parent)!r} does not exist")
    folder.mkdir(exist_ok=True)
    return sorted(p.name for p in folder.iterdir())


def _remove(target: Target, name: str) -> None:
    if target.url:
        target.fs().rm_file(target.path(name))
    else:
        Path(target.path(name)).unlink(missing_ok=True)


# -- the run --------------------------------------------------------------------------------
def simulate_to_dataset(table: Any, layout: Layout, shots: Any, out: str | os.PathLike[str],
                        workers: int | None = None, chunk_size: int | None = None,
                        ruling: bool | str = False, cluster: Any = None,
                        struck: str | None = None, max_events: int = DEFAULT_MAX_EVENTS,
                        errors: str = "raise", overwrite: bool = False,
                        progress: bool = False, game: str | None = None, state: Any = None,
                        events: bool = False,
                        on_chunk: Callable[[int], None] | None = None,
                        threads: int | None = None) -> dict[str, Any]:
    """Like simulate_to_file, but the result is a partitioned Parquet dataset at `out` (a
    folder every worker reaches, or an fsspec URL) that the workers (local processes or the
    cluster's) write chunk by chunk, with `threads` threads each (see simulate_many);
    see the module docstring. Returns the manifest, with "already_complete": True when the
    same run was already complete there."""
    from cuesim.batch.job import check_game_label, make_job, manifest
    from cuesim.batch.run import plan
    from cuesim.batch.store import _pyarrow

    _pyarrow()
    target = Target.of(out)
    check_game_label(game)
    job = make_job(table, layout, shots, chunk_size, ruling, struck, max_events, errors,
                   state, events)
    n_workers, n_threads = plan(job, workers, threads, cluster)
    info = manifest(job, n_workers, cluster if isinstance(cluster, str) else None, n_threads)
    info.update(game=game, format=FORMAT, done=[], complete=False)
    with _writer_lock(target):
        return _run(job, target, info, n_workers, n_threads, overwrite, cluster, progress,
                    on_chunk)


def _writer_lock(target: Target) -> AbstractContextManager[None]:
    """A local dataset's run lock (cuesim.batch.store.run_lock: a second run of the same folder
    is refused at once, instead of removing the first's temporary parts when it ends); its
    folder's parent must exist. An fsspec URL has none: the object store's writes are whole
    objects, and its users run one client per dataset."""
    if target.url:
        return nullcontext()
    parent = Path(target.root).parent
    if not parent.is_dir():
        raise BatchError(f"dataset output folder {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise BatchError(f"dataset output {target.root!r}: its folder {str(parent)!r} is not "
                         "writable")
    return run_lock(target.root)


def _run(job: Job, target: Target, info: dict[str, Any], n_workers: int, n_threads: int,
         overwrite: bool, cluster: Any, progress: bool,
         on_chunk: Callable[[int], None] | None) -> dict[str, Any]:
    """simulate_to_dataset's run, once its job is made and its output locked."""
    from cuesim.batch.run import _announce, _execute, connect

    fresh = not target.url and not os.path.exists(target.root)
    try:
        done = _prepare(target, info, overwrite)
    except OSError as exc:
        raise BatchError(f"dataset output {target.root!r}: {exc.strerror or exc}") from None
    if done is None:
        return {**_settings(info), "already_complete": True}
    from cuesim.batch.progress import Progress

    todo = Todo(job.n_chunks, done)
    bar = Progress(job.n, _rows_done(job, todo), enabled=progress)
    if done:
        bar.say(f"resuming, {len(done)} of {job.n_chunks} chunks already written")
    sink = PartWriter(target, tuple(info["ids"]), tuple(info["event_kinds"]),
                      tuple(info["rails"]) if "status_labels" in info else None)
    client, own = None, False
    flushed = time.monotonic()
    keep = True
    try:
        if cluster is not None:  # inside: a cluster out of reach leaves no new folder either
            client, own = connect(cluster)
        _write_manifest(target, {**info, "done": _ranges(done)})
        _announce(client, bar, n_workers, n_threads)
        for c, rows in _execute(job, todo, n_workers, client, sink, bar) if todo else ():
            done.add(c)
            bar.update(int(rows))  # type: ignore[arg-type]
            if time.monotonic() - flushed > FLUSH_EVERY:
                _write_manifest(target, {**info, "done": _ranges(done)})
                flushed = time.monotonic()
            if on_chunk is not None:
                on_chunk(c)
        info.update(done=_ranges(done), complete=not _chunks_left(job, done))
    except BatchError:
        if fresh and not done:  # nothing to resume from: leave no folder behind
            keep = False
        raise
    finally:
        try:
            if keep:
                _write_manifest(target, {**info, "done": _ranges(done)})
            else:
                for name in _listing(target):
                    _remove(target, name)
                os.rmdir(target.root)
        finally:
            if own:
                client.close()
    bar.close()
    if not target.url:
        for stale in Path(target.root).glob(".part-*.tmp-*"):
            stale.unlink(missing_ok=True)
    return json.loads(json.dumps(info))


def _chunks_left(job: Job, done: ChunkRanges) -> int:
    """How many chunks of the run are not done."""
    return job.n_chunks - done.count_below(job.n_chunks)


def _rows_done(job: Job, todo: Todo) -> int:
    """The shots of the chunks done (all chunk_size shots but the last's)."""
    last = job.n_chunks - 1
    short = 0 if last in todo else job.chunk_size - job.rows(last)
    return todo.n_done * job.chunk_size - short


def read_dataset(out: str | os.PathLike[str]) -> Any:
    """A complete dataset as a BatchResult (every part in memory: for the largest runs read
    the folder with pyarrow.dataset or dask.dataframe instead)."""
    import numpy as np
    import pyarrow.parquet as pq

    from cuesim.batch.run import BatchResult

    target = Target.of(out)
    info = read_dataset_manifest(target)
    if info is None:
        raise BatchError(f"{target.root!r} is not a cuesim dataset (no {MANIFEST})")
    done = _chunks(info.get("done", []))
    if not info.get("complete"):
        raise BatchError(f"dataset {target.root!r} is not complete ({len(done)} of "
                         f"{info['n_chunks']} chunks done); run the same command again to "
                         "finish it")
    ids, kinds = info["ids"], tuple(info["event_kinds"])
    parts = []
    fs = target.fs() if target.url else None
    for c in range(info["n_chunks"]):
        path = target.path(part_name(c))
        try:
            if fs is not None:
                with fs.open(path, "rb") as fh:
                    table = pq.read_table(fh)
            else:
                table = pq.read_table(path)
        except (OSError, ValueError) as exc:
            raise BatchError(f"dataset {target.root!r}: {part_name(c)} is not readable "
                             f"({' '.join(str(exc).split())})") from None
        part = arrow_arrays(table, ids, kinds)
        if parts and set(part) != set(parts[0]):
            raise BatchError(f"dataset {target.root!r}: {part_name(c)} has the columns "
                             f"{sorted(part)}, {part_name(0)} {sorted(parts[0])}: the parts "
                             "of one run have the same columns")
        parts.append(part)
    try:
        arrays = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    except ValueError as exc:  # rows of another shape in some part
        raise BatchError(f"dataset {target.root!r}: its parts do not join "
                         f"({' '.join(str(exc).split())[:200]})") from None
    from cuesim.batch.results_file import check_result_arrays

    check_result_arrays(arrays, info, target.root)
    return BatchResult(arrays, ids, info)
