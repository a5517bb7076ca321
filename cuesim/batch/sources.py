"""Where a batch's shots and context come from, besides the sampler: the Cartesian grid of
parameters (ShotGrid), a list of shot objects, and the referee's game state.

The grid's shots are numbered in C order: the first axis named varies slowest. Shot k is
computed from k alone, so any chunk of a grid of 10^9 shots is made without the others (and
without any axis's whole list of values).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cuesim.batch.params import BatchError, check_fixed, check_names, defaults
from cuesim.shot import CueShot, NovusShot
from cuesim.tables.numbers import shown


@dataclass(frozen=True)
class ShotGrid:
    """Every combination of `axes` (name -> (lo, hi, count): count values evenly spaced from
    lo to hi, both ends included), the other parameters at `fixed` or their defaults."""

    axes: dict[str, tuple[float, float, int]]
    fixed: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """What needs no game is checked when the grid is made (its axes, counts and ends);
        the parameter names and what each allows, by `check` for the batch's game."""
        self._check_axes()
        if not isinstance(self.fixed, dict):
            raise BatchError(f"fixed must be a dict of parameter -> value, got {self.fixed!r}")
        check_fixed(self.fixed)  # the values; the names (and NaN's) for the game by `check`

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(int(a[2]) for a in self.axes.values())

    @property
    def n(self) -> int:
        return int(math.prod(self.shape))

    @property
    def vary(self) -> dict[str, tuple[float, float]]:
        return {k: (float(a[0]), float(a[1])) for k, a in self.axes.items()}

    def check(self, family: str) -> None:
        self._check_axes()
        check_names(family, list(self.axes), "grid")
        check_names(family, list(self.fixed), "fixed")
        both = sorted(set(self.axes) & set(self.fixed))
        if both:
            raise BatchError(f"parameter {both[0]!r} is both on the grid and fixed")
        check_fixed(self.fixed, family)

    def _check_axes(self) -> None:
        if not isinstance(self.axes, dict) or not self.axes:
            raise BatchError("a grid needs at least one axis: name -> (lo, hi, count)")
        for name, axis in self.axes.items():
            try:
                lo, hi, count = axis
                lo, hi = float(lo), float(hi)
            except OverflowError:  # an int past a float's range (10**400)
                raise BatchError(f"grid axis {name!r} must have finite ends, got "
                                 f"{shown(axis[0])}:{shown(axis[1])}") from None
            except (TypeError, ValueError):
                raise BatchError(f"grid axis {name!r} must be (lo, hi, count), got "
                                 f"{axis!r}") from None
            if isinstance(count, bool) or not isinstance(count, int | np.integer) or count < 2:
                raise BatchError(f"grid axis {name!r}: the count must be a whole number >= 2, "
                                 f"got {count!r} (fix a constant parameter instead)")
            if not (math.isfinite(lo) and math.isfinite(hi)):
                raise BatchError(f"grid axis {name!r} must have finite ends, got {lo}:{hi}")
            if hi <= lo:
                raise BatchError(f"grid axis {name!r}: lo must be below hi, got {lo:g}:{hi:g}")

    def chunk(self, family: str, index: int, start: int, stop: int) -> dict[str, np.ndarray]:
        """The parameters of shots start..stop-1 (`index` is unused: a grid needs no seed)."""
        count = stop - start
        out = {name: np.full(count, float(value)) for name, value in defaults(family).items()}
        for name, value in self.fixed.items():
            out[name] = np.full(count, float(value))
        idx = np.unravel_index(np.arange(start, stop, dtype=np.int64), self.shape)
        for (name, (lo, hi, n)), i in zip(self.axes.items(), idx, strict=True):
            out[name] = axis_values(float(lo), float(hi), int(n), i)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "grid", "n": self.n,
                "axes": {k: [float(a[0]), float(a[1]), int(a[2])] for k, a in self.axes.items()},
                "fixed": {k: float(v) for k, v in self.fixed.items()}}


def axis_values(lo: float, hi: float, count: int, i: np.ndarray) -> np.ndarray:
    """`np.linspace(lo, hi, count)[i]` bit for bit, made for the indices `i` alone (an axis
    of 10^9 values is never built): numpy's i * step + lo (i / div * delta where the step
    underflows to 0), and hi itself at the last index."""
    div = count - 1
    delta = np.float64(hi) - np.float64(lo)
    step = delta / div
    x = i.astype(np.float64)
    y = x / div * delta if step == 0 else x * step
    y += np.float64(lo)
    y[i == div] = hi
    return y


def shots_to_table(family: str, shots: Sequence[Any], struck: str | None
                   ) -> tuple[dict[str, np.ndarray], str | None, str]:
    """A list of NovusShot (novus) or CueShot (ball games) as a parameter table, with the
    struck ball and the novus shooter's side they share."""
    if len(shots) == 0:
        raise BatchError("shots: no shots given")
    kind = NovusShot if family == "novus" else CueShot
    for k, shot in enumerate(shots):
        if not isinstance(shot, kind):
            raise BatchError(f"shots[{k}] is a {type(shot).__name__}; on this table every shot "
                             f"must be a {kind.__name__}")
    if family == "novus":
        sides = {s.side for s in shots}
        if len(sides) > 1:
            raise BatchError(f"shots are played from several sides {sorted(sides)}; a batch "
                             "plays every shot from one side")
        cols = {"x": [s.x for s in shots],
                "y": [math.nan if s.y is None else s.y for s in shots],
                "angle": [s.angle for s in shots], "speed": [s.speed for s in shots],
                "offset": [s.offset for s in shots]}
        if struck not in (None, "striker"):
            raise BatchError(f"novus shots strike the striker, not {struck!r}")
        return _floats(cols), struck, sides.pop()
    balls = {s.ball for s in shots}
    if len(balls) > 1 or (struck is not None and balls != {struck}):
        raise BatchError(f"the shots strike {sorted(balls)}"
                         + (f" but struck={struck!r}" if struck is not None else "")
                         + "; a batch strikes one ball")
    cols = {"angle": [s.angle for s in shots], "speed": [s.speed for s in shots],
            "side": [s.side for s in shots], "height": [s.height for s in shots],
            "elevation": [s.elevation for s in shots],
            "end_mass": [s.end_mass for s in shots],
            "x": [math.nan if s.position is None else s.position[0] for s in shots],
            "y": [math.nan if s.position is None else s.position[1] for s in shots]}
    return _floats(cols), balls.pop(), "south"


def _floats(cols: dict[str, list[Any]]) -> dict[str, np.ndarray]:
    out = {}
    for name, values in cols.items():
        try:
            out[name] = np.asarray(values, dtype=np.float64)
        except (TypeError, ValueError):
            raise BatchError(f"shots: {name} must be a number in every shot") from None
    return out


def referee_state(game: str | None, state: Any) -> tuple[str | None, str | None]:
    """The referee's game state for rulings in context: `state` is None, a parsed state
    object, or the path of a JSON file holding one (bare, or as the "state" field of a
    scenario or of `cuesim adjudicate`'s output). Checked by building the game from it.
    Returns the state as canonical JSON text and, for novus, the shooter's side."""
    if state is None:
        return None, None
    where = "state"
    if isinstance(state, str | os.PathLike):
        from cuesim.rules.files import read_json

        where = f"state file {os.fspath(state)}"
        try:
            state = read_json(state, "state file")
        except ValueError as exc:
            raise BatchError(str(exc)) from None
    if isinstance(state, dict) and isinstance(state.get("state"), dict):
        state = state["state"]
    if not isinstance(state, dict):
        raise BatchError(f"{where}: expected a JSON object (a game's state), got "
                         f"{type(state).__name__}")
    if game is None:
        raise BatchError(f"{where}: a game state only matters to the referee; ask for rulings "
                         "(--ruling, ruling=True)")
    try:
        side = _check_state(game, state)
    except BatchError:
        raise
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise BatchError(f"{where}: {_state_field(str(exc))}") from None
    return json.dumps(state, sort_keys=True), side


def _state_field(message: str) -> str:
    """A scenario parser's message about its 'state' field, named as a state's own field: a
    state file's `shooter` is `state.shooter`, not `scenario.state.shooter`."""
    return message.replace("scenario.state", "state").replace("scenario 'state'", "the state")


def _check_state(game: str, state: dict[str, Any]) -> str | None:
    ref = referee_from_state(game, json.dumps(state))
    if game.startswith("novus"):  # its mode is the game's (referee_from_state)
        if ref.match_over:
            raise ValueError("the match is over: there is no shot to rule on")
        return str(ref.side_of(ref.shooter))
    st = ref.state
    if st.phase == "match_over":
        raise ValueError(f"the match is over (won by {st.winner}): there is no shot to rule on")
    if st.pending is not None:
        raise ValueError(f"{st.pending.get('player')} must first choose "
                         f"({st.pending.get('article')}); batch shots carry no declaration")
    return None


def referee_from_state(game: str, state: str) -> Any:
    """The referee of `game` in the state given as JSON text (a new object each call)."""
    data = json.loads(state)
    if game.startswith("novus"):
        from cuesim.rules.novus.scenario import game_from_dict
        from cuesim.rulings import novus_state

        return game_from_dict(novus_state(game, data))
    if game == "5-pins":
        from cuesim.rules.fivepins.scenario import make_game as make_five_pins

        return make_five_pins({"game": "five_pins", "state": data})
    from cuesim.rules.pool.scenario import make_game

    return make_game({"game": game, "state": data})
