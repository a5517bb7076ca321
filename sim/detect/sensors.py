"""Sensor crossings (zone lines, circles on the cloth): reported, never deflecting.

side[i, k] remembers on which side of sensor k object i's centre is (+1: along the line
normal / outside the circle); a crossing is the signed distance falling through zero.
The crossing time is the bracket's far end, so after the flip the object is on its new side.
"""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_norc
from cuesim.sim.detect.paths import circle_crossing
from cuesim.sim.roots import INF, first_descent


@njit_norc
def line_time(px: float, py: float, vx: float, vy: float, ax: float, ay: float, reach: float,
              h: float, lines: np.ndarray, side: np.ndarray) -> tuple[float, int]:
    """(tau, line index) of the first crossing within [0, h]; side is this object's row."""
    best, kb = INF, -1
    for k in range(lines.shape[0]):
        nx, ny, c = lines[k, 0], lines[k, 1], lines[k, 2]
        s = side[k]
        g0 = s * (nx * px + ny * py - c)
        if g0 > reach:
            continue
        _, tau = first_descent(g0, s * (nx * vx + ny * vy), 0.5 * s * (nx * ax + ny * ay),
                               0.0, 0.0, h)
        if tau < best:
            best, kb = tau, k
    return best, kb


@njit_norc
def circle_time(px: float, py: float, vx: float, vy: float, ax: float, ay: float, lin: bool,
                reach: float, h: float, circles: np.ndarray, side: np.ndarray) -> tuple[float, int]:
    """(tau, circle index) of the first entry or exit within [0, h]."""
    best, kb = INF, -1
    for k in range(circles.shape[0]):
        cx, cy, rad = circles[k, 0], circles[k, 1], circles[k, 2]
        if abs(math.sqrt((px - cx) ** 2 + (py - cy) ** 2) - rad) > reach:
            continue
        _, tau = circle_crossing(px, py, vx, vy, ax, ay, lin, cx, cy, rad, side[k], h, 0, 0.0)
        if tau < best:
            best, kb = tau, k
    return best, kb
