"""Slow pressing contacts: pieces that push each other move on together, and only they.

A contact presses when, left to their own motion laws, the two pieces would accelerate into
each other: (a_i - a_j) . n > 0, n from i toward j (a follower that decelerates less than the
piece ahead of it, a rolling ball behind a sliding one). Such a contact closing slower than
v_stick would otherwise bounce in an endless, ever faster series of ever smaller impacts (an
inelastic collapse, whose accumulation point is a persistent contact). So a slow pressing
contact is perfectly inelastic (e = 0 in the multiple impact), and when it is still pressed
after the impact, its two pieces join one cluster: every connected group of such contacts takes
its centre-of-mass velocity and mass-weighted deceleration,
  v = sum(m_k v_k) / sum(m_k),   k = sum(m_k mu_k g) / sum(m_k),
momentum conserved, kinetic energy can only fall (by at most m v_stick^2 / 2 per contact: the
pieces move within micrometres of where a resolved collapse would leave them). Balls also take
the inertia-weighted mean spin, so they keep one slip and one acceleration. Pieces that separate
never join; a cluster's pieces are resolved again, one by one, at their next event, so it
dissolves as soon as its contacts stop pressing.
"""

from __future__ import annotations

import numpy as np

from cuesim.sim.compiled import njit_norc
from cuesim.sim.motion.dispatch import start_segment
from cuesim.sim.state import (
    AX,
    AY,
    DECEL,
    INERTIA,
    KSEG,
    LAW,
    LAW_BALL,
    VX,
    VY,
    W0,
    WX,
    WY,
    M,
)


@njit_norc
def pressing(S: np.ndarray, i: int, j: int, nx: float, ny: float) -> bool:
    """Whether the current segments of i and j (or a fixed body, j < 0) accelerate into each
    other along n (from i toward j)."""
    ajx, ajy = (S[j, AX], S[j, AY]) if j >= 0 else (0.0, 0.0)
    return (S[i, AX] - ajx) * nx + (S[i, AY] - ajy) * ny > 0.0


@njit_norc
def _slip_into(S: np.ndarray, i: int, nx: float, ny: float,
               v_stick: float) -> tuple[float, float, float, float]:
    """A ball whose own slip drives it slowly into a cushion (n toward it): the sustained
    contact's friction ends that slip. Returns the changes (dvx, dvy, dwx, dwy) that remove its
    normal velocity (if closing slower than v_stick) and the spin component about
    m = (n_y, -n_x) that makes the cloth push it in (the slip u . n = v . n + R w . m < 0: the
    friction -mu g u/|u| points into the cushion); both only lower the energy."""
    vn = S[i, VX] * nx + S[i, VY] * ny
    if vn > v_stick:
        return 0.0, 0.0, 0.0, 0.0
    dvx, dvy = (-vn * nx, -vn * ny) if vn > 0.0 else (0.0, 0.0)
    wm = S[i, WX] * ny - S[i, WY] * nx
    dwx, dwy = (-wm * ny, wm * nx) if wm < 0.0 else (0.0, 0.0)
    return dvx, dvy, dwx, dwy


@njit_norc
def find_root(parent: np.ndarray, a: int) -> int:
    while parent[a] != a:
        parent[a] = parent[parent[a]]
        a = parent[a]
    return a


@njit_norc
def join_pressed(S: np.ndarray, P: np.ndarray, t: float, ci: np.ndarray, cj: np.ndarray,
                 nx: np.ndarray, ny: np.ndarray, n_c: int, n_due: int, slow: np.ndarray,
                 v_stick: float, objs: np.ndarray, n_obj: int, parent: np.ndarray) -> int:
    """After an impact: join the pieces of every slow pressing contact (slow[k]) that is still
    pressed and closing or parting slower than v_stick, and give each joined group its common
    motion; the first n_due contacts were found pressed by detection and count as pressed. A
    slow contact that a group's common motion closes joins too (else it would be the next
    impact, at the same instant, and so on down a row of pucks coming to rest). The members
    objs[:n_obj] are at time t. Returns the number of contacts joined. parent is a work array
    over all pieces, parent[a] = a, as it is again on return."""
    any_slow = False
    for k in range(n_c):
        any_slow = any_slow or slow[k]
    if not any_slow:
        return 0
    for m in range(n_obj):  # each piece's own motion law from its new velocity
        start_segment(S, P, objs[m], t)
    joined = 0
    for _ in range(n_c):  # a group's common motion may close another slow contact: join it too
        new = 0
        for k in range(n_c):
            i, j = ci[k], cj[k]
            if not slow[k] or j < 0:
                continue
            vn = (S[i, VX] - S[j, VX]) * nx[k] + (S[i, VY] - S[j, VY]) * ny[k]
            if abs(vn) <= v_stick and (k < n_due or (joined > 0 and vn > 0.0)
                                       or pressing(S, i, j, nx[k], ny[k])):
                ra, rb = find_root(parent, i), find_root(parent, j)
                if ra != rb:
                    parent[rb] = ra
                    new += 1
        if new == 0:
            break
        joined += new
        _merge(S, P, parent, objs, n_obj)
    # balls pressed into a cushion by their own slip: the change applies to the whole group
    for k in range(n_c):
        i = ci[k]
        if cj[k] >= 0 or not slow[k] or P[i, LAW] != LAW_BALL:
            continue
        if not (k < n_due or pressing(S, i, cj[k], nx[k], ny[k])):
            continue
        dvx, dvy, dwx, dwy = _slip_into(S, i, nx[k], ny[k], v_stick)
        root = find_root(parent, i)
        for q in range(n_obj):
            a = objs[q]
            if find_root(parent, a) == root:
                S[a, VX] += dvx
                S[a, VY] += dvy
                S[a, WX] += dwx
                S[a, WY] += dwy
    for m in range(n_obj):
        parent[objs[m]] = objs[m]
    return joined


@njit_norc
def _merge(S: np.ndarray, P: np.ndarray, parent: np.ndarray, objs: np.ndarray,
           n_obj: int) -> None:
    """Give every joined group (parent's trees) its common motion."""
    for m in range(n_obj):
        root = objs[m]
        if find_root(parent, root) != root:
            continue
        mass, px, py, kmass, iw, lx, ly, lz = 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
        for q in range(n_obj):
            a = objs[q]
            if find_root(parent, a) != root:
                continue
            mass += P[a, M]
            px += P[a, M] * S[a, VX]
            py += P[a, M] * S[a, VY]
            kmass += P[a, M] * P[a, DECEL]
            if P[a, LAW] == LAW_BALL:
                iw += P[a, INERTIA]
                lx += P[a, INERTIA] * S[a, WX]
                ly += P[a, INERTIA] * S[a, WY]
                lz += P[a, INERTIA] * S[a, W0]
        for q in range(n_obj):
            a = objs[q]
            if find_root(parent, a) != root:
                continue
            S[a, VX], S[a, VY], S[a, KSEG] = px / mass, py / mass, kmass / mass
            if P[a, LAW] == LAW_BALL and iw > 0.0:
                S[a, WX], S[a, WY], S[a, W0] = lx / iw, ly / iw, lz / iw
