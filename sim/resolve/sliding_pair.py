"""A slow contact whose pieces press together while sliding past each other faster than
v_stick, on its own (no other slow contact of its groups: `alone`): a persistent contact that
slides, stepped as bounces of BOUNCE_TIME (`bounce_sliding`), its normal force pushing the
other piece across and its friction alone acting along. A ball of such a pair whose slide ends
within that step rolls at once (`_settle_slides`), as the cloth leaves it: the press is judged
on the motion the step sees, not on a slide of microseconds that the contact's own impulse gave
it (its end turned the press around at once, and the pair met again, thousands of times:
bench/tunnels.py random physics, 8-ball 4000159, 14.1 4000915); a settle that leaves the
pair closing takes the limit of the slow impacts that would follow at once (`_close_settled`).
A slow disc the bed holds
against a piece sliding past stops where it is (`held_by_bed`). Called from
resolve.cluster.join_pressed, which joins the pairs that do not slide."""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_norc
from cuesim.sim.detect import TOUCH
from cuesim.sim.motion.dispatch import start_segment
from cuesim.sim.resolve.press import find_root, pressing, sliding_apart, tangential_speed
from cuesim.sim.state import (
    AX,
    AY,
    INERTIA,
    LAW,
    LAW_BALL,
    LAW_DISC,
    MST,
    REST,
    ROLLING,
    SLIDING,
    TEND,
    VX,
    VY,
    WX,
    WY,
    M,
    R,
)

# a sliding pressed contact's bounces (`bounce_sliding`): each parts the pieces at
# press * BOUNCE_TIME / 2, so that their press brings them back BOUNCE_TIME later; a
# discretisation of the persistent contact, not a physical constant (it converges:
# 10x moves a cue ball's rest 1.3 m on by 2.2 mm, /10 by 0.01 mm,
# tests/test_sliding_pressed_contacts.py); a ball of a sliding pair whose slide ends within it
# rolls at once (`_settle_slides`)
BOUNCE_TIME = 0.00025  # s
# m: the least gap a bounce opens, past detection's touching band (10x moves a rest 0.16 mm)
BOUNCE_GAP = 10.0 * TOUCH


@njit_norc
def held_by_bed(S: np.ndarray, P: np.ndarray, t: float, i: int, j: int, nx: float,
                ny: float, v_stick: float) -> bool:
    """A slow disc pushed by a piece sliding past it (v_t > v_stick) presses the pair only by
    its own friction, for the moment it takes to stop (a striker brushing a puck in its last
    centimetres gives it micrometres per second, and the puck's deceleration then presses the
    pair for tens of microseconds); joined, the pair would slide on as one, the puck carried
    along (5.6 mm after a 1 m/s shot). The bed holds it instead, the pair's contact the only one
    of the impact: the disc (slower than v_stick) stops where it is, the change its stopping
    distance, at most v_stick^2 / (2 mu g), and the other piece loses the normal velocity that
    closes on it, as against a rail (the bed takes at most (m_i + m_j) v_stick of momentum).
    Returns True when the pair then slides apart (not to be joined); else it leaves the two as
    they were."""
    if j < 0:
        return False
    dvx, dvy = S[j, VX] - S[i, VX], S[j, VY] - S[i, VY]
    vn = dvx * nx + dvy * ny
    if dvx * dvx + dvy * dvy - vn * vn <= v_stick * v_stick:
        return False
    vs2 = v_stick * v_stick
    si2 = S[i, VX] * S[i, VX] + S[i, VY] * S[i, VY]
    sj2 = S[j, VX] * S[j, VX] + S[j, VY] * S[j, VY]
    if P[j, LAW] == LAW_DISC and sj2 <= vs2 < si2:
        slow, other, mx, my = j, i, nx, ny  # m: from the other piece toward the slow one
    elif P[i, LAW] == LAW_DISC and si2 <= vs2 < sj2:
        slow, other, mx, my = i, j, -nx, -ny
    else:
        return False
    svx, svy, ovx, ovy = S[slow, VX], S[slow, VY], S[other, VX], S[other, VY]
    S[slow, VX], S[slow, VY] = 0.0, 0.0
    closing = ovx * mx + ovy * my
    if closing > 0.0:
        S[other, VX] -= closing * mx
        S[other, VY] -= closing * my
    start_segment(S, P, slow, t)
    start_segment(S, P, other, t)
    if sliding_apart(S, P, i, j, nx, ny, v_stick):
        return True
    # still pressed (the other piece's own deceleration pushes): joined as before, unheld
    S[slow, VX], S[slow, VY], S[other, VX], S[other, VY] = svx, svy, ovx, ovy
    start_segment(S, P, slow, t)
    start_segment(S, P, other, t)
    return False


@njit_norc
def bounce_sliding(S: np.ndarray, P: np.ndarray, t: float, ci: np.ndarray, cj: np.ndarray,
                   nx: np.ndarray, ny: np.ndarray, n_c: int, n_due: int, slow: np.ndarray,
                   v_stick: float, mu: np.ndarray, objs: np.ndarray, n_obj: int,
                   parent: np.ndarray, pushed: np.ndarray) -> None:
    """A slow pressing contact whose pieces (or groups) slide past each other faster than
    v_stick is a persistent contact that slides: its normal force keeps them together, its
    friction (mu N) alone acts across, far too little to make them one body (joined, a cue
    ball sliding past a touching ball at 0.26 m/s dragged it 93 mm along, where the
    soft-contact reference moves it 0.8 mm: tests/test_sliding_pressed_contacts.py). The persistent
    contact is the limit of ever smaller bounces; here it is those bounces, each parting the
    groups along n at v = press BOUNCE_TIME / 2 (press = (a_i - a_j) . n; v_stick when nothing
    presses), so that their own accelerations bring them back BOUNCE_TIME later: the normal
    momentum the contact force carries, m_eff press per unit time. Across, the relative
    sliding loses what the bounce's friction takes (mu J) and never less than keeps the energy
    from rising: |v_t'|^2 <= |v_t|^2 + v_n^2 - v^2. Pieces sliding apart are left alone, as is a
    slow disc the bed holds (`held_by_bed`, the contact the impact's only one); a pair with
    other slow contacts joins as before (`alone`)."""
    for k in range(n_c):
        i, j = ci[k], cj[k]
        if not slow[k] or j < 0:
            continue
        ra, rb = find_root(parent, i), find_root(parent, j)
        if ra == rb or not alone(ci, cj, n_c, slow, parent, k):
            continue
        closing = (S[i, VX] - S[j, VX]) * nx[k] + (S[i, VY] - S[j, VY]) * ny[k]
        vt = tangential_speed(S, i, j, nx[k], ny[k])
        if abs(closing) > v_stick or vt <= v_stick:
            continue
        if _settle_slides(S, P, parent, objs, n_obj, ra, t) + _settle_slides(
                S, P, parent, objs, n_obj, rb, t) > 0:
            closing = (S[i, VX] - S[j, VX]) * nx[k] + (S[i, VY] - S[j, VY]) * ny[k]
            if 0.0 < closing <= v_stick:
                _close_settled(S, P, parent, objs, n_obj, ra, rb, nx[k], ny[k], closing, t)
                closing = (S[i, VX] - S[j, VX]) * nx[k] + (S[i, VY] - S[j, VY]) * ny[k]
            vt = tangential_speed(S, i, j, nx[k], ny[k])
            if abs(closing) > v_stick or vt <= v_stick:
                continue
        if not (closing > 0.0 or k < n_due or pressing(S, i, j, nx[k], ny[k])):
            continue
        if sliding_apart(S, P, i, j, nx[k], ny[k], v_stick):
            continue
        if n_c == 1 and held_by_bed(S, P, t, i, j, nx[k], ny[k], v_stick):
            continue
        ma, rolls_a = _group_inertia(S, P, parent, objs, n_obj, ra)
        mb, rolls_b = _group_inertia(S, P, parent, objs, n_obj, rb)
        m_eff = ma * mb / (ma + mb)
        # the relative velocity w = v_j - v_i after: v_part apart along n, across slower
        wx, wy = S[j, VX] - S[i, VX], S[j, VY] - S[i, VY]
        wn = wx * nx[k] + wy * ny[k]
        tx, ty = (wx - wn * nx[k]) / vt, (wy - wn * ny[k]) / vt
        press = (S[i, AX] - S[j, AX]) * nx[k] + (S[i, AY] - S[j, AY]) * ny[k]
        # parted at least BOUNCE_GAP apart (a press too slight for BOUNCE_TIME to part them
        # beyond the touching band found them due again within microseconds, without end)
        v_part = max(0.5 * press * BOUNCE_TIME, math.sqrt(2.0 * press * BOUNCE_GAP)) \
            if press > 0.0 else v_stick
        v_part = min(v_part, math.sqrt(vt * vt + wn * wn))  # the energy there is
        if wn >= v_part:  # parting as fast already
            continue
        j_n = m_eff * (v_part - wn)
        vt_new = min(vt - mu[k] * j_n / m_eff,
                     math.sqrt(max(vt * vt + wn * wn - v_part * v_part, 0.0)))
        vt_new = max(vt_new, 0.0)
        dwx = (v_part - wn) * nx[k] + (vt_new - vt) * tx
        dwy = (v_part - wn) * ny[k] + (vt_new - vt) * ty
        _part_groups(S, P, parent, objs, n_obj, ra, rb, ma, mb, rolls_a, rolls_b, dwx, dwy, t)
        pushed[k] = -1.0  # logged (`_mark_pushed`)


@njit_norc
def _settle_slides(S: np.ndarray, P: np.ndarray, parent: np.ndarray, objs: np.ndarray,
                   n_obj: int, root: int, t: float) -> int:
    """A sliding pair's group (`bounce_sliding`): its moving balls whose slide ends within
    BOUNCE_TIME end it now, v -= 2/7 u (u: the contact point's slip), the rolling velocity the
    cloth's friction leaves (motion.ball), reached tau_s = 2|u| / (7 mu_s g) early; the
    kinetic energy falls as the slide's would, and a ball's place is off by at most
    |u| tau_s / 7 (0.1 um at the tables' mu_s). Only there: settled at every slow contact, a
    ball between two others closed each contact in turn, at one instant, without end (random
    physics, 9-ball 5450149). A ball at rest with spin alone slides on. Returns how many."""
    settled = 0
    for q in range(n_obj):
        a = objs[q]
        if find_root(parent, a) != root or P[a, LAW] != LAW_BALL or S[a, MST] != SLIDING:
            continue
        if S[a, TEND] - t > BOUNCE_TIME or (S[a, VX] == 0.0 and S[a, VY] == 0.0):
            continue
        r = P[a, R]
        S[a, VX] -= 2.0 / 7.0 * (S[a, VX] - r * S[a, WY])
        S[a, VY] -= 2.0 / 7.0 * (S[a, VY] + r * S[a, WX])
        S[a, WX], S[a, WY] = -S[a, VY] / r, S[a, VX] / r
        start_segment(S, P, a, t)
        settled += 1
    return settled


@njit_norc
def _close_settled(S: np.ndarray, P: np.ndarray, parent: np.ndarray, objs: np.ndarray,
                   n_obj: int, ra: int, rb: int, nx: float, ny: float, closing: float,
                   t: float) -> None:
    """A settle (`_settle_slides`) that leaves the pair closing: a ball pushed at its centre
    keeps only part of the push once it rolls (5/7 of it, from rest), so the pair closes again
    at this very instant. Each slow impact that followed took another part back: at one
    instant a series of impacts each 0.56 of the last (random physics, 14.1 6700587: a ball
    held by a large rolling resistance, pressed by a sliding cue ball), thousands of events
    until the event limit. The series' limit is one perfectly inelastic push along n with each
    group's inertia to a slow push (`_group_inertia`: the settled ball's rolling 7/5 m):
    relative normal velocity 0, the energy only falls."""
    ma, rolls_a = _group_inertia(S, P, parent, objs, n_obj, ra)
    mb, rolls_b = _group_inertia(S, P, parent, objs, n_obj, rb)
    _part_groups(S, P, parent, objs, n_obj, ra, rb, ma, mb, rolls_a, rolls_b, closing * nx,
                 closing * ny, t)


@njit_norc
def _part_groups(S: np.ndarray, P: np.ndarray, parent: np.ndarray, objs: np.ndarray,
                 n_obj: int, ra: int, rb: int, ma: float, mb: float, rolls_a: bool,
                 rolls_b: bool, dwx: float, dwy: float, t: float) -> None:
    """Change the relative velocity v_b - v_a of groups ra and rb (inertias ma, mb:
    `_group_inertia`) by (dwx, dwy), each taking its share of the impulse (`_push_group`),
    and start their pieces' new segments."""
    _push_group(S, P, parent, objs, n_obj, ra, -dwx * mb / (ma + mb), -dwy * mb / (ma + mb),
                rolls_a)
    _push_group(S, P, parent, objs, n_obj, rb, dwx * ma / (ma + mb), dwy * ma / (ma + mb),
                rolls_b)
    for m in range(n_obj):
        a = objs[m]
        if find_root(parent, a) == ra or find_root(parent, a) == rb:
            start_segment(S, P, a, t)


@njit_norc
def alone(ci: np.ndarray, cj: np.ndarray, n_c: int, slow: np.ndarray, parent: np.ndarray,
          k: int) -> bool:
    """Whether slow contact k is the only slow contact of its two groups with anything else
    (another group, a cushion, a jaw): a sliding pair on its own bounces
    (`bounce_sliding`); one pressed into a cushion or among more pieces (balls wedged in a
    pocket's jaws, `_wedge`; a lattice of pucks) joins as before, the bounces there running
    to thousands of events at the same few places."""
    ra, rb = find_root(parent, ci[k]), find_root(parent, cj[k])
    for q in range(n_c):
        if q == k or not slow[q]:
            continue
        a = find_root(parent, ci[q])
        b = find_root(parent, cj[q]) if cj[q] >= 0 else -1
        if a == b:
            continue
        if a == ra or a == rb or b == ra or b == rb:
            return False
    return True


@njit_norc
def _group_inertia(S: np.ndarray, P: np.ndarray, parent: np.ndarray, objs: np.ndarray,
                   n_obj: int, root: int) -> tuple[float, bool]:
    """A group's inertia to a push at its pieces' centres, and whether it rolls: balls that
    roll (or rest) roll under a slow push, the cloth turning them, so they take it with the
    mass m (1 + I / (m R^2)) (7/5 m for a solid ball); else the mass m."""
    mass, eff, rolls = 0.0, 0.0, True
    for q in range(n_obj):
        a = objs[q]
        if find_root(parent, a) != root:
            continue
        mass += P[a, M]
        eff += P[a, M] + P[a, INERTIA] / (P[a, R] * P[a, R])
        rolls = rolls and P[a, LAW] == LAW_BALL and (S[a, MST] == ROLLING or S[a, MST] == REST)
    return (eff if rolls else mass), rolls


@njit_norc
def _push_group(S: np.ndarray, P: np.ndarray, parent: np.ndarray, objs: np.ndarray,
                n_obj: int, root: int, dvx: float, dvy: float, rolls: bool) -> None:
    """Change a group's velocity by (dvx, dvy); a rolling group's spins so that it rolls on
    (w = z x v / R: its slip unchanged)."""
    for q in range(n_obj):
        a = objs[q]
        if find_root(parent, a) != root:
            continue
        S[a, VX] += dvx
        S[a, VY] += dvy
        if rolls:
            S[a, WX] -= dvy / P[a, R]
            S[a, WY] += dvx / P[a, R]
