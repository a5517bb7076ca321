"""Reading a finished result back: `read_results` of a result file (.parquet or .npz, as
cuesim.batch.store assembles it) or a complete dataset (cuesim.batch.dataset), and the check
of its columns (`check_result_arrays`): a file that is not a whole result is a BatchError
naming it and the column, never a result that answers for the wrong shots."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from cuesim.batch.params import BatchError
from cuesim.batch.store import DERIVED, _pyarrow, arrow_arrays, out_format
from cuesim.sim.events import N_EVENT_COLUMNS
from cuesim.tables.jsonfile import file_path


def read_results(path: str | os.PathLike[str]) -> Any:
    """A finished result file (.parquet or .npz), or a complete dataset (a folder or URL, see
    cuesim.batch.dataset), as a BatchResult."""
    from cuesim.batch.run import BatchResult

    file_path(path, "result file", BatchError)
    if "://" in os.fspath(path) or Path(path).is_dir():
        from cuesim.batch.dataset import read_dataset

        return read_dataset(path)
    path = Path(path)
    fmt = out_format(path)
    if not path.is_file():
        raise BatchError(f"result file {os.fspath(path)!r} does not exist")
    try:
        arrays, manifest = _read_result_file(path, fmt)
    except BatchError:
        raise
    except OSError as exc:
        if exc.errno is not None:  # the system's: permissions, a device error
            raise BatchError(f"result file {os.fspath(path)!r} cannot be read: "
                             f"{exc.strerror or exc}") from None
        raise BatchError(f"{os.fspath(path)!r} is not a cuesim batch result ({fmt} file "
                         f"expected: {' '.join(str(exc).split())[:200]})") from None
    except Exception as exc:  # pyarrow's and numpy's errors for a file that is none of theirs
        raise BatchError(f"{os.fspath(path)!r} is not a cuesim batch result ({fmt} file "
                         f"expected: {' '.join(str(exc).split())[:200]})") from None
    check_result_arrays(arrays, manifest, path)
    return BatchResult(arrays, manifest["ids"], manifest)


# the columns every result holds, with each row's shape (n: the pieces; k: the event kinds)
# and the dtype kinds a column of it may have; what BatchResult reads
RESULT_COLUMNS = {"shot": ((), "iu"), "status": ((), "iu"), "final_xy": (("n", 2), "f"),
                  "final_on": (("n",), "b"), "pocketed": (("n",), "b"),
                  "first_kind": ((), "iu"), "first_index": ((), "iu"), "first_t": ((), "f"),
                  "event_counts": (("k",), "iu"), "n_events": ((), "iu"),
                  "duration": ((), "f"), "truncated": ((), "b")}
# ... with a ruling (the manifest's "ruling"), and the columns some results hold
RULING_COLUMNS = {"legal": ((), "b"), "turn_passes": ((), "b"), "articles": ((), "UO")}
OPTIONAL_COLUMNS = {"points": ((), "iu"), "points_opponent": ((), "iu")}


def check_result_arrays(arrays: dict[str, np.ndarray], manifest: dict[str, Any],
                        path: str | os.PathLike[str]) -> None:
    """A result file holds RESULT_COLUMNS (and RULING_COLUMNS when it was ruled), each known
    column of its dtype kind and row shape, every column one row per shot (`events`: one row
    per event, as many as n_events adds up to), sized for its manifest's pieces: else a
    BatchError naming the file and the column (a column short by a row, or of text, used to
    load and answer for the wrong shots)."""
    where = os.fspath(path)
    sizes = {"n": len(manifest["ids"]), "k": len(manifest.get("event_kinds") or []) or None}
    required = {**RESULT_COLUMNS, **(RULING_COLUMNS if manifest.get("ruling") else {})}
    for name in required:
        if name not in arrays:
            raise BatchError(f"{where!r} is not a whole cuesim batch result: it has no "
                             f"column {name!r}")
    known = {**RESULT_COLUMNS, **RULING_COLUMNS, **OPTIONAL_COLUMNS}
    rows = arrays["shot"].shape[0] if arrays["shot"].ndim else None
    for name, a in arrays.items():
        if name == "events":
            continue
        shape, kinds = known.get(name, ((), "f") if name.startswith("param.") else (None, ""))
        # a column of another version (shape None): its rows only; a size the manifest does
        # not give (None): any
        want = None if shape is None else tuple(sizes[d] if isinstance(d, str) else d
                                                for d in shape)
        ok_shape = a.ndim >= 1 and a.shape[0] == rows and (want is None or (
            a.ndim == 1 + len(want) and all(w in (None, g) for w, g in zip(want, a.shape[1:],
                                                                           strict=True))))
        if not ok_shape:
            expected = f"{rows} rows" if want is None else \
                f"({rows}{''.join(f', {d}' for d in want)})"
            raise BatchError(f"{where!r}: column {name!r} has shape {a.shape}, expected "
                             f"{expected}")
        if kinds and a.dtype.kind not in kinds:
            raise BatchError(f"{where!r}: column {name!r} holds {a.dtype} values, expected "
                             f"{_KIND_WORDS[kinds]}")
    if "events" in arrays:
        events, total = arrays["events"], int(np.sum(arrays["n_events"]))
        if events.ndim != 2 or events.shape != (total, N_EVENT_COLUMNS) \
                or events.dtype.kind != "f":
            raise BatchError(f"{where!r}: column 'events' has shape {events.shape} "
                             f"({events.dtype}), expected ({total}, {N_EVENT_COLUMNS}) floats: "
                             "one row per event, as n_events adds up")


_KIND_WORDS = {"iu": "whole numbers", "f": "floats", "b": "true/false", "UO": "text",
               "iuf": "numbers"}


def _read_result_file(path: Path, fmt: str) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays and manifest of a result file; any error of a file that is not one."""
    if fmt == ".parquet":
        pa = _pyarrow()
        table = pa.parquet.read_table(path)
        meta = table.schema.metadata or {}
        if b"cuesim" not in meta:
            raise BatchError(f"{os.fspath(path)!r} is not a cuesim batch result")
        manifest = _result_manifest(json.loads(meta[b"cuesim"]), path)
        return arrow_arrays(table, manifest["ids"], tuple(manifest["event_kinds"])), manifest
    with np.load(path, allow_pickle=False) as data:
        if "manifest" not in data.files:
            raise BatchError(f"{os.fspath(path)!r} is not a cuesim batch result")
        manifest = _result_manifest(json.loads(str(data["manifest"])), path)
        return ({k: data[k] for k in data.files if k != "manifest" and k not in DERIVED},
                manifest)


def _result_manifest(manifest: Any, path: Path) -> dict[str, Any]:
    if not (isinstance(manifest, dict) and isinstance(manifest.get("ids"), list)
            and isinstance(manifest.get("event_kinds", []), list)):
        raise BatchError(f"{os.fspath(path)!r}: its manifest is not a cuesim batch manifest "
                         "(an object with the piece 'ids' and 'event_kinds')")
    return manifest
