"""`cuesim batch GAME ...`: many shots from a game's starting layout (or any layout, in any
game state), to Parquet or .npz.

    cuesim batch novus --shots 100000 --vary speed=2:8 --vary angle=80:100 --seed 1 \\
        --out shots.parquet
    cuesim batch 9-ball --params shots.csv --ruling --out rulings.npz
    cuesim batch 9-ball --layout table.json --state state.json --ruling \\
        --grid angle=80:100:41 --grid speed=2:8:13 --out grid.parquet

Angles (angle, elevation) are in degrees here, in options and in parameter files; the
results hold them in radians like every other SI quantity (param.angle, param.elevation), and
the result files in degrees too (param.angle_deg, param.elevation_deg).
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import re
from pathlib import Path
from typing import Any

import numpy as np

from cuesim.batch.limits import TooManyShots
from cuesim.batch.params import (
    ANGLE_PARAMS,
    BatchError,
    ShotSampler,
    check_names,
    defaults,
    physics_columns,
)
from cuesim.batch.progress import shot_count
from cuesim.batch.sources import ShotGrid
from cuesim.commands import (
    PHYSICS_HELP,
    finite_number,
    physics_conflict,
    with_physics_options,
)
from cuesim.output import same_file
from cuesim.tables.layout import Layout, LayoutError


def register(subparsers: argparse._SubParsersAction) -> None:
    from cuesim.api import GAME_NAMES

    p = subparsers.add_parser(
        "batch", help="simulate many shots (sampled or from a file) to Parquet or .npz",
        description="Simulate many shots from a game's starting layout (or --layout FILE) on "
                    "every local core (threads, --threads; processes, --workers) or a "
                    "Dask cluster, streaming chunks to disk; an interrupted run resumes when "
                    "the same command is run again. Shots are "
                    "sampled (--shots, --vary), a grid (--grid) or read (--params). Novus "
                    "parameters: x, y, angle, speed, offset; ball games: angle, speed, side, "
                    "height, elevation, end_mass (the cue's, kg: its squirt), x, y; and any "
                    "coefficient of the game's physics (the names --physics takes), each "
                    "shot then played on the table with it. Angles in degrees.")
    p.add_argument("game", help=f"one of: {', '.join(GAME_NAMES)}")
    p.add_argument("--shots", type=int, default=None, help="number of shots to sample")
    p.add_argument("--vary", action="append", default=[], metavar="NAME=LO:HI",
                   help="sample NAME uniformly in [LO, HI] (repeatable)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", dest="fixed",
                   help="fix NAME to VALUE instead of its default (repeatable)")
    p.add_argument("--params", default=None, metavar="FILE",
                   help="shot parameters from a CSV (header row) or Parquet file, one shot a "
                        "row, instead of sampling")
    p.add_argument("--grid", action="append", default=[], metavar="NAME=LO:HI:N",
                   help="N evenly spaced values of NAME from LO to HI, ends included "
                        "(repeatable): one shot for every combination, the first NAME "
                        "varying slowest")
    p.add_argument("--seed", type=int, default=None, help="sampler seed (default 0)")
    p.add_argument("--layout", default=None, metavar="FILE",
                   help="play every shot from this layout (JSON, as `cuesim layout` prints) "
                        "instead of the game's start")
    p.add_argument("--state", default=None, metavar="FILE",
                   help="with --ruling: rule each shot in this game state (JSON: the 'state' "
                        "of a scenario or of `cuesim adjudicate` output) instead of as a "
                        "game's first shot; novus shots are then played from the shooter's "
                        "side, and without --layout a 5-pins break in it from that break's "
                        "opening position")
    p.add_argument("--workers", type=int, default=None,
                   help="local worker processes (default: 1, whose threads take every core; "
                        "with --ruling or --events, one per core)")
    p.add_argument("--threads", default=None, metavar="N",
                   help="threads per process, running each chunk's shots in parallel "
                        "(default: every core in one process; 1 per worker with --workers "
                        "N > 1 or on a --cluster)")
    p.add_argument("--chunk-size", type=int, default=None,
                   help="shots per chunk (default 2000; part of what a seed means)")
    p.add_argument("--out", required=True,
                   help="result file, .parquet or .npz; with --dataset a folder or URL")
    p.add_argument("--dataset", action="store_true",
                   help="write a partitioned Parquet dataset: --out is a folder every worker "
                        "reaches (or an fsspec URL such as s3://bucket/run); each worker "
                        "writes the chunks it simulates (part-NNNNNN.parquet), this process "
                        "records which are done in _cuesim.json")
    p.add_argument("--events", action="store_true",
                   help="keep each shot's whole event log (a nested column 'events'; each "
                        "shot then runs through simulate, which is slower)")
    p.add_argument("--overwrite", action="store_true", help="replace an existing output")
    p.add_argument("--ruling", action="store_true",
                   help="add the referee's ruling of each shot (as a game's first shot; "
                        "in 5-pins and 14.1 with each side's points)")
    p.add_argument("--cluster", default=None, metavar="ADDRESS",
                   help="run the chunks on the Dask scheduler at ADDRESS (tcp://host:8786)")
    p.add_argument("--skip-invalid", action="store_true",
                   help="mark shots that cannot be played (status 'not playable', code 1) "
                        "instead of stopping")
    p.add_argument("--impact-steps", default=None, metavar="N",
                   help="the multiple impact's resolution in steps per contact time scale "
                        "(default 20; 10 runs breaks and openings 1.3-1.5x faster but moves "
                        "their mean pieces pocketed by 1-2 %%: bench/impact_steps.py)")
    p.add_argument("--physics", action="append", default=[], metavar="NAME=VALUE",
                   help=PHYSICS_HELP + " (the manifest records the table with them)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(handler=cmd_batch)


def _family(game: str) -> str:
    return "novus" if game.startswith("novus") else "ball"


def _number(text: str, what: str) -> float:
    return finite_number(text, what, BatchError)


def _to_si(name: str, value: float) -> float:
    return math.radians(value) if name in ANGLE_PARAMS else value


def parse_vary(specs: list[str], family: str) -> dict[str, tuple[float, float]]:
    out: dict[str, tuple[float, float]] = {}
    for spec in specs:
        name, eq, rng = spec.partition("=")
        lo_text, colon, hi_text = rng.partition(":")
        if not eq or not colon:
            raise BatchError(f"--vary {spec!r}: expected NAME=LO:HI, e.g. speed=2:8")
        name = name.strip()
        check_names(family, [name], f"--vary {spec}")
        if name in out:
            raise BatchError(f"--vary {spec!r}: {name!r} is varied twice")
        lo = _number(lo_text, f"--vary {spec}")
        hi = _number(hi_text, f"--vary {spec}")
        if hi < lo:
            raise BatchError(f"--vary {spec}: the range is reversed ({lo:g} > {hi:g}); "
                             "give LO:HI with LO < HI")
        if hi == lo:
            raise BatchError(f"--vary {spec}: the range is empty; use --set {name}={lo:g} for "
                             "a constant")
        out[name] = (_to_si(name, lo), _to_si(name, hi))
    return out


def parse_grid(specs: list[str], family: str) -> dict[str, tuple[float, float, int]]:
    out: dict[str, tuple[float, float, int]] = {}
    for spec in specs:
        name, eq, rng = spec.partition("=")
        fields = rng.split(":")
        if not eq or len(fields) != 3:
            raise BatchError(f"--grid {spec!r}: expected NAME=LO:HI:N, e.g. speed=2:8:13")
        name = name.strip()
        check_names(family, [name], f"--grid {spec}")
        if name in out:
            raise BatchError(f"--grid {spec!r}: {name!r} is on the grid twice")
        lo = _number(fields[0], f"--grid {spec}")
        hi = _number(fields[1], f"--grid {spec}")
        try:
            count = int(fields[2])
        except ValueError:
            raise BatchError(f"--grid {spec}: N = {fields[2]!r} is not a whole number") from None
        if count < 2:
            raise BatchError(f"--grid {spec}: N must be at least 2; use --set {name}={lo:g} "
                             "for a constant")
        if hi <= lo:
            raise BatchError(f"--grid {spec}: LO must be below HI")
        out[name] = (_to_si(name, lo), _to_si(name, hi), count)
    return out


def parse_fixed(specs: list[str], family: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for spec in specs:
        name, eq, text = spec.partition("=")
        if not eq:
            raise BatchError(f"--set {spec!r}: expected NAME=VALUE, e.g. offset=0.002")
        name = name.strip()
        check_names(family, [name], f"--set {spec}")
        out[name] = _to_si(name, _number(text, f"--set {spec}"))
    return out


def read_params(path: str, family: str) -> dict[str, np.ndarray]:
    """A CSV (header row) or Parquet file of shot parameters, angles in degrees, as columns
    in SI units. Wrong columns or non-numbers give a BatchError naming the place."""
    p = Path(path)
    if p.is_dir():
        raise BatchError(f"parameter file {path!r} is a folder; give a .csv or .parquet file")
    if not p.is_file():
        raise BatchError(f"parameter file {path!r} does not exist")
    suffix = p.suffix.lower()
    if suffix == ".csv":
        cols = _read_csv(p, family)
    elif suffix == ".parquet":
        cols = _read_parquet(p, family)
    else:
        raise BatchError(f"parameter file {path!r} must be .csv or .parquet")
    return {k: np.radians(v) if k in ANGLE_PARAMS else v for k, v in cols.items()}


# a parameter file's cell: a plain decimal or scientific number (Python's float() alone also
# took '1_0' as 10 and Unicode digits), or inf / nan, which the run names as not finite; blanks
# (spaces, tabs) around it are allowed, as around a header's names
_CELL_BLANKS = " \t"
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
                     r"|[+-]?(?:inf|infinity|nan)", re.IGNORECASE)


def _cell_number(cell: str) -> float | None:
    """The number a CSV cell holds, or None when it holds no plain number."""
    text = cell.strip(_CELL_BLANKS)
    return float(text) if _NUMBER.fullmatch(text) else None


def _csv_records(p: Path) -> tuple[list[list[str]], list[int]]:
    """The CSV's records that hold anything (blank lines skipped) and the line each starts on,
    counted from 1 as an editor counts them (a quoted cell may span lines). Read strictly: a
    quote left open (a file cut short) or text after a closing quote is a BatchError naming the
    file and the line, not a cell read up to the end of the file."""
    rows: list[list[str]] = []
    lines: list[int] = []
    start = 1
    try:
        with open(p, newline="", encoding="utf-8-sig") as fh:
            reader = csv.reader(fh, strict=True)
            for row in reader:
                if any(cell.strip() for cell in row):
                    rows.append(row)
                    lines.append(start)
                start = reader.line_num + 1
    except UnicodeDecodeError:
        raise BatchError(f"parameter file {str(p)!r} is not UTF-8 text (near line {start}); "
                         "is it a binary file?") from None
    except (OSError, csv.Error) as exc:
        why = str(getattr(exc, "strerror", None) or exc)
        if why == "unexpected end of data":
            why = "a quoted cell is never closed: is the file cut short?"
        raise BatchError(f"parameter file {str(p)!r} cannot be read as CSV (line {start}: "
                         f"{why})") from None
    return rows, lines


def _read_csv(p: Path, family: str) -> dict[str, np.ndarray]:
    rows, lines = _csv_records(p)
    if not rows:
        raise BatchError(f"parameter file {os.fspath(p)!r} is empty")
    header = [h.strip() for h in rows[0]]
    check_names(family, header, f"parameter file {os.fspath(p)!r}")
    if len(set(header)) != len(header):
        raise BatchError(f"parameter file {os.fspath(p)!r}: a column name appears twice")
    if len(rows) == 1:
        raise BatchError(f"parameter file {os.fspath(p)!r} has a header but no shots")
    data = np.empty((len(rows) - 1, len(header)))
    for k, row in enumerate(rows[1:]):
        line = lines[k + 1]
        if len(row) != len(header):
            raise BatchError(f"parameter file {os.fspath(p)!r}, line {line}: {len(row)} values "
                             f"for {len(header)} columns")
        for c, cell in enumerate(row):
            value = _cell_number(cell)
            if value is None:
                raise BatchError(f"parameter file {os.fspath(p)!r}, line {line}, column "
                                 f"{header[c]!r}: {cell!r:.80} is not a number (expected a "
                                 "plain decimal or scientific number such as 90, -0.25 or "
                                 "1.5e-3)")
            data[k, c] = value
            if math.isinf(data[k, c]):
                raise BatchError(f"parameter file {os.fspath(p)!r}, line {line}, column "
                                 f"{header[c]!r}: {cell.strip()!r} is not a finite number")
    return {h: data[:, c].copy() for c, h in enumerate(header)}


def _read_parquet(p: Path, family: str) -> dict[str, np.ndarray]:
    try:
        import pyarrow.parquet as pq
        import pyarrow.types as pt
    except ImportError:
        raise BatchError("reading a Parquet parameter file needs pyarrow") from None
    try:
        table = pq.read_table(p)
    except Exception as exc:
        raise BatchError(f"parameter file {os.fspath(p)!r} is not readable Parquet: "
                         f"{exc}") from None
    check_names(family, table.column_names, f"parameter file {os.fspath(p)!r}")
    out: dict[str, np.ndarray] = {}
    for name in table.column_names:
        col = table.column(name)
        if not (pt.is_integer(col.type) or pt.is_floating(col.type)):
            raise BatchError(f"parameter file {os.fspath(p)!r}: column {name!r} has type "
                             f"{col.type}, not numbers")
        if col.null_count:
            raise BatchError(f"parameter file {os.fspath(p)!r}: column {name!r} has "
                             f"{col.null_count} empty values")
        out[name] = col.to_numpy().astype(np.float64)
    if table.num_rows == 0:
        raise BatchError(f"parameter file {os.fspath(p)!r} holds no shots")
    return out


def _in_params_file(message: str, params: str | None) -> str:
    """A run's "shot N: ..." (or "shots: parameter 'p' of shot N ...") said where shot N is in
    a --params file: its CSV line (as an editor counts them, blank lines included) or its
    Parquet row."""
    if params is None:
        return message
    path = os.fspath(params)

    def where(k: str) -> str:
        if path.lower().endswith(".parquet"):
            return f"row {k}"
        try:
            lines = _csv_records(Path(path))[1][1:]
        except (OSError, csv.Error, UnicodeDecodeError):  # gone since it was read: name the shot
            lines = []
        return f"line {lines[int(k)]}" if int(k) < len(lines) else f"shot {k}"

    if m := re.match(r"shot (\d+): (.*)", message, re.S):
        return f"parameter file {path!r}, {where(m.group(1))} (shot {m.group(1)}): {m.group(2)}"
    if m := re.match(r"shots: parameter ('\w+') of shot (\d+) (.*)", message, re.S):
        return f"parameter file {path!r}, {where(m.group(2))}, column {m.group(1)}: {m.group(3)}"
    return message


def _shots(args: argparse.Namespace, family: str) -> Any:
    """The shots asked for: a parameter table (--params), a grid (--grid) or a sampler."""
    fixed = parse_fixed(args.fixed, family)
    if args.params is not None:
        if args.vary or args.grid or args.shots is not None:
            raise BatchError("--params gives the shots; do not combine it with --shots, "
                             "--vary or --grid")
        cols = read_params(args.params, family)
        for name in fixed:
            if name in cols:
                raise BatchError(f"--set {name}: the parameter file already has column "
                                 f"{name!r}")
        n = len(next(iter(cols.values())))
        for name, value in fixed.items():
            cols[name] = np.full(n, value)
        if family == "novus" and "x" not in cols:
            cols["x"] = np.full(n, defaults(family)["x"])
        for name in ("angle", "speed"):
            if name not in cols:
                cols[name] = np.full(n, defaults(family)[name])
        return cols
    if args.grid:
        if args.vary or args.shots is not None or args.seed is not None:
            raise BatchError("--grid gives the shots (every combination); do not combine it "
                             "with --shots, --vary or --seed")
        axes = parse_grid(args.grid, family)
        for name in fixed:
            if name in axes:
                raise BatchError(f"--set {name}: {name!r} is already on the grid")
        return ShotGrid(axes, fixed)
    if args.shots is None:
        raise BatchError("give --shots N (with --vary NAME=LO:HI), --grid NAME=LO:HI:N or "
                         "--params FILE")
    if args.shots < 1:
        raise BatchError(f"--shots must be at least 1, got {args.shots}")
    seed = 0 if args.seed is None else args.seed
    return ShotSampler(args.shots, parse_vary(args.vary, family), fixed, seed)


def _threads(text: str | None) -> int | None:
    """--threads N as a number (checked again, with the bound of this machine, by the run)."""
    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        raise BatchError(f"--threads must be a positive integer, got {text!r}") from None
    if value < 1:
        raise BatchError(f"--threads must be a positive integer, got {value}")
    return value


def _layout(args: argparse.Namespace, table: Any, family: str) -> Layout:
    from cuesim.api import start_layout

    if args.layout is None:
        return start_layout(args.game, table)
    try:
        layout = Layout.load(args.layout)
    except LayoutError as exc:  # its schema hint spans lines: the first says what is wrong
        raise BatchError(f"--layout: {str(exc).splitlines()[0]}") from None
    try:  # the striker is placed by each shot (novus); everything else must stand legally
        table.check_layout(layout.without(["striker"], missing_ok=True) if family == "novus"
                           else layout)
    except LayoutError as exc:
        raise BatchError(f"--layout {args.layout}: {exc}") from None
    return layout


def _check_dataset_out(out: str) -> None:
    """A dataset's --out: a URL fsspec can open, or a folder (new or existing) to write in."""
    from cuesim.batch.dataset import MANIFEST, Target
    from cuesim.output import check_writable

    if "://" in out and not out.startswith("file://"):
        Target.of(out)
        return
    path = Path(out[len("file://"):] if out.startswith("file://") else out)
    if path.suffix.lower() == ".npz":
        raise BatchError(f"--out {out!r}: a dataset (--dataset) is a folder of Parquet parts, "
                         "not an .npz file; name a folder, or drop --dataset for one .npz file")
    if path.exists() and not path.is_dir():
        raise BatchError(f"--out {out!r} is a file; a dataset (--dataset) is a folder")
    check_writable(path / MANIFEST if path.is_dir() else path, "--out", BatchError)


def _with_impact_steps(table: Any, text: str | None) -> Any:
    """The table, its physics' impact resolution set from --impact-steps (None: as it is)."""
    if text is None:
        return table
    value = _number(text, "--impact-steps")
    try:
        return table.with_physics(impact_steps=value)
    except ValueError as exc:
        raise BatchError(f"--impact-steps: {exc}") from None


def _check_out_spares_inputs(args: argparse.Namespace) -> None:
    """Refuse an --out that is one of the input files (--params, --state, --layout): writing
    it would destroy the input it was made from."""
    out = args.out[len("file://"):] if args.out.startswith("file://") else args.out
    if "://" in out:
        return
    for opt in ("--params", "--state", "--layout"):
        given = getattr(args, opt.strip("-"))
        if given is not None and same_file(out, given):
            raise BatchError(f"--out {args.out!r} is the {opt} file: writing it would replace "
                             "the input; give another name")


def _check_physics_twice(args: argparse.Namespace, shots: Any, family: str) -> None:
    """Refuse a coefficient both given for the whole run (--physics, --impact-steps) and set
    shot by shot (--vary, --grid, --set, a --params column): one would silently win."""
    names = list(shots) if isinstance(shots, dict) else [*shots.vary, *shots.fixed]
    for name in physics_columns(family, names):
        whole = ("--impact-steps" if name == "impact_steps" and args.impact_steps is not None
                 else f"--physics {name}=..." if physics_conflict(args.physics, name) else None)
        if whole is not None:
            where = (f"a column of --params {args.params}" if args.params is not None
                     and name not in parse_fixed(args.fixed, family) else "the shots' options")
            raise BatchError(f"{name} is set for the whole run by {whole} and shot by shot by "
                             f"{where}: give one")


def _shots_option(args: argparse.Namespace) -> str:
    """The options that give the shots, as typed (named in a refusal of their number)."""
    if args.params is not None:
        return f"--params {args.params}"
    if args.grid:
        return " ".join(f"--grid {spec}" for spec in args.grid)
    return f"--shots {args.shots}"


def cmd_batch(args: argparse.Namespace) -> int:
    from cuesim.api import GAME_NAMES, game_table
    from cuesim.batch.cluster import check_address
    from cuesim.batch.dataset import simulate_to_dataset
    from cuesim.batch.run import simulate_to_file
    from cuesim.batch.sources import referee_state
    from cuesim.batch.store import out_format
    from cuesim.output import check_writable

    if args.game not in GAME_NAMES:
        raise BatchError(f"unknown game {args.game!r}; games are {', '.join(GAME_NAMES)}")
    family = _family(args.game)
    _check_out_spares_inputs(args)
    if args.dataset:
        _check_dataset_out(args.out)
    elif "://" in args.out:
        raise BatchError(f"--out {args.out!r} is a URL: only a dataset (--dataset) is "
                         "written to one")
    else:
        out_format(args.out)
        check_writable(args.out, "--out", BatchError)
    if args.cluster is not None and args.workers is not None:
        raise BatchError("--workers is for local runs; a cluster brings its own workers")
    threads = _threads(args.threads)
    if args.cluster is not None:
        check_address(args.cluster)
    if args.state is not None and not args.ruling:
        raise BatchError("--state is the referee's game state: it needs --ruling")
    try:
        shots = _shots(args, family)
    except BatchError as exc:
        raise BatchError(_in_params_file(str(exc), args.params)) from None
    if args.impact_steps is not None and physics_conflict(args.physics, "impact_steps"):
        raise BatchError("--impact-steps and --physics impact_steps=... both set the impact's "
                         "resolution: give one")
    _check_physics_twice(args, shots, family)
    table = _with_impact_steps(game_table(args.game), args.impact_steps)
    try:
        table = with_physics_options(table, args.physics)
    except ValueError as exc:
        raise BatchError(str(exc)) from None
    layout = _layout(args, table, family)
    ruling = args.game if args.ruling else False
    if args.state is not None:
        try:
            text, _ = referee_state(args.game, args.state)
        except BatchError as exc:
            raise BatchError(f"--state: {exc}") from None
        if args.layout is None and text is not None:  # the state's break (5-pins), not the
            from cuesim.batch.sources import referee_from_state  # game's start
            from cuesim.rulings import state_start

            layout = state_start(referee_from_state(args.game, text), args.game, table) \
                or layout
    run = simulate_to_dataset if args.dataset else simulate_to_file
    try:
        manifest = run(
            table, layout, shots, args.out, workers=args.workers, threads=threads,
            chunk_size=args.chunk_size,
            ruling=ruling, cluster=args.cluster, state=args.state, events=args.events,
            errors="mark" if args.skip_invalid else "raise", overwrite=args.overwrite,
            progress=not args.quiet, game=args.game)
    except TooManyShots as exc:
        raise BatchError(exc.describe(_shots_option(args))) from None
    except BatchError as exc:
        text = str(exc)
        if args.layout is not None and text.startswith("layout: "):  # the file at fault
            text = f"--layout {args.layout}: {text.removeprefix('layout: ')}"
        raise BatchError(_in_params_file(text, args.params)) from None
    except KeyboardInterrupt:
        import sys

        what = (f"the dataset {args.out} is not complete" if args.dataset
                else f"{args.out} was not written")
        print(f"\nbatch: interrupted; {what}. Run the same command again to resume from the "
              "chunks already done.", file=sys.stderr)
        return 130
    except OSError as exc:  # e.g. a full disk: chunks are written whole or not at all
        where = f" ({exc.filename})" if exc.filename else ""
        raise BatchError(f"--out {args.out!r} was not written: {exc.strerror or exc}{where}; "
                         "whole chunks already done are kept: run the same command again to "
                         "resume") from None
    if manifest.get("already_complete"):
        print(f"batch: {args.out} is already complete with these settings; nothing to do "
              "(--overwrite runs it again)")
    elif not args.quiet:
        print(f"batch: wrote {shot_count(manifest['n_shots'])} to {args.out}")
    return 0
