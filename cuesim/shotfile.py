"""Shot results as data and files that reload them exactly, bit for bit.

`ShotResult.to_dict(exact=True)` is the readable dict of `ShotResult.to_dict` (shot, event
log, layouts) plus an `"exact"` block with the core's raw arrays (event rows, trajectory
segments, the final positions and flags, the feature names); `ShotResult.from_dict` rebuilds
the result from it. JSON floats are written as Python's shortest repr, so they reload to the
same bits; a segment's end `t1` that is infinite (the last, resting one) is written `null`.

Files: `.json` (that dict) or `.npz` (the raw arrays, compressed, with the rest as a JSON
string `meta`; loaded without pickle). Both go through one validation layer: a bad file is a
`ShotFileError` naming the file, the field and what was expected.
"""

from __future__ import annotations

import io
import json
import math
import os
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cuesim.output import check_writable, write_atomic
from cuesim.shot import CueShot, NovusShot, ShotError
from cuesim.shotfile_events import check_event_roles
from cuesim.shotfile_motion import (
    ShotFileError,
    _check_final,
    _check_motion,
    _fail,
    _limits,
    check_paths,
)
from cuesim.shotfile_readable import check_readable, is_number, no_unknown_fields
from cuesim.shotfile_replay import check_physics, verify_result
from cuesim.shotfile_start import check_initial, check_shot, check_spin_decel, check_struck
from cuesim.sim.events import COL_T, N_EVENT_COLUMNS, EventKind
from cuesim.sim.result import ShotResult
from cuesim.sim.state import (
    N_SEG_COLUMNS,
    SEG_EVENT,
    SEG_OBJ,
    SEG_ON,
    SEG_T0,
    SEG_T1,
)
from cuesim.tables.jsonfile import read_json
from cuesim.tables.layout import Layout, LayoutError

FORMAT = "cuesim-shot"
# 2: the physics the shot was played with (`physics`, required); 1, still read: without them
VERSION = 2
READ_VERSIONS = (1, 2)
EVENT_COLUMNS = ("t", "kind", "a", "b", "index", "speed", "direction")
SEGMENT_COLUMNS = ("obj", "t0", "t1", "x", "y", "vx", "vy", "ax", "ay", "w0", "spin_decel", "on",
                   "event")
SUFFIXES = (".json", ".npz")
_NAMED = (EventKind.RAIL, EventKind.POCKET, EventKind.LINE, EventKind.CIRCLE)
_NPZ_KEYS = ("meta", "events", "segments", "final_positions", "final_on")
# the fields the writers put in an `exact` block and an .npz's `meta`: any other is refused, as
# it would be lost on reloading (the readable fields beside `exact` are the core's to_dict's)
_EXACT_FIELDS = ("format", "version", "feature_names", "final_positions", "final_on",
                 "event_columns", "events", "segment_columns", "segments")
_META_FIELDS = ("format", "version", "table", "physics", "shot", "truncated", "initial",
                "feature_names")

# .npz archives: what is read before any array is allocated
_MAX_META_CHARS = 1 << 24  # the JSON string `meta` (a 10,000-piece layout is ~1.5 M characters)
_MAX_ARRAY_BYTES = 1 << 30  # all arrays of one file (a 1,024-piece box to rest: ~3 MB)
_DEFLATE_MAX_RATIO = 1032  # deflate expands a compressed byte into at most 1032 bytes
assert len(EVENT_COLUMNS) == N_EVENT_COLUMNS and len(SEGMENT_COLUMNS) == N_SEG_COLUMNS


# -- writing -----------------------------------------------------------------------------------
def _meta(result: ShotResult) -> dict[str, Any]:
    shot = result.shot
    if shot is not None and not isinstance(shot, NovusShot | CueShot):
        raise ShotFileError(f"the shot {shot!r} cannot be written: only a NovusShot, a CueShot "
                            "or None (a run_motion result) reloads")
    return {
        "format": FORMAT, "version": VERSION, "table": result.table, "physics": result.physics,
        "shot": None if shot is None else shot.to_dict(), "truncated": bool(result.truncated),
        "initial": result.initial.to_dict(),
        "feature_names": {EventKind(k).name.lower(): list(v)
                          for k, v in sorted(result.feature_names.items())},
    }


def to_exact_dict(result: ShotResult, trajectories: bool = False) -> dict[str, Any]:
    """The readable dict (`ShotResult.to_dict(trajectories)`) with the `"exact"` block."""
    meta = _meta(result)
    segments = [[None if (c == SEG_T1 and math.isinf(v)) else float(v) for c, v in enumerate(row)]
                for row in result.segments.tolist()]
    out = result.to_dict(trajectories=trajectories)
    out["exact"] = {
        "format": FORMAT, "version": VERSION,
        "feature_names": meta["feature_names"],
        "final_positions": result.final_positions.tolist(),
        "final_on": [bool(v) for v in result.final_on],
        "event_columns": list(EVENT_COLUMNS), "events": result.events.tolist(),
        "segment_columns": list(SEGMENT_COLUMNS), "segments": segments,
    }
    return out


def _npz_bytes(result: ShotResult) -> bytes:
    buf = io.BytesIO()
    np.savez_compressed(buf, meta=np.array(json.dumps(_meta(result))),
                        events=np.ascontiguousarray(result.events, dtype=np.float64),
                        segments=np.ascontiguousarray(result.segments, dtype=np.float64),
                        final_positions=np.ascontiguousarray(result.final_positions,
                                                             dtype=np.float64),
                        final_on=np.asarray(result.final_on, dtype=bool))
    return buf.getvalue()


def _suffix(path: Path, what: str = "shot file") -> str:
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ShotFileError(f"{what} {str(path)!r}: the name must end in .json or .npz "
                            f"(the format), got {path.suffix or 'no suffix'!r}")
    return suffix


def _as_path(path: Any, what: str) -> Path:
    """`path` (a str or os.PathLike) as a Path; ShotFileError naming `what` for anything else."""
    if isinstance(path, str | os.PathLike):
        try:
            return Path(path)
        except TypeError:  # an os.PathLike giving bytes
            pass
    raise ShotFileError(f"{what} must be a .json or .npz shot file's path (a str or "
                        f"os.PathLike), got {type(path).__name__} {path!r}"[:300])


def check_shot_path(path: str | Path, what: str = "shot file") -> Path:
    """`path` as a Path, after checking its suffix (ShotFileError) and that it can be written
    (OutputError); `what` names the option in messages."""
    path = _as_path(path, what)
    _suffix(path, what)
    check_writable(path, what)
    return path


def save_result(result: ShotResult, path: str | Path) -> None:
    """Write `result` to `path`: `.json` (readable, exact) or `.npz` (compact, exact), whole or
    not at all. ShotFileError for another suffix or a shot that does not reload; an
    OutputError (cuesim.output) for a path that cannot be written."""
    path = check_shot_path(_as_path(path, "ShotResult.save: path"))
    if path.suffix.lower() == ".json":
        data: bytes | str = json.dumps(to_exact_dict(result), allow_nan=False) + "\n"
    else:
        data = _npz_bytes(result)
    write_atomic(path, data)


# -- reading -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Meta:
    """What a shot file holds besides the arrays, checked: the table and its physics (None in
    a file written before they were recorded), the truncated flag, the initial layout, the
    feature names and the shot."""

    table: str
    physics: dict[str, float] | None
    truncated: bool
    initial: Layout
    names: dict[int, list[str]]
    shot: NovusShot | CueShot | None


def from_exact_dict(data: Any, source: str = "shot", verify: bool = False) -> ShotResult:
    """Rebuild a ShotResult from `ShotResult.to_dict(exact=True)` (JSON-parsed or not);
    `verify=True` plays its shot again and refuses any difference (`verify_result`)."""
    _check_verify(verify, "ShotResult.from_dict")
    if not isinstance(data, dict):
        raise ShotFileError(f"{source}: expected an object (ShotResult.to_dict(exact=True)), "
                            f"got {type(data).__name__}")
    exact = data.get("exact")
    if not isinstance(exact, dict):
        raise ShotFileError(f"{source}: no 'exact' block: write the result with "
                            "ShotResult.to_dict(exact=True) (the readable dict alone does not "
                            "reload exactly)")
    version = _header(exact, f"{source}: exact")
    no_unknown_fields(exact, _EXACT_FIELDS, f"{source}: exact")
    _physics_field(data, version, source)
    meta = _parse_meta({"table": data.get("table"), "physics": data.get("physics"),
                        "shot": data.get("shot"),
                        "truncated": data.get("truncated"), "initial": data.get("initial"),
                        "feature_names": exact.get("feature_names")}, source)
    for key in ("event_columns", "segment_columns"):
        want = list(EVENT_COLUMNS if key == "event_columns" else SEGMENT_COLUMNS)
        if exact.get(key) != want:
            raise ShotFileError(f"{source}: exact.{key} must be {want}, got {exact.get(key)!r}")
    segments = _rows(exact.get("segments"), N_SEG_COLUMNS, f"{source}: exact.segments",
                     nullable=SEG_T1)
    arrays = {"events": _rows(exact.get("events"), N_EVENT_COLUMNS, f"{source}: exact.events"),
              "segments": segments,
              "final_positions": _rows(exact.get("final_positions"), 2,
                                       f"{source}: exact.final_positions"),
              "final_on": _flags(exact.get("final_on"), f"{source}: exact.final_on")}
    result = _build(meta, arrays, source)
    check_readable(data, result, source)
    if verify:
        verify_result(result, source)
    return result


def _check_verify(verify: Any, who: str) -> None:
    if not isinstance(verify, bool | np.bool_):  # 'no' would read as true
        raise ShotFileError(f"{who}: verify must be True or False, got {verify!r:.60}")


def load_result(path: str | Path, verify: bool = False) -> ShotResult:
    """Read a shot file written by `save_result` (.json or .npz), checked field by field;
    `verify=True` also plays its shot again and refuses the file unless every array is the
    same, bit for bit (`cuesim.shotfile_replay.verify_result`: the one check that catches an
    edit of what only the physics decides, at the cost of simulating the shot)."""
    path = _as_path(path, "ShotResult.load: path")
    _check_verify(verify, "ShotResult.load")
    if _suffix(path) == ".json":
        return from_exact_dict(read_json(path, "shot file", ShotFileError), source=str(path),
                               verify=verify)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ShotFileError(f"cannot read shot file {path}: {exc.strerror or exc}") from None
    result = _load_npz(raw, str(path))
    if verify:
        verify_result(result, str(path))
    return result


def _not_zip(raw: bytes, source: str) -> str:
    """Why `raw` is no .npz archive, with what it seems to be instead."""
    what = "it is empty" if not raw.strip() else "it is not a zip file"
    if raw.startswith(b"\x93NUMPY"):
        what = "it is a single .npy array, not a zip of the shot's arrays"
    elif raw.lstrip()[:1] in (b"{", b"["):
        try:
            json.loads(raw.decode("utf-8-sig"))
            what = ("it holds JSON text: a JSON shot file must be named .json (rename it to "
                    "load it as one)")
        except (UnicodeDecodeError, ValueError, RecursionError):
            pass
    return (f"shot file {source} is not a readable .npz archive: {what} (an .npz shot file is "
            "a zip of .npy arrays, as ShotResult.save writes it)")


_ZIP_ERRORS = (ValueError, OSError, EOFError, zipfile.BadZipFile, zlib.error, RuntimeError,
               NotImplementedError, KeyError)


def _npy_header(zf: zipfile.ZipFile, info: zipfile.ZipInfo,
                source: str) -> tuple[tuple[int, ...], np.dtype]:
    """(shape, dtype) from the header of one archive member, read without its data."""
    name = info.filename
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise ShotFileError(f"shot file {source} is not a readable .npz archive: {name} is "
                            f"compressed with zip method {info.compress_type}; expected stored "
                            "or deflated (numpy.savez / savez_compressed)")
    try:
        with zf.open(info) as f:
            version = np.lib.format.read_magic(f)
            if version == (1, 0):
                shape, _, dtype = np.lib.format.read_array_header_1_0(f)
            elif version == (2, 0):
                shape, _, dtype = np.lib.format.read_array_header_2_0(f)
            else:
                raise ValueError(f".npy format version {version[0]}.{version[1]} is not "
                                 "supported; expected 1.0 or 2.0")
    except _ZIP_ERRORS as exc:
        raise ShotFileError(f"shot file {source} is not a readable .npz archive ({name}: "
                            f"{exc})") from None
    if dtype.hasobject:
        raise ShotFileError(f"shot file {source} is not a readable .npz archive: {name} holds "
                            "pickled Python objects, which are never loaded")
    if any(d < 0 for d in shape):
        raise ShotFileError(f"shot file {source} is not a readable .npz archive: {name} has "
                            f"the negative shape {shape}")
    nbytes = math.prod(shape) * dtype.itemsize
    # deflate writes at least one byte per _DEFLATE_MAX_RATIO: a header that declares more data
    # than the member holds describes no real array (and would allocate it before failing)
    room = info.compress_size * (_DEFLATE_MAX_RATIO if info.compress_type else 1)
    if nbytes > info.file_size or info.file_size > room + 1024:
        raise ShotFileError(f"shot file {source} is not a readable .npz archive: {name} "
                            f"declares a {dtype} array of shape {shape} ({nbytes} bytes), but "
                            f"holds {info.file_size} bytes ({info.compress_size} compressed)")
    return shape, dtype


def _npy_data(zf: zipfile.ZipFile, info: zipfile.ZipInfo, source: str) -> np.ndarray:
    """The array of one member whose header `_npy_header` checked."""
    try:
        with zf.open(info) as f:
            return np.lib.format.read_array(f, allow_pickle=False)
    except _ZIP_ERRORS as exc:
        raise ShotFileError(f"shot file {source} is not a readable .npz archive "
                            f"({info.filename}: {exc})") from None


def _load_npz(raw: bytes, source: str) -> ShotResult:
    """A ShotResult from the bytes of an .npz shot file: the members' headers are checked
    against the file's own counts before any array is read."""
    if not zipfile.is_zipfile(io.BytesIO(raw)):
        raise ShotFileError(_not_zip(raw, source))
    try:
        zf = zipfile.ZipFile(io.BytesIO(raw))
    except _ZIP_ERRORS as exc:
        raise ShotFileError(f"shot file {source} is not a readable .npz archive ({exc})") from None
    with zf:
        names = zf.namelist()
        wanted = [f"{key}.npy" for key in _NPZ_KEYS]
        for name in names:
            if name not in wanted:
                raise ShotFileError(f"{source}: the archive holds {name!r}, which is no array of "
                                    f"a shot file (it would not be read back); the arrays are "
                                    f"{', '.join(wanted)}"[:600])
        if len(set(names)) != len(names):
            twice = next(n for n in names if names.count(n) > 1)
            raise ShotFileError(f"{source}: the archive holds {twice!r} twice; expected each "
                                "array once")
        infos = {}
        for key in _NPZ_KEYS:
            try:
                infos[key] = zf.getinfo(f"{key}.npy")
            except KeyError:
                raise ShotFileError(f"{source}: the archive has no array {key!r}") from None
        headers = {key: _npy_header(zf, info, source) for key, info in infos.items()}
        shape, dtype = headers["meta"]
        if dtype.kind != "U" or shape != ():
            raise ShotFileError(f"{source}: 'meta' must be one JSON string")
        if dtype.itemsize > 4 * _MAX_META_CHARS:
            raise ShotFileError(f"{source}: 'meta' holds {dtype.itemsize // 4} characters; "
                                f"expected at most {_MAX_META_CHARS}")
        meta_raw = _npy_data(zf, infos["meta"], source)
        try:
            data = json.loads(str(meta_raw), parse_constant=_no_constant)
        except (json.JSONDecodeError, RecursionError, ValueError) as exc:
            raise ShotFileError(f"{source}: 'meta' is not valid JSON ({exc})") from None
        if not isinstance(data, dict):
            raise ShotFileError(f"{source}: 'meta' must be a JSON object")
        version = _header(data, f"{source}: meta")
        no_unknown_fields(data, _META_FIELDS, f"{source}: meta")
        _physics_field(data, version, f"{source}: meta")
        meta = _parse_meta(data, source)
        shapes = {}
        for key, cols, kind in (("events", N_EVENT_COLUMNS, "f"),
                                ("segments", N_SEG_COLUMNS, "f"),
                                ("final_positions", 2, "f"), ("final_on", 0, "b")):
            shape, dtype = headers[key]
            want = "float64" if kind == "f" else "bool"
            form = f"(rows, {cols})" if cols else "(pieces,)"
            if dtype != np.dtype(want) or len(shape) != (2 if cols else 1) or (
                    cols and shape[1] != cols):
                raise ShotFileError(f"{source}: {key} must be a {want} array of shape {form}, "
                                    f"got {dtype} {shape}")
            shapes[key] = shape
        _check_sizes(shapes, len(meta.initial), source)
        arrays = {key: _npy_data(zf, infos[key], source) for key in shapes}
    return _build(meta, arrays, source)


def _check_sizes(shapes: dict[str, tuple[int, ...]], n: int, source: str) -> None:
    """The arrays' shapes against the file's own counts: one final position and flag per
    piece; at most as many segments as the simulator can write for n pieces and the events
    (each pass of its loop opens at most n segments, and at most 4 n + 64 passes in a row log
    no event: sim.loop); at most _MAX_ARRAY_BYTES in all."""
    if shapes["final_positions"] != (n, 2):
        raise ShotFileError(f"{source}: final_positions must be {n} finite (x, y) pairs, one per "
                            f"piece of the initial layout, got shape {shapes['final_positions']}")
    if shapes["final_on"] != (n,):
        raise ShotFileError(f"{source}: final_on must have {n} flags, one per piece, got "
                            f"{shapes['final_on'][0]}")
    n_events, n_segments = shapes["events"][0], shapes["segments"][0]
    most = n * (n_events + 1) * (4 * n + 65)
    if n_segments > most:
        raise ShotFileError(f"{source}: segments has {n_segments} rows; expected at most "
                            f"{most}, what the simulator can write for {n} pieces and "
                            f"{n_events} events")
    size = 8 * (n_events * N_EVENT_COLUMNS + n_segments * N_SEG_COLUMNS)
    if size > _MAX_ARRAY_BYTES:
        raise ShotFileError(f"{source}: events and segments ({n_events} and {n_segments} rows) "
                            f"take {size / 2**30:.3g} GiB; a shot file holds at most "
                            f"{_MAX_ARRAY_BYTES / 2**30:.3g} GiB of arrays")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _header(block: dict[str, Any], where: str) -> int:
    """The format and version of a file's block; the version, one this cuesim reads."""
    if block.get("format") != FORMAT:
        raise ShotFileError(f"{where}.format must be {FORMAT!r}, got {block.get('format')!r}")
    version = block.get("version")
    if type(version) is not int or version not in READ_VERSIONS:  # true == 1, 1.0 == 1
        raise ShotFileError(f"{where}.version {block.get('version')!r} is not supported: this "
                            f"cuesim reads versions {', '.join(map(str, READ_VERSIONS))}")
    return version


def _physics_field(data: dict[str, Any], version: int, where: str) -> None:
    """Version 2 files record the physics (`physics`, null only for a table without any);
    version 1 files were written before they were, and have no such field."""
    if version >= 2 and "physics" not in data:
        raise ShotFileError(f"{where}: no 'physics' (a version {version} file records the "
                            "physics the shot was played with)")
    if version < 2 and "physics" in data:
        raise ShotFileError(f"{where}: 'physics' in a version {version} file, written before "
                            "they were recorded: expected version 2")


def _rows(rows: Any, cols: int, where: str, nullable: int = -1) -> np.ndarray:
    """A list of `cols`-number rows as a float64 array (null allowed in column `nullable`: an
    infinite segment end)."""
    if not isinstance(rows, list):
        raise ShotFileError(f"{where} must be a list of rows of {cols} numbers")
    out = np.empty((len(rows), cols))
    for k, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != cols:
            raise ShotFileError(f"{where}[{k}] must be a list of {cols} numbers, got {row!r}")
        for c, v in enumerate(row):
            if v is None and c == nullable:
                out[k, c] = math.inf
            elif not is_number(v):
                raise ShotFileError(f"{where}[{k}][{c}] must be a number, got {v!r}")
            else:
                out[k, c] = v
    return out


def _flags(flags: Any, where: str) -> np.ndarray:
    if not isinstance(flags, list) or not all(isinstance(f, bool) for f in flags):
        raise ShotFileError(f"{where} must be a list of true/false, one per piece")
    return np.array(flags, dtype=bool)


def _shot(data: Any, where: str) -> NovusShot | CueShot | None:
    if data is None:
        return None
    try:
        if isinstance(data, dict) and data.get("game") == "novus":
            return NovusShot.from_dict(data, where)
        return CueShot.from_dict(data, where)
    except ShotError as exc:
        raise ShotFileError(str(exc)) from None


def _feature_names(data: Any, where: str) -> dict[int, list[str]]:
    names = {k.name.lower(): int(k) for k in _NAMED}
    if not isinstance(data, dict) or not set(data) <= set(names):
        raise ShotFileError(f"{where} must be an object with lists of names under "
                            f"{sorted(names)}, got {data!r}")
    out = {}
    for key, value in data.items():
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ShotFileError(f"{where}.{key} must be a list of names, got {value!r}")
        out[names[key]] = list(value)
    return dict(sorted(out.items()))


def _parse_meta(meta: dict[str, Any], source: str) -> _Meta:
    """The table, truncated flag, initial layout (legal on its table), feature names and shot."""
    table = meta.get("table")
    if not isinstance(table, str) or not table:
        raise ShotFileError(f"{source}: table must be a table name, got {table!r}")
    truncated = meta.get("truncated")
    if not isinstance(truncated, bool):
        raise ShotFileError(f"{source}: truncated must be true or false, got {truncated!r}")
    try:
        initial = Layout.from_dict(meta.get("initial"), source=f"{source}: initial", table=table)
    except LayoutError as exc:
        raise ShotFileError(str(exc)) from None
    if initial.table != table:
        raise ShotFileError(f"{source}: initial.table {initial.table!r} is not the shot's table "
                            f"{table!r}")
    _check_layout(initial, f"{source}: initial")
    names = _feature_names(meta.get("feature_names"), f"{source}: feature_names")
    _check_table_features(table, names, f"{source}: feature_names")
    physics = check_physics(meta.get("physics"), table, f"{source}: physics")
    return _Meta(table, physics, truncated, initial, names,
                 _shot(meta.get("shot"), f"{source}: shot"))


def _check_table_features(table: str, names: dict[int, list[str]], where: str) -> None:
    """The names the events' `index` points into are those of the table named, in its order,
    when cuesim knows the table by name (the core writes `Arrays.feature_names`): a rail or a
    pocket renamed would be ruled on as another feature."""
    from cuesim.api import table_named
    from cuesim.sim.engine import table_arrays

    known = table_named(table)
    if known is None:
        return
    own = table_arrays(known).feature_names
    for kind in sorted(set(own) | set(names)):
        if names.get(kind, []) != own.get(kind, []):
            raise ShotFileError(f"{where}.{EventKind(kind).name.lower()} must be the {table} "
                                f"table's {own.get(kind, [])}, got {names.get(kind, [])}")


def _build(meta: _Meta, arrays: dict[str, np.ndarray], source: str) -> ShotResult:
    n = len(meta.initial)
    final_positions, final_on = arrays["final_positions"], arrays["final_on"]
    if final_positions.shape != (n, 2) or not np.isfinite(final_positions).all():
        raise ShotFileError(f"{source}: final_positions must be {n} finite (x, y) pairs, one per "
                            f"piece of the initial layout, got shape {final_positions.shape}")
    if final_on.shape != (n,):
        raise ShotFileError(f"{source}: final_on must have {n} flags, one per piece, got "
                            f"{final_on.shape[0]}")
    events = _check_events(arrays["events"], n, meta.names, source)
    check_event_roles(events, meta.initial, source)
    _check_sizes({k: a.shape for k, a in arrays.items()}, n, source)
    segments = _check_segments(arrays["segments"], n, len(events), source)
    if not meta.truncated and len(events) and len(segments):
        # a shot that came to rest: every event happens by the time the last piece rests
        rest = float(segments[:, SEG_T0].max())
        _fail(f"{source}: events", np.flatnonzero(events[:, 0] > rest),
              f"t must be by the time the last piece comes to rest ({rest:.6g} s, the last "
              "segment's start)", events[:, 0])
    limits = _limits(meta.initial)
    _check_motion(segments, limits, source)
    _check_final(meta, final_positions, final_on, events, segments, limits, source)
    check_initial(meta.initial, segments, source)
    check_struck(meta.shot, meta.initial, events, source)
    check_shot(meta.shot, meta.table, meta.physics, meta.initial, events, segments, source)
    check_spin_decel(meta.table, meta.physics, meta.initial, segments, source)
    _check_segment_times(segments, events, source)
    check_paths(segments, source)
    return ShotResult(table=meta.table, initial=meta.initial, final_positions=final_positions,
                      final_on=final_on, events=events, segments=segments,
                      feature_names=meta.names, truncated=meta.truncated, shot=meta.shot,
                      physics=meta.physics)


def _check_layout(layout: Layout, where: str) -> None:
    """The initial layout must be legal on its table when cuesim knows the table by name."""
    from cuesim.api import table_named

    table = table_named(layout.table)
    if table is not None:
        try:
            table.check_layout(layout)
        except LayoutError as exc:
            raise ShotFileError(f"{where}: {exc}") from None


def _integral(col: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """Rows whose value is not a whole number in [lo, hi]."""
    return np.flatnonzero((col != np.round(col)) | (col < lo) | (col > hi))


def _check_events(ev: np.ndarray, n: int, names: dict[int, list[str]],
                  source: str) -> np.ndarray:
    where = f"{source}: events"
    if not np.isfinite(ev).all():
        k = int(np.flatnonzero(~np.isfinite(ev).all(axis=1))[0])
        raise ShotFileError(f"{where}[{k}] must hold finite numbers, got {ev[k].tolist()}")
    t, kind = ev[:, 0], ev[:, 1]
    _fail(where, np.flatnonzero(t < 0.0), "t must be a time >= 0 s", t)
    _fail(where, np.flatnonzero(np.diff(t) < 0.0) + 1,
          "t comes before the previous event's: events must be in time order", t)
    _fail(where, _integral(kind, 0, max(EventKind)),
          f"kind must be an event kind 0..{max(EventKind)}", kind)
    _fail(where, _integral(ev[:, 2], 0, n - 1), f"a must be a piece index 0..{n - 1}", ev[:, 2])
    _fail(where, _integral(ev[:, 3], -1, n - 1), f"b must be -1 or a piece index 0..{n - 1}",
          ev[:, 3])
    _fail(where, _integral(ev[:, 6], -1, 1), "direction must be -1, 0 or 1", ev[:, 6])
    _fail(where, np.flatnonzero(ev[:, 5] < 0.0),
          "speed must be >= 0 m/s (an approach or a piece's speed)", ev[:, 5])
    counts = np.array([len(names.get(k, [])) for k in range(max(EventKind) + 1)])
    _fail(where, _integral(ev[:, 4], -1, 1 << 30), "index must be -1 or a feature index", ev[:, 4])
    limit = counts[kind.astype(int)]
    _fail(where, np.flatnonzero(ev[:, 4] >= np.maximum(limit, 0)),
          "index names no rail, pocket, line or circle in feature_names", ev[:, 4])
    return ev


def _check_segments(seg: np.ndarray, n: int, n_events: int, source: str) -> np.ndarray:
    where = f"{source}: segments"
    t1 = seg[:, SEG_T1]
    finite = np.isfinite(np.delete(seg, SEG_T1, axis=1)).all(axis=1) & ~np.isnan(t1)
    _fail(where, np.flatnonzero(~finite), "every number must be finite (t1 may be infinite)",
          seg.tolist())
    _fail(where, _integral(seg[:, SEG_OBJ], 0, n - 1), f"obj must be a piece index 0..{n - 1}",
          seg[:, SEG_OBJ])
    _fail(where, np.flatnonzero(seg[:, SEG_T0] < 0.0), "t0 must be >= 0 s", seg[:, SEG_T0])
    _fail(where, np.flatnonzero(t1 < seg[:, SEG_T0]), "t1 must not come before t0", t1)
    _fail(where, _integral(seg[:, SEG_ON], 0, 1), "on must be 0 or 1", seg[:, SEG_ON])
    _fail(where, _integral(seg[:, SEG_EVENT], -1, n_events - 1),
          f"event must be -1 or an event index 0..{n_events - 1}", seg[:, SEG_EVENT])
    obj = seg[:, SEG_OBJ].astype(int)
    for i in range(n):
        own = seg[obj == i]
        if not (own[:, SEG_T0] == 0.0).any():
            raise ShotFileError(f"{where}: piece {i} has no segment starting at t0 = 0")
        on = own[np.argsort(own[:, SEG_T0], kind="stable"), SEG_ON]
        if (np.diff(on) > 0).any():
            raise ShotFileError(f"{where}: piece {i} comes back onto the table after it left it")
    return seg


def _check_segment_times(seg: np.ndarray, events: np.ndarray, source: str) -> None:
    """The segments' times as the core writes them: each opened by an event starts at that
    event's time, and each piece's follow one another without a gap or an overlap (each ends
    where the next begins), so that `positions_at` answers from exactly one at any time."""
    where = f"{source}: segments"
    opened = seg[:, SEG_EVENT].astype(int)
    by_event = np.flatnonzero(opened >= 0)
    _fail(where, by_event[seg[by_event, SEG_T0] != events[opened[by_event], COL_T]],
          "t0 must be the time of the event that opened the segment", seg[:, SEG_T0])
    obj = seg[:, SEG_OBJ].astype(int)
    for i in np.unique(obj).tolist():
        rows = np.flatnonzero(obj == i)
        rows = rows[np.argsort(seg[rows, SEG_T0], kind="stable")]
        gap = np.flatnonzero(seg[rows[:-1], SEG_T1] != seg[rows[1:], SEG_T0])
        if len(gap):
            k, before = int(rows[gap[0] + 1]), int(rows[gap[0]])
            raise ShotFileError(f"{where}[{k}]: piece {i}'s segment starts at t0 = "
                                f"{float(seg[k, SEG_T0])!r}, not where its previous one "
                                f"(segments[{before}]) ends, {float(seg[before, SEG_T1])!r}; "
                                "expected each piece's segments one after another")

