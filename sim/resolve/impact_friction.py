"""The friction laws of a multiple impact's contacts (sim.resolve.multi_impact): each
contact's law and constants, computed once per impact (`friction_constants`, rows FC_* of a
column per contact), and the impulse a step's normal impulse dp bounds.

- Discs: Coulomb against the slip at the contact, regularised sticking (`disc_friction`,
  `apply_disc_friction`).
- Balls on a fixed body (cushion, knuckle): Han's law a step at a time, along the slip the
  contact loads with (`ball_fixed_friction`, `apply_ball_fixed_friction`; the nose point from
  `nose_point`).
- Ball pairs: the ball-ball law of sim.resolve.ball_ball (its constants here).
"""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_norc
from cuesim.sim.resolve.ball_ball import slip_constant
from cuesim.sim.state import INERTIA, LAW, LAW_BALL, MP_NOSE, VX, VY, W0, WX, WY, M, R

# friction constants of a contact (rows of `fc`, a column per contact), computed once per
# impact: the friction law's code, then what the law divides by at every step
FC_LAW, FC_A, FC_B, FC_C, FC_D, FC_E, FC_F = range(7)
# a ball on a fixed body also keeps its initial slip's direction in FC_E, FC_F, FC_G, what is
# left of its friction impulse in FC_LEFT (-1: not loaded yet), 1 / cos(theta) in FC_SEC and
# its friction's part along the normal, held back to the impact's end, in FC_PN
FC_G, FC_LEFT, FC_SEC, FC_PN = 7, 8, 9, 10
N_FC = 11
F_NONE, F_DISC, F_BALL_BALL, F_BALL_FIXED = range(4)


@njit_norc
def disc_friction(S: np.ndarray, P: np.ndarray, i: int, j: int, nx: float, ny: float,
                  dp: float, mu: float, relax: float, kt: float) -> float:
    """Coulomb impulse J_t along t = (-n_y, n_x) on i (-J_t on j; j < 0: fixed), bounded by
    mu dp and by relax times the impulse that stops the slip (kt: the contact's tangential
    inverse mass, 1/m + R^2/I of each disc)."""
    tx, ty = -ny, nx
    vt = S[i, VX] * tx + S[i, VY] * ty + S[i, W0] * P[i, R]
    if j >= 0:
        vt += -(S[j, VX] * tx + S[j, VY] * ty) + S[j, W0] * P[j, R]
    if vt == 0.0:
        return 0.0
    return -math.copysign(min(mu * dp, relax * abs(vt) / kt), vt)


@njit_norc
def apply_disc_friction(S: np.ndarray, P: np.ndarray, i: int, j: int, nx: float, ny: float,
                        jt: float) -> None:
    """J_t t on disc i (v += J_t t / m, w += R J_t / I), -J_t t on j (j < 0: fixed). Two
    pieces of the same mass, radius and inertia take the same quotients, computed once: three
    divisions a contact and step instead of six, the same bytes (the novus opening 3 % faster,
    bench/README.md "Equal discs share their quotients")."""
    tx, ty = -ny, nx
    dvx = jt * tx / P[i, M]
    dvy = jt * ty / P[i, M]
    dw = P[i, R] * jt / P[i, INERTIA]
    S[i, VX] += dvx
    S[i, VY] += dvy
    S[i, W0] += dw
    if j < 0:
        return
    if P[j, M] == P[i, M] and P[j, R] == P[i, R] and P[j, INERTIA] == P[i, INERTIA]:
        S[j, VX] -= dvx
        S[j, VY] -= dvy
        S[j, W0] += dw
    else:
        S[j, VX] -= jt * tx / P[j, M]
        S[j, VY] -= jt * ty / P[j, M]
        S[j, W0] += P[j, R] * jt / P[j, INERTIA]


@njit_norc
def nose_point(r: float, nx: float, ny: float, height: float) -> tuple[float, float, float]:
    """The contact point r_c = R (cos(theta) n + sin(theta) z) of a cushion nose at `height`."""
    sin_t = min(max((height - r) / r, -1.0), 1.0)
    cos_t = math.sqrt(1.0 - sin_t * sin_t)
    return r * cos_t * nx, r * cos_t * ny, r * sin_t


@njit_norc
def ball_fixed_friction(S: np.ndarray, P: np.ndarray, i: int, fc: np.ndarray, k: int,
                        dp: float, mu: float) -> tuple[float, float, float]:
    """Han's friction at a cushion nose r_c = (fc[FC_A], fc[FC_B], fc[FC_C]) (`nose_point`), in
    steps: the slip s = v + w x r_c less its part along r_c, taken when the contact first
    loads, sets the direction and the bound |s| / A (A = 7/(2m), fc[FC_D]: the impulse that
    stops it, Han's sticking case); each step adds mu dP_N against that direction, dP_N =
    dp / cos(theta) the step's impulse along the nose normal (dp horizontal), until the bound
    is spent. Summed over the contact, Han's sliding impulse mu (1 + e) c / B, or the sticking
    one (resolve.ball_cushion): so a lone cushion contact gives Han's outcome."""
    if fc[FC_LEFT, k] < 0.0:  # the contact's first loaded step: Han's initial slip
        r = P[i, R]
        rx, ry, rz = fc[FC_A, k], fc[FC_B, k], fc[FC_C, k]
        wx, wy, wz = S[i, WX], S[i, WY], S[i, W0]
        sx = S[i, VX] + wy * rz - wz * ry
        sy = S[i, VY] + wz * rx - wx * rz
        sz = wx * ry - wy * rx
        ux, uy, uz = rx / r, ry / r, rz / r
        sn = sx * ux + sy * uy + sz * uz
        sx, sy, sz = sx - sn * ux, sy - sn * uy, sz - sn * uz
        slip = math.sqrt(sx * sx + sy * sy + sz * sz)
        fc[FC_LEFT, k] = slip / fc[FC_D, k]
        if slip > 0.0:
            fc[FC_E, k], fc[FC_F, k], fc[FC_G, k] = sx / slip, sy / slip, sz / slip
    f = min(mu * dp * fc[FC_SEC, k], fc[FC_LEFT, k])
    if not f > 0.0:
        return 0.0, 0.0, 0.0
    fc[FC_LEFT, k] -= f
    return -f * fc[FC_E, k], -f * fc[FC_F, k], -f * fc[FC_G, k]


@njit_norc
def apply_ball_fixed_friction(S: np.ndarray, P: np.ndarray, i: int, rx: float, ry: float,
                              rz: float, fx: float, fy: float, fz: float, hx: float,
                              hy: float) -> None:
    """v += (F_xy - h) / m (the cloth takes F_z; h, the part along the normal, is held back),
    w += r_c x F / I (r_c: the cushion nose)."""
    S[i, VX] += (fx - hx) / P[i, M]
    S[i, VY] += (fy - hy) / P[i, M]
    c = 1.0 / P[i, INERTIA]
    S[i, WX] += c * (ry * fz - rz * fy)
    S[i, WY] += c * (rz * fx - rx * fz)
    S[i, W0] += c * (rx * fy - ry * fx)


@njit_norc
def nose_constants(P: np.ndarray, i: int, nx: float, ny: float, model_params: np.ndarray,
                   fc: np.ndarray, k: int) -> None:
    """Ball i's cushion nose point r_c along the normal n (`nose_point`) and 1 / cos(theta), in
    column k of fc."""
    fc[FC_A, k], fc[FC_B, k], fc[FC_C, k] = nose_point(P[i, R], nx, ny, model_params[MP_NOSE])
    fc[FC_SEC, k] = P[i, R] / math.hypot(fc[FC_A, k], fc[FC_B, k])


@njit_norc
def friction_constants(P: np.ndarray, ci: np.ndarray, cj: np.ndarray, nx: np.ndarray,
                       ny: np.ndarray, n_c: int, mu: np.ndarray, model_params: np.ndarray,
                       fc: np.ndarray) -> None:
    """Each contact's friction law and constants (column k of fc): ball-ball (k = 7/(2 m_i) +
    7/(2 m_j) as 3.5 (m_i + m_j)/(m_i m_j), 1/m_i, 1/m_j, R_i/I_i, R_j/I_j), ball on a fixed
    body (the cushion nose r_c, 3.5/m), disc (k_t); F_NONE where the contact has none."""
    for k in range(n_c):
        i, j = ci[k], cj[k]
        fc[FC_LAW, k] = F_NONE
        if P[i, LAW] == LAW_BALL and j >= 0:
            fc[FC_LAW, k] = F_BALL_BALL
            fc[FC_A, k] = slip_constant(P, i, j)
            fc[FC_B, k], fc[FC_C, k] = 1.0 / P[i, M], 1.0 / P[j, M]
            fc[FC_D, k], fc[FC_E, k] = P[i, R] / P[i, INERTIA], P[j, R] / P[j, INERTIA]
        elif P[i, LAW] == LAW_BALL and mu[k] > 0.0:
            fc[FC_LAW, k] = F_BALL_FIXED
            nose_constants(P, i, nx[k], ny[k], model_params, fc, k)
            fc[FC_D, k] = 3.5 / P[i, M]
            fc[FC_E, k] = fc[FC_F, k] = fc[FC_G, k] = 0.0
            fc[FC_LEFT, k] = -1.0
            fc[FC_PN, k] = 0.0
        elif mu[k] > 0.0:
            fc[FC_LAW, k] = F_DISC
            ri = P[i, R]
            kt = 1.0 / P[i, M] + ri * ri / P[i, INERTIA]
            if j >= 0:
                rj = P[j, R]
                kt += 1.0 / P[j, M] + rj * rj / P[j, INERTIA]
            fc[FC_A, k] = kt
