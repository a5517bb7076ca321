"""Shot parameters of a batch: the names each game takes, their defaults, checking a table of
parameters, and the seeded sampler.

Novus shots take x, y, angle, speed, offset (NovusShot, from the south player's seat; y = NaN
puts the striker in the middle of the zone). Ball games take angle, speed, side, height,
elevation, end_mass (the cue's, kg: its squirt; the standard shaft's by default) and
optionally x, y: where the struck ball is placed first (ball in hand; NaN plays it where it
lies). SI units and radians here; the CLI converts degrees at its edge.

A shot may also name coefficients of the table's physics (`physics_names`: mu_slide, e_ball,
... for the ball games; mu_puck, e_rail, ... for novus), as `--physics` names them: the shot is
played on the table with those coefficients (`table.with_physics`), so a batch can vary the
cloth, the balls or the resolution shot by shot. They have no default here: a coefficient no
shot names keeps the table's value.

The sampler draws chunk c of a run from its own generator, seeded by
`SeedSequence(seed, spawn_key=(c,))`: chunk c holds the same shots whichever worker or
machine simulates it, so a run is identical for any number of workers; but not for another
chunk size (the chunks' streams then cover other shots), nor for the `vary` parameters in
another order (each chunk draws them in the order given).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np

from cuesim.tables.balls import CUE_END_MASS
from cuesim.tables.numbers import finite_real, shown


class BatchError(ValueError):
    """Bad input to a batch run (the message names the problem)."""


NOVUS_PARAMS: dict[str, float] = {
    "x": 0.5, "y": math.nan, "angle": math.pi / 2, "speed": 6.0, "offset": 0.0,
}
BALL_PARAMS: dict[str, float] = {
    "angle": math.pi / 2, "speed": 8.0, "side": 0.0, "height": 0.0, "elevation": 0.0,
    "end_mass": CUE_END_MASS, "x": math.nan, "y": math.nan,
}
NOVUS_REQUIRED = ("x", "angle", "speed")
BALL_REQUIRED = ("angle", "speed")
ANGLE_PARAMS = ("angle", "elevation")  # in degrees at the CLI
# ball games place the ball in hand with x and y together (a column, --set or --vary each)
XY_TOGETHER = "give both to place the ball, or neither to play it where it lies"
NAN_ALLOWED = {"novus": ("y",), "ball": ("x", "y")}


def defaults(family: str) -> dict[str, float]:
    return dict(NOVUS_PARAMS if family == "novus" else BALL_PARAMS)


def required(family: str) -> tuple[str, ...]:
    return NOVUS_REQUIRED if family == "novus" else BALL_REQUIRED


@cache
def physics_names(family: str) -> tuple[str, ...]:
    """The coefficients of the family's physics (NovusPhysics, BallPhysics) that a shot may
    set: the names `--physics` and `table.with_physics` take."""
    if family == "novus":
        from cuesim.tables.novus import NovusPhysics as physics
    else:
        from cuesim.tables.balls import BallPhysics as physics  # type: ignore[assignment]
    return tuple(f.name for f in dataclasses.fields(physics))


def physics_columns(family: str, names: Mapping[str, Any] | list[str]) -> list[str]:
    """The names among `names` that are coefficients of the physics, in their order."""
    known = physics_names(family)
    return [n for n in names if n in known]


def _known(family: str) -> str:
    return ", ".join(defaults(family))


def check_names(family: str, names: list[str] | tuple[str, ...], what: str) -> None:
    unknown = [n for n in names if n not in defaults(family) and n not in physics_names(family)]
    if unknown:
        game = "novus" if family == "novus" else "ball-game"
        raise BatchError(f"{what}: unknown parameter{'s' if len(unknown) > 1 else ''} "
                         f"{', '.join(repr(n) for n in unknown)}; {game} shots take "
                         f"{_known(family)}, and the physics' coefficients "
                         f"{', '.join(physics_names(family))}")


def check_fixed(fixed: dict[Any, Any], family: str | None = None) -> None:
    """A sampler's or grid's fixed values: each a finite real number (not a bool, not text),
    or NaN ("the default") for a parameter that allows it (NAN_ALLOWED) in the batch's
    `family`; without a family (when the sampler or grid is made, before its game is known)
    in either family, the names themselves being checked by `check_names` for the game."""
    allowed = (NAN_ALLOWED["novus" if family == "novus" else "ball"] if family is not None
               else {n for names in NAN_ALLOWED.values() for n in names})
    for name, value in fixed.items():
        nan = isinstance(value, float | np.floating) and math.isnan(value)
        if not isinstance(value, int | float | np.number) or (
                not finite_real(value) and not (nan and name in allowed)):
            raise BatchError(f"fixed value of {name!r} must be a finite number, got "
                             f"{shown(value)}")


def shot_table(family: str, shots: Any) -> dict[str, np.ndarray]:
    """A dict of equal-length float64 arrays from a structured array, a mapping of arrays
    or a pyarrow table, checked: known names, the required ones present, numbers, finite
    (NaN only where it means 'default'). Missing optional parameters get their defaults."""
    if isinstance(shots, np.ndarray) and shots.dtype.names is not None:
        columns: Mapping[str, Any] = {n: shots[n] for n in shots.dtype.names}
    elif hasattr(shots, "column_names") and hasattr(shots, "column"):  # pyarrow.Table
        columns = {n: shots.column(n).to_numpy() for n in shots.column_names}
    elif isinstance(shots, Mapping):
        columns = shots
    else:
        raise BatchError(f"shots must be a numpy structured array, a dict of arrays or a "
                         f"pyarrow table, got {type(shots).__name__}")
    names = list(columns)
    check_names(family, names, "shots")
    missing = [n for n in required(family) if n not in columns]
    if missing:
        raise BatchError(f"shots: missing parameter{'s' if len(missing) > 1 else ''} "
                         f"{', '.join(repr(n) for n in missing)} (required: "
                         f"{', '.join(required(family))})")
    out: dict[str, np.ndarray] = {}
    length = None
    for name in names:
        col = np.asarray(columns[name])
        if col.ndim != 1:
            raise BatchError(f"shots: parameter {name!r} must be one-dimensional, got shape "
                             f"{col.shape}")
        if col.dtype.kind not in "iuf":
            raise BatchError(f"shots: parameter {name!r} must hold numbers, got dtype "
                             f"{col.dtype}")
        col = col.astype(np.float64)
        if length is None:
            length = len(col)
        elif len(col) != length:
            raise BatchError(f"shots: parameter {name!r} has {len(col)} values, the others "
                             f"{length}")
        bad = ~np.isfinite(col)
        if name in NAN_ALLOWED["novus" if family == "novus" else "ball"]:
            bad &= ~np.isnan(col)
        if bad.any():
            k = int(np.argmax(bad))
            raise BatchError(f"shots: parameter {name!r} of shot {k} is not a finite number "
                             f"({col[k]})")
        out[name] = col
    n = length or 0
    for name, value in defaults(family).items():
        if name not in out:
            out[name] = np.full(n, value)
    if family != "novus" and (np.isnan(out["x"]) != np.isnan(out["y"])).any():
        k = int(np.argmax(np.isnan(out["x"]) != np.isnan(out["y"])))
        raise BatchError(f"shots: shot {k} gives only one of x and y; {XY_TOGETHER}")
    return out


def n_rows(table: Mapping[str, np.ndarray]) -> int:
    return len(next(iter(table.values()))) if table else 0


def _iterable(value: Any) -> bool:
    try:
        iter(value)
    except TypeError:
        return False
    return True


@dataclass(frozen=True)
class ShotSampler:
    """n shots with each `vary` parameter uniform in [lo, hi] and the others at `fixed` or
    their defaults. Deterministic for a seed, its chunk size and the order of `vary`, chunk by
    chunk (see the module docstring)."""

    n: int
    vary: dict[str, tuple[float, float]] = field(default_factory=dict)
    fixed: dict[str, float] = field(default_factory=dict)
    seed: int = 0

    def __post_init__(self) -> None:
        """What needs no game is checked when the sampler is made (the count, the seed, each
        range); the parameter names and what each allows, by `check` for the batch's game."""
        self._check_counts_and_ranges()

    def check(self, family: str) -> None:
        self._check_counts_and_ranges()
        check_names(family, list(self.vary), "vary")
        check_names(family, list(self.fixed), "fixed")
        both = sorted(set(self.vary) & set(self.fixed))
        if both:
            raise BatchError(f"parameter {both[0]!r} is both varied and fixed")
        check_fixed(self.fixed, family)

    def _check_counts_and_ranges(self) -> None:
        if isinstance(self.n, bool) or not isinstance(self.n, int | np.integer) or self.n < 1:
            raise BatchError(f"the number of shots must be a positive integer, got {self.n!r}")
        if (isinstance(self.seed, bool) or not isinstance(self.seed, int | np.integer)
                or self.seed < 0):
            raise BatchError(f"the seed must be a non-negative integer, got {self.seed!r}")
        for name, table in (("vary", self.vary), ("fixed", self.fixed)):
            if not isinstance(table, dict):
                raise BatchError(f"{name} must be a dict of parameter -> "
                                 f"{'(lo, hi)' if name == 'vary' else 'value'}, got {table!r}")
        check_fixed(self.fixed)
        for name, rng in self.vary.items():
            pair = tuple(rng) if _iterable(rng) and not isinstance(rng, str | bytes) else ()
            if len(pair) != 2 or any(isinstance(v, bool | np.bool_ | str | bytes) for v in pair):
                raise BatchError(f"range of {name!r} must be two numbers lo, hi, got "
                                 f"{rng!r}")  # float('2') would read text as a number
            try:
                lo, hi = (float(v) for v in pair)
            except OverflowError:  # an int past a float's range (10**400)
                raise BatchError(f"range of {name!r} must be finite, got "
                                 f"{shown(pair[0])}:{shown(pair[1])}") from None
            except (TypeError, ValueError):
                raise BatchError(f"range of {name!r} must be two numbers lo, hi, got "
                                 f"{rng!r}") from None
            if not (math.isfinite(lo) and math.isfinite(hi)):
                raise BatchError(f"range of {name!r} must be finite, got {lo}:{hi}")
            if hi < lo:
                raise BatchError(f"range of {name!r} is reversed: {lo:g}:{hi:g} (give lo:hi "
                                 "with lo < hi)")
            if hi == lo:
                raise BatchError(f"range of {name!r} is empty: {lo:g}:{hi:g} (use a fixed "
                                 "value for a constant parameter)")

    def chunk(self, family: str, index: int, start: int, stop: int) -> dict[str, np.ndarray]:
        """The parameters of shots start..stop-1, which form chunk `index` of the run."""
        count = stop - start
        rng = np.random.default_rng(np.random.SeedSequence(int(self.seed), spawn_key=(index,)))
        out = {name: np.full(count, float(value)) for name, value in defaults(family).items()}
        for name, value in self.fixed.items():
            out[name] = np.full(count, float(value))
        for name, (lo, hi) in self.vary.items():  # in the order given: part of the seed's meaning
            out[name] = float(lo) + (float(hi) - float(lo)) * rng.random(count)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "sample", "n": int(self.n), "seed": int(self.seed),
                "vary": {k: [float(a), float(b)] for k, (a, b) in self.vary.items()},
                "fixed": {k: float(v) for k, v in self.fixed.items()}}
