"""Object-rail contact: the centre reaches distance R from the rail's line,
n . (p(tau) - q0) - R = 0, a quadratic in time; the contact point must lie on the segment."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from cuesim.sim.detect import TOUCH, V_TOUCH
from cuesim.sim.roots import INF, first_descent


@njit(cache=True)
def rail_time(px: float, py: float, vx: float, vy: float, ax: float, ay: float, r: float,
              reach: float, h: float, rails: np.ndarray) -> tuple[float, int]:
    """(tau, rail index) of the first rail contact within [0, h]; (inf, -1) if none."""
    best, kb = INF, -1
    for k in range(rails.shape[0]):
        x0, y0, x1, y1, nx, ny = (rails[k, 0], rails[k, 1], rails[k, 2], rails[k, 3],
                                  rails[k, 4], rails[k, 5])
        g0 = nx * (px - x0) + ny * (py - y0) - r
        if g0 > reach:
            continue
        g1 = nx * vx + ny * vy
        g2 = 0.5 * (nx * ax + ny * ay)
        if g0 <= TOUCH:
            if -g1 > V_TOUCH:
                tau = 0.0
            else:
                tau, _ = first_descent(0.0, g1, g2, 0.0, 0.0, h)
        else:
            tau, _ = first_descent(g0, g1, g2, 0.0, 0.0, h)
        if tau >= best:
            continue
        # the contact point must lie within the rail's extent
        cx = px + tau * (vx + 0.5 * tau * ax)
        cy = py + tau * (vy + 0.5 * tau * ay)
        ex, ey = x1 - x0, y1 - y0
        length = math.sqrt(ex * ex + ey * ey)
        along = ((cx - x0) * ex + (cy - y0) * ey) / length
        if -1e-9 <= along <= length + 1e-9:
            best, kb = tau, k
    return best, kb
