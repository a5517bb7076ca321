"""The place that selects each object's motion law."""

from __future__ import annotations

import numpy as np

from cuesim.sim.compiled import njit_norc
from cuesim.sim.motion.ball import start_ball_segment
from cuesim.sim.motion.disc import start_disc_segment
from cuesim.sim.state import (
    LAW,
    LAW_BALL,
    LAW_PIN,
    MST,
    PEND,
    PIN_DOWN,
    PIN_LEANS,
    PIN_MOVED,
    PIN_THROWN,
    R2,
    REST,
    TEND,
    VX,
    VY,
    R,
)


@njit_norc
def start_segment(S: np.ndarray, P: np.ndarray, i: int, t: float) -> None:
    """Open object i's next polynomial segment at time t under its own motion law."""
    if P[i, LAW] == LAW_BALL:
        start_ball_segment(S, P, i, t)
        return
    if P[i, LAW] == LAW_PIN and S[i, PEND] > 0.0 and S[i, MST] == PIN_DOWN:
        S[i, MST] = REST  # a touched pin came to rest on its base: it stands again (12.4)
        S[i, PEND] = 0.0
    elif P[i, LAW] == LAW_PIN and S[i, MST] == PIN_DOWN and (S[i, VX] != 0.0
                                                             or S[i, VY] != 0.0):
        S[i, MST] = PIN_THROWN  # a lying pin set sliding by an impact
    elif P[i, LAW] == LAW_PIN and S[i, MST] == PIN_THROWN and S[i, VX] == 0.0 \
            and S[i, VY] == 0.0:
        S[i, MST] = PIN_DOWN  # a thrown pin stopped dead by an impact lies where it is
    # discs, and pins (at rest unless thrown or moved: then they slide like discs)
    start_disc_segment(S, P, i, t)
    if P[i, LAW] == LAW_PIN and (S[i, MST] == PIN_MOVED or S[i, MST] == PIN_LEANS):
        S[i, TEND] = S[i, PEND]  # a touched pin rocks (and slides), or leans, until then


@njit_norc
def interacts(S: np.ndarray, P: np.ndarray, i: int, j: int) -> bool:
    """Whether i and j can touch: balls and discs always. A standing pin (REST) is touched by
    a ball or a thrown pin (`knocks`); thrown and lying pins touch each other, and balls pass
    over them (a 1 g pin under a 210 g ball: the ball rides over or brushes it aside, unslowed);
    a touched pin rocking on its base (PIN_MOVED) or leaning on a piece inside its circle
    (PIN_LEANS) touches nothing until it stands again."""
    li, lj = P[i, LAW], P[j, LAW]
    if li != LAW_PIN and lj != LAW_PIN:
        return True
    if li == LAW_PIN and lj == LAW_PIN:
        si, sj = S[i, MST], S[j, MST]
        if si == PIN_MOVED or sj == PIN_MOVED or si == PIN_LEANS or sj == PIN_LEANS:
            return False
        if si == REST or sj == REST:  # a standing pin: only a thrown one knocks it
            return si == PIN_THROWN or sj == PIN_THROWN
        return True
    pin = i if li == LAW_PIN else j
    return S[pin, MST] == REST


@njit_norc
def knocks(S: np.ndarray, P: np.ndarray, i: int, j: int) -> bool:
    """Whether the contact of i and j touches a standing pin (resolved by resolve.pin, not as
    an impact of the contact core)."""
    return (P[i, LAW] == LAW_PIN and S[i, MST] == REST) or (
        P[j, LAW] == LAW_PIN and S[j, MST] == REST)


@njit_norc
def contact_radius(S: np.ndarray, P: np.ndarray, i: int) -> float:
    """The radius object i touches a rail with (and the half-width of its box): a thrown pin
    reaches farther (P[R2]) than a standing one, whose radius is its contact radius against
    a ball."""
    if P[i, LAW] == LAW_PIN and S[i, MST] == PIN_THROWN:
        return P[i, R2]
    return P[i, R]


@njit_norc
def contact_distance(P: np.ndarray, i: int, j: int) -> float:
    """Centre distance at which i and j touch: the sum of their radii P[R]; two pins, in
    whatever state, at the widest pin diameter P[R2] + P[R] (a thrown pin's reach plus a
    standing pin's radius), the distance the carom table's layouts keep."""
    if P[i, LAW] == LAW_PIN and P[j, LAW] == LAW_PIN:
        return P[i, R2] + P[j, R]
    return P[i, R] + P[j, R]
