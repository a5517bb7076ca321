"""Ball-ball impact: normal restitution and friction between the ball surfaces (throw, spin
transfer), after Alciatore's technical proofs (TP A-14).

n: unit normal from i to j (horizontal). The surfaces at the contact point move at
  c_i = v_i + w_i x (R n),  c_j = v_j + w_j x (-R n);  the slip s = c_i - c_j minus its normal
part (a horizontal tangential and a vertical component). Normal impulse
  J_n = (1 + e) v_n / (1/m_i + 1/m_j),  v_n = (v_i - v_j) . n.
Friction impulse F = -min(mu J_n, |s| / k) s/|s| with mu = a + b exp(-c |s|) and
k = 7/(2 m_i) + 7/(2 m_j) (a sphere's contact point, force perpendicular to its radius):
  v_i += F_xy / m_i,  v_j -= F_xy / m_j,  w_i += R (n x F) / I_i,  w_j += R (n x F) / I_j.
The vertical part of F changes only the spins (the cloth takes the vertical push).
"""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_norc
from cuesim.sim.state import INERTIA, VX, VY, W0, WX, WY, M, R, X, Y


@njit_norc
def slip_constant(P: np.ndarray, i: int, j: int) -> float:
    """k = 7/(2 m_i) + 7/(2 m_j), the inverse mass of the surfaces' slip."""
    return 3.5 * (P[i, M] + P[j, M]) / (P[i, M] * P[j, M])


@njit_norc
def ball_ball_friction_impulse(S: np.ndarray, P: np.ndarray, i: int, j: int, nx: float,
                               ny: float, jn: float, fit_a: float, fit_b: float, fit_c: float,
                               relax: float, k: float) -> tuple[float, float, float]:
    """The friction impulse F on ball i (-F on j) of a contact whose normal impulse is jn
    (n: the unit normal from i to j; k: `slip_constant`). mu = a + b exp(-c |s|) is evaluated
    only when the sticking bound relax |s| / k does not already decide (mu >= a)."""
    ri, rj = P[i, R], P[j, R]
    # surface velocities at the contact point (w x n = (-wz ny, wz nx, wx ny - wy nx))
    cix = S[i, VX] - ri * S[i, W0] * ny
    ciy = S[i, VY] + ri * S[i, W0] * nx
    ciz = ri * (S[i, WX] * ny - S[i, WY] * nx)
    cjx = S[j, VX] + rj * S[j, W0] * ny
    cjy = S[j, VY] - rj * S[j, W0] * nx
    cjz = -rj * (S[j, WX] * ny - S[j, WY] * nx)
    sx, sy, sz = cix - cjx, ciy - cjy, ciz - cjz
    sn = sx * nx + sy * ny
    sx, sy = sx - sn * nx, sy - sn * ny
    slip = math.sqrt(sx * sx + sy * sy + sz * sz)
    if slip == 0.0 or jn <= 0.0:
        return 0.0, 0.0, 0.0
    stick = relax * slip / k
    if fit_a * jn >= stick:
        g = -stick / slip
    else:
        g = -min((fit_a + fit_b * math.exp(-fit_c * slip)) * jn, stick) / slip
    return g * sx, g * sy, g * sz


@njit_norc
def apply_friction_impulse(S: np.ndarray, i: int, j: int, nx: float, ny: float, fx: float,
                           fy: float, fz: float, mi: float, mj: float, ci: float,
                           cj: float) -> None:
    """F on ball i at its contact point R n, -F on ball j at -R n (mi, mj: 1/m; ci, cj: R/I)."""
    S[i, VX] += fx * mi
    S[i, VY] += fy * mi
    S[j, VX] -= fx * mj
    S[j, VY] -= fy * mj
    # n x F = (ny fz, -nx fz, nx fy - ny fx)
    tx, ty, tz = ny * fz, -nx * fz, nx * fy - ny * fx
    S[i, WX] += ci * tx
    S[i, WY] += ci * ty
    S[i, W0] += ci * tz
    S[j, WX] += cj * tx
    S[j, WY] += cj * ty
    S[j, W0] += cj * tz


@njit_norc
def ball_ball_friction(S: np.ndarray, P: np.ndarray, i: int, j: int, nx: float, ny: float,
                       jn: float, fit_a: float, fit_b: float, fit_c: float, relax: float) -> None:
    """Apply the friction impulse of a contact whose normal impulse was jn."""
    fx, fy, fz = ball_ball_friction_impulse(S, P, i, j, nx, ny, jn, fit_a, fit_b, fit_c, relax,
                                            slip_constant(P, i, j))
    if fx != 0.0 or fy != 0.0 or fz != 0.0:
        apply_friction_impulse(S, i, j, nx, ny, fx, fy, fz, 1.0 / P[i, M], 1.0 / P[j, M],
                               P[i, R] / P[i, INERTIA], P[j, R] / P[j, INERTIA])


@njit_norc
def resolve_ball_ball(S: np.ndarray, P: np.ndarray, i: int, j: int, e: float, fit_a: float,
                      fit_b: float, fit_c: float) -> float:
    """Resolve the impact of balls i and j (advanced to now); returns the approach speed."""
    dx, dy = S[j, X] - S[i, X], S[j, Y] - S[i, Y]
    dist = math.sqrt(dx * dx + dy * dy)
    nx, ny = dx / dist, dy / dist
    vn = (S[i, VX] - S[j, VX]) * nx + (S[i, VY] - S[j, VY]) * ny
    if vn <= 0.0:
        return vn
    jn = (1.0 + e) * vn / (1.0 / P[i, M] + 1.0 / P[j, M])
    S[i, VX] -= jn * nx / P[i, M]
    S[i, VY] -= jn * ny / P[i, M]
    S[j, VX] += jn * nx / P[j, M]
    S[j, VY] += jn * ny / P[j, M]
    ball_ball_friction(S, P, i, j, nx, ny, jn, fit_a, fit_b, fit_c, 1.0)
    return vn
