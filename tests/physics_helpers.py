"""Helpers for physics tests: the state of the pieces just before and just after an event,
read from the exact trajectory segments (each segment records the event that opened it)."""

from __future__ import annotations

import numpy as np

from cuesim.sim.result import ShotResult
from cuesim.sim.state import (
    SEG_AX,
    SEG_AY,
    SEG_EVENT,
    SEG_OBJ,
    SEG_SD,
    SEG_T0,
    SEG_VX,
    SEG_VY,
    SEG_W,
    SEG_X,
    SEG_Y,
)


def segment_state(seg: np.ndarray, t: float) -> tuple[np.ndarray, np.ndarray, float]:
    """Position, velocity and spin of one segment row at time t."""
    tau = t - seg[SEG_T0]
    v = np.array([seg[SEG_VX] + tau * seg[SEG_AX], seg[SEG_VY] + tau * seg[SEG_AY]])
    p = np.array([seg[SEG_X] + tau * (seg[SEG_VX] + 0.5 * tau * seg[SEG_AX]),
                  seg[SEG_Y] + tau * (seg[SEG_VY] + 0.5 * tau * seg[SEG_AY])])
    w0 = seg[SEG_W]
    w = np.sign(w0) * max(abs(w0) - seg[SEG_SD] * tau, 0.0)
    return p, v, w


def around_event(result: ShotResult, k: int) -> dict[int, tuple[tuple, tuple]]:
    """{object: ((p, v, w) just before event k, (p, v, w) just after)} for every object whose
    motion event k changed."""
    segs = result.segments
    t = result.events[k, 0]
    out = {}
    for row in np.flatnonzero(segs[:, SEG_EVENT] == k):
        obj = int(segs[row, SEG_OBJ])
        prev_rows = np.flatnonzero((segs[:, SEG_OBJ] == obj) & (np.arange(len(segs)) < row))
        before = segment_state(segs[prev_rows[-1]], t)
        after = segment_state(segs[row], t)
        out[obj] = (before, after)
    return out
