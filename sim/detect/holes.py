"""Fixed circles: capture when the centre enters a hole (pocket) circle, and contact with a
pocket jaw's rounded knuckle."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from cuesim.sim.detect import TOUCH, V_TOUCH
from cuesim.sim.detect.paths import circle_contact, circle_crossing
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


@njit(cache=True)
def knuckle_time(px: float, py: float, vx: float, vy: float, ax: float, ay: float, lin: bool,
                 r: float, reach: float, h: float, knuckles: np.ndarray) -> tuple[float, int]:
    """(tau, knuckle index) of the first contact with a jaw knuckle (a fixed circle: the
    centre reaches distance r + r_k); (inf, -1) if none. A ball touching a knuckle and leaving
    it keeps the knuckle in view: its next approach in the segment (a spinning ball curving
    back) is predicted like any other (paths.circle_contact)."""
    best, kb = INF, -1
    for k in range(knuckles.shape[0]):
        cx, cy, rad = knuckles[k, 0], knuckles[k, 1], knuckles[k, 2] + r
        if math.sqrt((px - cx) ** 2 + (py - cy) ** 2) - rad > reach:
            continue
        tau = circle_contact(px, py, vx, vy, ax, ay, lin, cx, cy, rad, h, TOUCH, V_TOUCH)
        if tau < best:
            best, kb = tau, k
    return best, kb
