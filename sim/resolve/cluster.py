"""Slow pressing contacts: pieces that push each other move on together, and only they.

A contact presses when, left to their own motion laws, the two pieces would accelerate into
each other: (a_i - a_j) . n > 0, n from i toward j (a follower that decelerates less than the
piece ahead of it, a rolling ball behind a sliding one). Such a contact closing slower than
v_stick would otherwise bounce in an endless, ever faster series of ever smaller impacts (an
inelastic collapse, whose accumulation point is a persistent contact). So a slow pressing
contact is perfectly inelastic (e = 0 in the multiple impact; a pair touching nothing else
only if its press brings it back from a bounce before its motion laws end, resolve.press
`comes_back`; else it bounces, as under any v_stick below its speed), and when it is still
pressed after the impact, its two pieces join one cluster: every connected group of such
contacts takes its centre-of-mass velocity and mass-weighted deceleration,
  v = sum(m_k v_k) / sum(m_k),   k = sum(m_k mu_k g) / sum(m_k),
momentum conserved, kinetic energy can only fall (by at most m v_stick^2 / 2 per contact: the
pieces move within micrometres of where a resolved collapse would leave them). Balls also take
the inertia-weighted mean spin, so they keep one slip and one acceleration. Pieces that separate
never join, nor do pieces that slide past each other faster than their accelerations can hold
them together (resolve.press `sliding_apart`: the relative path bends away from the circle of
contact), nor a slow disc whose own push-off and friction alone press it against a piece
sliding past (the bed holds it). A pair that slides past itself faster than v_stick while its
accelerations hold it together is a persistent contact that slides, not one body: on its own
(no other slow contact) it bounces (resolve.sliding_pair, `bounce_sliding`). A cluster's pieces
are resolved again, one by one, at their next event, so it dissolves as soon as its contacts
stop pressing. A ball (or a cluster) pressed into a cushion by its own slip loses the normal
velocity and the spin that drive it in; one held by two cushions or more (balls wedged in a
pocket's jaws) takes the nearest velocity and spin that go into none of them, in the plane the
projection on a cone: itself, its projection on one cushion's line, or zero (jammed). A join
that sets a piece at rest moving with no impulse is a push: the loop logs its contact as a
collision all the same (the log must show what set every moving piece moving:
rules.event_log.check_event_log).
"""

from __future__ import annotations

import numpy as np

from cuesim.sim.compiled import njit_norc
from cuesim.sim.motion.dispatch import start_segment
from cuesim.sim.resolve.press import (
    find_root,
    parting_for_good,
    pressing,
    sliding_apart,
    tangential_speed,
)
from cuesim.sim.resolve.sliding_pair import alone, bounce_sliding
from cuesim.sim.state import (
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
def join_pressed(S: np.ndarray, P: np.ndarray, t: float, ci: np.ndarray, cj: np.ndarray,
                 nx: np.ndarray, ny: np.ndarray, n_c: int, n_due: int, slow: np.ndarray,
                 v_stick: float, objs: np.ndarray, n_obj: int, parent: np.ndarray,
                 impulse: np.ndarray, pushed: np.ndarray, mu: np.ndarray) -> int:
    """After an impact: join the pieces of every slow pressing contact (slow[k]) that is still
    pressed and closing or parting slower than v_stick, and sliding past each other no faster
    (faster, a pair alone bounces instead, `bounce_sliding`), and give each joined group its
    common motion; the first n_due contacts were found pressed by detection and count as pressed. A
    slow contact that a group's common motion closes joins too (else it would be the next
    impact, at the same instant, and so on down a row of pucks coming to rest). The members
    objs[:n_obj] are at time t. Returns the number of contacts joined. parent is a work array
    over all pieces, parent[a] = a, as it is again on return. pushed[k] = 1 marks a joined
    pair contact with no impulse (impulse[k] = 0) that set one of its pieces, at rest, moving:
    the group pushes it, a contact the event log must show (`_mark_pushed`); else 0."""
    any_slow = False
    for k in range(n_c):
        any_slow = any_slow or slow[k]
        pushed[k] = 0.0
    if not any_slow:
        return 0
    for k in range(n_c):  # for now, which of the contact's pieces rest: 1 (i), 2 (j), 3 (both)
        if slow[k] and cj[k] >= 0 and impulse[k] == 0.0:
            pushed[k] = _at_rest(S, ci[k]) + 2.0 * _at_rest(S, cj[k])
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
            if abs(vn) <= v_stick and (tangential_speed(S, i, j, nx[k], ny[k]) <= v_stick
                                       or not alone(ci, cj, n_c, slow, parent, k)) and (
                    (joined > 0 and vn > 0.0) or ((k < n_due or (
                        pressing(S, i, j, nx[k], ny[k])
                        and not parting_for_good(S, P, i, j, nx[k], ny[k], t)))
                        and not sliding_apart(S, P, i, j, nx[k], ny[k], v_stick))):
                ra, rb = find_root(parent, i), find_root(parent, j)
                if ra != rb:
                    parent[rb] = ra
                    new += 1
        if new == 0:
            break
        joined += new
        _merge(S, P, parent, objs, n_obj)
        # the next round tests pressing and sliding with the groups' common decelerations: with
        # each piece's own, a puck pushed by a slow-braking striker and pressed by the pair
        # into a puck ahead was ruled sliding apart from it, then found pressed and due again
        # at the same instant, without end (bench/tunnels.py novus seed 123922, random physics)
        for m in range(n_obj):
            start_segment(S, P, objs[m], t)
    bounce_sliding(S, P, t, ci, cj, nx, ny, n_c, n_due, slow, v_stick, mu, objs, n_obj, parent,
                    pushed)
    # balls pressed into a cushion by their own slip: the change applies to the whole group
    for k in range(n_c):
        if not _held(S, P, ci, cj, nx, ny, slow, n_due, k):
            continue
        dvx, dvy, dwx, dwy = _slip_into(S, ci[k], nx[k], ny[k], v_stick)
        _add_to_group(S, P, parent, objs, n_obj, find_root(parent, ci[k]), dvx, dvy, dwx, dwy)
    # a group held by two cushions or more (balls wedged in a pocket's jaws): the removals
    # above, one cushion after another, can leave it moving, or its cloth pushing it, into a
    # cushion passed before; the next impact, at the same instant, removes part of that, and
    # so on without end (a Zeno series). Such a group takes the nearest motion that moves and
    # pushes into none of them (`_nearest_in_cone`); jammed, that is no motion.
    for k in range(n_c):
        if not _held(S, P, ci, cj, nx, ny, slow, n_due, k):
            continue
        root = find_root(parent, ci[k])
        first, held = True, 0
        for q in range(n_c):
            if _held(S, P, ci, cj, nx, ny, slow, n_due, q) and find_root(parent, ci[q]) == root:
                first = first and q >= k
                held += 1
        if first and held >= 2:  # one cushion alone: the removal above was exact
            _wedge(S, P, ci, cj, nx, ny, n_c, n_due, slow, v_stick, objs, n_obj, parent, root)
    _mark_pushed(S, ci, cj, n_c, parent, pushed)
    for m in range(n_obj):
        parent[objs[m]] = objs[m]
    return joined


@njit_norc
def _at_rest(S: np.ndarray, a: int) -> float:
    """1.0 when piece a has no linear velocity (a spin on the spot moves nothing), else 0.0."""
    return 1.0 if S[a, VX] == 0.0 and S[a, VY] == 0.0 else 0.0


@njit_norc
def _mark_pushed(S: np.ndarray, ci: np.ndarray, cj: np.ndarray, n_c: int, parent: np.ndarray,
                 pushed: np.ndarray) -> None:
    """pushed[k] (on entry: which of contact k's pieces rested before the join, 1 i, 2 j, 3
    both) becomes 1 when the contact joined its pieces and one that rested now moves, else 0:
    a contact force set it moving, and the log shows it as a collision, a push (otherwise
    its later roll or stop had nothing in the log that set it moving, rules.files)."""
    for k in range(n_c):
        code = pushed[k]
        if code == -1.0:  # a sliding contact's bounce (`bounce_sliding`)
            pushed[k] = 1.0
            continue
        if code == 0.0:
            continue
        i, j = ci[k], cj[k]
        moved_i = (code == 1.0 or code == 3.0) and _at_rest(S, i) == 0.0
        moved_j = code >= 2.0 and _at_rest(S, j) == 0.0
        joined = find_root(parent, i) == find_root(parent, j)
        pushed[k] = 1.0 if joined and (moved_i or moved_j) else 0.0


@njit_norc
def _held(S: np.ndarray, P: np.ndarray, ci: np.ndarray, cj: np.ndarray, nx: np.ndarray,
          ny: np.ndarray, slow: np.ndarray, n_due: int, k: int) -> bool:
    """Contact k is a ball's slow contact with a fixed body that presses (or was found due)."""
    i = ci[k]
    if cj[k] >= 0 or not slow[k] or P[i, LAW] != LAW_BALL:
        return False
    return k < n_due or pressing(S, i, cj[k], nx[k], ny[k])


@njit_norc
def _add_to_group(S: np.ndarray, P: np.ndarray, parent: np.ndarray, objs: np.ndarray,
                  n_obj: int, root: int, dvx: float, dvy: float, dwx: float,
                  dwy: float) -> None:
    for q in range(n_obj):
        a = objs[q]
        if find_root(parent, a) == root:
            S[a, VX] += dvx
            S[a, VY] += dvy
            S[a, WX] += dwx
            S[a, WY] += dwy


@njit_norc
def _into(S: np.ndarray, ci: np.ndarray, nx: np.ndarray, ny: np.ndarray, k: int, spin: bool,
          x: float, y: float) -> float:
    """How far (x, y) goes into cushion k: as a velocity, x n_x + y n_y; as a spin (about the
    axis m = (n_y, -n_x), R w . m < 0 makes the cloth push the ball in), -(x n_y - y n_x)."""
    if spin:
        return -(x * ny[k] - y * nx[k])
    return x * nx[k] + y * ny[k]


@njit_norc
def _nearest_in_cone(S: np.ndarray, P: np.ndarray, ci: np.ndarray, cj: np.ndarray,
                     nx: np.ndarray, ny: np.ndarray, n_c: int, n_due: int, slow: np.ndarray,
                     v_stick: float, parent: np.ndarray, root: int, spin: bool, x: float,
                     y: float) -> tuple[float, float]:
    """The nearest (x, y) to the given one that goes into none of the group's held cushions
    (velocities closing faster than v_stick are impacts, not held): itself, its projection on
    one cushion's line, or zero, the apex of the cone in the plane."""
    best_x, best_y, best_d = 0.0, 0.0, x * x + y * y
    for c in range(-1, n_c):  # c = -1: the given (x, y); else its projection on cushion c
        if c >= 0:
            if not _held(S, P, ci, cj, nx, ny, slow, n_due, c) or \
                    find_root(parent, ci[c]) != root:
                continue
            d = _into(S, ci, nx, ny, c, spin, x, y)
            if spin:
                px, py = x + d * ny[c], y - d * nx[c]
            else:
                px, py = x - d * nx[c], y - d * ny[c]
        else:
            px, py = x, y
        feasible = True
        for k in range(n_c):
            if k == c or not _held(S, P, ci, cj, nx, ny, slow, n_due, k) or \
                    find_root(parent, ci[k]) != root:
                continue
            g = _into(S, ci, nx, ny, k, spin, px, py)
            if g > 0.0 and (spin or _into(S, ci, nx, ny, k, False, x, y) <= v_stick):
                feasible = False
        dist = (px - x) ** 2 + (py - y) ** 2
        if feasible and dist < best_d:
            best_x, best_y, best_d = px, py, dist
    return best_x, best_y


@njit_norc
def _wedge(S: np.ndarray, P: np.ndarray, ci: np.ndarray, cj: np.ndarray, nx: np.ndarray,
           ny: np.ndarray, n_c: int, n_due: int, slow: np.ndarray, v_stick: float,
           objs: np.ndarray, n_obj: int, parent: np.ndarray, root: int) -> None:
    """A group still moving or pushed into one of its held cushions after the removals one by
    one: its velocity and spin made the nearest that go into none (a group's members share
    both, `_merge`)."""
    a = -1
    for q in range(n_obj):
        if find_root(parent, objs[q]) == root and P[objs[q], LAW] == LAW_BALL:
            a = objs[q]
    if a < 0:
        return
    vx, vy, wx, wy = S[a, VX], S[a, VY], S[a, WX], S[a, WY]
    inside = True
    for k in range(n_c):
        if _held(S, P, ci, cj, nx, ny, slow, n_due, k) and find_root(parent, ci[k]) == root:
            gv = _into(S, ci, nx, ny, k, False, vx, vy)
            if (0.0 < gv <= v_stick) or _into(S, ci, nx, ny, k, True, wx, wy) > 0.0:
                inside = False
    if inside:
        return
    nvx, nvy = _nearest_in_cone(S, P, ci, cj, nx, ny, n_c, n_due, slow, v_stick, parent, root,
                                False, vx, vy)
    nwx, nwy = _nearest_in_cone(S, P, ci, cj, nx, ny, n_c, n_due, slow, v_stick, parent, root,
                                True, wx, wy)
    for q in range(n_obj):
        b = objs[q]
        if find_root(parent, b) == root:
            S[b, VX], S[b, VY] = nvx, nvy
            if P[b, LAW] == LAW_BALL:
                S[b, WX], S[b, WY] = nwx, nwy


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
