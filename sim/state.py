"""The structure-of-arrays state of the collision core and how it is built from a layout.

Dynamic state S (n, NS): one row per object, the current motion segment
    p(t) = (X, Y) + (VX, VY) tau + (AX, AY) tau^2 / 2,   tau = t - T0,  valid until TEND;
    spin w(t) = W0 decaying at P[SDECEL] toward zero; LIN = 1 when the acceleration is
    anti-parallel to the velocity (straight path); ON = 0 once the object is pocketed;
    KSEG the sliding deceleration of this segment (the piece's own, or a stuck pair's shared);
    balls also spin about the horizontal axes: w_xy(t) = (WX, WY) + (AWX, AWY) tau; MST is the
    motion state (REST, SLIDING, ROLLING).
Static properties P (n, NP): radius, mass, moment of inertia, sliding deceleration, spin
deceleration, kind number, motion law, rolling deceleration (balls), and R2, the radius
of a knocked pin (its reach when it is thrown into a standing pin).
"""

from __future__ import annotations

import numpy as np

# dynamic columns
X, Y, VX, VY, AX, AY, T0, TEND, W0, LIN, ON, KSEG, WX, WY, AWX, AWY, MST = range(17)
NS = 17
# static columns
R, M, INERTIA, DECEL, SDECEL, KIND, LAW, RDECEL, R2 = range(9)
NP = 9
# motion laws
LAW_DISC = 0
LAW_BALL = 1
LAW_PIN = 2
# motion states
REST, SLIDING, ROLLING = 0, 1, 2
# pins: standing (REST), thrown (moving after a knock), down (at rest after a knock)
PIN_THROWN, PIN_DOWN = 3, 4

# segment log columns: obj, t0, t1, x, y, vx, vy, ax, ay, w0, spin_decel, on, and the index of
# the event that opened the segment (-1 for the segments at t = 0)
N_SEG_COLUMNS = 13
(
    SEG_OBJ,
    SEG_T0,
    SEG_T1,
    SEG_X,
    SEG_Y,
    SEG_VX,
    SEG_VY,
    SEG_AX,
    SEG_AY,
    SEG_W,
    SEG_SD,
    SEG_ON,
    SEG_EVENT,
) = range(N_SEG_COLUMNS)


def static_properties(kinds: np.ndarray, radius: np.ndarray, mass: np.ndarray,
                      inertia: np.ndarray, decel: np.ndarray, spin_decel: np.ndarray,
                      law: np.ndarray, roll_decel: np.ndarray | None = None,
                      thrown_radius: np.ndarray | None = None) -> np.ndarray:
    """P for n objects."""
    P = np.zeros((len(kinds), NP))
    P[:, R] = radius
    P[:, M] = mass
    P[:, INERTIA] = inertia
    P[:, DECEL] = decel
    P[:, SDECEL] = spin_decel
    P[:, KIND] = kinds
    P[:, LAW] = law
    if roll_decel is not None:
        P[:, RDECEL] = roll_decel
    P[:, R2] = radius if thrown_radius is None else thrown_radius
    return P


def build_state(positions: np.ndarray, velocities: np.ndarray, spins: np.ndarray,
                P: np.ndarray, spins_xy: np.ndarray | None = None) -> np.ndarray:
    """S for n objects at t = 0 (segments are opened by the loop)."""
    S = np.zeros((len(positions), NS))
    S[:, X:Y + 1] = positions
    S[:, VX:VY + 1] = velocities
    S[:, W0] = spins
    if spins_xy is not None:
        S[:, WX:WY + 1] = spins_xy
    S[:, TEND] = np.inf
    S[:, ON] = 1.0
    S[:, KSEG] = P[:, DECEL]
    return S
