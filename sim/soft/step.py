"""The compiled kernel of the soft-contact reference: compliant contacts, fixed-step velocity
Verlet.

One step of length h (kick-drift-kick):
    v += F h / (2m), w += T h / (2I), bed friction over h/2;  x += v h;  holes capture;
    F, T = contact forces at (x, v);  v += F h / (2m), w += T h / (2I), bed friction over h/2.
The velocity-dependent parts of the contact forces (damping, friction) take the end-of-step
velocities predicted with the previous step's forces (v + F h/(2m)), which keeps the scheme
of the second order for them. h is the contact step `dt`
(>= 30 steps per contact duration) whenever a contact is active or could begin within a free
step; otherwise the free step `hf` (at most `hf_max`, and no piece travels more than `travel`
in it). Between contacts the bed law has piecewise-constant accelerations (the core's, not the
coupled law below), which velocity Verlet integrates exactly, so the free step changes nothing
but where a centre is tested against a hole circle: a capture is tested on the whole straight
path of the step.

Normal force of a contact with overlap delta (tables.contact, sim.soft.damping):
    F_n = max(0, k delta^eta + c delta^((eta-1)/2) d(delta)/dt w),
w = sim.soft.damping.onset: 1/2 + (time since touch)/dt over a contact's first step, then 1
(the dashpot's force jumps at first touch; the weight keeps its impulse second-order).
With `hyst` (soft_simulate's dissipation="hysteretic") the normal force is instead the
rate-independent law of sim.soft.hysteresis, each contact remembering its largest compression.
Tangential friction at the contact point, against the slip s of the surfaces there:
    F_t = -min(mu F_n, relax |s| / (k_t dt N)) s/|s|,  k_t = 1/m_i + 1/m_j + R_i^2/I_i + R_j^2/I_j
(N below), i.e. Coulomb friction regularised by a steep linear ramp: below the slip that one step of
mu F_n would stop, the force is proportional to the slip (what stops it in one step,
relax = 1, shared among the contacts acting on that slip: divided by N_i + N_j - 1, N the
number of contacts of a piece, so sticking contacts on one piece do not overshoot
together). The ramp is of the first order in the step (the stick-slip transitions are
resolved to a step); without friction the scheme is of the second order.
Discs: mu = mu_pair / mu_rail. Balls: mu(s) = a + b exp(-c |s|) between balls (the core's
friction_fit, with the slip at that instant), mu_rail on a cushion; the slip is 3-D (spin
about all three axes).

Cushion noses (balls): the nose touches the ball at the angle theta above its equator,
sin(theta) = (h - R)/R (Han 2005): a line at the height h, placed so that a ball on the cloth
touches it when its centre is R from the rail line (or R + r_k from a knuckle's centre), the
core's contact geometry. The overlap is measured along the fixed normal of Han's impulse,
n3 = (n cos(theta), -sin(theta)) (linear in the ball's displacement: overlaps are a few per
cent of R); the force F_n n3 and the friction act at r_c = -R n3. As in Han's model (and
the core), the ball is free vertically while it presses the nose: its height offset Z and
vertical velocity are integrated during the contact and handed to the slate (set to zero)
when it leaves. So the restitution along n3 is the table's e_rail. Discs: a flat rail face.

Bed (as the core's motion laws, sim/motion/disc.py and ball.py): a disc decelerates at
decel = mu g along its velocity and its spin decays at spin_decel; a ball slides (contact slip
u = (v_x - R w_y, v_y + R w_x) != 0: v -= mu_s g u/|u| dt, w_xy += 5/2 mu_s g/R (z x u/|u|) dt)
until the slip one step would remove is less than what remains, then the slip is removed
exactly (rolling), and a rolling ball decelerates at mu_r g with w_xy = (-v_y, v_x)/R; the
spin about the vertical decays at spin_decel. A velocity that one step of friction would
reverse becomes zero (static friction), so pieces come exactly to rest. On request
(`soft_simulate(spin_coupling=True)`) a disc takes the coupled law of its face instead:
decel phi(eps) and spin_decel tau(eps), eps = |w| R / |v| (sim.soft.disc_face), each half kick
at its start's eps. Its accelerations are then not piecewise constant, and the free step
(at most 1 ms) bounds the error: a lone spinning puck's slide is within 3e-5 of the exact one
(tests/test_soft_spin_coupling.py).
"""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_core
from cuesim.sim.soft.damping import onset
from cuesim.sim.soft.hysteresis import forget_if_apart, hysteretic_force

LAW_DISC = 0
LAW_BALL = 1
RELAX = 1.0  # fraction of the slip the friction ramp may remove in one step
STATUS_REST = 0
STATUS_PAUSED = 1  # reached the requested time (a sample)
STATUS_TIME_LIMIT = 2


@njit_core
def face_factors(vx: float, vy: float, wz: float, r: float, eps_t: np.ndarray,
                 phi_t: np.ndarray, tau_t: np.ndarray) -> tuple[float, float]:
    """(phi, tau) of a disc's coupled bed law (sim.soft.disc_face) at eps = |w| r / |v|, by
    linear interpolation in its tables: the fractions of the full sliding force and of the full
    torque. Sliding alone: (1, 0); spinning alone: (1, 1)."""
    v = math.sqrt(vx * vx + vy * vy)
    if v == 0.0:
        return 1.0, 1.0
    if wz == 0.0:
        return 1.0, 0.0
    eps = abs(wz) * r / v
    return np.interp(eps, eps_t, phi_t), np.interp(eps, eps_t, tau_t)


@njit_core
def _bed(V: np.ndarray, W: np.ndarray, i: int, law: int, r: float, decel: float,
         sdecel: float, rdecel: float, hb: float, eps_t: np.ndarray, phi_t: np.ndarray,
         tau_t: np.ndarray) -> None:
    """Bed friction on piece i over the time hb (see the module docstring); a disc with
    tables (eps_t not empty) takes the coupled law: decel phi and sdecel tau (`face_factors`)."""
    wz = W[i, 2]
    vx, vy = V[i, 0], V[i, 1]
    if law == LAW_DISC and eps_t.shape[0] > 0:
        phi, tau = face_factors(vx, vy, wz, r, eps_t, phi_t, tau_t)
        decel *= phi
        sdecel *= tau
    left = abs(wz) - sdecel * hb
    W[i, 2] = math.copysign(left, wz) if left > 0.0 else 0.0
    if law == LAW_DISC:
        v = math.sqrt(vx * vx + vy * vy)
        if v <= decel * hb:
            V[i, 0] = V[i, 1] = 0.0
        else:
            V[i, 0] = vx - decel * hb * vx / v
            V[i, 1] = vy - decel * hb * vy / v
        return
    ux, uy = vx - r * W[i, 1], vy + r * W[i, 0]
    u = math.sqrt(ux * ux + uy * uy)
    if u > 3.5 * decel * hb:  # sliding: the slip falls at 7/2 mu_s g
        hx, hy = ux / u, uy / u
        V[i, 0] = vx - decel * hb * hx
        V[i, 1] = vy - decel * hb * hy
        W[i, 0] += -2.5 * decel * hb / r * hy
        W[i, 1] += 2.5 * decel * hb / r * hx
        return
    # the slip ends within this step: remove it exactly (impulse -m u / 3.5 at the cloth)
    vx -= ux / 3.5
    vy -= uy / 3.5
    v = math.sqrt(vx * vx + vy * vy)
    if v <= rdecel * hb:
        vx = vy = 0.0
    else:
        vx -= rdecel * hb * vx / v
        vy -= rdecel * hb * vy / v
    V[i, 0], V[i, 1] = vx, vy
    W[i, 0], W[i, 1] = -vy / r, vx / r


@njit_core
def _bed_acceleration(V: np.ndarray, W: np.ndarray, A: np.ndarray, i: int, law: int, r: float,
                      decel: float, rdecel: float, bed: bool, eps_t: np.ndarray,
                      phi_t: np.ndarray, tau_t: np.ndarray) -> None:
    """The bed's acceleration of piece i now: -decel v/|v| (disc; times phi under the coupled
    law), -mu_s g u/|u| (sliding ball), -mu_r g v/|v| (rolling ball); zero at rest or without
    bed friction."""
    A[i, 0] = A[i, 1] = 0.0
    vx, vy = V[i, 0], V[i, 1]
    if not bed:
        return
    k = decel
    if law == LAW_DISC and eps_t.shape[0] > 0:
        k *= face_factors(vx, vy, W[i, 2], r, eps_t, phi_t, tau_t)[0]
    if law == LAW_BALL:
        ux, uy = vx - r * W[i, 1], vy + r * W[i, 0]
        u = math.sqrt(ux * ux + uy * uy)
        if u > 0.0:
            A[i, 0], A[i, 1] = -decel * ux / u, -decel * uy / u
            return
        k = rdecel
    v = math.sqrt(vx * vx + vy * vy)
    if v > 0.0:
        A[i, 0], A[i, 1] = -k * vx / v, -k * vy / v


@njit_core
def _at_rest(V: np.ndarray, W: np.ndarray, i: int, law: int, r: float) -> bool:
    if V[i, 0] != 0.0 or V[i, 1] != 0.0:
        return False
    return law == LAW_DISC or (W[i, 0] == 0.0 and W[i, 1] == 0.0) or r == 0.0


@njit_core
def _friction(F: np.ndarray, T: np.ndarray, i: int, j: int, rix: float, riy: float,
              riz: float, rjx: float, rjy: float, rjz: float, sx: float, sy: float,
              sz: float, fmax: float, kt: float, dt: float, balls: bool, share: float) -> None:
    """Friction at a contact whose slip (surface of i minus surface of j, tangential) is s;
    i's contact point at r_i, j's at r_j (j < 0: a fixed cushion); `share` divides the ramp
    among the contacts acting on this slip."""
    slip = math.sqrt(sx * sx + sy * sy + sz * sz)
    if slip == 0.0 or fmax <= 0.0:
        return
    f = min(fmax, RELAX * slip / (kt * dt * share))
    fx, fy, fz = -f * sx / slip, -f * sy / slip, -f * sz / slip
    F[i, 0] += fx
    F[i, 1] += fy
    if j < 0:  # a ball on a nose moves vertically during the contact; between balls the
        F[i, 2] += fz  # cloth takes the vertical part (as the core's ball-ball friction)
    # r x F = (ry Fz - rz Fy, rz Fx - rx Fz, rx Fy - ry Fx)
    T[i, 2] += rix * fy - riy * fx
    if balls:
        T[i, 0] += riy * fz - riz * fy
        T[i, 1] += riz * fx - rix * fz
    if j >= 0:
        F[j, 0] -= fx
        F[j, 1] -= fy
        T[j, 2] -= rjx * fy - rjy * fx
        if balls:
            T[j, 0] -= rjy * fz - rjz * fy
            T[j, 1] -= rjz * fx - rjx * fz


@njit_core
def _cushion(V: np.ndarray, W: np.ndarray, Z: np.ndarray, F: np.ndarray, T: np.ndarray,
             i: int, nx: float, ny: float, s: float, r: float, m: float, inertia: float,
             k: float, eta: float, c: float, mu: float, sin_t: float, dt: float,
             balls: bool, share: float, e: float, mem: np.ndarray, q: int) -> bool:
    """Force and torque on piece i from a cushion (rail face or knuckle) whose inward normal
    is n, the centre at the distance s from the face (from the knuckle's surface); returns
    whether they overlap. A disc meets a flat face (overlap R - s). A ball meets the nose
    along the fixed normal n3 = (n cos(theta), -sin(theta)) of Han's model, touching at s = R
    when Z = 0 (the core's contact geometry): the overlap is (R - s) cos(theta) + Z sin(theta)
    (the nose's displacement along n3, linear in the ball's); during the contact the ball is
    free vertically (Z, V_z), the nose force and its friction act in 3-D. With e >= 0 the
    normal force is the hysteretic law's (restitution e, memory mem[:, i, q];
    sim.soft.hysteresis), with e < 0 the damped one's (c)."""
    if balls:
        cos_t = math.sqrt(1.0 - sin_t * sin_t)
        d = (r - s) * cos_t + Z[i, 0] * sin_t
        if d <= 0.0:
            if e >= 0.0:
                forget_if_apart(d, mem, i, q)
            return False
        n3x, n3y, n3z = nx * cos_t, ny * cos_t, -sin_t
        vz = Z[i, 1]
    else:
        d = r - s
        if d <= 0.0:
            if e >= 0.0:
                forget_if_apart(d, mem, i, q)
            return False
        n3x, n3y, n3z = nx, ny, 0.0
        vz = 0.0
    if e >= 0.0:
        fn = hysteretic_force(d, k, eta, e, mem, i, q)
    else:
        ddot = -(V[i, 0] * n3x + V[i, 1] * n3y + vz * n3z)
        fn = k * d**eta + c * d ** (0.5 * (eta - 1.0)) * ddot * onset(d, ddot, dt)
    if fn <= 0.0:
        return True
    F[i, 0] += fn * n3x
    F[i, 1] += fn * n3y
    F[i, 2] += fn * n3z
    # the contact point r_c = -R n3
    rx, ry, rz = -r * n3x, -r * n3y, -r * n3z
    wx, wy, wz = W[i, 0], W[i, 1], W[i, 2]
    sx = V[i, 0] + wy * rz - wz * ry
    sy = V[i, 1] + wz * rx - wx * rz
    sz = vz + wx * ry - wy * rx
    sn = sx * n3x + sy * n3y + sz * n3z
    sx, sy, sz = sx - sn * n3x, sy - sn * n3y, sz - sn * n3z
    kt = 1.0 / m + r * r / inertia
    _friction(F, T, i, -1, rx, ry, rz, 0.0, 0.0, 0.0, sx, sy, sz, mu * fn, kt, dt, balls,
              share)
    return True


@njit_core
def _closing(v_n: float, a_n: float, hf: float) -> float:
    """A bound (twice the exact) of how far a gap whose approach speed is v_n and approach
    acceleration a_n can close within hf (the bed accelerations are piecewise constant)."""
    return 2.0 * (max(v_n, 0.0) * hf + 0.5 * max(a_n, 0.0) * hf * hf)


@njit_core
def _contact_counts(X: np.ndarray, on: np.ndarray, rad: np.ndarray, rails: np.ndarray,
                    knuckles: np.ndarray) -> np.ndarray:
    """How many overlapping contacts each piece has (at least 1)."""
    n = X.shape[0]
    count = np.ones(n)
    for i in range(n):
        if on[i] == 0.0:
            continue
        c = 0.0
        for j in range(n):
            if j != i and on[j] != 0.0:
                rsum = rad[i] + rad[j]
                dx, dy = X[j, 0] - X[i, 0], X[j, 1] - X[i, 1]
                if abs(dx) < rsum and abs(dy) < rsum and dx * dx + dy * dy < rsum * rsum:
                    c += 1.0
        for q in range(rails.shape[0]):
            s = rails[q, 4] * (X[i, 0] - rails[q, 0]) + rails[q, 5] * (X[i, 1] - rails[q, 1])
            if -rad[i] < s < rad[i]:
                ex, ey = rails[q, 2] - rails[q, 0], rails[q, 3] - rails[q, 1]
                along = (X[i, 0] - rails[q, 0]) * ex + (X[i, 1] - rails[q, 1]) * ey
                if 0.0 <= along <= ex * ex + ey * ey:
                    c += 1.0
        for q in range(knuckles.shape[0]):
            rsum = rad[i] + knuckles[q, 2]
            dx, dy = X[i, 0] - knuckles[q, 0], X[i, 1] - knuckles[q, 1]
            if dx * dx + dy * dy < rsum * rsum:
                c += 1.0
        count[i] = max(c, 1.0)
    return count


@njit_core
def contact_forces(X: np.ndarray, V: np.ndarray, W: np.ndarray, Z: np.ndarray,
                   incush: np.ndarray, on: np.ndarray,
                   rad: np.ndarray, mass: np.ndarray, inertia: np.ndarray, law: np.ndarray,
                   kind: np.ndarray, pair_c: np.ndarray, rail_c: np.ndarray,
                   fit: np.ndarray, rails: np.ndarray,
                   knuckles: np.ndarray, A: np.ndarray, reach: np.ndarray, hf: float,
                   resting: np.ndarray, dt: float,
                   F: np.ndarray, T: np.ndarray, hyst: bool, mem: np.ndarray) -> bool:
    """Fill F (n, 3) and T (n, 3) with the contact forces and torques (and incush with
    whether a ball presses a cushion nose); return whether a contact is active between
    pieces not both at rest, or could begin within the free step hf (the pieces' bed
    accelerations A; reach[i] bounds how far piece i can move in hf). The coefficients by
    kind: pair_c = (stiffness, exponent, damping, friction, restitution)[:, ki, kj] and
    rail_c = (stiffness, exponent, damping, friction, sin(theta) of a nose,
    restitution)[:, ki] (`run_soft`). hyst: the normal forces follow the hysteretic law (each
    contact's memory in mem[:, i, j], mem[:, i, n + rail] or mem[:, i, n + n_rails + knuckle])
    instead of the damped one."""
    kp, ep, cp, mup, e_pair = pair_c[0], pair_c[1], pair_c[2], pair_c[3], pair_c[4]
    kr, er, cr, mur, sinr, e_rail = (rail_c[0], rail_c[1], rail_c[2], rail_c[3], rail_c[4],
                                     rail_c[5])
    n = X.shape[0]
    F[:] = 0.0
    T[:] = 0.0
    incush[:] = False
    near = False
    count = _contact_counts(X, on, rad, rails, knuckles)
    for i in range(n):
        if on[i] == 0.0:
            continue
        ki, ri = kind[i], rad[i]
        balls = law[i] == LAW_BALL
        for j in range(i + 1, n):
            if on[j] == 0.0:
                continue
            dx, dy = X[j, 0] - X[i, 0], X[j, 1] - X[i, 1]
            rsum = ri + rad[j]
            lim = rsum + reach[i] + reach[j]
            if abs(dx) > lim or abs(dy) > lim:
                continue
            dist = math.sqrt(dx * dx + dy * dy)
            gap = dist - rsum
            nx, ny = dx / dist, dy / dist
            if gap >= 0.0:
                if hyst:
                    forget_if_apart(-gap, mem, i, j)
                v_n = (V[i, 0] - V[j, 0]) * nx + (V[i, 1] - V[j, 1]) * ny
                a_n = (A[i, 0] - A[j, 0]) * nx + (A[i, 1] - A[j, 1]) * ny
                if gap < _closing(v_n, a_n, hf):
                    near = True
                continue
            if resting[i] and resting[j]:
                # two pieces at rest overlap by round-off only (a checked layout's rows, 1e-12 m:
                # a force of 1e-10 N against the bed's static friction of 1e-2 N): none of it
                # moves them, and integrated over the free step, this stiff contact drove a
                # resting row of four pucks apart by up to half a metre while a piece moved
                # elsewhere. It acts again the step either piece moves.
                continue
            near = True
            kj = kind[j]
            d = -gap
            eta = ep[ki, kj]
            if hyst:
                fn = hysteretic_force(d, kp[ki, kj], eta, e_pair[ki, kj], mem, i, j)
            else:
                vn = (V[i, 0] - V[j, 0]) * nx + (V[i, 1] - V[j, 1]) * ny
                fn = (kp[ki, kj] * d**eta
                      + cp[ki, kj] * d ** (0.5 * (eta - 1.0)) * vn * onset(d, vn, dt))
            if fn <= 0.0:
                continue
            F[i, 0] -= fn * nx
            F[i, 1] -= fn * ny
            F[j, 0] += fn * nx
            F[j, 1] += fn * ny
            rj = rad[j]
            rix, riy = ri * nx, ri * ny
            rjx, rjy = -rj * nx, -rj * ny
            # surface velocities at the contact point: v + w x r (r horizontal)
            six = V[i, 0] - W[i, 2] * riy
            siy = V[i, 1] + W[i, 2] * rix
            siz = W[i, 0] * riy - W[i, 1] * rix
            sjx = V[j, 0] - W[j, 2] * rjy
            sjy = V[j, 1] + W[j, 2] * rjx
            sjz = W[j, 0] * rjy - W[j, 1] * rjx
            sx, sy, sz = six - sjx, siy - sjy, siz - sjz
            sn = sx * nx + sy * ny
            sx, sy = sx - sn * nx, sy - sn * ny
            if balls:
                slip = math.sqrt(sx * sx + sy * sy + sz * sz)
                mu = fit[0] + fit[1] * math.exp(-fit[2] * slip)
            else:
                mu = mup[ki, kj]
                sz = 0.0
            kt = (1.0 / mass[i] + 1.0 / mass[j] + ri * ri / inertia[i]
                  + rj * rj / inertia[j])
            _friction(F, T, i, j, rix, riy, 0.0, rjx, rjy, 0.0, sx, sy, sz, mu * fn, kt, dt,
                      balls, count[i] + count[j] - 1.0)
        # rails: segments, contact only where the foot of the centre lies on the face
        px, py = X[i, 0], X[i, 1]
        for q in range(rails.shape[0]):
            x0, y0, x1, y1, nx, ny = (rails[q, 0], rails[q, 1], rails[q, 2], rails[q, 3],
                                      rails[q, 4], rails[q, 5])
            s = nx * (px - x0) + ny * (py - y0)
            gap = s - ri
            if gap > (reach[i] if Z[i, 0] == 0.0 else max(reach[i], ri)) or s <= -ri:
                continue
            ex, ey = x1 - x0, y1 - y0
            length = math.sqrt(ex * ex + ey * ey)
            along = ((px - x0) * ex + (py - y0) * ey) / length
            if gap >= 0.0 and Z[i, 0] == 0.0:
                if hyst:
                    forget_if_apart(-gap, mem, i, n + q)
                if (-reach[i] <= along <= length + reach[i]
                        and gap < _closing(-(V[i, 0] * nx + V[i, 1] * ny),
                                           -(A[i, 0] * nx + A[i, 1] * ny), hf)):
                    near = True
                continue
            if along < 0.0 or along > length:
                continue
            if _cushion(V, W, Z, F, T, i, nx, ny, s, ri, mass[i], inertia[i], kr[ki], er[ki],
                        cr[ki], mur[ki], sinr[ki], dt, balls, count[i],
                        e_rail[ki] if hyst else -1.0, mem, n + q):
                incush[i] = True
                if not resting[i]:
                    near = True
        for q in range(knuckles.shape[0]):
            dx, dy = px - knuckles[q, 0], py - knuckles[q, 1]
            rsum = ri + knuckles[q, 2]
            lim = rsum + reach[i] + ri
            if abs(dx) > lim or abs(dy) > lim:
                continue
            dist = math.sqrt(dx * dx + dy * dy)
            gap = dist - rsum
            if gap >= 0.0 and Z[i, 0] == 0.0:
                if hyst:
                    forget_if_apart(-gap, mem, i, n + rails.shape[0] + q)
                if gap < _closing(-(V[i, 0] * dx + V[i, 1] * dy) / dist,
                                  -(A[i, 0] * dx + A[i, 1] * dy) / dist, hf):
                    near = True
                continue
            if _cushion(V, W, Z, F, T, i, dx / dist, dy / dist, dist - knuckles[q, 2], ri,
                        mass[i], inertia[i], kr[ki], er[ki], cr[ki], mur[ki], sinr[ki], dt,
                        balls, count[i], e_rail[ki] if hyst else -1.0, mem,
                        n + rails.shape[0] + q):
                incush[i] = True
                if not resting[i]:
                    near = True
    return near


@njit_core
def _kick(V: np.ndarray, W: np.ndarray, Z: np.ndarray, F: np.ndarray, T: np.ndarray,
          on: np.ndarray,
          rad: np.ndarray, mass: np.ndarray, inertia: np.ndarray, law: np.ndarray,
          decel: np.ndarray, sdecel: np.ndarray, rdecel: np.ndarray, hb: float,
          bed: bool, kind: np.ndarray, eps_t: np.ndarray, phi_t: np.ndarray,
          tau_t: np.ndarray) -> None:
    for i in range(V.shape[0]):
        if on[i] == 0.0:
            continue
        V[i, 0] += F[i, 0] * hb / mass[i]
        V[i, 1] += F[i, 1] * hb / mass[i]
        W[i, 2] += T[i, 2] * hb / inertia[i]
        if law[i] == LAW_BALL:
            W[i, 0] += T[i, 0] * hb / inertia[i]
            W[i, 1] += T[i, 1] * hb / inertia[i]
            Z[i, 1] += F[i, 2] * hb / mass[i]
        if bed:
            _bed(V, W, i, law[i], rad[i], decel[i], sdecel[i], rdecel[i], hb, eps_t,
                 phi_t[kind[i]], tau_t[kind[i]])


@njit_core
def run_soft(X: np.ndarray, V: np.ndarray, W: np.ndarray, Z: np.ndarray, on: np.ndarray,
             rad: np.ndarray,
             mass: np.ndarray, inertia: np.ndarray, law: np.ndarray, kind: np.ndarray,
             decel: np.ndarray, sdecel: np.ndarray, rdecel: np.ndarray, kp: np.ndarray,
             ep: np.ndarray, cp: np.ndarray, mup: np.ndarray, kr: np.ndarray, er: np.ndarray,
             cr: np.ndarray, mur: np.ndarray, sinr: np.ndarray, fit: np.ndarray,
             rails: np.ndarray, knuckles: np.ndarray, holes: np.ndarray, F: np.ndarray,
             T: np.ndarray, cap_t: np.ndarray, cap_hole: np.ndarray, clock: np.ndarray,
             dt: float, hf_max: float, travel: float, t_until: float, t_max: float,
             bed: bool, eps_t: np.ndarray, phi_t: np.ndarray, tau_t: np.ndarray, hyst: bool,
             e_pair: np.ndarray, e_rail: np.ndarray, mem: np.ndarray) -> int:
    """Advance the pieces from clock[0] until they all rest (STATUS_REST), clock[0] reaches
    t_until (STATUS_PAUSED) or t_max (STATUS_TIME_LIMIT). clock = (t, near, free step, steps);
    F (n, 3), T (n, 3) hold the forces of the last step (all zero before the first); Z (n, 2)
    the height offset and vertical velocity of a ball on a cushion nose (zero elsewhere).
    eps_t, phi_t[kind], tau_t[kind]: the discs' coupled bed law (`face_factors`), or eps_t
    empty for the uncoupled one. hyst, e_pair, e_rail (restitutions by kind), mem: the normal
    law (`contact_forces`); the contacts' memories persist from call to call."""
    n = X.shape[0]
    nk = kp.shape[0]
    pair_c = np.empty((5, nk, nk))
    rail_c = np.empty((6, nk))
    pair_c[0], pair_c[1], pair_c[2], pair_c[3], pair_c[4] = kp, ep, cp, mup, e_pair
    rail_c[0], rail_c[1], rail_c[2], rail_c[3], rail_c[4], rail_c[5] = (kr, er, cr, mur, sinr,
                                                                       e_rail)
    incush = np.zeros(n, dtype=np.bool_)
    reach = np.zeros(n)
    A = np.zeros((n, 2))
    Vp = np.zeros((n, 2))
    Wp = np.zeros((n, 3))
    Zp = np.zeros((n, 2))
    resting = np.zeros(n, dtype=np.bool_)
    t = clock[0]
    near = clock[1] != 0.0
    hf = clock[2]
    steps = clock[3]
    status = STATUS_PAUSED
    while t < t_until:
        h = dt if near else max(hf, dt)
        _kick(V, W, Z, F, T, on, rad, mass, inertia, law, decel, sdecel, rdecel, 0.5 * h, bed,
              kind, eps_t, phi_t, tau_t)
        for i in range(n):
            if on[i] == 0.0:
                continue
            X[i, 0] += V[i, 0] * h
            X[i, 1] += V[i, 1] * h
            Z[i, 0] += Z[i, 1] * h
            for q in range(holes.shape[0]):
                # the centre entered the hole circle somewhere on this step's straight path
                dx, dy = X[i, 0] - holes[q, 0], X[i, 1] - holes[q, 1]
                sx, sy = V[i, 0] * h, V[i, 1] * h
                s2 = sx * sx + sy * sy
                back = min(max((dx * sx + dy * sy) / s2, 0.0), 1.0) if s2 > 0.0 else 0.0
                dx, dy = dx - back * sx, dy - back * sy
                if dx * dx + dy * dy < holes[q, 2] * holes[q, 2]:
                    on[i] = 0.0
                    cap_t[i] = t + h
                    cap_hole[i] = q
                    V[i, 0] = V[i, 1] = 0.0
                    W[i, 0] = W[i, 1] = W[i, 2] = 0.0
                    Z[i, 0] = Z[i, 1] = 0.0
                    break
        t += h
        steps += 1.0
        # the next free step, and how far each piece can travel in it
        vmax = 0.0
        for i in range(n):
            if on[i] != 0.0:
                vmax = max(vmax, math.sqrt(V[i, 0] ** 2 + V[i, 1] ** 2))
        hf = hf_max if vmax * hf_max <= travel else travel / vmax
        for i in range(n):
            resting[i] = on[i] != 0.0 and _at_rest(V, W, i, law[i], rad[i])
            _bed_acceleration(V, W, A, i, law[i], rad[i], decel[i], rdecel[i], bed, eps_t,
                              phi_t[kind[i]], tau_t[kind[i]])
            if resting[i] or on[i] == 0.0:
                reach[i] = 0.0
            else:
                v = math.sqrt(V[i, 0] ** 2 + V[i, 1] ** 2)
                reach[i] = (v + 2.0 * decel[i] * hf) * hf
        # the velocities at the end of the step, predicted with the last contact forces: the
        # damping and the friction take them (second order for velocity-dependent forces)
        for i in range(n):
            Vp[i, 0] = V[i, 0] + F[i, 0] * 0.5 * h / mass[i]
            Vp[i, 1] = V[i, 1] + F[i, 1] * 0.5 * h / mass[i]
            Wp[i, 2] = W[i, 2] + T[i, 2] * 0.5 * h / inertia[i]
            if law[i] == LAW_BALL:
                Wp[i, 0] = W[i, 0] + T[i, 0] * 0.5 * h / inertia[i]
                Wp[i, 1] = W[i, 1] + T[i, 1] * 0.5 * h / inertia[i]
                Zp[i, 0] = Z[i, 0]
                Zp[i, 1] = Z[i, 1] + F[i, 2] * 0.5 * h / mass[i]
        near = contact_forces(X, Vp, Wp, Zp, incush, on, rad, mass, inertia, law, kind, pair_c,
                              rail_c, fit, rails, knuckles, A, reach, hf, resting, dt, F, T,
                              hyst, mem)
        for i in range(n):
            if not incush[i]:  # off the nose the slate takes the vertical motion (Han)
                Z[i, 0] = Z[i, 1] = 0.0
        _kick(V, W, Z, F, T, on, rad, mass, inertia, law, decel, sdecel, rdecel, 0.5 * h, bed,
              kind, eps_t, phi_t, tau_t)
        rest = True
        for i in range(n):
            if on[i] != 0.0 and not _at_rest(V, W, i, law[i], rad[i]):
                rest = False
                break
        if rest:
            status = STATUS_REST
            break
        if t >= t_max:
            status = STATUS_TIME_LIMIT
            break
    clock[0] = t
    clock[1] = 1.0 if near else 0.0
    clock[2] = hf
    clock[3] = steps
    return status
