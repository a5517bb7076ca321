"""Capture: the object's centre enters a hole (pocket) circle."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from cuesim.sim.detect.paths import circle_crossing
from cuesim.sim.roots import INF


@njit(cache=True)
def hole_time(px: float, py: float, vx: float, vy: float, ax: float, ay: float, lin: bool,
              reach: float, h: float, holes: np.ndarray) -> tuple[float, int]:
    """(tau, hole index) of the first capture within [0, h]; (inf, -1) if none."""
    best, kb = INF, -1
    for k in range(holes.shape[0]):
        cx, cy, rad = holes[k, 0], holes[k, 1], holes[k, 2]
        if math.sqrt((px - cx) ** 2 + (py - cy) ** 2) - rad > reach:
            continue
        _, tau = circle_crossing(px, py, vx, vy, ax, ay, lin, cx, cy, rad, 1.0, h)
        if tau < best:
            best, kb = tau, k
    return best, kb
