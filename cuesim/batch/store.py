"""Results on disk: one file per chunk while a run goes on, one final file when it is done.

A run writing FILE (.parquet or .npz) keeps its chunks in the folder FILE.parts/ beside it,
with manifest.json (game, table, layout, struck piece, parameter source with its seed and
ranges or its file digest, shot and chunk counts, columns). Each chunk is written to a
temporary name and renamed, so a chunk file that exists is complete. A run that finds the
folder with the same manifest resumes (with or without overwrite): it simulates only the
chunks not yet there; a folder of a different run is refused, or removed with overwrite. When
every chunk is there the final file is assembled under a temporary name (memory: one chunk,
or one Parquet row group of ROW_GROUP rows, at a time), renamed to FILE, and the folder is
removed; so FILE exists only when complete.

Parquet: one row per shot; a per-piece array becomes one column per piece, named
'<name>.<piece id>' (final_x.red1, pocketed.cue, ...), event counts 'events.<kind>'; the
manifest is in the schema metadata under b'cuesim'; with event logs, 'events' is a nested
column: per shot, a list of {t, kind, a, b, index, speed, direction} (cuesim.sim.events). npz:
the arrays as they are (final_xy (N, n, 2), pocketed (N, n), events (sum of n_events, 7),
...), the manifest as the JSON string 'manifest'. `read_results` (cuesim.batch.results_file)
reads either back into a BatchResult, and a partitioned dataset (cuesim.batch.dataset) too.

The files a user reads (the final Parquet file, a dataset's parts) are labelled: `status` and
`first_kind` are dictionary (categorical) columns of their labels (the manifest's
"status_labels" and "first_kinds", in code order), `first_contact` names what the struck piece
touched first (a piece id, 'rail:<name>' or null, as BatchResult.first_contact), and
`param.angle_deg` / `param.elevation_deg` repeat the angles in degrees; the final npz file
has the degree arrays too. Reading gives the codes back and leaves the repeats out, so a
BatchResult is the same from any file, labelled or written before the labels; the chunk
files of a run in progress hold the raw codes.
"""

from __future__ import annotations

import json
import os
import shutil
import zipfile
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from cuesim.batch.core import STATUS_LABELS
from cuesim.batch.job import FIRST_KINDS
from cuesim.batch.params import ANGLE_PARAMS, BatchError
from cuesim.output import write_atomic
from cuesim.tables.jsonfile import file_path

FORMATS = (".parquet", ".npz")
MANIFEST = "manifest.json"
# manifest keys that may differ when a run resumes: where it runs, and how its files describe
# themselves (a run begun before the labels resumes)
VOLATILE = ("workers", "threads", "cluster", "units", "status_labels")
LABELS = {"status": STATUS_LABELS, "first_kind": FIRST_KINDS}  # code -> label, by column
DEGREES = {f"param.{p}": f"param.{p}_deg" for p in ANGLE_PARAMS}  # radians -> degrees column
DERIVED = ("first_contact", *DEGREES.values())  # columns that repeat others (left out on read)


def out_format(path: str | os.PathLike[str]) -> str:
    suffix = file_path(path, "output", BatchError).suffix.lower()
    if suffix not in FORMATS:
        raise BatchError(f"output {os.fspath(path)!r} must end in .parquet or .npz")
    if suffix == ".parquet":
        _pyarrow()
    return suffix


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise BatchError("Parquet output needs pyarrow (pip install pyarrow), or write .npz"
                         ) from None
    return pyarrow


def parts_dir(out: str | os.PathLike[str]) -> Path:
    p = Path(out)
    return p.with_name(p.name + ".parts")


def chunk_path(parts: Path, index: int, fmt: str) -> Path:
    return parts / f"chunk-{index:06d}{fmt}"


# -- columns ----------------------------------------------------------------------------------
def to_columns(arrays: dict[str, np.ndarray], ids: list[str],
               kinds: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Flat one-dimensional columns (Parquet) from the summary arrays."""
    cols: dict[str, np.ndarray] = {}
    for name, a in arrays.items():
        if name == "final_xy":
            for i, pid in enumerate(ids):
                cols[f"final_x.{pid}"] = a[:, i, 0]
                cols[f"final_y.{pid}"] = a[:, i, 1]
        elif name == "event_counts":
            for k, kind in enumerate(kinds):
                cols[f"events.{kind}"] = a[:, k]
        elif a.ndim == 2:
            for i, pid in enumerate(ids):
                cols[f"{name}.{pid}"] = a[:, i]
        else:
            cols[name] = a
    return cols


def from_columns(cols: dict[str, np.ndarray], ids: list[str],
                 kinds: tuple[str, ...]) -> dict[str, np.ndarray]:
    """The inverse of to_columns."""
    out: dict[str, np.ndarray] = {}
    per_piece: dict[str, list[np.ndarray]] = {}
    used: set[str] = set()
    if f"final_x.{ids[0]}" in cols:
        out["final_xy"] = np.stack(
            [np.stack([cols[f"final_x.{p}"], cols[f"final_y.{p}"]], axis=-1) for p in ids],
            axis=1)
        used |= {f"final_x.{p}" for p in ids} | {f"final_y.{p}" for p in ids}
    if f"events.{kinds[0]}" in cols:
        out["event_counts"] = np.stack([cols[f"events.{k}"] for k in kinds], axis=1)
        used |= {f"events.{k}" for k in kinds}
    for name in ("final_on", "pocketed"):
        if f"{name}.{ids[0]}" in cols:
            per_piece[name] = [cols[f"{name}.{p}"] for p in ids]
            used |= {f"{name}.{p}" for p in ids}
    for name, parts in per_piece.items():
        out[name] = np.stack(parts, axis=1)
    for name, a in cols.items():
        if name not in used:
            out[name] = a
    return out


EVENT_FIELDS = (("t", "float64"), ("kind", "int8"), ("a", "int16"), ("b", "int16"),
                ("index", "int16"), ("speed", "float64"), ("direction", "int8"))


def contact_label(kind: int, index: int, ids: list[str], rails: list[str]) -> str | None:
    """What a first_kind / first_index pair names: a piece id, 'rail:<name>' or None."""
    if kind == 1:
        return ids[index]
    if kind == 2:
        return f"rail:{rails[index] if 0 <= index < len(rails) else index}"
    return None


def first_contacts(kind: np.ndarray, index: np.ndarray, ids: list[str],
                   rails: list[str]) -> np.ndarray:
    """contact_label of every row (an object array of str and None)."""
    names = np.array([*ids, *(f"rail:{r}" for r in rails), None], dtype=object)
    kind, index = np.asarray(kind), np.asarray(index).astype(np.int64)
    at = np.full(len(kind), len(names) - 1)
    piece = kind == 1
    at[piece] = index[piece]
    rail = (kind == 2) & (index >= 0) & (index < len(rails))
    at[rail] = len(ids) + index[rail]
    out = names[at]
    for k in np.flatnonzero((kind == 2) & ~rail):  # a rail the manifest does not name
        out[k] = contact_label(2, int(index[k]), ids, rails)
    return out


def label_table(table: Any, ids: list[str], rails: list[str]) -> Any:
    """A raw chunk table with its labels (see the module docstring): status and first_kind
    as dictionary columns, first_contact after first_index, each angle's degrees after it."""
    pa = _pyarrow()
    for name, labels in LABELS.items():
        if name in table.column_names and not pa.types.is_dictionary(table.schema.field(
                name).type):
            codes = pa.array(table.column(name).to_numpy().astype(np.int8))
            table = table.set_column(table.schema.get_field_index(name), name,
                                     pa.DictionaryArray.from_arrays(codes, pa.array(labels)))
    if "first_index" in table.column_names and "first_contact" not in table.column_names:
        kind = _codes(table.column("first_kind"), FIRST_KINDS)
        names = first_contacts(kind, table.column("first_index").to_numpy(), ids, rails)
        table = table.add_column(table.schema.get_field_index("first_index") + 1,
                                 "first_contact", pa.array(names, pa.string()))
    for raw, deg in DEGREES.items():
        if raw in table.column_names and deg not in table.column_names:
            table = table.add_column(table.schema.get_field_index(raw) + 1, deg,
                                     pa.array(np.degrees(table.column(raw).to_numpy())))
    return table


def _codes(column: Any, labels: tuple[str, ...]) -> np.ndarray:
    """The int8 codes of a column: as stored, or from the labels of a dictionary column."""
    pa = _pyarrow()
    if not pa.types.is_dictionary(column.type):
        return column.to_numpy()
    lookup = {label: code for code, label in enumerate(labels)}
    parts = []
    for chunk in column.chunks:
        try:
            remap = np.array([lookup[v] for v in chunk.dictionary.to_pylist()], np.int8)
        except KeyError as exc:
            raise BatchError(f"unknown label {exc.args[0]!r}; known: {', '.join(labels)}"
                             ) from None
        parts.append(remap[chunk.indices.to_numpy(zero_copy_only=False).astype(np.int64)])
    return np.concatenate(parts) if parts else np.zeros(0, np.int8)


def arrow_table(arrays: dict[str, np.ndarray], ids: list[str], kinds: tuple[str, ...],
                rails: list[str] | None = None) -> Any:
    """The Parquet table of a chunk: flat columns, and the event logs as a list column; with
    `rails` (the manifest's rail names), labelled (label_table), else the raw codes."""
    pa = _pyarrow()
    cols = to_columns({k: _storable(v) for k, v in arrays.items() if k != "events"}, ids, kinds)
    table = pa.table(cols)
    if rails is not None:
        table = label_table(table, ids, rails)
    if "events" in arrays:
        events, counts = arrays["events"], arrays["n_events"]
        offsets = np.zeros(len(counts) + 1, np.int32)
        np.cumsum(counts, out=offsets[1:])
        fields = [pa.array(events[:, j].astype(dtype)) for j, (_, dtype) in
                  enumerate(EVENT_FIELDS)]
        struct = pa.StructArray.from_arrays(fields, names=[n for n, _ in EVENT_FIELDS])
        table = table.append_column("events", pa.ListArray.from_arrays(pa.array(offsets),
                                                                       struct))
    return table


def arrow_arrays(table: Any, ids: list[str], kinds: tuple[str, ...]) -> dict[str, np.ndarray]:
    """The inverse of arrow_table, labelled or not: the codes, without the repeats."""
    names = [n for n in table.column_names if n != "events" and n not in DERIVED]
    out = from_columns({n: _codes(table.column(n), LABELS[n]) if n in LABELS
                        else table.column(n).to_numpy() for n in names}, ids, kinds)
    if "events" in table.column_names:
        flat = table.column("events").combine_chunks().flatten()
        out["events"] = np.stack(
            [flat.field(j).to_numpy(zero_copy_only=False).astype(np.float64)
             for j in range(len(EVENT_FIELDS))], axis=1).reshape(-1, len(EVENT_FIELDS))
    return out


def _storable(a: np.ndarray) -> np.ndarray:
    if a.dtype == object:  # strings (the ruling's articles)
        return np.array([str(v) for v in a], dtype=str) if len(a) else np.zeros(0, "U1")
    return a


# -- chunks -----------------------------------------------------------------------------------
def _fsync_dir(folder: Path) -> None:
    """Make a rename in `folder` durable (POSIX; a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _savez(fh: Any, arrays: dict[str, np.ndarray]) -> None:
    """`np.savez(fh, **arrays)`, the archive closed whatever happens: numpy 1.26 leaves it
    open when a write fails (a full disk), and its finaliser then prints "Exception ignored"
    lines on stderr after the error was reported."""
    with zipfile.ZipFile(fh, mode="w", compression=zipfile.ZIP_STORED, allowZip64=True) as zf:
        for name, value in arrays.items():
            with zf.open(name + ".npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.asanyarray(value), allow_pickle=False)


def write_chunk(path: Path, arrays: dict[str, np.ndarray], ids: list[str],
                kinds: tuple[str, ...], rails: list[str] | None = None) -> None:
    """Write one chunk atomically and durably: a temporary name, fsync, rename, fsync of the
    folder; so a chunk that exists after a crash is whole (and `chunk_ok` checks it). With
    `rails`, a Parquet chunk is labelled (arrow_table)."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        if path.suffix == ".parquet":
            pa = _pyarrow()
            pa.parquet.write_table(arrow_table(arrays, ids, kinds, rails), tmp)
            with open(tmp, "rb+") as fh:
                os.fsync(fh.fileno())
        else:
            with open(tmp, "wb") as fh:
                _savez(fh, {k: _storable(v) for k, v in arrays.items()})
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:  # a full disk: name the chunk (numpy's writes name no file)
        raise OSError(exc.errno, exc.strerror or str(exc), os.fspath(path)) from None
    finally:
        tmp.unlink(missing_ok=True)
    _fsync_dir(path.parent)


def chunk_ok(path: Path, first: int, rows: int) -> bool:
    """Whether a chunk file is whole and in its place: readable, holding shots first ..
    first + rows - 1 in order (a file truncated by a crash loses the zip directory or the
    Parquet footer at its end; a chunk copied over another index holds other shots)."""
    try:
        if path.suffix == ".parquet":
            pq = _pyarrow().parquet
            if int(pq.ParquetFile(path).metadata.num_rows) != rows:
                return False
            shots = pq.read_table(path, columns=["shot"]).column("shot").to_numpy()
        else:
            with np.load(path, allow_pickle=False) as data:
                shots = data["shot"]
        return shots.shape == (rows,) and bool(np.array_equal(shots,
                                                              np.arange(first, first + rows)))
    except Exception:  # any damage: the chunk is simply done again
        return False


def read_chunk(path: Path, ids: list[str], kinds: tuple[str, ...]) -> dict[str, np.ndarray]:
    if path.suffix == ".parquet":
        pa = _pyarrow()
        return arrow_arrays(pa.parquet.read_table(path), ids, kinds)
    with np.load(path, allow_pickle=False) as data:
        return {k: data[k] for k in data.files}


def done_chunks(parts: Path, fmt: str, shots: Callable[[int], range] | None = None) -> set[int]:
    """The chunks already written; with `shots` (chunk -> its shot numbers), a damaged or
    misplaced chunk is removed and left out, so a resumed run writes it again."""
    out = set()
    for p in parts.glob(f"chunk-*{fmt}"):
        try:
            index = int(p.name[len("chunk-"):-len(fmt)])
        except ValueError:
            continue
        if shots is not None:
            want = shots(index)
            if len(want) == 0 or not chunk_ok(p, want.start, len(want)):
                p.unlink(missing_ok=True)
                continue
        out.add(index)
    return out


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


@contextmanager
def run_lock(out: str | os.PathLike[str]) -> Iterator[None]:
    """Hold `out`'s lock while a run writes it: a second run of the same output (the command
    given twice, a retried job) is refused at once, instead of doing the same chunks again and
    then failing on the folder the first run removed when it finished. An OS lock (flock) on
    `.OUT.lock` beside the output, which the run removes at its end and the OS releases if its
    process dies; the inode is checked after locking, so a run never holds a removed file's
    lock. Without fcntl (Windows) nothing is locked."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on the platforms CI runs
        yield
        return
    path = Path(out)
    lock = path.with_name(f".{path.name}.lock")
    while True:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise BatchError(f"output {os.fspath(out)!r} is being written by another run right "
                             f"now (it holds {lock.name}); let it finish (running the same "
                             "command then says it is complete) or stop it first") from None
        try:
            same = os.fstat(fd).st_ino == os.stat(lock).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)  # the file was removed by the run that held it: lock the new one
    try:
        yield
    finally:
        lock.unlink(missing_ok=True)
        os.close(fd)


def remove_stale_temporaries(out: Path) -> list[Path]:
    """Remove temporary files a killed run left behind: `.OUT.tmp-PID` (the final file being
    assembled) beside `out` and `.chunk-*.tmp-PID` in its folder, when process PID is gone."""
    parts = parts_dir(out)
    candidates = list(out.parent.glob(f".{out.name}.tmp-*"))
    if parts.is_dir():
        candidates += (list(parts.glob(".chunk-*.tmp-*")) + list(parts.glob(f".{MANIFEST}.tmp"))
                       + list(parts.glob(f".{MANIFEST}.tmp-*")))
    removed = []
    for p in candidates:
        pid = p.name.rsplit("-", 1)[-1]
        if pid.isdigit() and _pid_alive(int(pid)) and int(pid) != os.getpid():
            continue  # another run is writing it right now
        p.unlink(missing_ok=True)
        removed.append(p)
    return removed


def read_manifest(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The manifest stored in a finished result file, or None when it has none or is not
    readable (read from the Parquet footer or the npz member only, not the data)."""
    path = Path(path)
    try:
        if path.suffix.lower() == ".parquet":
            meta = _pyarrow().parquet.read_schema(path).metadata or {}
            found = json.loads(meta[b"cuesim"]) if b"cuesim" in meta else None
        else:
            with np.load(path, allow_pickle=False) as data:
                found = json.loads(str(data["manifest"])) if "manifest" in data.files else None
    except Exception:
        return None
    return found if isinstance(found, dict) else None


def is_finished(out: str | os.PathLike[str], manifest: dict[str, Any]) -> bool:
    """Whether `out` is the finished result of this very run (same settings)."""
    old = read_manifest(out) if Path(out).is_file() else None
    return old is not None and not settings_differ(old, manifest)


# -- manifest and the run's folder ---------------------------------------------------------
def settings_differ(old: dict[str, Any], new: dict[str, Any],
                    skip: Collection[str] = VOLATILE) -> list[str]:
    """The fields of two runs' manifests (but `skip`) whose settings differ, compared as JSON
    text, so that the order inside a field counts: a sampler draws its parameters, and a
    grid walks its axes, in the order given (`--vary speed=.. --vary angle=..` draws other
    shots than the other way round), so a run resumed or found finished with another order
    would mix or pass off other shots."""
    keys = (set(old) | set(new)) - set(skip)
    return sorted(k for k in keys if json.dumps(old.get(k)) != json.dumps(new.get(k)))


def open_run(out: str | os.PathLike[str], manifest: dict[str, Any],
             overwrite: bool) -> tuple[Path, set[int]]:
    """Prepare the chunk folder of a run writing `out`: refuse an existing output unless
    overwrite, resume a matching interrupted run (removing what a kill left half-written),
    refuse a different one. Returns the folder and the whole chunks already written."""
    out = Path(out)
    fmt = out_format(out)
    if out.is_dir():
        raise BatchError(f"output {os.fspath(out)!r} is a folder")
    if not out.parent.is_dir():
        raise BatchError(f"output folder {os.fspath(out.parent)!r} does not exist")
    remove_stale_temporaries(out)
    if out.exists() and not overwrite:
        raise BatchError(f"output {os.fspath(out)!r} exists; pass --overwrite "
                         "(overwrite=True) to replace it")
    parts = parts_dir(out)
    if parts.exists():
        try:
            old = json.loads((parts / MANIFEST).read_text())
        except (OSError, ValueError):
            old = None
        if not isinstance(old, dict):  # valid JSON but no manifest ([], 5, "x")
            old = None
        diff = settings_differ(old, manifest) if old is not None else []
        if old is not None and not diff:
            n, size = manifest["n_shots"], manifest["chunk_size"]
            whole = done_chunks(parts, fmt, lambda c: range(c * size, min(n, (c + 1) * size)))
            return parts, whole  # the same run, interrupted: resume it
        if not overwrite:
            if old is None:
                raise BatchError(f"{os.fspath(parts)!r} holds no readable manifest: it is not "
                                 "an interrupted run of this batch; remove it or pass "
                                 "--overwrite")
            raise BatchError(f"{os.fspath(parts)!r} holds an interrupted run with other "
                             f"settings ({', '.join(diff)} differ); pass --overwrite to start "
                             "again, or run the same command to resume it")
        shutil.rmtree(parts)
    parts.mkdir()
    try:
        write_atomic(parts / MANIFEST, json.dumps(manifest, indent=1))
    except OSError:  # e.g. a full disk: leave no chunk folder that no run can resume
        shutil.rmtree(parts, ignore_errors=True)
        raise
    return parts, set()


def finish_run(out: str | os.PathLike[str], parts: Path, manifest: dict[str, Any]) -> None:
    """Assemble the chunks into `out` (temporary name, then rename) and remove the folder."""
    out = Path(out)
    fmt = out.suffix.lower()
    ids, kinds = manifest["ids"], tuple(manifest["event_kinds"])
    paths = _ChunkPaths(parts, manifest["n_chunks"], fmt)
    missing = next((p.name for p in paths if not p.exists()), None)
    if missing is not None:
        raise BatchError(f"cannot finish {os.fspath(out)!r}: chunks missing ({missing}...)")
    tmp = out.with_name(f".{out.name}.tmp-{os.getpid()}")
    try:
        if fmt == ".parquet":
            _assemble_parquet(tmp, paths, manifest)
        else:
            _assemble_npz(tmp, paths, manifest, ids, kinds)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, out)
        _fsync_dir(out.parent)
    except OSError as exc:  # a full disk: name the file (zip and Parquet writes name none)
        name = exc.filename if exc.filename not in (None, os.fspath(tmp)) else os.fspath(out)
        raise OSError(exc.errno, exc.strerror or str(exc), name) from None
    finally:
        tmp.unlink(missing_ok=True)
    shutil.rmtree(parts)


class _ChunkPaths:
    """The chunk files of a run in order, each path made as it is read (a run may have 10^8
    chunks): iterable again and again."""

    def __init__(self, parts: Path, n_chunks: int, fmt: str) -> None:
        self.parts, self.n_chunks, self.fmt = parts, n_chunks, fmt

    def __iter__(self) -> Iterator[Path]:
        return (chunk_path(self.parts, c, self.fmt) for c in range(self.n_chunks))

    def first(self) -> Path:
        return chunk_path(self.parts, 0, self.fmt)


ROW_GROUP = 16384  # rows per Parquet row group in the final file


def _assemble_parquet(tmp: Path, paths: Iterable[Path], manifest: dict[str, Any]) -> None:
    """Chunks gathered into row groups of about ROW_GROUP rows: few row groups keep the
    file's metadata (held in memory until the file is closed) small; labelled (label_table)."""
    pa = _pyarrow()
    ids, rails = manifest["ids"], manifest.get("rails", [])
    writer = None
    buffered: list[Any] = []
    rows = 0

    def flush() -> None:
        nonlocal rows
        if buffered:
            table = pa.concat_tables(buffered)
            writer.write_table(table, row_group_size=len(table))
            buffered.clear()
            rows = 0

    try:
        for p in paths:
            table = label_table(pa.parquet.read_table(p), ids, rails)
            if writer is None:
                schema = table.schema.with_metadata({b"cuesim": json.dumps(manifest).encode()})
                writer = pa.parquet.ParquetWriter(tmp, schema)
            buffered.append(table.cast(writer.schema))
            rows += len(table)
            if rows >= ROW_GROUP:
                flush()
        flush()
    finally:
        if writer is not None:
            writer.close()


def _npz_members(paths: _ChunkPaths) -> Iterator[tuple[str, tuple[int, ...], np.dtype]]:
    """Each member of the chunks: its name, its whole shape (the chunks' rows added up) and
    the dtype that holds every chunk's."""
    with np.load(paths.first()) as first:
        names = list(first.files)
    for name in names:
        rows, shape, dtype = 0, None, None
        for p in paths:
            with np.load(p) as data:
                a = data[name]
                rows += a.shape[0]
                shape = shape or a.shape[1:]
                dtype = a.dtype if dtype is None else np.result_type(dtype, a.dtype)
        yield name, (rows, *(shape or ())), np.dtype(dtype)


def _assemble_npz(tmp: Path, paths: _ChunkPaths, manifest: dict[str, Any], ids: list[str],
                  kinds: tuple[str, ...]) -> None:
    """Stream every array into the zip member it becomes, chunk after chunk; each angle's
    degrees (DEGREES) follow it."""
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as zf:
        for name, total, dtype in _npz_members(paths):
            members = [(name, dtype, None)]
            if name in DEGREES:
                members.append((DEGREES[name], np.dtype(np.float64), np.degrees))
            for member, kind, convert in members:
                with zf.open(f"{member}.npy", "w", force_zip64=True) as fh:
                    header = {"descr": np.lib.format.dtype_to_descr(kind),
                              "fortran_order": False, "shape": total}
                    np.lib.format.write_array_header_2_0(fh, header)
                    for p in paths:
                        with np.load(p) as data:
                            a = data[name] if convert is None else convert(data[name])
                            fh.write(np.ascontiguousarray(a, dtype=kind).tobytes())
        with zf.open("manifest.npy", "w") as fh:
            np.lib.format.write_array(fh, np.array(json.dumps(manifest)))
