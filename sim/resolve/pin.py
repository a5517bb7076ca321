"""Skittles (5-pins): a ball or a thrown pin touching a standing pin knocks it down.

A pin weighs about 1 g against a 210 g ball, so the ball's deflection by a pin is below
m_pin / m_ball = 0.5 % of its speed and is neglected: the ball goes on unchanged. The knocked
pin is thrown along the contact normal n at the speed a free body of its mass takes from the
impact, v_pin = (1 + e) m_b / (m_b + m_pin) v_n (v_n the knocker's approach speed), and then
slides and tumbles with the deceleration of its kind (mu_pin g) until it lies still; on the way
it knocks any standing pin it reaches (its reach lying down is the knocked-pin radius R2),
exchanging momentum as two discs do. Balls pass over lying and flying pins.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from cuesim.sim.state import MST, PIN_THROWN, VX, VY, M, X, Y


@njit(cache=True)
def knock_pin(S: np.ndarray, P: np.ndarray, knocker: int, pin: int, e: float) -> float:
    """Throw the standing `pin` touched by the ball `knocker` (both advanced to now); the ball
    goes on unchanged. Returns the approach speed."""
    dx, dy = S[pin, X] - S[knocker, X], S[pin, Y] - S[knocker, Y]
    dist = math.sqrt(dx * dx + dy * dy)
    nx, ny = dx / dist, dy / dist
    vn = (S[knocker, VX] - S[pin, VX]) * nx + (S[knocker, VY] - S[pin, VY]) * ny
    mb, mp = P[knocker, M], P[pin, M]
    speed = max(vn, 0.0) * (1.0 + e) * mb / (mb + mp)
    S[pin, VX] = speed * nx
    S[pin, VY] = speed * ny
    S[pin, MST] = PIN_THROWN
    return vn
