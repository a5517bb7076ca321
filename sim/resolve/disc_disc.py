"""Disc-disc impact of unequal masses: normal restitution, Coulomb tangential friction.

With n the unit normal from i to j, t = (-n_y, n_x), approach speed v_n = (v_i - v_j) . n:
  J_n = (1 + e) v_n / (1/m_i + 1/m_j)
  contact slip  v_t = (v_i - v_j) . t + w_i R_i + w_j R_j
  J_t = -sign(v_t) min(mu J_n, |v_t| / k_t),  k_t = 1/m_i + 1/m_j + R_i^2/I_i + R_j^2/I_j
  impulse on i: -J_n n + J_t t (on j the opposite);  w_i += R_i J_t / I_i,  w_j += R_j J_t / I_j.
Momentum is conserved and kinetic energy never rises (e <= 1, friction capped at sticking).
Slow pressing contacts get e = 0 and may join (resolve.cluster, chosen in resolve.impact).
"""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_norc
from cuesim.sim.state import INERTIA, VX, VY, W0, M, R, X, Y


@njit_norc
def resolve_disc_disc(S: np.ndarray, P: np.ndarray, i: int, j: int, e: float,
                      mu: float) -> float:
    dx, dy = S[j, X] - S[i, X], S[j, Y] - S[i, Y]
    dist = math.sqrt(dx * dx + dy * dy)
    nx, ny = dx / dist, dy / dist
    rvx, rvy = S[i, VX] - S[j, VX], S[i, VY] - S[j, VY]
    vn = rvx * nx + rvy * ny
    mi, mj = P[i, M], P[j, M]
    if vn <= 0.0:
        return vn
    jn = (1.0 + e) * vn / (1.0 / mi + 1.0 / mj)
    tx, ty = -ny, nx
    ri, rj = P[i, R], P[j, R]
    ii, ij = P[i, INERTIA], P[j, INERTIA]
    vt = rvx * tx + rvy * ty + S[i, W0] * ri + S[j, W0] * rj
    kt = 1.0 / mi + 1.0 / mj + ri * ri / ii + rj * rj / ij
    jt = -math.copysign(min(mu * jn, abs(vt) / kt), vt)
    px, py = -jn * nx + jt * tx, -jn * ny + jt * ty
    S[i, VX] += px / mi
    S[i, VY] += py / mi
    S[j, VX] -= px / mj
    S[j, VY] -= py / mj
    S[i, W0] += ri * jt / ii
    S[j, W0] += rj * jt / ij
    return vn
