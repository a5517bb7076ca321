"""Evaluating the current polynomial segment of an object (any motion law)."""

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
    KSEG,
    LIN,
    SDECEL,
    T0,
    VX,
    VY,
    W0,
    WX,
    WY,
    X,
    Y,
)


@njit_norc
def position(S: np.ndarray, i: int, t: float) -> tuple[float, float]:
    """p(t) = p0 + v0 tau + a tau^2 / 2."""
    tau = t - S[i, T0]
    return (S[i, X] + tau * (S[i, VX] + 0.5 * tau * S[i, AX]),
            S[i, Y] + tau * (S[i, VY] + 0.5 * tau * S[i, AY]))


@njit_norc
def velocity(S: np.ndarray, i: int, t: float) -> tuple[float, float]:
    """v(t) = v0 + a tau."""
    tau = t - S[i, T0]
    return S[i, VX] + tau * S[i, AX], S[i, VY] + tau * S[i, AY]


@njit_norc
def spin(S: np.ndarray, P: np.ndarray, i: int, t: float) -> float:
    """w(t) = sign(w0) max(|w0| - alpha tau, 0): constant-rate decay about the vertical."""
    w0 = S[i, W0]
    left = abs(w0) - P[i, SDECEL] * (t - S[i, T0])
    if left <= 0.0:
        return 0.0
    return math.copysign(left, w0)


@njit_norc
def reach(S: np.ndarray, i: int, t: float, h: float) -> float:
    """An upper bound of the distance object i travels in [t, t + h] (within its segment)."""
    vx, vy = velocity(S, i, t)
    v = math.sqrt(vx * vx + vy * vy)
    a = math.sqrt(S[i, AX] ** 2 + S[i, AY] ** 2)
    if S[i, LIN] != 0.0:  # decelerating along a straight line
        return max(v * h - 0.5 * a * h * h, 0.0) + 1e-12
    return v * h + 0.5 * a * h * h + 1e-12


@njit_norc
def travel_bound(speed: float, accel: float, tau: float) -> float:
    """An upper bound of the distance a piece starting at `speed` with a constant acceleration
    of size `accel` travels in tau: |v| tau + |a| tau^2 / 2 (+1e-12 for rounding). A detector
    that has found a contact at tau skips every feature farther than this (it cannot be met
    sooner), which changes no result."""
    return speed * tau + 0.5 * accel * tau * tau + 1e-12


@njit_norc
def advance(S: np.ndarray, P: np.ndarray, i: int, t: float) -> None:
    """Make time t the start of object i's segment (position, velocity, spin at t)."""
    x, y = position(S, i, t)
    vx, vy = velocity(S, i, t)
    S[i, W0] = spin(S, P, i, t)
    tau = t - S[i, T0]
    S[i, WX] += S[i, AWX] * tau
    S[i, WY] += S[i, AWY] * tau
    S[i, X], S[i, Y], S[i, VX], S[i, VY] = x, y, vx, vy
    S[i, T0] = t
    S[i, KSEG] = P[i, DECEL]
