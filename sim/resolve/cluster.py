"""Low-speed contacts: the whole touching cluster moves on as one body.

When a contact is slower than v_stick, sequential pairwise impacts inside a frozen row, or
between a rail and a pushing neighbour, converge only geometrically (an inelastic collapse).
Instead, every piece touching the cluster that the cluster approaches joins it, and all members
take the cluster's centre-of-mass velocity
  v = sum(m_k v_k) / sum(m_k)
and its mass-weighted deceleration: a perfectly inelastic impact (momentum conserved, kinetic
energy can only fall). A rail that a member touches and the cluster approaches removes the
cluster's normal velocity, v -= (v . n) n (a perfectly inelastic rail contact). Growing and
projecting repeat until no touching piece or rail is approached. Balls in the cluster also take
the inertia-weighted mean spin, so they keep one slip and one acceleration (rotational energy
can only fall too).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from cuesim.sim.detect import TOUCH, V_TOUCH
from cuesim.sim.motion.segment import advance, position, velocity
from cuesim.sim.state import (
    DECEL,
    INERTIA,
    KSEG,
    LAW,
    LAW_BALL,
    LAW_PIN,
    ON,
    VX,
    VY,
    W0,
    WX,
    WY,
    M,
    R,
    X,
    Y,
)


@njit(cache=True)
def merge_cluster(S: np.ndarray, P: np.ndarray, seeds: int, t: float, rails: np.ndarray,
                  members: np.ndarray, in_cluster: np.ndarray) -> tuple[int, int, int, float]:
    """Grow the cluster from members[:seeds] (advanced to t) and give every member the common
    velocity. Returns (number of members, the member and the rail of the first rail contact
    (-1, -1 if none), the cluster's normal speed into that rail). `in_cluster` is a zeroed
    work array of length n, zeroed again on return."""
    n = S.shape[0]
    mass, px, py, kmass = 0.0, 0.0, 0.0, 0.0
    for c in range(seeds):
        a = members[c]
        in_cluster[a] = 1
        mass += P[a, M]
        px += P[a, M] * S[a, VX]
        py += P[a, M] * S[a, VY]
        kmass += P[a, M] * S[a, KSEG]
    count = seeds
    rail_member, rail_index, rail_speed = -1, -1, 0.0
    changed = True
    while changed:
        changed = False
        # rails the cluster presses into
        for c in range(count):
            a = members[c]
            for k in range(rails.shape[0]):
                nx, ny = rails[k, 4], rails[k, 5]
                gap = nx * (S[a, X] - rails[k, 0]) + ny * (S[a, Y] - rails[k, 1]) - P[a, R]
                vn = -(px * nx + py * ny) / mass
                if gap <= TOUCH and vn > V_TOUCH:
                    px += vn * mass * nx
                    py += vn * mass * ny
                    if rail_member < 0:
                        rail_member, rail_index, rail_speed = a, k, vn
                    changed = True
        # pieces the cluster runs into
        vx, vy = px / mass, py / mass
        for c in range(count):
            a = members[c]
            for k in range(n):
                if in_cluster[k] or S[k, ON] == 0.0 or P[k, LAW] == LAW_PIN:
                    continue
                kx, ky = position(S, k, t)
                dx, dy = kx - S[a, X], ky - S[a, Y]
                dist = math.sqrt(dx * dx + dy * dy)
                if dist - P[a, R] - P[k, R] > TOUCH:
                    continue
                kvx, kvy = velocity(S, k, t)
                if ((vx - kvx) * dx + (vy - kvy) * dy) / dist <= V_TOUCH:
                    continue
                advance(S, P, k, t)  # k joins
                members[count] = k
                count += 1
                in_cluster[k] = 1
                mass += P[k, M]
                px += P[k, M] * kvx
                py += P[k, M] * kvy
                kmass += P[k, M] * P[k, DECEL]
                vx, vy = px / mass, py / mass
                changed = True
    vx, vy, k_shared = px / mass, py / mass, kmass / mass
    # balls also share their spin (inertia-weighted mean), so the cluster's members keep one
    # slip and one acceleration: otherwise different spins would press them together again
    iw, lx, ly, lz = 0.0, 0.0, 0.0, 0.0
    for c in range(count):
        a = members[c]
        if P[a, LAW] == LAW_BALL:
            iw += P[a, INERTIA]
            lx += P[a, INERTIA] * S[a, WX]
            ly += P[a, INERTIA] * S[a, WY]
            lz += P[a, INERTIA] * S[a, W0]
    for c in range(count):
        a = members[c]
        S[a, VX], S[a, VY], S[a, KSEG] = vx, vy, k_shared
        if P[a, LAW] == LAW_BALL:
            S[a, WX], S[a, WY], S[a, W0] = lx / iw, ly / iw, lz / iw
        in_cluster[a] = 0
    return count, rail_member, rail_index, rail_speed
