"""The number of shots a run can hold, checked before anything is simulated or allocated.

Sampled and grid shots are made chunk by chunk from their index, and results stream to disk
chunk by chunk, so little of a run grows with its shot count. What does, each refusing a count
beyond it with a TooManyShots (a BatchError):

- the shot numbers: 64-bit integers (the `shot` column; a grid's index is unravelled in
  numpy's intp), so at most 2**63 - 1 shots in any run;
- results held whole: simulate_many's BatchResult, and an .npz file, whose arrays are read
  back whole (a zip member cannot be read in parts nor memory-mapped; read_results reads them
  all): shots x bytes a shot must fit in the machine's physical memory;
- one Parquet file's footer, which describes every row group: the writer holds it until the
  file is closed, and the file stores its length in 4 bytes, so it must fit both.

A partitioned dataset (a file per chunk, cuesim.batch.dataset) has only the first limit.
"""

from __future__ import annotations

import io
import json
import math
import os
from typing import TYPE_CHECKING, Any

import numpy as np

from cuesim.batch.params import BatchError

if TYPE_CHECKING:
    from cuesim.batch.core import Setup
    from cuesim.batch.job import Job

# shot k is numbered k in an int64 (np.arange(start, stop, dtype=np.int64)), and a grid's
# shape must have its product in numpy's intp to be unravelled: both are 64-bit signed
MAX_SHOTS = int(np.iinfo(np.int64).max)
# a Parquet file ends with its footer's length as a 4-byte little-endian integer
FOOTER_LENGTH_MAX = 2**32 - 1


class TooManyShots(BatchError):
    """A run refused for its number of shots; `describe(what)` names where they come from
    (the CLI names its option)."""

    def __init__(self, n: int, reason: str, source: Any = None) -> None:
        self.n, self.reason = n, reason
        name = type(source).__name__
        super().__init__(self.describe({"ShotGrid": "grid", "ShotSampler": "sampler"}.get(
            name, "shots")))

    def describe(self, what: str) -> str:
        # a count of 10**400 as ~1e400, not 401 digits with their separators
        count = f"{self.n:,}" if self.n < 10**21 else f"~1e{len(str(self.n)) - 1}"
        return f"{what}: {count} shots {self.reason}"


def physical_memory() -> int | None:
    """The machine's physical memory in bytes, None where the system does not say."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, ValueError, OSError):
        return None


def size_text(n: float) -> str:
    """Bytes in binary units: 417 B, 22.4 GiB, 379 TiB."""
    units = ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB")
    k = 0
    while n >= 1024 and k < len(units) - 1:
        n, k = n / 1024, k + 1
    return f"{n:.0f} {units[k]}" if k == 0 or n >= 100 else f"{n:.1f} {units[k]}"


def check_count(n: int, source: Any = None) -> None:
    """Refuse more shots than shot numbers can hold (`source`: a grid or sampler, named)."""
    if n > MAX_SHOTS:
        raise TooManyShots(n, f"are more than shot numbers can hold: they are 64-bit integers, "
                              f"so a run has at most {MAX_SHOTS:,} shots", source)


def _one_row(setup: Setup, physics: tuple[str, ...] = ()) -> dict[str, np.ndarray]:
    """The arrays of a one-shot chunk of `setup`: every column a result has (numbers 0), the
    coefficients of the physics the shots set (`physics`) among its parameters."""
    from cuesim.batch.core import POINTS_GAMES, empty_summary, piece_ids
    from cuesim.batch.params import defaults

    out = empty_summary(1, len(piece_ids(setup)), setup.ruling is not None, setup.events,
                        setup.ruling in POINTS_GAMES)
    out = {k: np.nan_to_num(v) if v.dtype.kind == "f" else v for k, v in out.items()}
    out["shot"] = np.zeros(1, np.int64)
    for name in (*defaults(setup.family), *physics):
        out[f"param.{name}"] = np.zeros(1)
    return out


def job_physics(job: Job) -> tuple[str, ...]:
    """The coefficients of the physics a job's shots set (its parameter columns)."""
    from cuesim.batch.params import physics_columns

    gen = job.gen
    names = list(job.table) if job.table is not None else \
        [*gen.vary, *gen.fixed] if gen is not None else []
    return tuple(physics_columns(job.setup.family, names))


def row_bytes(setup: Setup, physics: tuple[str, ...] = ()) -> int:
    """The bytes a shot takes at least in a BatchResult (or an .npz read back): its summary,
    number and parameters; event logs and the articles' text come on top."""
    one = _one_row(setup, physics)  # articles: a str array once filled, 4 bytes a character, >= 1
    return sum(4 if a.dtype == object else a.nbytes for a in one.values())


def check_held(job: Job, where: str, instead: str) -> None:
    """Refuse a run whose results, held whole (`where`), exceed the physical memory."""
    memory = physical_memory()
    if memory is None:
        return
    row = row_bytes(job.setup, job_physics(job))
    if job.n * row > memory:
        raise TooManyShots(job.n, f"{where}: at least {row} bytes a shot, "
                                  f"{size_text(job.n * row)}, more than this machine's "
                                  f"{size_text(memory)} of memory; at most {memory // row:,} "
                                  f"shots {instead}", job.gen)


def footer_bytes(setup: Setup, info: dict[str, Any], physics: tuple[str, ...] = ()
                 ) -> tuple[int, int]:
    """(bytes of a Parquet result's footer without its row groups, bytes it takes for each
    row group), measured on one-shot row groups of the run's columns: at least what the
    final file's take (their statistics of text can be longer)."""
    import pyarrow.parquet as pq

    from cuesim.batch.store import arrow_table

    table = arrow_table(_one_row(setup, physics), info["ids"], tuple(info["event_kinds"]),
                        info.get("rails", []))
    schema = table.schema.with_metadata({b"cuesim": json.dumps(info).encode()})

    def size(groups: int) -> int:
        buffer = io.BytesIO()
        with pq.ParquetWriter(buffer, schema) as writer:
            for _ in range(groups):
                writer.write_table(table, row_group_size=1)
        return int(pq.ParquetFile(io.BytesIO(buffer.getvalue())).metadata.serialized_size)

    one, two = size(1), size(2)
    return one - (two - one), two - one


def check_parquet_file(job: Job, info: dict[str, Any]) -> None:
    """Refuse a run whose one Parquet file would have a footer larger than its 4-byte length
    can say or than the physical memory (its writer holds it until the file is closed)."""
    from cuesim.batch.store import ROW_GROUP

    per_group = math.ceil(ROW_GROUP / job.chunk_size) * job.chunk_size  # rows a row group
    groups = -(-job.n // per_group)
    if groups <= 1:
        return
    base, each = footer_bytes(job.setup, info, job_physics(job))
    memory = physical_memory()
    limit = FOOTER_LENGTH_MAX if memory is None else min(FOOTER_LENGTH_MAX, memory)
    if base + groups * each <= limit:
        return
    bound = (f"the {size_text(FOOTER_LENGTH_MAX + 1)} its 4-byte length can say"
             if limit == FOOTER_LENGTH_MAX else
             f"this machine's {size_text(memory or 0)} of memory (the writer holds it until "
             "the file is closed)")
    most = max(0, (limit - base) // each) * per_group
    raise TooManyShots(job.n, f"in one Parquet file, whose footer describes each of its "
                              f"{groups:,} row groups of {per_group:,} shots: at least {each:,} "
                              f"bytes each, {size_text(base + groups * each)}, more than "
                              f"{bound}; at most {most:,} shots in one Parquet file here (a "
                              "dataset writes a file per chunk)", job.gen)
