"""Ball-cushion impact with the cushion nose above the ball's centre (Han 2005, in the form of
Mathavan et al. 2010 and pooltool).

Frame: x into the cushion (normal), y along it, z up; the nose touches the ball at the angle
theta above its equator, sin(theta) = (h - R) / R for a nose at height h. With the velocity v
and spin w in this frame:
  slip  s_x = v_x sin(theta) + R w_y,  s_y = -v_y - R w_z cos(theta) + R w_x sin(theta)
  approach speed at the nose  c = v_x cos(theta)
  A = 7 / (2 m),  B = 1 / m,  P_zE = (1 + e) c / B,  P_zS = |s| / A
If P_zS <= mu P_zE the slip stops during the impact (sticking):
  P_X = -s_x/A sin(theta) - (1+e) c/B cos(theta),  P_Y = s_y/A,
  P_Z = s_x/A cos(theta) - (1+e) c/B sin(theta)
else (sliding, phi the slip's direction):
  P_X = -mu (1+e) c/B cos(phi) sin(theta) - (1+e) c/B cos(theta),
  P_Y = mu (1+e) c/B sin(phi),  P_Z = mu (1+e) c/B cos(phi) cos(theta) - (1+e) c/B sin(theta)
and  v_x += P_X/m, v_y += P_Y/m,  w_x += -R P_Y sin(theta)/I,
     w_y += R (P_X sin(theta) - P_Z cos(theta))/I,  w_z += R P_Y cos(theta)/I.
The same model serves a pocket jaw's rounded knuckle, with the normal through its centre.
"""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_norc
from cuesim.sim.state import INERTIA, VX, VY, W0, WX, WY, M, R


@njit_norc
def nose_restitution(e: float, r: float, height: float) -> float:
    """The horizontal restitution of a ball of radius r on a cushion nose at `height`: Han's
    normal impulse (1 + e) m c along the nose normal, c = v_x cos(theta), has the horizontal
    part (1 + e) m v_x cos^2(theta), so without friction the ball leaves at
    -((1 + e) cos^2(theta) - 1) v_x (the nose's downward part goes into the slate). The
    multiple impact, whose cushion force is horizontal, takes this as the contact's
    restitution, so that a lone cushion contact in it gives Han's outcome; at least 0."""
    sin_t = min(max((height - r) / r, -1.0), 1.0)
    return max((1.0 + e) * (1.0 - sin_t * sin_t) - 1.0, 0.0)


# a series of Han impacts (e below tan^2(theta)) converges at least this fast; more repeats than
# this leave less than 2^-64 of the first approach, below round-off (`resolve_ball_cushion`)
MAX_REPEATS = 64


@njit_norc
def _han_impulse(vx: float, vy: float, wx: float, wy: float, wz: float, r: float, m: float,
                 inertia: float, e: float, mu: float, sin_t: float, cos_t: float
                 ) -> tuple[float, float, float, float, float]:
    """One Han impact in the cushion's frame (the module's formulas): the new v_x, v_y, w_x,
    w_y, w_z."""
    sx = vx * sin_t + r * wy
    sy = -vy - r * wz * cos_t + r * wx * sin_t
    c = vx * cos_t
    a_ = 3.5 / m
    b_ = 1.0 / m
    pze = (1.0 + e) * c / b_
    pzs = math.sqrt(sx * sx + sy * sy) / a_
    if pzs <= mu * pze:
        px = -sx / a_ * sin_t - pze * cos_t
        py = sy / a_
        pz = sx / a_ * cos_t - pze * sin_t
    else:
        phi = math.atan2(sy, sx)
        px = -mu * pze * math.cos(phi) * sin_t - pze * cos_t
        py = mu * pze * math.sin(phi)
        pz = mu * pze * math.cos(phi) * cos_t - pze * sin_t
    return (vx + px / m, vy + py / m, wx - r / inertia * py * sin_t,
            wy + r / inertia * (px * sin_t - pz * cos_t), wz + r / inertia * py * cos_t)


@njit_norc
def resolve_ball_cushion(S: np.ndarray, P: np.ndarray, i: int, nx: float, ny: float, e: float,
                         mu: float, height: float) -> float:
    """Ball i (advanced to now) against a cushion whose inward normal is (nx, ny) and whose
    nose is at `height`; returns the normal approach speed.

    Han's impulse acts along the nose normal, tilted theta from the horizontal, and its
    downward part goes into the slate. Below e = tan^2(theta) (at most sin^2(theta) when
    frictionless) it leaves the ball still moving into the cushion, at a fraction of its
    approach, and the ball meets the nose again at once. That series of impacts is resolved
    here as one: the law is applied again while the ball still closes on the cushion and
    closes slower than before, and what is left after MAX_REPEATS (or when a repeat would not
    slow it) is the series' limit, 0: the nose and the slate together stop the ball's motion
    into the cushion, and friction's share of each impact is spent within the series. A ball
    that leaves the first time (every default physics) meets the law once."""
    r, m, inertia = P[i, R], P[i, M], P[i, INERTIA]
    # frame: ex into the cushion = -n, ey = ez x ex
    exx, exy = -nx, -ny
    eyx, eyy = -exy, exx
    vx = S[i, VX] * exx + S[i, VY] * exy
    vy = S[i, VX] * eyx + S[i, VY] * eyy
    if vx <= 0.0:
        return vx
    wx = S[i, WX] * exx + S[i, WY] * exy
    wy = S[i, WX] * eyx + S[i, WY] * eyy
    wz = S[i, W0]
    sin_t = min(max((height - r) / r, -1.0), 1.0)
    cos_t = math.sqrt(1.0 - sin_t * sin_t)
    c = vx * cos_t
    for _ in range(MAX_REPEATS):
        closing = vx
        vx, vy, wx, wy, wz = _han_impulse(vx, vy, wx, wy, wz, r, m, inertia, e, mu, sin_t,
                                          cos_t)
        if vx <= 0.0 or vx >= closing:
            break
    vx = min(vx, 0.0)
    S[i, VX] = vx * exx + vy * eyx
    S[i, VY] = vx * exy + vy * eyy
    S[i, WX] = wx * exx + wy * eyx
    S[i, WY] = wx * exy + wy * eyy
    S[i, W0] = wz
    return c / cos_t if cos_t > 0.0 else c
