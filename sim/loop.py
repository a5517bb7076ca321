"""The compiled event loop: pick the earliest event, advance the objects it touches, resolve,
re-predict only for them, repeat until everything rests.

Caches: pair_t[i, j] holds the next contact time of every pair, single_t[i] the next
single-object event (stop, rail, hole, sensor); row_t[i] / row_j[i] the earliest of object
i's row (row_j = -1 for a single event). An event re-predicts the rows of the objects whose
motion changed (O(n) with culling) and repairs the rows that pointed at them.
"""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_core, njit_norc
from cuesim.sim.detect.grid import (
    G_NX,
    G_NY,
    auto_grid,
    beyond,
    cell_at,
    crossing,
    insert,
    neighbours,
    one_cell,
    remove,
    sort_small,
)
from cuesim.sim.detect.holes import hole_time, knuckle_time
from cuesim.sim.detect.pairs import pair_time
from cuesim.sim.detect.rails import rail_time
from cuesim.sim.detect.sensors import circle_time, line_time
from cuesim.sim.detect.touching import segment_contact, touching_system
from cuesim.sim.events import (
    EV_CIRCLE,
    EV_COLLIDE,
    EV_LINE,
    EV_PIN,
    EV_POCKET,
    EV_RAIL,
    EV_ROLL,
    EV_STOP,
    EV_STRIKE,
)
from cuesim.sim.motion.dispatch import contact_radius, start_segment
from cuesim.sim.motion.segment import advance, position, reach, travel_bound, velocity
from cuesim.sim.queue import build, due, earliest, new_tree, update
from cuesim.sim.resolve.impact import resolve_impact
from cuesim.sim.resolve.pin import knock_pin
from cuesim.sim.roots import INF
from cuesim.sim.state import (
    AX,
    AY,
    KIND,
    LAW,
    LAW_BALL,
    LAW_PIN,
    LIN,
    MST,
    ON,
    PIN_DOWN,
    REST,
    SDECEL,
    SEG_AX,
    SEG_AY,
    SEG_EVENT,
    SEG_OBJ,
    SEG_ON,
    SEG_SD,
    SEG_T0,
    SEG_T1,
    SEG_VX,
    SEG_VY,
    SEG_W,
    SEG_X,
    SEG_Y,
    SLIDING,
    TEND,
    VX,
    VY,
    W0,
    WX,
    WY,
    R,
    X,
    Y,
)

SIMULTANEOUS = 1e-12  # s: contacts this close in time are one simultaneous impact
STATUS_DONE = 0
STATUS_FULL = 1  # the event or segment buffer is full: run again with larger buffers
STATUS_RUNAWAY = 2  # max_events reached

# single-event codes (internal)
_S_NONE, _S_STOP, _S_RAIL, _S_HOLE, _S_LINE, _S_CIRCLE, _S_KNUCKLE = range(7)


@njit_norc
def _open_segment(
    S: np.ndarray,
    P: np.ndarray,
    i: int,
    t: float,
    seg: np.ndarray,
    n_seg: int,
    seg_open: np.ndarray,
    event: int,
) -> int:
    """Close object i's open segment at t and log the new one, opened by event number
    `event`; returns the new segment count."""
    k = seg_open[i]
    if k >= 0:
        seg[k, SEG_T1] = t
    seg[n_seg, SEG_OBJ] = i
    seg[n_seg, SEG_T0] = t
    seg[n_seg, SEG_T1] = INF
    seg[n_seg, SEG_X] = S[i, X]
    seg[n_seg, SEG_Y] = S[i, Y]
    seg[n_seg, SEG_VX] = S[i, VX]
    seg[n_seg, SEG_VY] = S[i, VY]
    seg[n_seg, SEG_AX] = S[i, AX]
    seg[n_seg, SEG_AY] = S[i, AY]
    seg[n_seg, SEG_W] = S[i, W0]
    seg[n_seg, SEG_SD] = P[i, SDECEL]
    seg[n_seg, SEG_ON] = S[i, ON]
    seg[n_seg, SEG_EVENT] = event
    seg_open[i] = n_seg
    return n_seg + 1


@njit_norc
def _single(
    S: np.ndarray,
    P: np.ndarray,
    i: int,
    t: float,
    rails: np.ndarray,
    holes: np.ndarray,
    lines: np.ndarray,
    circles: np.ndarray,
    side_l: np.ndarray,
    side_c: np.ndarray,
    knuckles: np.ndarray,
) -> tuple[float, int, int]:
    """Earliest single-object event of i after t: (time, code, index)."""
    if S[i, ON] == 0.0 or S[i, TEND] == INF:
        return INF, _S_NONE, -1
    tend = S[i, TEND]
    h = tend - t
    best, code, idx = tend, _S_STOP, -1
    px, py = position(S, i, t)
    vx, vy = velocity(S, i, t)
    ax, ay = S[i, AX], S[i, AY]
    lin = S[i, LIN] != 0.0
    rch = reach(S, i, t, h)
    r = contact_radius(S, P, i)
    speed, accel = math.sqrt(vx * vx + vy * vy), math.sqrt(ax * ax + ay * ay)
    # each detector after the first skips features farther than the piece can travel before
    # the earliest event found so far (travel_bound): the same result, less work
    tau, k = rail_time(px, py, vx, vy, ax, ay, r, rch, h, rails, lin)
    if t + tau < best:
        best, code, idx = t + tau, _S_RAIL, k
        rch = min(rch, travel_bound(speed, accel, tau))
    tau, k = knuckle_time(px, py, vx, vy, ax, ay, lin, r, rch, h, knuckles)
    if t + tau < best:
        best, code, idx = t + tau, _S_KNUCKLE, k
        rch = min(rch, travel_bound(speed, accel, tau))
    tau, k = hole_time(px, py, vx, vy, ax, ay, lin, rch, h, holes)
    if t + tau < best:
        best, code, idx = t + tau, _S_HOLE, k
        rch = min(rch, travel_bound(speed, accel, tau))
    tau, k = line_time(px, py, vx, vy, ax, ay, rch, h, lines, side_l[i])
    if t + tau < best:
        best, code, idx = t + tau, _S_LINE, k
        rch = min(rch, travel_bound(speed, accel, tau))
    tau, k = circle_time(px, py, vx, vy, ax, ay, lin, rch, h, circles, side_c[i])
    if t + tau < best:
        best, code, idx = t + tau, _S_CIRCLE, k
    return best, code, idx


@njit_norc
def _row_all(pair_t: np.ndarray, single_t: np.ndarray, i: int) -> tuple[float, int]:
    """Object i's earliest event over its whole row, in index order (a single event wins
    ties, then the lowest partner index)."""
    best, bj = single_t[i], -1
    for j in range(pair_t.shape[0]):
        if pair_t[i, j] < best:
            best, bj = pair_t[i, j], j
    return best, bj


@njit_norc
def _row(pair_t: np.ndarray, single_t: np.ndarray, i: int, g: np.ndarray, head: np.ndarray,
         nxt: np.ndarray, cell: np.ndarray, buf: np.ndarray) -> tuple[float, int]:
    """Object i's earliest event: its single event, or its earliest pair among its neighbours
    (the lowest partner index on ties; a single event wins ties), as a scan of its whole row
    in index order gives: every other pair of i is unknown (INF)."""
    if one_cell(g):
        return _row_all(pair_t, single_t, i)
    best, bj = single_t[i], -1
    if cell[i] < 0:
        return best, bj
    cnt = neighbours(g, head, nxt, cell[i], i, buf)
    for q in range(cnt):
        j = buf[q]
        v = pair_t[i, j]
        if v < best or (v == best and bj >= 0 and j < bj):
            best, bj = v, j
    return best, bj


@njit_norc
def _gather(
    S: np.ndarray,
    P: np.ndarray,
    pair_t: np.ndarray,
    row_t: np.ndarray,
    single_t: np.ndarray,
    single_c: np.ndarray,
    single_k: np.ndarray,
    t: float,
    rails: np.ndarray,
    knuckles: np.ndarray,
    ci: np.ndarray,
    cj: np.ndarray,
    cnx: np.ndarray,
    cny: np.ndarray,
    seeds: np.ndarray,
    flag: np.ndarray,
    g: np.ndarray,
    head: np.ndarray,
    nxt: np.ndarray,
    cell: np.ndarray,
    queue: np.ndarray,
    due_now: np.ndarray,
    buf: np.ndarray,
    stack: np.ndarray,
) -> tuple[int, int]:
    """All contacts due at time t (within SIMULTANEOUS): pairs (ci, cj) and contacts with a
    rail or knuckle (ci, -1 - feature), with their normals, and their pieces as seeds[:]. Only
    the objects whose earliest event is due now are visited (the queue lists them), each
    against its neighbours, in index order as a scan of the upper triangle of pair_t gives.
    A pin's knocks are resolved on their own (resolve.pin); a thrown pin's rails are here.
    Returns (contacts, seeds); `flag` is a zeroed work array, zeroed again on return."""
    n_rails = rails.shape[0]
    limit = t + SIMULTANEOUS * max(1.0, t)
    c = 0
    n_due = due(queue, row_t, limit, due_now, stack)
    for q_due in range(n_due):
        a = due_now[q_due]
        code = single_c[a]
        if (code == _S_RAIL or code == _S_KNUCKLE) and single_t[a] <= limit and c < ci.shape[0]:
            px, py = position(S, a, t)
            k = single_k[a]
            if code == _S_RAIL:
                _, nx, ny = segment_contact(px, py, P[a, R], rails[k])
                f = k
            else:
                nx, ny = knuckles[k, 0] - px, knuckles[k, 1] - py
                norm = math.sqrt(nx * nx + ny * ny)
                nx, ny, f = nx / norm, ny / norm, n_rails + k
            ci[c], cj[c], cnx[c], cny[c] = a, -1 - f, nx, ny
            c += 1
        if P[a, LAW] == LAW_PIN or cell[a] < 0:
            continue
        m = 0
        if one_cell(g):
            for b in range(a + 1, pair_t.shape[0]):
                if pair_t[a, b] <= limit and P[b, LAW] != LAW_PIN:
                    buf[m] = b
                    m += 1
        else:
            cnt = neighbours(g, head, nxt, cell[a], a, buf)
            for q in range(cnt):
                b = buf[q]
                if b > a and pair_t[a, b] <= limit and P[b, LAW] != LAW_PIN:
                    buf[m] = b
                    m += 1
            sort_small(buf, m)
        for q in range(m):
            if c >= ci.shape[0]:
                break
            b = buf[q]
            pax, pay = position(S, a, t)
            pbx, pby = position(S, b, t)
            dx, dy = pbx - pax, pby - pay
            d = math.sqrt(dx * dx + dy * dy)
            ci[c], cj[c], cnx[c], cny[c] = a, b, dx / d, dy / d
            c += 1
    n_s = 0
    for k in range(c):
        for a in (ci[k], cj[k]):
            if a >= 0 and flag[a] == 0:
                flag[a] = 1
                seeds[n_s] = a
                n_s += 1
    for m in range(n_s):
        flag[seeds[m]] = 0
    return c, n_s


@njit_norc
def _log(
    ev: np.ndarray,
    n_ev: int,
    t: float,
    kind: int,
    a: int,
    b: int,
    idx: int,
    speed: float,
    direction: float,
) -> int:
    ev[n_ev, 0] = t
    ev[n_ev, 1] = kind
    ev[n_ev, 2] = a
    ev[n_ev, 3] = b
    ev[n_ev, 4] = idx
    ev[n_ev, 5] = speed
    ev[n_ev, 6] = direction
    return n_ev + 1


@njit_core
def run_events(
    S: np.ndarray,
    P: np.ndarray,
    rails: np.ndarray,
    holes: np.ndarray,
    lines: np.ndarray,
    circles: np.ndarray,
    e_pair: np.ndarray,
    mu_pair: np.ndarray,
    e_rail: np.ndarray,
    mu_rail: np.ndarray,
    v_stick: float,
    struck: int,
    max_events: int,
    ev: np.ndarray,
    seg: np.ndarray,
    knuckles: np.ndarray,
    ball_params: np.ndarray,
    stiffness: np.ndarray,
    exponent: np.ndarray,
) -> tuple[int, int, int]:
    """Simulate until all objects rest. S is updated in place to the final state; events and
    segments are written to ev and seg. ball_params: the ball-ball friction fit (a, b, c) and
    the cushion nose height; stiffness, exponent: the contact compliance laws (resolve.impact).
    Returns (n_events, n_segments, status). The broadphase grid is the one `auto_grid` picks
    (`run_events_grid` takes any; the result is the same)."""
    g = auto_grid(S, P, rails)
    return run_events_grid(S, P, rails, holes, lines, circles, e_pair, mu_pair, e_rail,
                           mu_rail, v_stick, struck, max_events, ev, seg, knuckles, ball_params,
                           stiffness, exponent, g)


@njit_core
def run_events_grid(
    S: np.ndarray,
    P: np.ndarray,
    rails: np.ndarray,
    holes: np.ndarray,
    lines: np.ndarray,
    circles: np.ndarray,
    e_pair: np.ndarray,
    mu_pair: np.ndarray,
    e_rail: np.ndarray,
    mu_rail: np.ndarray,
    v_stick: float,
    struck: int,
    max_events: int,
    ev: np.ndarray,
    seg: np.ndarray,
    knuckles: np.ndarray,
    ball_params: np.ndarray,
    stiffness: np.ndarray,
    exponent: np.ndarray,
    g: np.ndarray,
) -> tuple[int, int, int]:
    """`run_events` on the broadphase grid g (detect.grid: one cell is no broadphase).

    Only neighbours' pairs are predicted; every other pair stays INF in pair_t. A pair becomes
    neighbours when one of them crosses into a cell next to the other's: its contact time is
    then predicted as it was when the later of the two last changed its motion (t_pred), from
    the same segments, so it is the value an all-pairs prediction would hold."""
    n = S.shape[0]
    n_ev, n_seg = 0, 0
    cap_ev, cap_seg = ev.shape[0], seg.shape[0]
    if cap_seg < n or cap_ev < 1:
        return 0, 0, STATUS_FULL
    # the work arrays, in three blocks (one allocation each: a short shot pays for each one)
    max_c = 8 * n + 8
    iw = np.full((15, n), -1, np.int64)
    seg_open, single_c, single_k, row_j, cross_c = iw[0], iw[1], iw[2], iw[3], iw[4]
    nxt, prv, cell, buf, buf2 = iw[5], iw[6], iw[7], iw[8], iw[9]
    affected, in_cluster, seen, parent, label = iw[10], iw[11], iw[12], iw[13], iw[14]
    fw = np.full((4, n), INF)
    single_t, row_t, t_pred, cross_t = fw[0], fw[1], fw[2], fw[3]
    cw = np.zeros((8, max_c))
    cnx, cny, impulse, vpeak = cw[0], cw[1], cw[2], cw[3]
    work = cw[4:].reshape(4 * max_c)
    cc = np.empty((2, max_c), np.int64)
    ci, cj = cc[0], cc[1]
    slow = np.zeros(max_c, np.bool_)
    side_l = np.ones((n, lines.shape[0]))
    side_c = np.ones((n, circles.shape[0]))
    for i in range(n):
        single_c[i] = 0
        in_cluster[i] = 0
        seen[i] = 0
        parent[i] = i  # resolve_impact's work arrays: parent[a] = a, label[a] = -1
        t_pred[i] = 0.0  # when each object's predictions were last made
    for i in range(n):
        start_segment(S, P, i, 0.0)
        n_seg = _open_segment(S, P, i, 0.0, seg, n_seg, seg_open, -1)
        for k in range(lines.shape[0]):
            if lines[k, 0] * S[i, X] + lines[k, 1] * S[i, Y] - lines[k, 2] < 0.0:
                side_l[i, k] = -1.0
        for k in range(circles.shape[0]):
            if (S[i, X] - circles[k, 0]) ** 2 + (S[i, Y] - circles[k, 1]) ** 2 < circles[k, 2] ** 2:
                side_c[i, k] = -1.0
    if struck >= 0:
        n_ev = _log(
            ev,
            n_ev,
            0.0,
            EV_STRIKE,
            struck,
            -1,
            -1,
            math.sqrt(S[struck, VX] ** 2 + S[struck, VY] ** 2),
            0.0,
        )

    # the grid: each piece on the table in its cell's list; cross_t[i], cross_c[i]: when it
    # leaves its (fat) cell, and the cell it enters
    n_cells = int(g[G_NX]) * int(g[G_NY])
    one = n_cells == 1  # no grid: the loops run over every object, in index order
    head = np.full(n_cells, -1, np.int64)
    for i in range(n):
        if S[i, ON] != 0.0:
            insert(head, nxt, prv, cell, i, cell_at(g, S[i, X], S[i, Y]))
    stack = np.empty(2 * 64 + 2, np.int64)

    pair_t = np.full((n, n), INF)
    for i in range(n):
        single_t[i], single_c[i], single_k[i] = _single(
            S, P, i, 0.0, rails, holes, lines, circles, side_l, side_c, knuckles
        )
    for i in range(n):
        if one:
            for j in range(i + 1, n):
                pair_t[i, j] = pair_t[j, i] = pair_time(S, P, i, j, 0.0)
            continue
        if cell[i] < 0:
            continue
        cnt = neighbours(g, head, nxt, cell[i], i, buf)
        for q in range(cnt):
            j = buf[q]
            if j > i:
                pair_t[i, j] = pair_t[j, i] = pair_time(S, P, i, j, 0.0)
        cross_t[i], cross_c[i] = crossing(S, g, i, cell[i], 0.0)
    for i in range(n):
        row_t[i], row_j[i] = _row(pair_t, single_t, i, g, head, nxt, cell, buf)
    queue = new_tree(n, one)  # the earliest event of each object
    build(queue, row_t)
    cross_q = new_tree(n, one)  # the earliest cell crossing
    build(cross_q, cross_t)

    status = STATUS_DONE
    idle, n_ev_before = 0, n_ev
    while True:
        i = earliest(queue, row_t)
        t = row_t[i]
        c_i = -1 if one else cross_q[1]
        if c_i >= 0 and cross_t[c_i] <= t and cross_t[c_i] < INF:
            # a cell crossing first: no event, only new neighbours
            _cross(S, P, c_i, g, head, nxt, prv, cell, pair_t, single_t, row_t, row_j, t_pred,
                   cross_t, cross_c, queue, cross_q, buf, buf2)
            continue
        if t == INF:
            break
        idle = idle + 1 if n_ev == n_ev_before else 0
        n_ev_before = n_ev
        if n_ev >= max_events or idle > 4 * n + 64:  # events, or passes that change nothing
            status = STATUS_RUNAWAY
            break
        if n_ev + max_c + 1 > cap_ev or n_seg + n > cap_seg:
            status = STATUS_FULL
            break
        j = row_j[i]
        n_aff = 1
        affected[0] = i
        moved = True
        pin_pair = j >= 0 and (P[i, LAW] == LAW_PIN or P[j, LAW] == LAW_PIN)
        contact = (j >= 0 and not pin_pair) or (
            j < 0 and (single_c[i] == _S_RAIL or single_c[i] == _S_KNUCKLE))
        if contact:
            n_given, n_seed = _gather(S, P, pair_t, row_t, single_t, single_c, single_k, t,
                                      rails, knuckles, ci, cj, cnx, cny, affected, in_cluster,
                                      g, head, nxt, cell, queue, buf2, buf, stack)
            n_aff, n_c = touching_system(S, P, t, rails, knuckles, affected, n_seed, in_cluster,
                                         ci, cj, cnx, cny, n_given, g, head, nxt, cell, buf,
                                         buf2)
            resolve_impact(S, P, t, ci, cj, cnx, cny, n_c, n_given, affected, n_aff, e_pair,
                           mu_pair, e_rail, mu_rail, stiffness, exponent, v_stick, ball_params,
                           work, slow, impulse, vpeak, parent, label)
            for m in range(n_c):  # pairs first: a group with a rail ends on a RAIL event
                if cj[m] >= 0 and impulse[m] > 0.0:
                    n_ev = _log(ev, n_ev, t, EV_COLLIDE, ci[m], cj[m], -1, vpeak[m], 0.0)
            for m in range(n_c):
                if cj[m] < 0 and impulse[m] > 0.0:
                    n_ev = _log(ev, n_ev, t, EV_RAIL, ci[m], -1, -1 - cj[m], vpeak[m], 0.0)
        elif pin_pair:  # a standing pin touched: felled (PIN) or moved standing (COLLIDE)
            advance(S, P, i, t)
            advance(S, P, j, t)
            ki, kj = int(P[i, KIND]), int(P[j, KIND])
            pin, knocker = (i, j) if S[i, MST] == REST and P[i, LAW] == LAW_PIN else (j, i)
            vn, felled = knock_pin(S, P, knocker, pin, e_pair[ki, kj], t)
            kind = EV_PIN if felled else EV_COLLIDE
            n_ev = _log(ev, n_ev, t, kind, knocker, pin, -1, vn, 0.0)
            affected[1] = j
            n_aff = 2
        else:
            code, k = single_c[i], single_k[i]
            if code == _S_STOP and S[i, MST] == SLIDING and P[i, LAW] == LAW_BALL:
                advance(S, P, i, t)  # the slip has vanished: the ball rolls on
                n_ev = _log(ev, n_ev, t, EV_ROLL, i, -1, -1, 0.0, 0.0)
            elif code == _S_STOP:
                advance(S, P, i, t)
                S[i, VX] = 0.0
                S[i, VY] = 0.0
                if P[i, LAW] == LAW_PIN:
                    S[i, MST] = PIN_DOWN
                S[i, WX] = 0.0
                S[i, WY] = 0.0
                n_ev = _log(ev, n_ev, t, EV_STOP, i, -1, -1, 0.0, 0.0)
            elif code == _S_HOLE:
                advance(S, P, i, t)
                speed = math.sqrt(S[i, VX] ** 2 + S[i, VY] ** 2)
                S[i, VX] = 0.0
                S[i, VY] = 0.0
                S[i, W0] = 0.0
                S[i, WX] = 0.0  # all spin too: a pocketed ball's last segment is at rest
                S[i, WY] = 0.0
                S[i, ON] = 0.0
                n_ev = _log(ev, n_ev, t, EV_POCKET, i, -1, k, speed, 0.0)
            else:  # sensor crossing: the motion goes on unchanged
                moved = False
                vx, vy = velocity(S, i, t)
                speed = math.sqrt(vx * vx + vy * vy)
                if code == _S_LINE:
                    side_l[i, k] = -side_l[i, k]
                    n_ev = _log(ev, n_ev, t, EV_LINE, i, -1, k, speed, side_l[i, k])
                else:
                    side_c[i, k] = -side_c[i, k]
                    n_ev = _log(ev, n_ev, t, EV_CIRCLE, i, -1, k, speed, -side_c[i, k])

        if not moved:
            single_t[i], single_c[i], single_k[i] = _single(
                S, P, i, t, rails, holes, lines, circles, side_l, side_c, knuckles
            )
            row_t[i], row_j[i] = _row(pair_t, single_t, i, g, head, nxt, cell, buf)
            update(queue, row_t, i)
            continue

        for m in range(n_aff):
            a = affected[m]
            start_segment(S, P, a, t)
            n_seg = _open_segment(S, P, a, t, seg, n_seg, seg_open, n_ev - 1)
        if one:
            _predict_all(S, P, t, affected, n_aff, rails, holes, lines, circles, side_l, side_c,
                         knuckles, pair_t, single_t, single_c, single_k, row_t, row_j, in_cluster)
        else:
            _predict_near(S, P, t, affected, n_aff, rails, holes, lines, circles, side_l, side_c,
                          knuckles, pair_t, single_t, single_c, single_k, row_t, row_j, in_cluster,
                          t_pred, seen, cross_t, cross_c, g, head, nxt, prv, cell, buf, buf2,
                          queue, cross_q)
    return n_ev, n_seg, status


@njit_norc
def _predict_all(S: np.ndarray, P: np.ndarray, t: float, affected: np.ndarray, n_aff: int,
                 rails: np.ndarray, holes: np.ndarray, lines: np.ndarray, circles: np.ndarray,
                 side_l: np.ndarray, side_c: np.ndarray, knuckles: np.ndarray,
                 pair_t: np.ndarray, single_t: np.ndarray, single_c: np.ndarray,
                 single_k: np.ndarray, row_t: np.ndarray, row_j: np.ndarray,
                 in_cluster: np.ndarray) -> None:
    """After an event, without a grid: predict the affected objects' single events and their
    pairs with every object, and mend every row (a row that pointed into the cluster is scanned
    again, any other lowered by a new pair that comes sooner)."""
    n = S.shape[0]
    for m in range(n_aff):
        a = affected[m]
        single_t[a], single_c[a], single_k[a] = _single(
            S, P, a, t, rails, holes, lines, circles, side_l, side_c, knuckles
        )
    for m in range(n_aff):
        a = affected[m]
        for k in range(n):
            if k != a:
                pair_t[a, k] = pair_t[k, a] = pair_time(S, P, a, k, t)
    for m in range(n_aff):
        a = affected[m]
        row_t[a], row_j[a] = _row_all(pair_t, single_t, a)
    for m in range(n_aff):
        in_cluster[affected[m]] = 1
    for k in range(n):
        if in_cluster[k]:
            continue
        if row_j[k] >= 0 and in_cluster[row_j[k]]:
            row_t[k], row_j[k] = _row_all(pair_t, single_t, k)
        else:
            for m in range(n_aff):
                a = affected[m]
                if pair_t[k, a] < row_t[k]:
                    row_t[k], row_j[k] = pair_t[k, a], a
    for m in range(n_aff):
        in_cluster[affected[m]] = 0


@njit_norc
def _predict_near(S: np.ndarray, P: np.ndarray, t: float, affected: np.ndarray, n_aff: int,
                  rails: np.ndarray, holes: np.ndarray, lines: np.ndarray, circles: np.ndarray,
                  side_l: np.ndarray, side_c: np.ndarray, knuckles: np.ndarray,
                  pair_t: np.ndarray, single_t: np.ndarray, single_c: np.ndarray,
                  single_k: np.ndarray, row_t: np.ndarray, row_j: np.ndarray,
                  in_cluster: np.ndarray, t_pred: np.ndarray, seen: np.ndarray,
                  cross_t: np.ndarray, cross_c: np.ndarray, g: np.ndarray, head: np.ndarray,
                  nxt: np.ndarray, prv: np.ndarray, cell: np.ndarray, buf: np.ndarray,
                  buf2: np.ndarray, queue: np.ndarray, cross_q: np.ndarray) -> None:
    """`_predict_all` on the grid: the affected objects' pairs with their neighbours only (the
    rest stay INF), the rows of their neighbours mended, their crossings predicted, and both
    queues mended."""
    for m in range(n_aff):
        a = affected[m]
        single_t[a], single_c[a], single_k[a] = _single(
            S, P, a, t, rails, holes, lines, circles, side_l, side_c, knuckles
        )
    for m in range(n_aff):
        a = affected[m]
        t_pred[a] = t
        if cell[a] < 0:
            continue
        cnt = neighbours(g, head, nxt, cell[a], a, buf)
        for q in range(cnt):
            k = buf[q]
            pair_t[a, k] = pair_t[k, a] = pair_time(S, P, a, k, t)
    for m in range(n_aff):
        a = affected[m]
        row_t[a], row_j[a] = _row(pair_t, single_t, a, g, head, nxt, cell, buf)
    for m in range(n_aff):
        in_cluster[affected[m]] = 1
    n_rep = 0  # the rows that may have changed: the affected objects' neighbours'
    for m in range(n_aff):
        a = affected[m]
        if cell[a] < 0:
            continue
        cnt = neighbours(g, head, nxt, cell[a], a, buf)
        for q in range(cnt):
            k = buf[q]
            if in_cluster[k] == 0 and seen[k] == 0:
                seen[k] = 1
                buf2[n_rep] = k
                n_rep += 1
    for r in range(n_rep):
        seen[buf2[r]] = 0
        _mend(pair_t, single_t, row_t, row_j, in_cluster, affected, n_aff, buf2[r], g,
              head, nxt, cell, buf, queue)
    for m in range(n_aff):
        a = affected[m]
        in_cluster[a] = 0
        update(queue, row_t, a)
        if S[a, ON] == 0.0 and cell[a] >= 0:  # pocketed: off the grid
            remove(head, nxt, prv, cell, a)
            cross_t[a] = INF
        elif cell[a] >= 0:
            cross_t[a], cross_c[a] = crossing(S, g, a, cell[a], t)
        update(cross_q, cross_t, a)


@njit_norc
def _mend(pair_t: np.ndarray, single_t: np.ndarray, row_t: np.ndarray, row_j: np.ndarray,
          in_cluster: np.ndarray, affected: np.ndarray, n_aff: int, k: int, g: np.ndarray,
          head: np.ndarray, nxt: np.ndarray, cell: np.ndarray, buf: np.ndarray,
          queue: np.ndarray) -> None:
    """Mend row k (not in the cluster) after the affected objects' pairs were predicted
    again: scanned again if its earliest pointed into the cluster, else lowered by a new pair
    that comes sooner."""
    before = row_t[k]
    if row_j[k] >= 0 and in_cluster[row_j[k]]:
        row_t[k], row_j[k] = _row(pair_t, single_t, k, g, head, nxt, cell, buf)
    else:
        for m in range(n_aff):
            a = affected[m]
            if pair_t[k, a] < row_t[k]:
                row_t[k], row_j[k] = pair_t[k, a], a
    if row_t[k] != before:
        update(queue, row_t, k)


@njit_norc
def _cross(S: np.ndarray, P: np.ndarray, i: int, g: np.ndarray, head: np.ndarray,
           nxt: np.ndarray, prv: np.ndarray, cell: np.ndarray, pair_t: np.ndarray,
           single_t: np.ndarray, row_t: np.ndarray, row_j: np.ndarray, t_pred: np.ndarray,
           cross_t: np.ndarray, cross_c: np.ndarray, queue: np.ndarray, cross_q: np.ndarray,
           buf: np.ndarray, buf2: np.ndarray) -> None:
    """Move object i into the cell its path enters at cross_t[i]: predict its pairs with its
    new neighbours (from t_pred: the value the all-pairs prediction holds), forget those with
    the pieces no longer next to it, and mend the rows and queues they touch."""
    t = cross_t[i]
    old, new = cell[i], cross_c[i]
    remove(head, nxt, prv, cell, i)
    insert(head, nxt, prv, cell, i, new)
    best, bj = row_t[i], row_j[i]  # i's row, mended as its pairs change
    cnt = beyond(g, head, nxt, new, old, i, buf)  # the new neighbours
    for q in range(cnt):
        k = buf[q]
        v = pair_time(S, P, i, k, max(t_pred[i], t_pred[k]))
        pair_t[i, k] = pair_t[k, i] = v
        if v < row_t[k] or (v == row_t[k] and row_j[k] >= 0 and i < row_j[k]):
            row_t[k], row_j[k] = v, i
            update(queue, row_t, k)
        if v < best or (v == best and bj >= 0 and k < bj):
            best, bj = v, k
    rescan = False
    cnt = beyond(g, head, nxt, old, new, i, buf)  # the pieces no longer next to it
    for q in range(cnt):
        k = buf[q]
        pair_t[i, k] = pair_t[k, i] = INF
        rescan = rescan or bj == k
        if row_j[k] == i:
            before = row_t[k]
            row_t[k], row_j[k] = _row(pair_t, single_t, k, g, head, nxt, cell, buf2)
            if row_t[k] != before:
                update(queue, row_t, k)
    if rescan:  # its earliest was with a piece it left
        best, bj = _row(pair_t, single_t, i, g, head, nxt, cell, buf)
    if best != row_t[i]:
        row_t[i], row_j[i] = best, bj
        update(queue, row_t, i)
    row_j[i] = bj
    cross_t[i], cross_c[i] = crossing(S, g, i, new, t)
    update(cross_q, cross_t, i)
