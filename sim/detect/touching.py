"""The touching system of an impact: every piece joined to the impacting pieces by a chain of
contacts, with the rails, jaws and knuckles they touch, by their real extent.

Two pieces are in contact when their gap is no larger than the impact's reach (`impact_reach`:
REACH times the largest compression delta* of its fastest due contact between pieces, never
below TOUCH): a gap smaller than the compression the impact makes is physically touching, and
the contact takes part in the multiple impact from that gap (cw's gap row; 0 within TOUCH). A
farther piece is a later binary impact. A rail is a segment: a piece touches its face when the
foot of its centre lies on the segment (`on_face`, as detect.rails has it) and the distance
is within R + the reach (at most a tenth of its diameter); the contact normal runs from the
centre to the foot. A segment's ends are knuckles or other rails, never contacts of their own:
an end point taken as one doubled the knuckle at every jaw (below). A knuckle is a fixed
circle. Pocketed pieces, standing pins (their knocks are resolved
on their own, resolve.pin) and rocking ones take no part.
Contact k: (ci[k], cj[k]) with cj[k] >= 0 a piece, cj[k] = -1 - rail or -1 - (n_rails + knuckle)
a fixed feature; (nx[k], ny[k]) the unit normal from ci[k] toward the other body.
"""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_norc
from cuesim.sim.detect import REACH, TOUCH
from cuesim.sim.detect.grid import REACH_FRACTION, neighbours, one_cell, sort_small
from cuesim.sim.detect.rails import EXTENT_TOL
from cuesim.sim.motion.dispatch import contact_distance, contact_radius, interacts, knocks
from cuesim.sim.motion.segment import advance, position
from cuesim.sim.resolve.impact_step import contact_time_scale
from cuesim.sim.state import KIND, ON, VX, VY, M, X, Y
from cuesim.sim.work_rows import (
    CC_I,
    CC_J,
    CW_GAP,
    CW_NX,
    CW_NY,
    CW_RHO,
    IW_AFFECTED,
    IW_BUF,
    IW_BUF2,
    IW_CELL,
    IW_IN_CLUSTER,
    IW_NXT,
)

CULL_SPARE = 1e-9  # m: the box cull's rounding spare (a computed distance is off by ~1e-16 m)


@njit_norc
def segment_contact(px: float, py: float, r: float, rail: np.ndarray
                    ) -> tuple[float, float, float]:
    """(gap, nx, ny) of a disc of radius r at p against the rail segment (x0, y0, x1, y1, nx,
    ny, ...): the normal from the centre toward the segment's nearest point. On the face (the
    foot strictly between the ends) that is the rail's own normal, negated, and the gap the
    distance from its line: the nearest point's difference from p carried round-off across
    the rail (a normal of (-1, 9e-16) on a novus rail), which turned a puck running along
    another rail into that rail, and the two mirror images of a shot into a corner apart."""
    x0, y0, x1, y1 = rail[0], rail[1], rail[2], rail[3]
    ex, ey = x1 - x0, y1 - y0
    ll = ex * ex + ey * ey
    s = ((px - x0) * ex + (py - y0) * ey) / ll if ll > 0.0 else 0.0
    if 0.0 < s < 1.0:
        return rail[4] * (px - x0) + rail[5] * (py - y0) - r, -rail[4], -rail[5]
    s = min(max(s, 0.0), 1.0)
    dx, dy = x0 + s * ex - px, y0 + s * ey - py
    d = math.sqrt(dx * dx + dy * dy)
    if d == 0.0:
        return -r, -rail[4], -rail[5]
    return d - r, dx / d, dy / d


@njit_norc
def on_face(px: float, py: float, rail: np.ndarray) -> bool:
    """Whether the foot of p on the rail's line lies on the segment (EXTENT_TOL past an end
    still does): only there does a piece touch the rail's face. Beyond an end the piece meets
    the knuckle or the next rail there; taking the end point as a contact too (the nearest
    point of the segment) put a second and third contact on the same corner: a cue ball
    driven into a pocket's mouth pressed the knuckle 1.3 mm deep and then the two segments'
    ends as well, and came back where the soft reference, which has faces and knuckles only,
    sends it into the pocket."""
    x0, y0, x1, y1 = rail[0], rail[1], rail[2], rail[3]
    ex, ey = x1 - x0, y1 - y0
    length = math.sqrt(ex * ex + ey * ey)
    if length == 0.0:
        return False
    along = ((px - x0) * ex + (py - y0) * ey) / length
    return -EXTENT_TOL <= along <= length + EXTENT_TOL


@njit_norc
def box_apart(px: float, py: float, reach: float, x0: float, y0: float, x1: float,
              y1: float) -> bool:
    """Whether p lies farther than reach from the box spanned by (x0, y0) and (x1, y1) along
    one axis: then every point of the box (a segment between the two, or the point itself)
    is farther than reach from p."""
    return (px < min(x0, x1) - reach or px > max(x0, x1) + reach
            or py < min(y0, y1) - reach or py > max(y0, y1) + reach)


@njit_norc
def _listed(ci: np.ndarray, cj: np.ndarray, n: int, a: int, b: int) -> bool:
    for k in range(n):
        if (ci[k] == a and cj[k] == b) or (ci[k] == b and cj[k] == a):
            return True
    return False


@njit_norc
def _gap(gap: float) -> float:
    """The gap a contact starts its impact from: 0 within TOUCH (touching, or sunk in)."""
    return gap if gap > TOUCH else 0.0


@njit_norc
def _place(S: np.ndarray, flag: np.ndarray, b: int, t: float) -> tuple[float, float]:
    """Piece b's centre at t: a non-member's segment may start earlier than t."""
    if flag[b] == 0:
        return position(S, b, t)
    return S[b, X], S[b, Y]


@njit_norc
def impact_reach(S: np.ndarray, P: np.ndarray, cc: np.ndarray, cw: np.ndarray, n_given: int,
                 stiffness: np.ndarray, exponent: np.ndarray) -> float:
    """REACH delta*: the largest compression of the due contacts k < n_given between two pieces
    (at the impact's time), each as a binary impact at its approach speed v,
    delta* = v contact_time_scale(m_eff, K, eta, v); at least TOUCH. A cushion's rubber gives
    way by millimetres, far beyond the frozen configuration of the impact: a due contact with a
    rail or knuckle reaches only what touches (TOUCH). stiffness/exponent: the laws of kind
    pairs."""
    ci, cj, nx, ny = cc[CC_I], cc[CC_J], cw[CW_NX], cw[CW_NY]
    reach = TOUCH
    for k in range(n_given):
        i, j = ci[k], cj[k]
        if j < 0:
            continue
        v = (S[i, VX] - S[j, VX]) * nx[k] + (S[i, VY] - S[j, VY]) * ny[k]
        if not v > 0.0:
            continue
        ka, kb = int(P[i, KIND]), int(P[j, KIND])
        m_eff = 1.0 / (1.0 / P[i, M] + 1.0 / P[j, M])
        reach = max(reach, REACH * v * contact_time_scale(m_eff, stiffness[ka, kb],
                                                          exponent[ka, kb], v))
    return reach


@njit_norc
def touching_system(S: np.ndarray, P: np.ndarray, t: float, rails: np.ndarray,
                    knuckles: np.ndarray, n_seeds: int, n_given: int, iw: np.ndarray,
                    cc: np.ndarray, cw: np.ndarray, g: np.ndarray, head: np.ndarray,
                    stiffness: np.ndarray, exponent: np.ndarray) -> tuple[int, int]:
    """Grow the system from members[:n_seeds] (iw's `affected`, breadth first) and list its
    contacts (cc, cw: the loop's contact rows, each with its gap) after the n_given contacts
    already listed (the ones detected due now, gap 0, not listed twice). Every member is
    advanced to t. A contact is a gap within the impact's reach (`impact_reach`; for a piece,
    at most REACH_FRACTION of the pair's contact distance, which the grid's neighbours cover;
    for a rail or knuckle, of the piece's diameter).
    The flag row (iw's `in_cluster`) is zero, and zeroed on return. A member's touching pieces
    are among its neighbours on the broadphase grid (g, head and iw's lists: detect.grid),
    taken in index order; iw's two buffers are scratch (sim.work_rows). A rail or knuckle is
    looked at only when p is within its box widened by the reach (`box_apart`).
    Returns (number of members, number of contacts)."""
    members, flag, buf, near = iw[IW_AFFECTED], iw[IW_IN_CLUSTER], iw[IW_BUF], iw[IW_BUF2]
    nxt, cell = iw[IW_NXT], iw[IW_CELL]
    ci, cj, nx, ny, gaps = cc[CC_I], cc[CC_J], cw[CW_NX], cw[CW_NY], cw[CW_GAP]
    rho = cw[CW_RHO]
    n_rails = rails.shape[0]
    cap = ci.shape[0]
    count = n_seeds
    for m in range(n_seeds):
        flag[members[m]] = 1  # 1: a member, 2: a member whose contacts are listed
        advance(S, P, members[m], t)
    for k in range(n_given):
        gaps[k] = rho[k] = 0.0
    reach = impact_reach(S, P, cc, cw, n_given, stiffness, exponent)
    n_c = n_given
    front = 0
    while front < count:
        a = members[front]
        front += 1
        flag[a] = 2
        ax, ay, ra = S[a, X], S[a, Y], contact_radius(S, P, a)
        one = one_cell(g)
        cnt = 0
        if cell[a] >= 0:
            cnt = S.shape[0] if one else neighbours(g, head, nxt, cell[a], a, buf)
        n_near = 0
        for q in range(cnt):
            b = q if one else buf[q]
            if flag[b] == 2 or S[b, ON] == 0.0 or not interacts(S, P, a, b) \
                    or knocks(S, P, a, b):
                continue
            bx, by = _place(S, flag, b, t)
            dx, dy = bx - ax, by - ay
            d = math.sqrt(dx * dx + dy * dy)
            d_c = contact_distance(P, a, b)
            if d - d_c > min(reach, REACH_FRACTION * d_c) or d == 0.0:
                continue
            near[n_near] = b
            n_near += 1
        if not one:
            sort_small(near, n_near)
        for q in range(n_near):
            b = near[q]
            bx, by = _place(S, flag, b, t)
            dx, dy = bx - ax, by - ay
            d = math.sqrt(dx * dx + dy * dy)
            if n_c >= cap:
                continue
            if flag[b] == 0:
                advance(S, P, b, t)
                flag[b] = 1
                members[count] = b
                count += 1
            if not _listed(ci, cj, n_given, a, b):
                ci[n_c], cj[n_c], nx[n_c], ny[n_c] = a, b, dx / d, dy / d
                rho[n_c] = contact_distance(P, a, b)
                gaps[n_c] = _gap(d - rho[n_c])
                n_c += 1
        reach_a = min(reach, REACH_FRACTION * 2.0 * ra)  # as to a piece of its own size
        far = ra + reach_a + CULL_SPARE  # a feature farther than this is not touching
        for k in range(n_rails):
            if box_apart(ax, ay, far, rails[k, 0], rails[k, 1], rails[k, 2], rails[k, 3]):
                continue
            if not on_face(ax, ay, rails[k]):
                continue
            gap, cx, cy = segment_contact(ax, ay, ra, rails[k])
            if gap <= reach_a and n_c < cap and not _listed(ci, cj, n_given, a, -1 - k):
                ci[n_c], cj[n_c], nx[n_c], ny[n_c], gaps[n_c] = a, -1 - k, cx, cy, _gap(gap)
                rho[n_c] = 0.0  # flat
                n_c += 1
        for k in range(knuckles.shape[0]):
            kx, ky = knuckles[k, 0], knuckles[k, 1]
            if box_apart(ax, ay, far + knuckles[k, 2], kx, ky, kx, ky):
                continue
            dx, dy = kx - ax, ky - ay
            d = math.sqrt(dx * dx + dy * dy)
            f = -1 - n_rails - k
            gap = d - ra - knuckles[k, 2]
            if gap <= reach_a and d > 0.0 and n_c < cap and not _listed(ci, cj, n_given, a, f):
                ci[n_c], cj[n_c], nx[n_c], ny[n_c], gaps[n_c] = a, f, dx / d, dy / d, _gap(gap)
                rho[n_c] = ra + knuckles[k, 2]
                n_c += 1
    for m in range(count):
        flag[members[m]] = 0
    return count, n_c
