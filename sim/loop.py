"""The compiled event loop: pick the earliest event, advance the objects it touches, resolve,
predict again only for them, repeat until everything rests.

The state it keeps: pair_t[i, j], the next contact time of every known pair; single_t[i], the
next single-object event (stop, rail, hole, sensor); view[:, i], the next that changes its
motion (not a sensor: the horizon of its pairs' culling) and the box its path sweeps until
then (predict.set_view); row_t[i] / row_j[i], the earliest of
object i's row (row_j = -1 for a single event); the broadphase grid's cell lists and each
piece's next cell crossing (detect.grid); and two event queues (sim.queue), one for events and
one for crossings. How an event or a crossing changes the predictions is in sim.predict.
"""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_core, njit_norc
from cuesim.sim.detect.grid import (
    G_NX,
    G_NY,
    auto_grid,
    cell_at,
    crossing,
    insert,
    neighbours,
)
from cuesim.sim.detect.touching import touching_system
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
from cuesim.sim.motion.dispatch import knocks, on_base, start_segment
from cuesim.sim.motion.segment import advance, velocity
from cuesim.sim.predict import (
    S_HOLE,
    S_KNUCKLE,
    S_LINE,
    S_RAIL,
    S_STOP,
    V_CHANGE,
    cross_cell,
    gather_due,
    horizon_passed,
    pair_in_view,
    predict_all,
    predict_near,
    row_min,
    set_view,
    single_event,
)
from cuesim.sim.queue import build, earliest, tree_length, update_path
from cuesim.sim.resolve.impact import N_FLOAT_ROWS, N_INT_ROWS, resolve_impact
from cuesim.sim.resolve.pin import knock_pin, pin_clear_time, second_pass, tilts
from cuesim.sim.roots import INF
from cuesim.sim.state import (
    AX,
    AY,
    KIND,
    LAW,
    LAW_BALL,
    LAW_PIN,
    MST,
    NS,
    ON,
    PBY,
    PEND,
    PIN_DOWN,
    PIN_LEANS,
    PIN_MOVED,
    PIN_THROWN,
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
    VX,
    VY,
    W0,
    WX,
    WY,
    X,
    Y,
)
from cuesim.sim.work_rows import (
    CC_I,
    CC_J,
    CW_IMPULSE,
    CW_PUSHED,
    CW_VPEAK,
    FW_CROSS_T,
    FW_ROW_T,
    FW_SINGLE_T,
    FW_T_PRED,
    FW_VIEW,
    FW_VIEW_END,
    IW_AFFECTED,
    IW_BUF,
    IW_CELL,
    IW_CROSS_C,
    IW_IN_CLUSTER,
    IW_NXT,
    IW_PARENT,
    IW_PRV,
    IW_ROW_J,
    IW_SEEN,
    IW_SEG_OPEN,
    IW_SINGLE_C,
    IW_SINGLE_K,
    N_CC_ROWS,
    N_CW_ROWS,
    N_FW_ROWS,
    N_IW_ROWS,
)

STATUS_DONE = 0
STATUS_FULL = 1  # the event or segment buffer is full: run again with larger buffers
STATUS_RUNAWAY = 2  # max_events reached, or a multiple impact unfinished at its step bound



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
    `event` (-1: by none, as a piece's first segment, or by an impact that logged no event);
    returns the new segment count."""
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


@njit_norc
def _second_passes(S: np.ndarray, P: np.ndarray, t: float, affected: np.ndarray, n_aff: int,
                   e_pair: np.ndarray, ev: np.ndarray, n_ev: int) -> tuple[int, int]:
    """After an impact: each touched pin (rocking or leaning) that lets one of the affected
    pieces pass judges that piece's new motion (`second_pass`); one that goes into it knocks
    it over (felled, as a second blow: a PIN event). Returns (n_ev, n_aff), the felled pins
    added to the affected pieces."""
    n = S.shape[0]
    n_first = n_aff
    for m in range(n_first):
        k = affected[m]
        for q in range(n):
            if P[q, LAW] != LAW_PIN or S[q, PBY] != k + 1.0 or not (
                    S[q, MST] == PIN_MOVED or S[q, MST] == PIN_LEANS):
                continue
            advance(S, P, q, t)
            if second_pass(S, P, q, k, t):
                vn, _ = knock_pin(S, P, k, q, e_pair[int(P[k, KIND]), int(P[q, KIND])], t)
                n_ev = _log(ev, n_ev, t, EV_PIN, k, q, -1, vn, 0.0)
                affected[n_aff] = q
                n_aff += 1
    return n_ev, n_aff


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
    model_params: np.ndarray,
    stiffness: np.ndarray,
    exponent: np.ndarray,
) -> tuple[int, int, int]:
    """Simulate until all objects rest. S is updated in place to the final state; events and
    segments are written to ev and seg. model_params: the ball-ball friction fit (a, b, c), the
    cushion nose height and the multiple impact's resolution (sim.state MP_*); stiffness,
    exponent: the contact compliance laws (resolve.impact).
    Returns (n_events, n_segments, status). The broadphase grid is the one `auto_grid` picks
    (`run_events_grid` takes any; the result is the same)."""
    g = auto_grid(S, P, rails)
    n_cells = int(g[G_NX]) * int(g[G_NY])
    grids, ints, bools = work_arrays(S.shape[0], lines.shape[0], circles.shape[0], n_cells,
                                     tree_length(S.shape[0], n_cells == 1))
    return run_events_grid(S, P, rails, holes, lines, circles, e_pair, mu_pair, e_rail,
                           mu_rail, v_stick, struck, max_events, ev, seg, knuckles, model_params,
                           stiffness, exponent, g, grids, ints, bools)


STACK = 2 * 64 + 2  # the queue's `due` stack: 2 log2(n) + 2 for any n below 2^64


@njit_core
def work_arrays(n: int, n_lines: int, n_circles: int, n_cells: int, n_tree: int) -> tuple[
        tuple[np.ndarray, ...], np.ndarray, np.ndarray]:
    """The work arrays of `run_events_grid` for n objects, the sensor lines and circles, on a
    grid of n_cells cells whose queues are n_tree long (`queue.tree_length`): its nine 2-D
    arrays, the grid's and queues' int row, the impact's bool row (contents unset). The
    engine calls the Python function (and tree_length's) and keeps them."""
    max_c = 8 * n + 8
    grids = (np.empty((N_IW_ROWS, n), np.int64), np.empty((N_INT_ROWS, 2 * max_c), np.int64),
             np.empty((N_CC_ROWS, max_c), np.int64), np.empty((N_FW_ROWS, n)),
             np.empty((N_CW_ROWS, max_c)),
             np.empty((N_FLOAT_ROWS, max(max_c, NS))), np.empty((n, n_lines)),
             np.empty((n, n_circles)), np.empty((n, n)))
    ints = np.empty(n_cells + STACK + 2 * n_tree, np.int64)
    return grids, ints, np.empty(max_c, np.bool_)


@njit_norc
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
    model_params: np.ndarray,
    stiffness: np.ndarray,
    exponent: np.ndarray,
    g: np.ndarray,
    grids: tuple[np.ndarray, ...],
    ints: np.ndarray,
    bools: np.ndarray,
) -> tuple[int, int, int]:
    """`run_events` on the broadphase grid g (detect.grid: one cell is no broadphase), with
    the work arrays `work_arrays` makes (their contents do not matter). It allocates nothing:
    a fresh process loading compiled code that allocates imports numba's array module
    (70 ms), and the engine keeps the arrays from shot to shot.

    Only neighbours' pairs are predicted, and only their entries of pair_t are ever read: the
    others hold whatever an earlier shot left (the table is not reset, an O(N^2) fill; a test
    fills it with garbage first). A pair becomes neighbours when one of them crosses into a
    cell next to the other's: its contact time is then predicted as it was when the later of
    the two last changed its motion (t_pred), from the same segments, so it is the value an
    all-pairs prediction would hold. With no grid every pair is predicted at the start."""
    n = S.shape[0]
    n_ev, n_seg = 0, 0
    cap_ev, cap_seg = ev.shape[0], seg.shape[0]
    if cap_seg < n or cap_ev < 1:
        return 0, 0, STATUS_FULL
    max_c = 8 * n + 8
    n_cells = int(g[G_NX]) * int(g[G_NY])
    one = n_cells == 1  # no grid: the loops run over every object, in index order
    n_tree = tree_length(n, one)
    iw, iwork, cc, fw, cw, work, side_l, side_c, pair_t = grids
    head = ints[:n_cells]
    stack = ints[n_cells:n_cells + STACK]
    queue = ints[n_cells + STACK:n_cells + STACK + n_tree]  # the earliest event of each object
    cross_q = ints[n_cells + STACK + n_tree:n_cells + STACK + 2 * n_tree]  # the earliest crossing
    slow = bools[:max_c]
    for r in range(N_IW_ROWS):
        for k in range(n):
            iw[r, k] = -1
    for k in range(n_cells):
        head[k] = -1
    for k in range(n_tree):
        queue[k] = -1
        cross_q[k] = -1
    for r in range(N_FW_ROWS):
        for k in range(n):
            fw[r, k] = INF
    for r in range(N_CW_ROWS):
        for k in range(max_c):
            cw[r, k] = 0.0
    for k in range(max_c):
        slow[k] = False
    for i in range(n):
        for k in range(lines.shape[0]):
            side_l[i, k] = 1.0
        for k in range(circles.shape[0]):
            side_c[i, k] = 1.0
        pair_t[i, i] = INF  # no grid: a row's scan reads it; every other pair is made below
    seg_open, single_c, single_k = iw[IW_SEG_OPEN], iw[IW_SINGLE_C], iw[IW_SINGLE_K]
    row_j, cross_c = iw[IW_ROW_J], iw[IW_CROSS_C]
    nxt, prv, cell, buf = iw[IW_NXT], iw[IW_PRV], iw[IW_CELL], iw[IW_BUF]
    affected, in_cluster, seen = iw[IW_AFFECTED], iw[IW_IN_CLUSTER], iw[IW_SEEN]
    parent = iw[IW_PARENT]
    single_t, row_t, t_pred, cross_t = fw[FW_SINGLE_T], fw[FW_ROW_T], fw[FW_T_PRED], \
        fw[FW_CROSS_T]
    view = fw[FW_VIEW:FW_VIEW_END]  # each piece's next change of motion and its path's box
    # (predict.set_view)
    change_t = view[V_CHANGE]
    impulse, vpeak, pushed = cw[CW_IMPULSE], cw[CW_VPEAK], cw[CW_PUSHED]
    ci, cj = cc[CC_I], cc[CC_J]
    for i in range(n):
        single_c[i] = 0
        in_cluster[i] = 0
        seen[i] = 0
        parent[i] = i  # resolve_impact's work arrays: parent[a] = a, label[a] = -1
        t_pred[i] = 0.0  # when each object's predictions were last made
    has_pins = False  # 5-pins: a stop may fell a touched pin (the scan below skips the rest)
    for i in range(n):
        if P[i, LAW] == LAW_PIN:
            has_pins = True
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
    for i in range(n):
        if S[i, ON] != 0.0:
            insert(head, nxt, prv, cell, i, cell_at(g, S[i, X], S[i, Y]))

    for i in range(n):
        single_t[i], single_c[i], single_k[i], change_t[i] = single_event(
            S, P, i, 0.0, rails, holes, lines, circles, side_l, side_c, knuckles
        )
        set_view(S, P, i, view)
    for i in range(n):
        if one:
            for j in range(i + 1, n):
                pair_t[i, j] = pair_t[j, i] = pair_in_view(S, P, i, j, 0.0, view)
            continue
        if cell[i] < 0:
            continue
        cnt = neighbours(g, head, nxt, cell[i], i, buf)
        for q in range(cnt):
            j = buf[q]
            if j > i:
                pair_t[i, j] = pair_t[j, i] = pair_in_view(S, P, i, j, 0.0, view)
        cross_t[i], cross_c[i] = crossing(S, g, i, cell[i], 0.0)
    for i in range(n):
        row_t[i], row_j[i] = row_min(pair_t, single_t, i, g, head, nxt, cell, buf)
    build(queue, row_t)
    build(cross_q, cross_t)

    status = STATUS_DONE
    unfinished_impact = False
    idle, n_ev_before = 0, n_ev
    while True:
        i = earliest(queue, row_t)
        t = row_t[i]
        c_i = -1 if one else cross_q[1]
        if c_i >= 0 and cross_t[c_i] <= t and cross_t[c_i] < INF:
            # a cell crossing first: no event, only new neighbours
            cross_cell(S, P, c_i, g, head, pair_t, iw, fw, queue, cross_q)
            continue
        if t == INF:
            break
        idle = idle + 1 if n_ev == n_ev_before else 0
        n_ev_before = n_ev
        # events, passes that change nothing, or a multiple impact at its step bound
        if n_ev >= max_events or idle > 4 * n + 64 or unfinished_impact:
            status = STATUS_RUNAWAY
            break
        if n_ev + max_c + 1 > cap_ev or n_seg + n > cap_seg:
            status = STATUS_FULL
            break
        j = row_j[i]
        n_aff = 1
        affected[0] = i
        moved = True
        quiet = False  # the affected pieces' motions go on: no new segments
        pin_pair = j >= 0 and knocks(S, P, i, j)
        contact = (j >= 0 and not pin_pair) or (
            j < 0 and (single_c[i] == S_RAIL or single_c[i] == S_KNUCKLE))
        if contact:
            n_given, n_seed = gather_due(S, P, pair_t, t, rails, knuckles, iw, fw, cc, cw, g,
                                         head, queue, stack)
            n_aff, n_c = touching_system(S, P, t, rails, knuckles, n_seed, n_given, iw, cc, cw,
                                         g, head, stiffness, exponent)
            if not resolve_impact(S, P, t, cc, cw, n_c, n_given, iw, n_aff, e_pair, mu_pair,
                                  e_rail, mu_rail, stiffness, exponent, v_stick, model_params,
                                  work, iwork, slow):
                unfinished_impact = True  # the shot stops as truncated at the next event
            for m in range(n_c):  # pairs first: a group with a rail ends on a RAIL event;
                # a pair that took a resting piece along with no impulse (a join, or a sliding
                # contact's bounce: resolve.sliding_pair) logs too
                if cj[m] >= 0 and (impulse[m] > 0.0 or pushed[m] > 0.0):
                    n_ev = _log(ev, n_ev, t, EV_COLLIDE, ci[m], cj[m], -1, vpeak[m], 0.0)
            for m in range(n_c):
                if cj[m] < 0 and impulse[m] > 0.0:
                    n_ev = _log(ev, n_ev, t, EV_RAIL, ci[m], -1, -1 - cj[m], vpeak[m], 0.0)
            if has_pins:  # a piece let pass a touched pin, turned by this impact
                n_ev, n_aff = _second_passes(S, P, t, affected, n_aff, e_pair, ev, n_ev)
        elif pin_pair:  # a pin on its base touched: felled (PIN) or moved standing (COLLIDE)
            advance(S, P, i, t)
            advance(S, P, j, t)
            ki, kj = int(P[i, KIND]), int(P[j, KIND])
            pin, knocker = (i, j) if on_base(S, P, i) else (j, i)
            vn, felled = knock_pin(S, P, knocker, pin, e_pair[ki, kj], t)
            kind = EV_PIN if felled else EV_COLLIDE
            n_ev = _log(ev, n_ev, t, kind, knocker, pin, -1, vn, 0.0)
            affected[1] = j
            n_aff = 2
        else:
            code, k = single_c[i], single_k[i]
            if code == S_STOP and S[i, MST] == SLIDING and P[i, LAW] == LAW_BALL:
                advance(S, P, i, t)  # the slip has vanished: the ball rolls on
                n_ev = _log(ev, n_ev, t, EV_ROLL, i, -1, -1, 0.0, 0.0)
            elif code == S_STOP:
                advance(S, P, i, t)
                S[i, VX] = 0.0
                S[i, VY] = 0.0
                S[i, WX] = 0.0
                S[i, WY] = 0.0
                leaning = P[i, LAW] == LAW_PIN and S[i, MST] == PIN_LEANS
                thrown = P[i, LAW] == LAW_PIN and S[i, MST] == PIN_THROWN
                rester = -1
                if P[i, LAW] == LAW_PIN and (S[i, MST] == PIN_MOVED or leaning):
                    # a touched pin stands unless a piece is still inside its contact circle
                    t_clear, rester = pin_clear_time(S, P, i, t)
                    if rester >= 0:  # one at rest there: the pin lies down (12.6)
                        S[i, MST] = PIN_DOWN
                        S[i, PEND] = 0.0
                    elif t_clear > t:  # it leans on the passing piece until then
                        S[i, MST] = PIN_LEANS
                        S[i, PEND] = t_clear
                    else:
                        S[i, MST] = PIN_DOWN  # start_segment stands it (PEND > 0)
                elif P[i, LAW] == LAW_PIN:
                    S[i, MST] = PIN_DOWN
                if rester >= 0:
                    n_ev = _log(ev, n_ev, t, EV_PIN, rester, i, -1, 0.0, 0.0)
                elif leaning:
                    quiet = True  # a leaning pin stands or leans on at rest: no motion changes
                else:
                    n_ev = _log(ev, n_ev, t, EV_STOP, i, -1, -1, 0.0, 0.0)
                if has_pins and (P[i, LAW] == LAW_BALL or thrown):
                    # a piece coming to rest inside a touched pin's circle fells it (12.6)
                    for q in range(n):
                        if P[q, LAW] == LAW_PIN and (S[q, MST] == PIN_MOVED
                                                     or S[q, MST] == PIN_LEANS) \
                                and tilts(S, P, q, i, t):
                            advance(S, P, q, t)
                            S[q, VX] = 0.0
                            S[q, VY] = 0.0
                            S[q, MST] = PIN_DOWN
                            S[q, PEND] = 0.0
                            n_ev = _log(ev, n_ev, t, EV_PIN, i, q, -1, 0.0, 0.0)
                            affected[n_aff] = q
                            n_aff += 1
            elif code == S_HOLE:
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
                if code == S_LINE:
                    side_l[i, k] = -side_l[i, k]
                    n_ev = _log(ev, n_ev, t, EV_LINE, i, -1, k, speed, side_l[i, k])
                else:
                    side_c[i, k] = -side_c[i, k]
                    n_ev = _log(ev, n_ev, t, EV_CIRCLE, i, -1, k, speed, -side_c[i, k])

        if not moved:
            before = change_t[i]
            single_t[i], single_c[i], single_k[i], change_t[i] = single_event(
                S, P, i, t, rails, holes, lines, circles, side_l, side_c, knuckles
            )
            if not horizon_passed(before, change_t[i]):
                set_view(S, P, i, view)
                row_t[i], row_j[i] = row_min(pair_t, single_t, i, g, head, nxt, cell, buf)
                update_path(queue, row_t, i)
                continue
            # its pairs were culled to the earlier horizon: predicted again below, its segment
            # going on (a ball rolling along a cushion past a side pocket grazed the far jaw's
            # knuckle from the segment's start and missed it from the head string on, and ran
            # through a ball resting on that cushion: bench/tunnels.py 14.1 seed 600453,
            # random physics)
        else:
            for m in range(n_aff):
                a = affected[m]
                start_segment(S, P, a, t)
                if not quiet:  # -1: an impact that logged nothing (a slow pressing contact
                    # joined without an impulse, resolve.cluster) opens it, not the last event
                    n_seg = _open_segment(S, P, a, t, seg, n_seg, seg_open,
                                          n_ev - 1 if n_ev > n_ev_before else -1)
        if one:
            predict_all(S, P, t, n_aff, rails, holes, lines, circles, side_l, side_c, knuckles,
                        pair_t, iw, fw)
        else:
            predict_near(S, P, t, n_aff, rails, holes, lines, circles, side_l, side_c, knuckles,
                         pair_t, iw, fw, g, head, queue, cross_q)
    if unfinished_impact and status == STATUS_DONE:  # the unfinished impact was the last event
        status = STATUS_RUNAWAY
    return n_ev, n_seg, status

