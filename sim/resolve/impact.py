"""The place that selects the impact model for the contacts due now.

The touching system (detect.touching) holds every contact due now and every contact chained to
them by touching pieces, rails and knuckles. A system of one contact is a binary impact, resolved
in closed form (resolve.disc_disc, disc_rail, ball_ball, and Han's model for a ball on a cushion
or knuckle: resolve.ball_cushion); a larger one is one multiple impact (resolve.multi_impact).
Slow pressing contacts are perfectly inelastic and their pieces then move on together
(resolve.cluster).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cuesim.sim.resolve.ball_ball import resolve_ball_ball
from cuesim.sim.resolve.ball_cushion import resolve_ball_cushion
from cuesim.sim.resolve.cluster import join_pressed, pressing
from cuesim.sim.resolve.disc_disc import resolve_disc_disc
from cuesim.sim.resolve.disc_rail import resolve_disc_rail
from cuesim.sim.resolve.multi_impact import solve_multi_impact
from cuesim.sim.state import KIND, LAW, LAW_BALL, VX, VY


@njit(cache=True)
def approach(S: np.ndarray, i: int, j: int, nx: float, ny: float) -> float:
    """(v_i - v_j) . n: positive when the contact closes (j < 0: a fixed body)."""
    vjx, vjy = (S[j, VX], S[j, VY]) if j >= 0 else (0.0, 0.0)
    return (S[i, VX] - vjx) * nx + (S[i, VY] - vjy) * ny


@njit(cache=True)
def resolve_impact(S: np.ndarray, P: np.ndarray, t: float, ci: np.ndarray, cj: np.ndarray,
                   nx: np.ndarray, ny: np.ndarray, n_c: int, n_due: int, objs: np.ndarray,
                   n_obj: int,
                   e_pair: np.ndarray, mu_pair: np.ndarray, e_rail: np.ndarray,
                   mu_rail: np.ndarray, stiffness: np.ndarray, exponent: np.ndarray,
                   v_stick: float, ball_params: np.ndarray, work: np.ndarray,
                   slow: np.ndarray, impulse: np.ndarray, vpeak: np.ndarray) -> None:
    """Resolve the touching system (its pieces objs[:n_obj] advanced to t; its first n_due
    contacts the ones detection found due now: a due contact that does not close is pressed,
    detect.pairs/rails, and counts as slow and pressing whatever the sign test). Writes each
    contact's normal impulse (impulse[k] > 0: the contact acted) and its largest approach speed
    (vpeak[k]). `work` is a float array of at least 4 n_c; stiffness/exponent hold the compliance
    law K delta^eta of kind pairs (rows < n_kinds) and of each kind on a rail (last row)."""
    n_kinds = stiffness.shape[1]
    e = work[:n_c]
    mu = work[n_c:2 * n_c]
    kk = work[2 * n_c:3 * n_c]
    eta = work[3 * n_c:4 * n_c]
    for k in range(n_c):
        i, j = ci[k], cj[k]
        ka = int(P[i, KIND])
        if j >= 0:
            kb = int(P[j, KIND])
            e[k], mu[k] = e_pair[ka, kb], mu_pair[ka, kb]
            kk[k], eta[k] = stiffness[ka, kb], exponent[ka, kb]
        else:
            e[k], mu[k] = e_rail[ka], mu_rail[ka]
            kk[k], eta[k] = stiffness[n_kinds, ka], exponent[n_kinds, ka]
        v0 = approach(S, i, j, nx[k], ny[k])
        pressed = pressing(S, i, j, nx[k], ny[k]) or (k < n_due and v0 <= 0.0)
        slow[k] = v0 <= v_stick and pressed
        if slow[k]:
            e[k] = 0.0
    if n_c == 1:
        i, j = ci[0], cj[0]
        vn = approach(S, i, j, nx[0], ny[0])
        vpeak[0] = max(vn, 0.0)
        impulse[0] = 0.0
        if vn > 0.0:
            impulse[0] = 1.0  # a binary impact acted (its size is not needed)
            if j >= 0 and P[i, LAW] == LAW_BALL and P[j, LAW] == LAW_BALL:
                resolve_ball_ball(S, P, i, j, e[0], ball_params[0], ball_params[1],
                                  ball_params[2])
            elif j >= 0:
                resolve_disc_disc(S, P, i, j, e[0], mu[0])
            elif P[i, LAW] == LAW_BALL:
                resolve_ball_cushion(S, P, i, -nx[0], -ny[0], e[0], mu[0], ball_params[3])
            else:
                resolve_disc_rail(S, P, i, -nx[0], -ny[0], e[0], mu[0])
    else:
        solve_multi_impact(S, P, ci, cj, nx, ny, n_c, e, mu, kk, eta, objs, n_obj, ball_params,
                           impulse, vpeak)
    join_pressed(S, P, t, ci, cj, nx, ny, n_c, n_due, slow, v_stick, objs, n_obj)
