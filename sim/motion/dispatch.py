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
    PIN_MOVED,
    PIN_THROWN,
    R2,
    REST,
    TEND,
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
    # discs, and pins (at rest unless thrown or moved: then they slide like discs)
    start_disc_segment(S, P, i, t)
    if P[i, LAW] == LAW_PIN and S[i, MST] == PIN_MOVED:
        S[i, TEND] = S[i, PEND]  # a touched pin rocks (and slides) until then


@njit_norc
def interacts(S: np.ndarray, P: np.ndarray, i: int, j: int) -> bool:
    """Whether i and j can touch: balls and discs always; a pin only while standing still,
    against a ball or a thrown pin (balls pass over lying and flying pins; a touched pin,
    rocking on its base, touches nothing until it stands again)."""
    li, lj = P[i, LAW], P[j, LAW]
    if li != LAW_PIN and lj != LAW_PIN:
        return True
    if li == LAW_PIN and lj == LAW_PIN:
        return (S[i, MST] == PIN_THROWN and S[j, MST] == REST) or (
            S[j, MST] == PIN_THROWN and S[i, MST] == REST)
    pin = i if li == LAW_PIN else j
    return S[pin, MST] == REST


@njit_norc
def contact_radius(S: np.ndarray, P: np.ndarray, i: int) -> float:
    """The radius object i touches with: a thrown pin reaches farther (P[R2]) than a standing
    one, whose radius is its contact radius against a ball."""
    if P[i, LAW] == LAW_PIN and S[i, MST] == PIN_THROWN:
        return P[i, R2]
    return P[i, R]
