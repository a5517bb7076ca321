"""Prediction for the event loop (sim.loop): each object's next single event, the earliest
event of its row, the contacts due now, and what an event or a cell crossing changes.

pair_t[i, j] holds the next contact time of every known pair (all pairs without a grid, the
neighbours' with one: detect.grid), single_t[i] the next single-object event, row_t[i] /
row_j[i] the earliest of object i's row (row_j = -1 for a single event). After an event the
moved objects' predictions are made again (`predict_all`, `predict_near`) and the rows that
pointed at them mended; a crossing (`cross_cell`) predicts the pairs a piece gains and drops
those it loses from the rows (their entries are no longer read: only neighbours' are).
"""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_norc
from cuesim.sim.detect import TOUCH
from cuesim.sim.detect.grid import (
    adjacent,
    beyond,
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
from cuesim.sim.detect.touching import segment_contact
from cuesim.sim.motion.dispatch import contact_radius, knocks
from cuesim.sim.motion.segment import position, reach, travel_bound, velocity
from cuesim.sim.queue import due, update, update_path
from cuesim.sim.roots import INF
from cuesim.sim.state import (
    AX,
    AY,
    LIN,
    ON,
    T0,
    TEND,
    VX,
    VY,
    X,
    Y,
)
from cuesim.sim.work_rows import (
    CC_I,
    CC_J,
    CW_NX,
    CW_NY,
    FW_CROSS_T,
    FW_ROW_T,
    FW_SINGLE_T,
    FW_T_PRED,
    FW_VIEW,
    FW_VIEW_END,
    IW_AFFECTED,
    IW_BUF,
    IW_BUF2,
    IW_CELL,
    IW_CROSS_C,
    IW_IN_CLUSTER,
    IW_NXT,
    IW_PRV,
    IW_ROW_J,
    IW_SEEN,
    IW_SINGLE_C,
    IW_SINGLE_K,
)

SIMULTANEOUS = 1e-12  # s: contacts this close in time are one simultaneous impact

# single-event codes
S_NONE, S_STOP, S_RAIL, S_HOLE, S_LINE, S_CIRCLE, S_KNUCKLE = range(7)


@njit_norc
def single_event(
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
) -> tuple[float, int, int, float]:
    """Earliest single-object event of i after t: (time, code, index, change), change the
    earliest that changes its motion (its segment's end, a rail, knuckle or hole: not a
    sensor)."""
    if S[i, ON] == 0.0 or S[i, TEND] == INF:
        return INF, S_NONE, -1, INF
    tend = S[i, TEND]
    h = tend - t
    best, code, idx = tend, S_STOP, -1
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
        best, code, idx = t + tau, S_RAIL, k
        rch = min(rch, travel_bound(speed, accel, tau))
    tau, k = knuckle_time(px, py, vx, vy, ax, ay, lin, r, rch, h, knuckles)
    if t + tau < best:
        best, code, idx = t + tau, S_KNUCKLE, k
        rch = min(rch, travel_bound(speed, accel, tau))
    tau, k = hole_time(px, py, vx, vy, ax, ay, lin, rch, h, holes)
    if t + tau < best:
        best, code, idx = t + tau, S_HOLE, k
        rch = min(rch, travel_bound(speed, accel, tau))
    change = best
    tau, k = line_time(px, py, vx, vy, ax, ay, rch, h, lines, side_l[i])
    if t + tau < best:
        best, code, idx = t + tau, S_LINE, k
        rch = min(rch, travel_bound(speed, accel, tau))
    tau, k = circle_time(px, py, vx, vy, ax, ay, lin, rch, h, circles, side_c[i])
    if t + tau < best:
        best, code, idx = t + tau, S_CIRCLE, k
    return best, code, idx, change


@njit_norc
def _past(c: float) -> float:
    """Time c plus twice SIMULTANEOUS: a contact the event at c gathers as simultaneous is
    before it."""
    return c + 2.0 * SIMULTANEOUS * max(1.0, c)


@njit_norc
def until(change_t: np.ndarray, i: int, j: int) -> float:
    """The culling horizon of pair (i, j) (`pair_time`): the earlier of their next motion
    changes, when the pair is predicted again, `_past` it so that a contact that event
    gathers as simultaneous is never culled."""
    return _past(min(change_t[i], change_t[j]))


@njit_norc
def horizon_passed(change_before: float, change_now: float) -> bool:
    """Whether a piece's next change of motion, predicted again in the middle of its segment
    (at a sensor crossing, its motion unchanged), now comes after the horizon its pairs were
    culled to (`until`, `_past` its change before). It moves only by round-off, except where
    a grazing contact is found from the segment's start and missed from later on: then its
    pairs must be predicted again, or a contact beyond the old horizon is never found."""
    return change_now > _past(change_before)


# rows of the loop's `view` array (5 x n): each piece's next change of motion, and the box its
# path sweeps from its segment's start to that change (+ until's margin), widened by its
# contact radius, TOUCH and BOX_SPARE
V_CHANGE, V_X0, V_X1, V_Y0, V_Y1 = range(5)
BOX_SPARE = 1e-9  # m: the box's rounding spare (a computed extreme is off by ~1e-16 m)


@njit_norc
def _sweep(p: float, v: float, a: float, t1: float) -> tuple[float, float]:
    """The range of p + v tau + a tau^2 / 2 over [0, t1]."""
    q = p + t1 * (v + 0.5 * t1 * a)
    lo, hi = min(p, q), max(p, q)
    if a != 0.0 and 0.0 < -v / a < t1:
        tv = -v / a
        e = p + tv * (v + 0.5 * tv * a)
        lo, hi = min(lo, e), max(hi, e)
    return lo, hi


@njit_norc
def set_view(S: np.ndarray, P: np.ndarray, i: int, view: np.ndarray) -> None:
    """Piece i's box in `view` (its change of motion, view[V_CHANGE, i], already set): the box
    its path sweeps from its segment's start to its horizon, widened by its contact radius,
    TOUCH and BOX_SPARE. A piece at rest is a point; a moving one with no horizon, the plane."""
    end = min(_past(view[V_CHANGE, i]), S[i, TEND])
    w = contact_radius(S, P, i) + TOUCH + BOX_SPARE
    still = S[i, VX] == 0.0 and S[i, VY] == 0.0 and S[i, AX] == 0.0 and S[i, AY] == 0.0
    if still:
        x0, x1, y0, y1 = S[i, X], S[i, X], S[i, Y], S[i, Y]
    elif end == INF:
        x0, x1, y0, y1 = -INF, INF, -INF, INF
    else:
        t1 = max(end - S[i, T0], 0.0)
        x0, x1 = _sweep(S[i, X], S[i, VX], S[i, AX], t1)
        y0, y1 = _sweep(S[i, Y], S[i, VY], S[i, AY], t1)
    view[V_X0, i], view[V_X1, i] = x0 - w, x1 + w
    view[V_Y0, i], view[V_Y1, i] = y0 - w, y1 + w


@njit_norc
def pair_in_view(S: np.ndarray, P: np.ndarray, i: int, j: int, t: float,
                 view: np.ndarray) -> float:
    """`pair_time` over the pair's horizon, after a look at the two boxes: boxes apart, the
    pieces cannot touch before the horizon, and the pair is culled (INF)."""
    if (view[V_X0, i] > view[V_X1, j] or view[V_X0, j] > view[V_X1, i]
            or view[V_Y0, i] > view[V_Y1, j] or view[V_Y0, j] > view[V_Y1, i]):
        return INF
    return pair_time(S, P, i, j, t, until(view[V_CHANGE], i, j))


@njit_norc
def row_all(pair_t: np.ndarray, single_t: np.ndarray, i: int) -> tuple[float, int]:
    """Object i's earliest event over its whole row, in index order (a single event wins
    ties, then the lowest partner index)."""
    best, bj = single_t[i], -1
    for j in range(pair_t.shape[0]):
        if pair_t[i, j] < best:
            best, bj = pair_t[i, j], j
    return best, bj


@njit_norc
def sooner(v: float, j: int, best: float, bj: int) -> bool:
    """Whether a pair with partner j due at v comes before a row's earliest (best, bj):
    sooner, or as soon with a lower partner index (a single event, bj = -1, wins ties): the
    order of a scan of the row in index order."""
    return v < best or (v == best and bj >= 0 and j < bj)


@njit_norc
def row_min(pair_t: np.ndarray, single_t: np.ndarray, i: int, g: np.ndarray, head: np.ndarray,
            nxt: np.ndarray, cell: np.ndarray, buf: np.ndarray) -> tuple[float, int]:
    """Object i's earliest event: its single event, or its earliest pair among its neighbours
    (the lowest partner index on ties; a single event wins ties), as a scan of its whole row
    in index order gives: every other pair of i is unknown (INF)."""
    if one_cell(g):
        return row_all(pair_t, single_t, i)
    best, bj = single_t[i], -1
    if cell[i] < 0:
        return best, bj
    cnt = neighbours(g, head, nxt, cell[i], i, buf)
    for q in range(cnt):
        j = buf[q]
        v = pair_t[i, j]
        if sooner(v, j, best, bj):
            best, bj = v, j
    return best, bj


@njit_norc
def gather_due(S: np.ndarray, P: np.ndarray, pair_t: np.ndarray, t: float, rails: np.ndarray,
               knuckles: np.ndarray, iw: np.ndarray, fw: np.ndarray, cc: np.ndarray,
               cw: np.ndarray, g: np.ndarray, head: np.ndarray, queue: np.ndarray,
               stack: np.ndarray) -> tuple[int, int]:
    """All contacts due at time t (within SIMULTANEOUS): pairs (ci, cj) and contacts with a
    rail or knuckle (ci, -1 - feature), with their normals (cc, cw: the loop's contact rows),
    and their pieces as seeds (iw's `affected`). Only the objects whose earliest event is due
    now are visited (the queue lists them), each against its neighbours, in index order as a
    scan of the upper triangle of pair_t gives. A standing pin's knocks are resolved on their
    own (resolve.pin, `knocks`). Returns (contacts, seeds). Flags: iw's `in_cluster`, zero
    and zeroed again; scratch: iw's two buffers (sim.work_rows)."""
    seeds, flag, due_now, buf = iw[IW_AFFECTED], iw[IW_IN_CLUSTER], iw[IW_BUF2], iw[IW_BUF]
    nxt, cell = iw[IW_NXT], iw[IW_CELL]
    single_c, single_k = iw[IW_SINGLE_C], iw[IW_SINGLE_K]
    single_t, row_t = fw[FW_SINGLE_T], fw[FW_ROW_T]
    ci, cj, cnx, cny = cc[CC_I], cc[CC_J], cw[CW_NX], cw[CW_NY]
    n_rails = rails.shape[0]
    limit = t + SIMULTANEOUS * max(1.0, t)
    c = 0
    n_due = due(queue, row_t, limit, due_now, stack)
    for q_due in range(n_due):
        a = due_now[q_due]
        code = single_c[a]
        if (code == S_RAIL or code == S_KNUCKLE) and single_t[a] <= limit and c < ci.shape[0]:
            px, py = position(S, a, t)
            k = single_k[a]
            if code == S_RAIL:
                _, nx, ny = segment_contact(px, py, contact_radius(S, P, a), rails[k])
                f = k
            else:
                nx, ny = knuckles[k, 0] - px, knuckles[k, 1] - py
                norm = math.sqrt(nx * nx + ny * ny)
                nx, ny, f = nx / norm, ny / norm, n_rails + k
            ci[c], cj[c], cnx[c], cny[c] = a, -1 - f, nx, ny
            c += 1
        if cell[a] < 0:
            continue
        m = 0
        if one_cell(g):
            for b in range(a + 1, pair_t.shape[0]):
                if pair_t[a, b] <= limit and not knocks(S, P, a, b):
                    buf[m] = b
                    m += 1
        else:
            cnt = neighbours(g, head, nxt, cell[a], a, buf)
            for q in range(cnt):
                b = buf[q]
                if b > a and pair_t[a, b] <= limit and not knocks(S, P, a, b):
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
def predict_all(S: np.ndarray, P: np.ndarray, t: float, n_aff: int, rails: np.ndarray,
                holes: np.ndarray, lines: np.ndarray, circles: np.ndarray, side_l: np.ndarray,
                side_c: np.ndarray, knuckles: np.ndarray, pair_t: np.ndarray, iw: np.ndarray,
                fw: np.ndarray) -> None:
    """After an event, without a grid: predict the affected objects' single events and their
    pairs with every object, and mend every row (a row that pointed into the cluster is scanned
    again, any other lowered by a new pair that comes sooner). A pair of two affected objects
    is predicted once, by the later of the two in `affected` (in_cluster[a] holds a's place,
    from 1), and the affected rows are made in the same pass, as a scan would make them.
    iw, fw: the loop's work rows (sim.work_rows): affected[:n_aff], the single events, rows,
    boxes."""
    affected, in_cluster = iw[IW_AFFECTED], iw[IW_IN_CLUSTER]
    single_c, single_k, row_j = iw[IW_SINGLE_C], iw[IW_SINGLE_K], iw[IW_ROW_J]
    single_t, row_t, view = fw[FW_SINGLE_T], fw[FW_ROW_T], fw[FW_VIEW:FW_VIEW_END]
    n = S.shape[0]
    for m in range(n_aff):
        a = affected[m]
        single_t[a], single_c[a], single_k[a], view[V_CHANGE, a] = single_event(
            S, P, a, t, rails, holes, lines, circles, side_l, side_c, knuckles
        )
        set_view(S, P, a, view)
    for m in range(n_aff):
        in_cluster[affected[m]] = m + 1
    for m in range(n_aff):
        a = affected[m]
        best, bj = single_t[a], -1  # a's row, as row_all scans it
        for k in range(n):
            rank = in_cluster[k]
            if k == a or rank > m + 1:
                continue  # a piece affected later predicts this pair and adds it to a's row
            v = pair_in_view(S, P, a, k, t, view)
            pair_t[a, k] = pair_t[k, a] = v
            if sooner(v, k, best, bj):
                best, bj = v, k
            if rank > 0 and sooner(v, a, row_t[k], row_j[k]):
                row_t[k], row_j[k] = v, a  # affected earlier: its row is made but for this pair
        row_t[a], row_j[a] = best, bj
    for k in range(n):
        if in_cluster[k]:
            continue
        if row_j[k] >= 0 and in_cluster[row_j[k]]:
            row_t[k], row_j[k] = row_all(pair_t, single_t, k)
        else:
            for m in range(n_aff):
                a = affected[m]
                if pair_t[k, a] < row_t[k]:
                    row_t[k], row_j[k] = pair_t[k, a], a
    for m in range(n_aff):
        in_cluster[affected[m]] = 0


@njit_norc
def predict_near(S: np.ndarray, P: np.ndarray, t: float, n_aff: int, rails: np.ndarray,
                 holes: np.ndarray, lines: np.ndarray, circles: np.ndarray, side_l: np.ndarray,
                 side_c: np.ndarray, knuckles: np.ndarray, pair_t: np.ndarray, iw: np.ndarray,
                 fw: np.ndarray, g: np.ndarray, head: np.ndarray, queue: np.ndarray,
                 cross_q: np.ndarray) -> None:
    """`predict_all` on the grid: the affected objects' pairs with their neighbours only (the
    rest stay INF; two affected objects' pair once, and their rows in the same pass, as in
    predict_all), the rows of their neighbours mended, their crossings predicted, and both
    queues mended. iw, fw: the loop's work rows (sim.work_rows), among them the grid's lists
    and two scratch rows."""
    affected, in_cluster, seen = iw[IW_AFFECTED], iw[IW_IN_CLUSTER], iw[IW_SEEN]
    single_c, single_k, row_j, cross_c = iw[IW_SINGLE_C], iw[IW_SINGLE_K], iw[IW_ROW_J], \
        iw[IW_CROSS_C]
    nxt, prv, cell = iw[IW_NXT], iw[IW_PRV], iw[IW_CELL]
    buf, buf2 = iw[IW_BUF], iw[IW_BUF2]
    single_t, row_t, t_pred, cross_t = fw[FW_SINGLE_T], fw[FW_ROW_T], fw[FW_T_PRED], \
        fw[FW_CROSS_T]
    view = fw[FW_VIEW:FW_VIEW_END]
    for m in range(n_aff):
        a = affected[m]
        single_t[a], single_c[a], single_k[a], view[V_CHANGE, a] = single_event(
            S, P, a, t, rails, holes, lines, circles, side_l, side_c, knuckles
        )
        set_view(S, P, a, view)
    for m in range(n_aff):
        in_cluster[affected[m]] = m + 1
    n_rep = 0  # the rows that may have changed: the affected objects' neighbours', in buf2
    for m in range(n_aff):
        a = affected[m]
        t_pred[a] = t
        best, bj = single_t[a], -1  # a's row, as row_min scans it
        cnt = 0 if cell[a] < 0 else neighbours(g, head, nxt, cell[a], a, buf)
        for q in range(cnt):
            k = buf[q]
            rank = in_cluster[k]
            if rank > m + 1:
                continue  # a piece affected later: it predicts this pair and adds it to a's row
            v = pair_in_view(S, P, a, k, t, view)
            pair_t[a, k] = pair_t[k, a] = v
            if sooner(v, k, best, bj):
                best, bj = v, k
            if rank > 0:  # affected earlier: its row is made but for this pair
                if sooner(v, a, row_t[k], row_j[k]):
                    row_t[k], row_j[k] = v, a
            elif seen[k] == 0:
                seen[k] = 1
                buf2[n_rep] = k
                n_rep += 1
        row_t[a], row_j[a] = best, bj
    for r in range(n_rep):
        seen[buf2[r]] = 0
        mend_row(pair_t, iw, fw, n_aff, buf2[r], g, head, queue)
    for m in range(n_aff):
        a = affected[m]
        in_cluster[a] = 0
        update_path(queue, row_t, a)
        if S[a, ON] == 0.0 and cell[a] >= 0:  # pocketed: off the grid
            remove(head, nxt, prv, cell, a)
            cross_t[a] = INF
        elif cell[a] >= 0:
            cross_t[a], cross_c[a] = crossing(S, g, a, cell[a], t)
        update(cross_q, cross_t, a)


@njit_norc
def mend_row(pair_t: np.ndarray, iw: np.ndarray, fw: np.ndarray, n_aff: int, k: int,
             g: np.ndarray, head: np.ndarray, queue: np.ndarray) -> None:
    """Mend row k (not in the cluster) after the affected objects' pairs were predicted
    again: scanned again if its earliest pointed into the cluster, else lowered by a new pair
    that comes sooner. Only k's neighbours' pairs are read: the table's other entries are
    never reset, and hold whatever an earlier shot left there. Scratch: iw's first buffer."""
    affected, in_cluster, row_j = iw[IW_AFFECTED], iw[IW_IN_CLUSTER], iw[IW_ROW_J]
    nxt, cell, buf = iw[IW_NXT], iw[IW_CELL], iw[IW_BUF]
    single_t, row_t = fw[FW_SINGLE_T], fw[FW_ROW_T]
    before = row_t[k]
    if row_j[k] >= 0 and in_cluster[row_j[k]]:
        row_t[k], row_j[k] = row_min(pair_t, single_t, k, g, head, nxt, cell, buf)
    else:
        for m in range(n_aff):
            a = affected[m]
            if pair_t[k, a] < row_t[k] and cell[a] >= 0 and adjacent(g, cell[k], cell[a]):
                row_t[k], row_j[k] = pair_t[k, a], a
    if row_t[k] != before:
        update_path(queue, row_t, k)


@njit_norc
def cross_cell(S: np.ndarray, P: np.ndarray, i: int, g: np.ndarray, head: np.ndarray,
               pair_t: np.ndarray, iw: np.ndarray, fw: np.ndarray, queue: np.ndarray,
               cross_q: np.ndarray) -> None:
    """Move object i into the cell its path enters at cross_t[i]: predict its pairs with its
    new neighbours (from t_pred: the value the all-pairs prediction holds), drop those with
    the pieces no longer next to it from the rows that pointed at them, and mend the rows and
    queues they touch. iw, fw: the loop's work rows (sim.work_rows)."""
    nxt, prv, cell = iw[IW_NXT], iw[IW_PRV], iw[IW_CELL]
    row_j, cross_c, buf, buf2 = iw[IW_ROW_J], iw[IW_CROSS_C], iw[IW_BUF], iw[IW_BUF2]
    single_t, row_t, t_pred, cross_t = fw[FW_SINGLE_T], fw[FW_ROW_T], fw[FW_T_PRED], \
        fw[FW_CROSS_T]
    view = fw[FW_VIEW:FW_VIEW_END]
    t = cross_t[i]
    old, new = cell[i], cross_c[i]
    remove(head, nxt, prv, cell, i)
    insert(head, nxt, prv, cell, i, new)
    best, bj = row_t[i], row_j[i]  # i's row, mended as its pairs change
    cnt = beyond(g, head, nxt, new, old, i, buf)  # the new neighbours
    for q in range(cnt):
        k = buf[q]
        v = pair_in_view(S, P, i, k, max(t_pred[i], t_pred[k]), view)
        pair_t[i, k] = pair_t[k, i] = v
        if sooner(v, i, row_t[k], row_j[k]):
            row_t[k], row_j[k] = v, i
            update_path(queue, row_t, k)
        if sooner(v, k, best, bj):
            best, bj = v, k
    rescan = False
    cnt = beyond(g, head, nxt, old, new, i, buf)  # the pieces no longer next to it: their
    for q in range(cnt):  # entries stay as they are, no longer read (sim.loop)
        k = buf[q]
        rescan = rescan or bj == k
        if row_j[k] == i:
            before = row_t[k]
            row_t[k], row_j[k] = row_min(pair_t, single_t, k, g, head, nxt, cell, buf2)
            if row_t[k] != before:
                update_path(queue, row_t, k)
    if rescan:  # its earliest was with a piece it left
        best, bj = row_min(pair_t, single_t, i, g, head, nxt, cell, buf)
    if best != row_t[i]:
        row_t[i], row_j[i] = best, bj
        update_path(queue, row_t, i)
    row_j[i] = bj
    cross_t[i], cross_c[i] = crossing(S, g, i, new, t)
    update(cross_q, cross_t, i)
