"""Sampling a shot on a time grid: every piece's position, velocity, spin and on-table flag,
exactly, in one vectorised call (`ShotResult.sample`).

Between events each piece follows the core's logged segment
`p(t) = p0 + v0 tau + a tau^2 / 2` (tau = t - t0, clamped to the segment like
`ShotResult.positions_at`), so its velocity is `v0 + a tau` and its spin about the vertical
`w0` decays at the segment's constant rate toward zero. At an event's instant the segment that
starts there (after the impact) is used. A piece that has left the table (pocketed, or a novus
hole) stays where it was captured with zero velocity and spin.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from cuesim.sim.errors import SimulationError
from cuesim.sim.result import ShotResult
from cuesim.sim.state import (
    SEG_AX,
    SEG_AY,
    SEG_OBJ,
    SEG_ON,
    SEG_SD,
    SEG_T0,
    SEG_T1,
    SEG_VX,
    SEG_VY,
    SEG_W,
    SEG_X,
    SEG_Y,
)
from cuesim.tables.numbers import finite_real, shown

MAX_SAMPLES = 10_000_000  # times x pieces: a grid beyond this is almost surely a unit mistake


@dataclass(frozen=True)
class Samples:
    """A shot on a time grid. Arrays are time-major: row j is the time `t[j]`, and pieces
    come in the order of `ids` (the shot's initial layout).

    t: (m,) seconds; positions, velocities: (m, n, 2) in m and m/s (table frame);
    spin: (m, n) rad/s about the vertical axis; on_table: (m, n) bool.
    """

    t: np.ndarray
    ids: tuple[str, ...]
    positions: np.ndarray
    velocities: np.ndarray
    spin: np.ndarray
    on_table: np.ndarray

    def of(self, piece_id: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(positions (m, 2), velocities (m, 2), on_table (m,)) of one piece."""
        if piece_id not in self.ids:
            raise SimulationError(f"no piece {piece_id!r} in this shot; pieces are "
                                  f"{list(self.ids)}")
        k = self.ids.index(piece_id)
        return self.positions[:, k], self.velocities[:, k], self.on_table[:, k]


def time_grid(duration: float, dt: Any, rests: bool = True) -> np.ndarray:
    """0, dt, 2 dt, ... up to the first multiple of dt at or after `duration` (so the last
    sample shows everything at rest); for a shot that does not come to rest (`rests` false: a
    truncated one, known only up to `duration`), up to the last multiple at or before it."""
    if not finite_real(dt) or dt <= 0.0:
        raise SimulationError(f"sample: dt must be a finite number of seconds > 0, got "
                              f"{shown(dt)}")
    steps = math.ceil(duration / float(dt) - 1e-9) if duration > 0.0 else 0
    if not rests and steps * float(dt) > duration:
        steps -= 1
    if steps + 1 > MAX_SAMPLES:
        raise SimulationError(f"sample: dt = {dt} s gives {steps + 1} samples over "
                              f"{duration:.4g} s (at most {MAX_SAMPLES}); give a larger dt")
    return float(dt) * np.arange(steps + 1, dtype=np.float64)


def _times(times: Any) -> np.ndarray:
    raw = np.asarray(times) if not isinstance(times, str | bytes) else None
    if raw is None or raw.dtype.kind not in "iuf" or (  # True or "1" would read as times
            isinstance(times, list | tuple) and any(isinstance(x, bool | np.bool_) for x in times)):
        raise SimulationError(f"sample: times must be numbers in seconds, got {times!r}")
    try:
        t = np.asarray(times, dtype=np.float64)
    except (TypeError, ValueError):
        raise SimulationError(f"sample: times must be numbers in seconds, got {times!r}") \
            from None
    if t.ndim == 0:
        t = t.reshape(1)
    if t.ndim != 1:
        raise SimulationError(f"sample: times must be a 1-D sequence, got shape {t.shape}")
    if not np.all(np.isfinite(t)) or np.any(t < 0.0):
        bad = t[~(np.isfinite(t) & (t >= 0.0))][0]
        raise SimulationError(f"sample: every time must be finite and >= 0 s, got {bad}")
    return t


def sample(result: ShotResult, times: Any = None, *, dt: float | None = None) -> Samples:
    """Every piece's position, velocity, spin and on-table flag at each of `times` (seconds,
    any order) or on the grid 0, dt, 2 dt, ... through the end of the shot. Exact: the
    positions equal `positions_at(t)` for pieces on the table. SimulationError for times that
    are not finite and >= 0, a dt that is not > 0, both or neither given, or a time after a
    truncated shot's last event (`ShotResult.check_known`)."""
    if (times is None) == (dt is None):
        raise SimulationError("sample: give either times or dt= (seconds), not both or neither")
    t = time_grid(result.duration, dt, not result.truncated) if dt is not None \
        else _times(times)
    if len(t):
        result.check_known(float(t.max()), "sample")
    ids = tuple(result.initial.ids())
    n, m = len(ids), len(t)
    if n * m > MAX_SAMPLES:
        raise SimulationError(f"sample: {m} times x {n} pieces is more than {MAX_SAMPLES} "
                              "samples; sample fewer times")
    segs = result.segments[np.lexsort((result.segments[:, SEG_T0], result.segments[:, SEG_OBJ]))]
    obj = segs[:, SEG_OBJ].astype(np.int64)
    first = np.searchsorted(obj, np.arange(n), side="left")
    last = np.searchsorted(obj, np.arange(n), side="right")
    # the segment of each (time, piece): searched in every piece's own t0 column
    rows = np.empty((m, n), dtype=np.int64)
    for i in range(n):
        k = np.searchsorted(segs[first[i]:last[i], SEG_T0], t, side="right") - 1
        rows[:, i] = first[i] + np.maximum(k, 0)
    s = segs[rows]  # (m, n, columns)
    on = s[..., SEG_ON] != 0.0
    t1 = np.where(on, s[..., SEG_T1], s[..., SEG_T0])  # off the table: frozen at the capture
    tau = np.minimum(np.maximum(t[:, None], s[..., SEG_T0]), t1) - s[..., SEG_T0]
    pos = np.empty((m, n, 2))
    vel = np.empty((m, n, 2))
    for c, (p0, v0, a) in enumerate(((SEG_X, SEG_VX, SEG_AX), (SEG_Y, SEG_VY, SEG_AY))):
        pos[..., c] = s[..., p0] + tau * (s[..., v0] + 0.5 * tau * s[..., a])
        vel[..., c] = np.where(on, s[..., v0] + s[..., a] * tau, 0.0)
    w0 = s[..., SEG_W]
    with np.errstate(over="ignore"):  # a resting segment at t ~ 1e308: its decay inf, spin 0
        spin = np.where(on, np.sign(w0) * np.maximum(np.abs(w0) - s[..., SEG_SD] * tau, 0.0),
                        0.0)
    return Samples(t=t, ids=ids, positions=pos, velocities=vel, spin=spin, on_table=on)
