"""Several contacts at the same instant, solved together so the order of the pieces in the
layout cannot matter (a striker meeting two touching pucks at once, a frozen row whose end
pucks reach the rail together).

A contact k joins piece ci[k] to piece cj[k], or to rail -1 - cj[k] when cj[k] < 0 (a fixed
body: 1/m = 0). n_k is the unit normal from ci[k] toward the other body; the approach speed is
v_n = (v_i - v_j) . n_k. Normal impulses: projected Jacobi iteration on the accumulated impulses
lambda_k >= 0 toward the restitution targets v_n,k' = -e_k v_n,k(before): every correction is
computed from the same velocities and relaxed by the number of contacts its pieces share, so
mirror-symmetric contacts get mirror-symmetric impulses; for one contact it is exactly the
pairwise model. If the result would raise the kinetic energy (simultaneous Newton impacts
can), it is solved again with e = 0, which never does. Tangential impulses: Coulomb, bounded
by mu_k lambda_k and by sticking, in one relaxed pass.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from cuesim.sim.resolve.ball_ball import ball_ball_friction
from cuesim.sim.state import INERTIA, LAW, LAW_BALL, VX, VY, W0, M, R, X, Y

MAX_ITERATIONS = 2000
TOLERANCE = 1e-13  # m/s: relative change of the impulses at which the iteration stops


@njit(cache=True)
def contact_normal(S: np.ndarray, rails: np.ndarray, i: int, j: int) -> tuple[float, float]:
    """Unit normal from piece i toward piece j, or toward rail -1 - j."""
    if j < 0:
        k = -1 - j
        return -rails[k, 4], -rails[k, 5]
    dx, dy = S[j, X] - S[i, X], S[j, Y] - S[i, Y]
    dist = math.sqrt(dx * dx + dy * dy)
    return dx / dist, dy / dist


@njit(cache=True)
def approach_speed(S: np.ndarray, rails: np.ndarray, i: int, j: int) -> float:
    nx, ny = contact_normal(S, rails, i, j)
    vjx, vjy = (S[j, VX], S[j, VY]) if j >= 0 else (0.0, 0.0)
    return (S[i, VX] - vjx) * nx + (S[i, VY] - vjy) * ny


@njit(cache=True)
def _inv_mass(P: np.ndarray, j: int) -> float:
    return 1.0 / P[j, M] if j >= 0 else 0.0


@njit(cache=True)
def _kinetic(S: np.ndarray, P: np.ndarray, objs: np.ndarray, n_obj: int) -> float:
    ke = 0.0
    for m in range(n_obj):
        a = objs[m]
        ke += 0.5 * P[a, M] * (S[a, VX] ** 2 + S[a, VY] ** 2) + 0.5 * P[a, INERTIA] * S[a, W0] ** 2
    return ke


@njit(cache=True)
def _apply(S: np.ndarray, P: np.ndarray, i: int, j: int, px: float, py: float) -> None:
    """Impulse -p on piece i and +p on piece j (if it is a piece)."""
    S[i, VX] -= px / P[i, M]
    S[i, VY] -= py / P[i, M]
    if j >= 0:
        S[j, VX] += px / P[j, M]
        S[j, VY] += py / P[j, M]


@njit(cache=True)
def _normal_pass(
    S: np.ndarray,
    P: np.ndarray,
    rails: np.ndarray,
    ci: np.ndarray,
    cj: np.ndarray,
    n_c: int,
    e: np.ndarray,
    v0: np.ndarray,
    deg: np.ndarray,
    lam: np.ndarray,
) -> None:
    """Iterate the normal impulses to convergence; applies them to S."""
    d = np.empty(n_c)
    scale = 1.0
    for k in range(n_c):
        scale = max(scale, v0[k])
    for _ in range(MAX_ITERATIONS):
        biggest = 0.0
        for k in range(n_c):
            i, j = ci[k], cj[k]
            m_eff = 1.0 / (1.0 / P[i, M] + _inv_mass(P, j))
            relax = 1.0 / max(deg[i], deg[j] if j >= 0 else 1.0)
            vn = approach_speed(S, rails, i, j)
            new = max(lam[k] + relax * m_eff * (vn + e[k] * v0[k]), 0.0)
            d[k] = new - lam[k]
            biggest = max(biggest, abs(d[k]) / m_eff)
        for k in range(n_c):
            if d[k] != 0.0:
                nx, ny = contact_normal(S, rails, ci[k], cj[k])
                lam[k] += d[k]
                _apply(S, P, ci[k], cj[k], d[k] * nx, d[k] * ny)
        if biggest <= TOLERANCE * scale:
            break


@njit(cache=True)
def resolve_simultaneous(
    S: np.ndarray,
    P: np.ndarray,
    rails: np.ndarray,
    ci: np.ndarray,
    cj: np.ndarray,
    n_c: int,
    e: np.ndarray,
    mu: np.ndarray,
    objs: np.ndarray,
    n_obj: int,
    speeds: np.ndarray,
    ball_params: np.ndarray,
) -> None:
    """Resolve the contacts k < n_c, all touching now with their pieces advanced to now;
    e[k], mu[k] their coefficients; objs[:n_obj] the pieces involved. speeds[k] holds each
    contact's approach speed before the impact."""
    n = S.shape[0]
    deg = np.zeros(n)
    for k in range(n_c):
        deg[ci[k]] += 1.0
        if cj[k] >= 0:
            deg[cj[k]] += 1.0
    saved = np.empty((n_obj, 3))
    for m in range(n_obj):
        a = objs[m]
        saved[m, 0], saved[m, 1], saved[m, 2] = S[a, VX], S[a, VY], S[a, W0]
    ke0 = _kinetic(S, P, objs, n_obj)
    lam = np.zeros(n_c)
    _normal_pass(S, P, rails, ci, cj, n_c, e, speeds, deg, lam)
    if _kinetic(S, P, objs, n_obj) > ke0:
        for m in range(n_obj):
            a = objs[m]
            S[a, VX], S[a, VY], S[a, W0] = saved[m, 0], saved[m, 1], saved[m, 2]
        lam[:] = 0.0
        _normal_pass(S, P, rails, ci, cj, n_c, np.zeros(n_c), speeds, deg, lam)
    # ball pairs: their own friction model, relaxed, contact by contact
    for k in range(n_c):
        i, j = ci[k], cj[k]
        if j >= 0 and P[i, LAW] == LAW_BALL and P[j, LAW] == LAW_BALL:
            relax = 1.0 / max(deg[i], deg[j])
            ball_ball_friction(
                S, P, i, j, lam[k], ball_params[0], ball_params[1], ball_params[2], relax
            )
            lam[k] = 0.0  # done: no disc friction below
    # disc contacts: tangential friction, one relaxed Jacobi pass from the post-normal velocities
    jt = np.zeros(n_c)
    for k in range(n_c):
        i, j = ci[k], cj[k]
        nx, ny = contact_normal(S, rails, i, j)
        tx, ty = -ny, nx
        vjx, vjy, wj, rj, kj = 0.0, 0.0, 0.0, 0.0, 0.0
        if j >= 0:
            vjx, vjy, wj, rj = S[j, VX], S[j, VY], S[j, W0], P[j, R]
            kj = 1.0 / P[j, M] + rj * rj / P[j, INERTIA]
        ri = P[i, R]
        vt = (S[i, VX] - vjx) * tx + (S[i, VY] - vjy) * ty + S[i, W0] * ri + wj * rj
        kt = 1.0 / P[i, M] + ri * ri / P[i, INERTIA] + kj
        relax = 1.0 / max(deg[i], deg[j] if j >= 0 else 1.0)
        jt[k] = -math.copysign(min(mu[k] * lam[k], relax * abs(vt) / kt), vt)
    for k in range(n_c):
        i, j = ci[k], cj[k]
        nx, ny = contact_normal(S, rails, i, j)
        tx, ty = -ny, nx
        _apply(S, P, i, j, -jt[k] * tx, -jt[k] * ty)
        S[i, W0] += P[i, R] * jt[k] / P[i, INERTIA]
        if j >= 0:
            S[j, W0] += P[j, R] * jt[k] / P[j, INERTIA]
