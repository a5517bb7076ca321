"""The place that selects each object's motion law."""

from __future__ import annotations

import numpy as np
from numba import njit

from cuesim.sim.motion.ball import start_ball_segment
from cuesim.sim.motion.disc import start_disc_segment
from cuesim.sim.state import LAW, LAW_BALL


@njit(cache=True)
def start_segment(S: np.ndarray, P: np.ndarray, i: int, t: float) -> None:
    """Open object i's next polynomial segment at time t under its own motion law."""
    if P[i, LAW] == LAW_BALL:
        start_ball_segment(S, P, i, t)
    else:
        start_disc_segment(S, P, i, t)
