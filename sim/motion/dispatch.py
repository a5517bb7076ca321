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
    PBY,
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
def on_base(S: np.ndarray, P: np.ndarray, i: int) -> bool:
    """Whether i is a pin on its base: standing (REST), or touched and rocking (PIN_MOVED) or
    leaning on the piece passing it (PIN_LEANS)."""
    if P[i, LAW] != LAW_PIN:
        return False
    m = S[i, MST]
    return m == REST or m == PIN_MOVED or m == PIN_LEANS


@njit_norc
def struck_again(S: np.ndarray, P: np.ndarray, pin: int, other: int) -> bool:
    """Whether a touched pin, rocking or leaning, meets `other`: a ball or a thrown pin other
    than the piece that touched it and passes it (S[PBY])."""
    m = S[pin, MST]
    if m != PIN_MOVED and m != PIN_LEANS:
        return False
    if P[other, LAW] == LAW_PIN and S[other, MST] != PIN_THROWN:
        return False
    return S[pin, PBY] != other + 1.0


@njit_norc
def interacts(S: np.ndarray, P: np.ndarray, i: int, j: int) -> bool:
    """Whether i and j can touch: balls and discs always. A standing pin (REST) is touched by
    a ball or a thrown pin (`knocks`); thrown and lying pins touch each other, and balls pass
    over them (a 1 g pin under a 210 g ball: the ball rides over or brushes it aside, unslowed).
    A touched pin rocking on its base (PIN_MOVED) or leaning on a piece inside its circle
    (PIN_LEANS) lets the piece that touched it pass, tilting away from it, and is knocked by
    any other ball or thrown pin (`struck_again`; before, every piece passed through it: a
    second ball ran 21 mm into a rocking pin's circle, bench/tunnels.py 5-pins seed 614424,
    random physics)."""
    li, lj = P[i, LAW], P[j, LAW]
    if li != LAW_PIN and lj != LAW_PIN:
        return True
    if li == LAW_PIN and lj == LAW_PIN:
        si, sj = S[i, MST], S[j, MST]
        if si == PIN_MOVED or sj == PIN_MOVED or si == PIN_LEANS or sj == PIN_LEANS:
            return struck_again(S, P, i, j) or struck_again(S, P, j, i)
        if si == REST or sj == REST:  # a standing pin: only a thrown one knocks it
            return si == PIN_THROWN or sj == PIN_THROWN
        return True
    pin, other = (i, j) if li == LAW_PIN else (j, i)
    return S[pin, MST] == REST or struck_again(S, P, pin, other)


@njit_norc
def knocks(S: np.ndarray, P: np.ndarray, i: int, j: int) -> bool:
    """Whether the contact of i and j (pieces that `interacts` lets touch) touches a pin on
    its base (resolved by resolve.pin, not as an impact of the contact core)."""
    return on_base(S, P, i) or on_base(S, P, j)


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
