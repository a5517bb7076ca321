"""Disc-rail impact: the rail is fixed; normal restitution and Coulomb tangential friction.

With n the rail's inward normal, t = (-n_y, n_x), approach speed v_n = -v . n:
  J_n = (1 + e) m v_n
  contact slip  v_t = v . t - w R
  J_t = -sign(v_t) min(mu J_n, |v_t| / k_t),  k_t = 1/m + R^2/I
  v += (J_n n + J_t t) / m,  w -= R J_t / I.
"""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_norc
from cuesim.sim.state import INERTIA, VX, VY, W0, M, R


@njit_norc
def resolve_disc_rail(
    S: np.ndarray, P: np.ndarray, i: int, nx: float, ny: float, e: float, mu: float
) -> float:
    vx, vy = S[i, VX], S[i, VY]
    vn = -(vx * nx + vy * ny)
    if vn <= 0.0:
        return vn
    m, r, inertia = P[i, M], P[i, R], P[i, INERTIA]
    jn = (1.0 + e) * m * vn
    tx, ty = -ny, nx
    vt = vx * tx + vy * ty - S[i, W0] * r
    kt = 1.0 / m + r * r / inertia
    jt = -math.copysign(min(mu * jn, abs(vt) / kt), vt)
    S[i, VX] = vx + (jn * nx + jt * tx) / m
    S[i, VY] = vy + (jn * ny + jt * ty) / m
    S[i, W0] -= r * jt / inertia
    return vn
