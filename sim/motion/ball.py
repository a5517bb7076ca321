"""Ball law (pool, carom): sliding, rolling, stationary, with spin about the vertical.

The contact point with the cloth moves at u = v + R k x w = (v_x - R w_y, v_y + R w_x).
Sliding (u != 0): friction -mu_s m g u/|u|; the slip direction stays fixed, so
  a = -mu_s g u0/|u0|,  dw_xy/dt = 5 mu_s g / (2 R) (k x u0/|u0|),  du/dt = -7/2 mu_s g u0/|u0|,
  and sliding ends at tau_s = 2 |u0| / (7 mu_s g), when the ball rolls.
Rolling (u = 0): a = -mu_r g v/|v|, w_xy = (-v_y, v_x) / R; it stops at |v| / (mu_r g).
Spin about the vertical decays at 5 mu_sp g / (2 R) in every state (motion.segment.spin).
Positions stay quadratic in time within a segment.
"""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_norc
from cuesim.sim.state import (
    AWX,
    AWY,
    AX,
    AY,
    DECEL,
    LIN,
    MST,
    RDECEL,
    REST,
    ROLLING,
    SLIDING,
    T0,
    TEND,
    VX,
    VY,
    WX,
    WY,
    R,
)

U_ROLL = 1e-9  # m/s: a contact-point slip this small is rolling


@njit_norc
def start_ball_segment(S: np.ndarray, P: np.ndarray, i: int, t: float) -> None:
    """Set the motion state, accelerations and end time of ball i from its velocity and spin
    at time t."""
    r = P[i, R]
    vx, vy = S[i, VX], S[i, VY]
    ux, uy = vx - r * S[i, WY], vy + r * S[i, WX]
    u = math.sqrt(ux * ux + uy * uy)
    v = math.sqrt(vx * vx + vy * vy)
    S[i, T0] = t
    if u > U_ROLL:
        k = P[i, DECEL]  # mu_s g
        hx, hy = ux / u, uy / u
        S[i, AX], S[i, AY] = -k * hx, -k * hy
        S[i, AWX], S[i, AWY] = -2.5 * k / r * hy, 2.5 * k / r * hx  # 5/2 mu_s g / R (k x u^)
        S[i, TEND] = t + 2.0 * u / (7.0 * k)
        S[i, MST] = SLIDING
        # a straight decelerating line only when the slip is along the velocity and sliding
        # ends before the ball would reverse (draw reverses within the segment)
        straight = v > 0.0 and abs(vx * hy - vy * hx) <= 1e-12 * v and vx * hx + vy * hy > 0.0
        S[i, LIN] = 1.0 if straight and 2.0 * u / 7.0 <= v else 0.0
        return
    if v == 0.0 and (vx != 0.0 or vy != 0.0):
        # a speed below 1e-154 m/s squares to nothing: no motion at all, not a rest that moves
        vx, vy = 0.0, 0.0
        S[i, VX] = 0.0
        S[i, VY] = 0.0
    S[i, WX], S[i, WY] = -vy / r, vx / r  # rolling: exactly no slip
    if v == 0.0:
        S[i, AX] = S[i, AY] = S[i, AWX] = S[i, AWY] = 0.0
        S[i, TEND] = math.inf
        S[i, MST] = REST
        S[i, LIN] = 1.0
        return
    k = P[i, RDECEL]  # mu_r g
    S[i, AX], S[i, AY] = -k * vx / v, -k * vy / v
    S[i, AWX], S[i, AWY] = -S[i, AY] / r, S[i, AX] / r
    S[i, TEND] = t + v / k
    S[i, MST] = ROLLING
    S[i, LIN] = 1.0
