"""Whether a slow contact presses, and whether its pieces slide apart: the tests the joins
(resolve.cluster) and the sliding pairs' bounces (resolve.sliding_pair) share, with the
union-find root of their groups."""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_norc
from cuesim.sim.detect import V_TOUCH
from cuesim.sim.motion.dispatch import contact_distance
from cuesim.sim.state import AX, AY, TEND, VX, VY, M

# the least share of a relative acceleration along a contact's normal that presses: a piece
# rolling or sliding along a rail it touches accelerates parallel to it, and the last bits of
# its velocity's direction decided whether that contact pressed (plastic in the next impact)
# or not (the rail's restitution): a cue ball with side spin running along the cushion it
# touches into a ball ahead rested 17 mm apart aimed exactly along it or 1e-14 m/s into it
# (tests/test_round_off_symmetry.py). 10x either way changes nothing visible there.
PRESS_SHARE = 1e-9


@njit_norc
def pressing(S: np.ndarray, i: int, j: int, nx: float, ny: float) -> bool:
    """Whether the current segments of i and j (or a fixed body, j < 0) accelerate into each
    other along n (from i toward j): (a_i - a_j) . n > PRESS_SHARE (|a_i,x| + |a_i,y| + |a_j,x|
    + |a_j,y|), so that an acceleration along the contact (a piece running along a rail) never
    presses by its round-off. The floor scales with the pieces' own accelerations, not with
    their difference: a_i - a_j cancels, and its round-off is that of a_i and a_j. Two balls of
    a row sliding alike (3 m/s^2 each, 8e-9 m/s^2 apart, across the contact) pressed at
    -8.6e-16 m/s^2 in one mirror image and +5.2e-16 in the other, over a floor of 8e-18: joined
    to the row in one and struck by it at 1.7 mm/s in the other, the images resting 0.8 mm
    apart (bench/tunnels.py 9-ball 8800006, random physics)."""
    ajx, ajy = (S[j, AX], S[j, AY]) if j >= 0 else (0.0, 0.0)
    ax, ay = S[i, AX] - ajx, S[i, AY] - ajy
    return ax * nx + ay * ny > PRESS_SHARE * (abs(S[i, AX]) + abs(S[i, AY]) + abs(ajx)
                                              + abs(ajy))


# a sliding pair parts when v_t^2 > rs (a_i - a_j) . n; twice that keeps the gap's second
# derivative at v_t^2 / 2 or more, so detection sees it open (a margin: 1.01 gives the same
# outcomes on 720 sampled shots, 20 moves one of them, a nanosecond cascade, by 30 mm)
SLIDE_MARGIN = 2.0


@njit_norc
def sliding_apart(S: np.ndarray, P: np.ndarray, i: int, j: int, nx: float, ny: float,
                  v_stick: float) -> bool:
    """Whether two touching pieces slide past each other fast enough that the contact opens
    whatever their accelerations press: with no normal velocity the gap's second derivative is
    v_t^2 / (R_i + R_j) - (a_i - a_j) . n (the relative path bends away from the circle of
    contact); with v_t^2 > SLIDE_MARGIN (R_i + R_j) (a_i - a_j) . n and v_t > v_stick the
    pieces part at once (detection finds no pressed contact) and do not meet again at this
    instant. Such a pair is not joined: joining would take away its sliding too (a striker
    grazing a puck at 3 m/s carried it 25 cm; a puck leaving a rail along its neighbours took
    them with it as a block). Slower sliding joins as before, losing at most m v_stick^2 / 2
    with it. A fixed body (j < 0) is straight."""
    if j < 0:
        return False
    dvx, dvy = S[j, VX] - S[i, VX], S[j, VY] - S[i, VY]
    vn = dvx * nx + dvy * ny
    vt2 = dvx * dvx + dvy * dvy - vn * vn
    press = (S[i, AX] - S[j, AX]) * nx + (S[i, AY] - S[j, AY]) * ny
    rs = contact_distance(P, i, j)
    return vt2 > v_stick * v_stick and vt2 > SLIDE_MARGIN * rs * press


@njit_norc
def gap_motion(S: np.ndarray, P: np.ndarray, i: int, j: int, nx: float,
               ny: float) -> tuple[float, float]:
    """(s, c) of two touching pieces' gap g(tau) = s tau - c tau^2 / 2 under their present
    motion laws: s the normal velocity (> 0 parting), c = (a_i - a_j) . n - v_t^2 / (R_i + R_j)
    (their press less the relative path's bend away from the circle of contact)."""
    dvx, dvy = S[j, VX] - S[i, VX], S[j, VY] - S[i, VY]
    s = dvx * nx + dvy * ny
    vt2 = max(dvx * dvx + dvy * dvy - s * s, 0.0)
    c = (S[i, AX] - S[j, AX]) * nx + (S[i, AY] - S[j, AY]) * ny - vt2 / contact_distance(P, i, j)
    return s, c


@njit_norc
def parting_for_good(S: np.ndarray, P: np.ndarray, i: int, j: int, nx: float, ny: float,
                     t: float) -> bool:
    """Whether two touching pieces (j >= 0) that part (normal velocity s > 0 from each other)
    stay apart under their present motion laws: their gap
      g(tau) = s tau + (v_t^2 / (R_i + R_j) - (a_i - a_j) . n) tau^2 / 2
    (the relative path against the circle of contact) is 0 again only at
    tau = 2 s / ((a_i - a_j) . n - v_t^2 / (R_i + R_j)), and not if a segment ends first (a
    piece decelerates to rest, or rolls: its friction stops pressing). A nearly stopped group
    whose friction points at a puck sliding past it never meets that puck again; joining them
    would give the puck's sliding to the group (a puck leaving a rail beside a row of touching
    pucks took four of them with it, 17.8 mm shared as 0.71 mm each, as soon as the touch
    tolerance let the row's impact see it). A normal speed under V_TOUCH is resting (as
    detection has it, detect.pairs._pressing): not parting, whatever its round-off sign, and
    whether the pair slides apart is `sliding_apart`'s to say."""
    s, close = gap_motion(S, P, i, j, nx, ny)
    if s <= V_TOUCH:  # not parting (a resting normal speed's sign is round-off's)
        return False
    if close <= 0.0:
        return True
    return t + 2.0 * s / close > min(S[i, TEND], S[j, TEND])


@njit_norc
def comes_back(S: np.ndarray, P: np.ndarray, i: int, j: int, nx: float, ny: float, v0: float,
               e: float, t: float) -> bool:
    """Whether a pair (j >= 0) closing at v0 > 0, bounced with restitution e, is brought back
    by its motion laws before they end: it parts at s = e v0, and its gap (`parting_for_good`)
    closes again after tau = 2 s / c (`gap_motion`). If so it would go
    on bouncing, ever smaller (an inelastic collapse) or, at e = 1, for as long as the press
    lasts: a persistent contact, perfectly inelastic here. If not, its press ends first and
    the pair parts for good, as it would under any v_stick below its speed (two sliding balls
    meeting at 3 mm/s, their slips pressing them together for 0.3 ms: joined, they rested
    touching, where a smaller v_stick left them 10 um apart and a later impact on the pair
    38 mm elsewhere). Through a persistent contact the pair moves as one, so its laws end about
    when its joined motion's would: at the mass-weighted mean of the two segments' ends
    (exactly so for two pieces braking alike to rest; between the two in general)."""
    if e <= 0.0:
        return True
    close = gap_motion(S, P, i, j, nx, ny)[1]
    if close <= 0.0:
        return False
    mi, mj = P[i, M], P[j, M]
    return t + 2.0 * e * v0 / close <= (mi * S[i, TEND] + mj * S[j, TEND]) / (mi + mj)


@njit_norc
def find_root(parent: np.ndarray, a: int) -> int:
    while parent[a] != a:
        parent[a] = parent[parent[a]]
        a = parent[a]
    return a


@njit_norc
def tangential_speed(S: np.ndarray, i: int, j: int, nx: float, ny: float) -> float:
    """|v_t|: how fast pieces i and j slide past each other across the normal n."""
    dvx, dvy = S[j, VX] - S[i, VX], S[j, VY] - S[i, VY]
    vn = dvx * nx + dvy * ny
    return math.sqrt(max(dvx * dvx + dvy * dvy - vn * vn, 0.0))
