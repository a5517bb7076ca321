"""Disc law (novus pucks and striker): Coulomb sliding on a straight line.

a = -mu g v/|v| until the disc stops at t_stop = |v0| / (mu g), after d = |v0|^2 / (2 mu g);
the spin about the vertical decays at the constant rate of the friction torque (motion.segment).

What this law leaves out: sliding and spinning are slowed each as if the other were absent. On
a face under uniform pressure they are coupled (Farkas et al., PRL 90, 248302, 2003): a
spinning disc feels less sliding friction, a sliding one less torque, and both stop together.
`python bench/disc_spin.py` measures it on random novus openings: a disc leaving an impact with
eps = |w| R / |v| = 0.5 would slide 7 % further (1.0: 30 %) and spin 3x as long; a fifth of
the slides that end at rest would end over 5 mm further, and whole mid-game shots played by
the soft-contact reference with the coupled law (`soft_simulate(spin_coupling=True)`) pocket
another set in 23-26 % of the shots and, over 4,000 of them, 6.6 % more pieces (5 standard
errors: a bias of batch statistics; bench/README.md, `disc_spin.py`). The coupled slide is not
a polynomial in time, so the exact event core cannot take it as it is.
"""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_norc
from cuesim.sim.state import AX, AY, KSEG, LIN, T0, TEND, VX, VY


@njit_norc
def start_disc_segment(S: np.ndarray, P: np.ndarray, i: int, t: float) -> None:
    """Set the acceleration and end time of disc i whose velocity at time t is set; the
    deceleration is S[i, KSEG] (its own mu g unless it moves stuck to another disc)."""
    vx, vy = S[i, VX], S[i, VY]
    v = math.sqrt(vx * vx + vy * vy)
    S[i, T0] = t
    if v == 0.0:
        if vx != 0.0 or vy != 0.0:
            # a speed below 1e-154 m/s squares to nothing: no motion, not a rest that moves
            S[i, VX] = 0.0
            S[i, VY] = 0.0
        S[i, AX] = 0.0
        S[i, AY] = 0.0
        S[i, TEND] = math.inf
        S[i, LIN] = 1.0
        return
    k = S[i, KSEG]
    S[i, AX] = -k * vx / v
    S[i, AY] = -k * vy / v
    S[i, TEND] = t + v / k
    S[i, LIN] = 1.0
