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
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from cuesim.output import check_writable, write_atomic
from cuesim.shot import CueShot, NovusShot, ShotError
from cuesim.sim.events import N_EVENT_COLUMNS, EventKind
from cuesim.sim.result import ShotResult
from cuesim.sim.state import N_SEG_COLUMNS, SEG_EVENT, SEG_OBJ, SEG_ON, SEG_T0, SEG_T1
from cuesim.tables.jsonfile import read_json
from cuesim.tables.layout import Layout, LayoutError

FORMAT = "cuesim-shot"
VERSION = 1
EVENT_COLUMNS = ("t", "kind", "a", "b", "index", "speed", "direction")
SEGMENT_COLUMNS = ("obj", "t0", "t1", "x", "y", "vx", "vy", "ax", "ay", "w0", "spin_decel", "on",
                   "event")
SUFFIXES = (".json", ".npz")
_NAMED = (EventKind.RAIL, EventKind.POCKET, EventKind.LINE, EventKind.CIRCLE)
assert len(EVENT_COLUMNS) == N_EVENT_COLUMNS and len(SEGMENT_COLUMNS) == N_SEG_COLUMNS


class ShotFileError(ValueError):
    """A shot dict or file that cannot be reloaded: the message names the source, the field's
    path and what was expected."""


# -- writing -----------------------------------------------------------------------------------
def _meta(result: ShotResult) -> dict[str, Any]:
    shot = result.shot
    if shot is not None and not isinstance(shot, NovusShot | CueShot):
        raise ShotFileError(f"the shot {shot!r} cannot be written: only a NovusShot, a CueShot "
                            "or None (a run_motion result) reloads")
    return {
        "format": FORMAT, "version": VERSION, "table": result.table,
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


def check_shot_path(path: str | Path, what: str = "shot file") -> Path:
    """`path` as a Path, after checking its suffix (ShotFileError) and that it can be written
    (OutputError); `what` names the option in messages."""
    path = Path(path)
    _suffix(path, what)
    check_writable(path, what)
    return path


def save_result(result: ShotResult, path: str | Path) -> None:
    """Write `result` to `path`: `.json` (readable, exact) or `.npz` (compact, exact), whole or
    not at all. ShotFileError for another suffix or a shot that does not reload; an
    OutputError (cuesim.output) for a path that cannot be written."""
    path = check_shot_path(path)
    if path.suffix.lower() == ".json":
        data: bytes | str = json.dumps(to_exact_dict(result), allow_nan=False) + "\n"
    else:
        data = _npz_bytes(result)
    write_atomic(path, data)


# -- reading -----------------------------------------------------------------------------------
def from_exact_dict(data: Any, source: str = "shot") -> ShotResult:
    """Rebuild a ShotResult from `ShotResult.to_dict(exact=True)` (JSON-parsed or not)."""
    if not isinstance(data, dict):
        raise ShotFileError(f"{source}: expected an object (ShotResult.to_dict(exact=True)), "
                            f"got {type(data).__name__}")
    exact = data.get("exact")
    if not isinstance(exact, dict):
        raise ShotFileError(f"{source}: no 'exact' block: write the result with "
                            "ShotResult.to_dict(exact=True) (the readable dict alone does not "
                            "reload exactly)")
    _header(exact, f"{source}: exact")
    meta = {"table": data.get("table"), "shot": data.get("shot"),
            "truncated": data.get("truncated"), "initial": data.get("initial"),
            "feature_names": exact.get("feature_names")}
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
    return _build(meta, arrays, source)


def load_result(path: str | Path) -> ShotResult:
    """Read a shot file written by `save_result` (.json or .npz), checked field by field."""
    path = Path(path)
    if _suffix(path) == ".json":
        return from_exact_dict(read_json(path, "shot file", ShotFileError), source=str(path))
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ShotFileError(f"cannot read shot file {path}: {exc.strerror or exc}") from None
    try:
        with np.load(io.BytesIO(raw), allow_pickle=False) as npz:
            stored = {k: npz[k] for k in npz.files}
    except (ValueError, OSError, EOFError, zipfile.BadZipFile, KeyError) as exc:
        raise ShotFileError(f"shot file {path} is not a readable .npz archive ({exc})") from None
    source = str(path)
    for key in ("meta", "events", "segments", "final_positions", "final_on"):
        if key not in stored:
            raise ShotFileError(f"{source}: the archive has no array {key!r}")
    meta_raw = stored["meta"]
    if meta_raw.dtype.kind != "U" or meta_raw.shape != ():
        raise ShotFileError(f"{source}: 'meta' must be one JSON string")
    try:
        meta = json.loads(str(meta_raw), parse_constant=_no_constant)
    except (json.JSONDecodeError, RecursionError, ValueError) as exc:
        raise ShotFileError(f"{source}: 'meta' is not valid JSON ({exc})") from None
    if not isinstance(meta, dict):
        raise ShotFileError(f"{source}: 'meta' must be a JSON object")
    _header(meta, f"{source}: meta")
    arrays = {}
    for key, cols, kind in (("events", N_EVENT_COLUMNS, "f"), ("segments", N_SEG_COLUMNS, "f"),
                            ("final_positions", 2, "f"), ("final_on", 0, "b")):
        a = stored[key]
        want = "float64" if kind == "f" else "bool"
        shape = f"(rows, {cols})" if cols else "(pieces,)"
        if a.dtype != np.dtype(want) or a.ndim != (2 if cols else 1) or (cols and a.shape[1]
                                                                         != cols):
            raise ShotFileError(f"{source}: {key} must be a {want} array of shape {shape}, got "
                                f"{a.dtype} {a.shape}")
        arrays[key] = a
    return _build(meta, arrays, source)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _header(block: dict[str, Any], where: str) -> None:
    if block.get("format") != FORMAT:
        raise ShotFileError(f"{where}.format must be {FORMAT!r}, got {block.get('format')!r}")
    if block.get("version") != VERSION:
        raise ShotFileError(f"{where}.version {block.get('version')!r} is not supported: this "
                            f"cuesim reads version {VERSION}")


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


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
            elif not _number(v):
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


def _build(meta: dict[str, Any], arrays: dict[str, np.ndarray], source: str) -> ShotResult:
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
    n = len(initial)
    final_positions, final_on = arrays["final_positions"], arrays["final_on"]
    if final_positions.shape != (n, 2) or not np.isfinite(final_positions).all():
        raise ShotFileError(f"{source}: final_positions must be {n} finite (x, y) pairs, one per "
                            f"piece of the initial layout, got shape {final_positions.shape}")
    if final_on.shape != (n,):
        raise ShotFileError(f"{source}: final_on must have {n} flags, one per piece, got "
                            f"{final_on.shape[0]}")
    events = _check_events(arrays["events"], n, names, source)
    segments = _check_segments(arrays["segments"], n, len(events), source)
    return ShotResult(table=table, initial=initial, final_positions=final_positions,
                      final_on=final_on, events=events, segments=segments, feature_names=names,
                      truncated=truncated, shot=_shot(meta.get("shot"), f"{source}: shot"))


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


def _fail(where: str, rows: np.ndarray, what: str, values: np.ndarray) -> None:
    if len(rows):
        k = int(rows[0])
        raise ShotFileError(f"{where}[{k}]: {what}, got {values[k]!r}")


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
