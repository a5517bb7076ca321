"""A shot file's physics, checked, and its replay: the shot simulated again and compared.

A result records the coefficients of the table's physics it was played with
(`ShotResult.physics`, `tables.base.physics_of`), so that a file says what it was computed with,
not only on which table. A file written before they were recorded reads as `physics = None`.

`verify_result` plays the file's shot again from its initial layout on its table with its
physics, under a bound of as many events as the file holds (which stops a truncated shot where
the original stopped: the loop ends at the first group of events that reaches its bound), and
compares every array bit for bit. The checks of `cuesim.shotfile` catch an edit of what a
shot is written from twice or in closed form; only the replay catches an edit of what the
physics alone decides (a velocity or spin where a segment starts after an impact).
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from numbers import Real
from typing import Any

import numpy as np

from cuesim.shot import ShotError
from cuesim.shotfile_motion import ShotFileError
from cuesim.sim.errors import SimulationError
from cuesim.sim.events import COL_T
from cuesim.sim.result import ShotResult
from cuesim.sim.state import SEG_OBJ, SEG_T0
from cuesim.tables.layout import LayoutError


def check_physics(value: Any, table_name: str, where: str) -> dict[str, float] | None:
    """A file's `physics`: None (a file written before it was recorded) or an object with one
    finite number for each coefficient of the named table's physics, each in its range (as
    `with_physics` checks it); any object of numbers for a table cuesim does not know."""
    from cuesim.api import table_named

    if value is None:  # a version 1 file's (or a table without physics)
        return None
    if not isinstance(value, dict):
        raise ShotFileError(f"{where}: expected an object of the physics' coefficients by name "
                            f"(or null), got {type(value).__name__}")
    out: dict[str, float] = {}
    for name, v in value.items():
        if isinstance(v, bool) or not isinstance(v, Real) or not math.isfinite(v):
            raise ShotFileError(f"{where}.{name}: expected a finite number, got {v!r:.60}")
        out[str(name)] = float(v)
    table = table_named(table_name)
    physics = getattr(table, "physics", None)
    if physics is None:
        return out
    names = [f.name for f in dataclasses.fields(physics)]
    for name in names:
        if name not in out:
            raise ShotFileError(f"{where}: no {name!r}; expected every coefficient of the "
                                f"{table_name} table's physics: {', '.join(names)}")
    for name in out:
        if name not in names:
            raise ShotFileError(f"{where}: unknown coefficient {name!r} (it would not be read "
                                f"back); the {table_name} table's are {', '.join(names)}")
    try:
        table.with_physics(**out)
    except (TypeError, ValueError) as exc:
        raise ShotFileError(f"{where}: {exc}") from None
    return out


def replay(result: ShotResult) -> ShotResult:
    """The shot of `result` played again on its table with its physics (the table's defaults
    when the result does not record them), under as many events as it holds. ShotFileError
    when it cannot be: no shot (a `run_motion` result: its initial motions are not all in
    its arrays), a table cuesim does not know by name, or physics it refuses."""
    from cuesim.api import simulate, table_named

    if result.shot is None:
        raise ShotFileError("the result holds no shot to play again (a run_motion result, whose "
                            "initial spins are in no column of its arrays)")
    table = table_named(result.table)
    if table is None:
        raise ShotFileError(f"the result's table {result.table!r} is not one cuesim knows by "
                            "name: there is no table to play its shot again on")
    if result.physics is not None and getattr(table, "physics", None) is not None:
        try:
            table = table.with_physics(**result.physics)
        except (TypeError, ValueError) as exc:
            raise ShotFileError(f"the result's physics: {exc}") from None
    with warnings.catch_warnings():  # a truncated shot warns as it did when it was played
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            return simulate(table, result.initial, result.shot,
                            max_events=max(result.n_events, 1))
        except (ShotError, LayoutError, SimulationError) as exc:
            raise ShotFileError(f"the result's shot cannot be played again: {exc}") from None


def verify_result(result: ShotResult, source: str = "shot") -> None:
    """ShotFileError naming the first difference between `result` and its shot played again
    (`replay`): the truncated flag, an event, a segment, a final position or flag, each bit
    for bit. Nothing when they agree: the result is what this cuesim computes on this machine
    for its shot, layout, table and physics."""
    try:
        again = replay(result)
    except ShotFileError as exc:
        raise ShotFileError(f"{source}: cannot be verified: {exc}") from None
    unrecorded = " (the file records no physics: its table's defaults were used)" \
        if result.physics is None else ""
    head = f"{source}: not what the shot gives when played again{unrecorded}"
    if again.truncated != result.truncated:
        raise ShotFileError(f"{head}: truncated is {result.truncated}, played again "
                            f"{again.truncated}")
    ids = result.initial.ids()
    _same_rows(result.events, again.events, f"{head}: events", COL_T)
    _same_rows(result.segments, again.segments, f"{head}: segments", SEG_T0, SEG_OBJ, ids)
    _same_rows(result.final_positions, again.final_positions, f"{head}: final_positions")
    if not np.array_equal(result.final_on, again.final_on):
        k = int(np.flatnonzero(result.final_on != again.final_on)[0])
        raise ShotFileError(f"{head}: final_on[{k}] is {bool(result.final_on[k])}, played "
                            f"again {bool(again.final_on[k])}")
    if result.feature_names != again.feature_names:
        raise ShotFileError(f"{head}: feature_names differ from the table's")


def _same_rows(mine: np.ndarray, theirs: np.ndarray, where: str, t_col: int = -1,
               obj_col: int = -1, ids: list[str] | None = None) -> None:
    """The first row where two arrays differ (in count, or in any bit of a value), named with
    its time (column t_col) and its piece (column obj_col, named by `ids`)."""
    n = min(len(mine), len(theirs))
    differs = np.flatnonzero(~(mine[:n] == theirs[:n]).all(axis=1))
    if len(differs):
        k = int(differs[0])
        at = f" (t = {float(mine[k, t_col])!r})" if t_col >= 0 else ""
        who = f" of {ids[int(mine[k, obj_col])]!r}" if obj_col >= 0 and ids else ""
        raise ShotFileError(f"{where}[{k}]{who}{at} is {mine[k].tolist()}, played again "
                            f"{theirs[k].tolist()}")
    if len(mine) != len(theirs):
        raise ShotFileError(f"{where}: {len(mine)} rows, played again {len(theirs)}")
