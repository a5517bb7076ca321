"""How a multiple impact (resolve.multi_impact) is stepped and bounded: the contact time scale
delta*/v that sets its step, the stiffness bound that shortens the step while a contact is
stiffer than it resolves, the test that only round-off is left, and how long the frozen
configuration may be integrated."""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_norc
from cuesim.sim.state import DECEL

# the step resolves a Hertz contact's frequency up to STIFFER times the one a binary impact at
# the impact's fastest approach reaches, at the resolution's steps per contact time scale
# (`stiffness_limits`); a contact compressed past that (2^4 times that impact's largest
# compression) halves the step until it is resolved again (`finer_step`). A numerical setting
# like the resolution, not physics: no impact of the fingerprint shots reaches it (they are bit
# for bit those of the step fixed at the start), and 10x either way moves the jam that needs it
# by under 1 mm/s at the default resolution (tests/test_impact_blow_up.py). The jam: five
# balls of 14.1 seed 4000449 (bench/tunnels.py, random physics) rolling together into a cushion,
# closing at 1e-13 m/s, so the step was 4.9 ms; friction driven by their spin compressed the
# contacts far beyond what that approach gives, until the step no longer resolved their
# stiffness and the kicks grew without bound. It must stay below 2 x 2 / sqrt(15 / 8) = 2.9,
# where omega dt would pass velocity Verlet's stability limit of 2 at the coarsest resolution
# the tables accept (tables.contact IMPACT_STEPS_RANGE: 2)
STIFFER = 2.0


@njit_norc
def spent(f: np.ndarray, delta: np.ndarray, dmax: np.ndarray, e: np.ndarray,
           expo: np.ndarray, k_unload: np.ndarray, inv_mi: np.ndarray, inv_mj: np.ndarray,
           n_c: int, v_open: float) -> bool:
    """Whether every loaded contact stores less energy than a relative speed of v_open
    carries, E_k = F_k x_k / (eta_k + 1) < m_eff v_open^2 / 2, x_k the compression beyond the
    law's onset (0 loading, (1 - e^2) delta_m unloading): all it can still give is below the
    round-off floor of the approach speeds. A plastic contact reloading its dent (e = 0,
    k_unload its dent stiffness) counts F_k x_k / 2, the bound of its convex law
    max(K_t x, K x^eta): the exponent's 1 / (eta + 1) would undercount its linear part."""
    for k in range(n_c):
        if f[k] <= 0.0:
            continue
        onset = 0.0 if delta[k] >= dmax[k] else (1.0 - e[k] * e[k]) * dmax[k]
        shape = 2.0 if e[k] <= 0.0 and k_unload[k] > 0.0 else expo[k] + 1.0
        if f[k] * (delta[k] - onset) * (inv_mi[k] + inv_mj[k]) \
                >= 0.5 * shape * v_open * v_open:
            return False
    return True


@njit_norc
def stiffness_limits(n_c: int, stiff: np.ndarray, expo: np.ndarray, dt: float,
                      resolution: float, inv_mi: np.ndarray, inv_mj: np.ndarray,
                      d_lim: np.ndarray) -> None:
    """d_lim[k]: the compression at which contact k's stiffness, dF/d(delta) = eta K
    delta^(eta - 1), makes its frequency omega = sqrt(dF/d(delta) / m_eff) reach STIFFER times
    sqrt(eta (eta + 1) / 2) / (resolution dt): the frequency at the largest compression
    delta* of a binary impact whose contact time scale delta*/v is resolution dt (there
    omega delta*/v = sqrt(eta (eta + 1) / 2)). A law with eta <= 1 never stiffens (inf)."""
    for k in range(n_c):
        eta = expo[k]
        if eta <= 1.0:
            d_lim[k] = math.inf
            continue
        omega = STIFFER * math.sqrt(0.5 * eta * (eta + 1.0)) / (resolution * dt)
        d_lim[k] = (omega * omega / (eta * stiff[k] * (inv_mi[k] + inv_mj[k]))) \
            ** (1.0 / (eta - 1.0))


@njit_norc
def finer_step(dmax: np.ndarray, expo: np.ndarray, n_c: int, d_lim: np.ndarray) -> float:
    """The factor (a power of 1/2) by which to shorten the step so that every contact's
    largest compression is within its limit again (`stiffness_limits`), the limits moved with
    it (a Hertz contact's frequency grows as delta^((eta - 1) / 2), so halving the step
    raises its limit by 2^(2 / (eta - 1)))."""
    factor = 1.0
    for k in range(n_c):
        while dmax[k] > d_lim[k]:
            factor *= 0.5
            for q in range(n_c):
                if expo[q] > 1.0:
                    d_lim[q] *= 2.0 ** (2.0 / (expo[q] - 1.0))
    return factor


@njit_norc
def impact_time_bound(P: np.ndarray, objs: np.ndarray, n_obj: int, v_scale: float,
                      t_own: float) -> float:
    """How long an impact may be integrated: the longer of v_scale / a, the time the cloth (or
    board), decelerating a sliding piece by a = mu g (the least of the impact's pieces,
    P[DECEL]), takes to stop its fastest approach, and t_own = IMPACT_TIMES n_c tau
    (multi_impact), its n_c contacts' times tau (the contact time scale) one after another, many
    times over. The impact freezes the configuration and leaves the cloth out, which holds for
    its few contact times: every impact of the fingerprint shots ends by itself well inside the
    bound. One that runs past it (in a frictional lattice of hundreds of touching pucks,
    spinning pucks that keep wedging themselves against their neighbours with micronewtons, the
    approach speeds 1e-7 of the impact's, for millions of steps) is no impact any more, and
    ends: what still closes is the loop's next event, or a cluster (resolve.cluster). inf where
    a piece has no such deceleration."""
    a = math.inf
    for m in range(n_obj):
        a = min(a, P[objs[m], DECEL])
    if not a > 0.0:
        return math.inf
    return max(v_scale / a, t_own)


@njit_norc
def contact_time_scale(m_eff: float, k: float, eta: float, v: float) -> float:
    """delta*/v: the largest compression of a binary impact at speed v,
    delta* = ((eta + 1) m_eff v^2 / (2 K))^(1 / (eta + 1)), over v (the contact lasts ~3x it)."""
    return ((eta + 1.0) * m_eff * v * v / (2.0 * k)) ** (1.0 / (eta + 1.0)) / v
