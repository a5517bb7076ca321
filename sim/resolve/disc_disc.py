"""Disc-disc impact of unequal masses: normal restitution, Coulomb tangential friction.

With n the unit normal from i to j, t = (-n_y, n_x), approach speed v_n = (v_i - v_j) . n:
  J_n = (1 + e) v_n / (1/m_i + 1/m_j)
  contact slip  v_t = (v_i - v_j) . t + w_i R_i + w_j R_j
  J_t = -sign(v_t) min(mu J_n, |v_t| / k_t),  k_t = 1/m_i + 1/m_j + R_i^2/I_i + R_j^2/I_j
  impulse on i: -J_n n + J_t t (on j the opposite);  w_i += R_i J_t / I_i,  w_j += R_j J_t / I_j.
Momentum is conserved and kinetic energy never rises (e <= 1, friction capped at sticking).
Below v_stick the contact is perfectly inelastic: both discs take the centre-of-mass
velocity and the mass-weighted deceleration and move on together until either meets
something else, so a pushed puck cannot start an endless chain of impacts.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from cuesim.sim.state import INERTIA, KSEG, VX, VY, W0, M, R, X, Y


@njit(cache=True)
def resolve_disc_disc(S: np.ndarray, P: np.ndarray, i: int, j: int, e: float, mu: float,
                      v_stick: float) -> float:
    dx, dy = S[j, X] - S[i, X], S[j, Y] - S[i, Y]
    dist = math.sqrt(dx * dx + dy * dy)
    nx, ny = dx / dist, dy / dist
    rvx, rvy = S[i, VX] - S[j, VX], S[i, VY] - S[j, VY]
    vn = rvx * nx + rvy * ny
    mi, mj = P[i, M], P[j, M]
    if vn < v_stick:
        cx = (mi * S[i, VX] + mj * S[j, VX]) / (mi + mj)
        cy = (mi * S[i, VY] + mj * S[j, VY]) / (mi + mj)
        S[i, VX], S[i, VY], S[j, VX], S[j, VY] = cx, cy, cx, cy
        k = (mi * S[i, KSEG] + mj * S[j, KSEG]) / (mi + mj)
        S[i, KSEG] = k
        S[j, KSEG] = k
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
