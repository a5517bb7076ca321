"""The structure-of-arrays state of the collision core and how it is built from a layout.

Dynamic state S (n, NS): one row per object, the current motion segment
    p(t) = (X, Y) + (VX, VY) tau + (AX, AY) tau^2 / 2,   tau = t - T0,  valid until TEND;
    spin w(t) = W0 decaying at P[SDECEL] toward zero; LIN = 1 when the acceleration is
    anti-parallel to the velocity (straight path); ON = 0 once the object is pocketed;
    KSEG the sliding deceleration of this segment (the piece's own, or a stuck pair's shared);
    balls also spin about the horizontal axes: w_xy(t) = (WX, WY) + (AWX, AWY) tau; MST is the
    motion state (REST, SLIDING, ROLLING; pins: REST standing, PIN_MOVED, PIN_LEANS,
    PIN_THROWN, PIN_DOWN); PEND: the time a touched pin's rocking ends (PIN_MOVED) or it
    stands again (PIN_LEANS), 0 otherwise; PBY: 1 + the index of the piece that touched such a
    pin and passes it (resolve.pin), 0 for none.
Static properties P (n, NP): radius, mass, moment of inertia, sliding deceleration, spin
deceleration, kind number, motion law, rolling deceleration (balls), R2, the radius
of a knocked pin (its reach when it is thrown into a standing pin), and for pins the
mechanical model of cuesim.sim.resolve.pin (PM_*: centre-of-mass height, moment of inertia
about a horizontal axis through it, base radius, head-centre height and head radius, the
wood-on-cloth friction, the cloth's restitution for a landing pin, the centre-of-mass height
of a lying pin, the height a thrown pin strikes a standing one, g).
The table's model parameters (one small array, `Arrays.model_params`): the ball-ball friction
fit mu(v) = a + b exp(-c v), the cushion nose's height, the multiple impact's steps per contact
time scale (MP_*).
"""

from __future__ import annotations

import numpy as np

# dynamic columns
X, Y, VX, VY, AX, AY, T0, TEND, W0, LIN, ON, KSEG, WX, WY, AWX, AWY, MST, PEND, PBY = range(19)
NS = 19
# static columns
R, M, INERTIA, DECEL, SDECEL, KIND, LAW, RDECEL, R2 = range(9)
PM_HG, PM_IG, PM_RB, PM_HC, PM_HA, PM_MU, PM_EF, PM_HL, PM_HPP, PM_G = range(9, 19)
N_PIN_MODEL = 10  # the PM_* columns, in this order (tables.carom.pin_model())
NP = 19
# the model parameters
# (MP_V_STICK: the table's v_stick, below which a contact is perfectly inelastic: the multiple
# impact gives a slow pressed contact its restitution back when the impact drives it faster)
MP_FIT_A, MP_FIT_B, MP_FIT_C, MP_NOSE, MP_IMPACT_STEPS, MP_V_STICK = range(6)
N_MODEL_PARAMS = 6
# motion laws
LAW_DISC = 0
LAW_BALL = 1
LAW_PIN = 2
# motion states
REST, SLIDING, ROLLING = 0, 1, 2
# pins: standing (REST), thrown (felled, moving), down (felled, at rest), moved (touched but
# standing: rocking on its base and possibly sliding until S[PEND], then standing again),
# leaning (a moved pin at rest, tilted by a piece still inside its contact circle, until S[PEND])
PIN_THROWN, PIN_DOWN, PIN_MOVED, PIN_LEANS = 3, 4, 5, 6

# segment log columns: obj, t0, t1, x, y, vx, vy, ax, ay, w0, spin_decel, on, and the index of
# the event that opened the segment (-1 for the segments at t = 0, and for those an impact that
# logged no event opened: a slow pressing contact joined without an impulse, resolve.cluster)
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
                      thrown_radius: np.ndarray | None = None,
                      pin_model: np.ndarray | None = None) -> np.ndarray:
    """P for n objects; `pin_model` (N_PIN_MODEL numbers) fills the PM_* columns of pins."""
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
    if pin_model is not None and len(pin_model):
        P[np.asarray(law) == LAW_PIN, PM_HG:PM_G + 1] = pin_model
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
