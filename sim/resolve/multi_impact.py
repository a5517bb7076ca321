"""Contacts due at the same instant as one multiple impact: the energy-based model of Liu, Zhao
and Brogliato (Proc. R. Soc. A 464, 2008, and 465, 2009).

The impact is short, so the configuration is frozen: only the velocities and the contact
compressions delta_k change. Contact k joins piece ci[k] to piece cj[k] (or to a fixed rail,
jaw or knuckle when cj[k] < 0) along the unit normal n_k from ci[k] toward the other body; its
approach speed is v_k = (v_i - v_j) . n_k and its compression grows as d(delta_k)/dt = v_k. The
normal force follows the contact's compliance law while it is loaded,
    F_k = K_k delta_k^eta_k                    (Hertz: eta = 3/2; line contact of discs: eta = 1)
and, once it unloads from its largest compression delta_m, the law that releases exactly e_k^2
of the stored energy (the energetic restitution coefficient of the contact):
    F_k = K_k e_k^(-2 eta_k) (delta_k - delta_r)^eta_k,   delta_r = (1 - e_k^2) delta_m,
with F_k = 0 below delta_r (the contact has separated; it loads again if it closes). A
perfectly plastic contact (e_k = 0: every slow one, resolve.impact) stores nothing: once it
unloads its dent delta_m is set, and closing again it loads afresh from it (delta_k measured
from the dent) with the stiffness it had there, F_k = max(K_t delta_k, K delta_k^eta),
K_t = eta K delta_m^(eta-1) at its first dent (`_dent_stiffness`: K itself for discs; a
ball's Hertz law started again from zero alone is too soft: a ball pressed into a pocket's
jaws by another took millions of steps), its force growing from zero. The law's own e -> 0
limit, loading again at K delta_m^eta at once, is a jump no step resolves: in dense lattices
of touching pucks each such jump overshot, and the energy grew from millijoules to 1e17 J
(tests/test_impact_lattices.py). A contact between two pieces slow and pressed at the start
of a faster impact (pieces creeping into one another, a fast piece striking the system
elsewhere) is perfectly plastic only until the impact drives it faster than v_stick: then it
takes the table's restitution (`_driven`; one against a fixed body stays plastic:
resolve.impact). A piece struck into a creeping neighbour pushed it as a plastic
pair, the two leaving together, while the soft reference, which knows no v_stick, sends the
neighbour on at 2.26 m/s and the piece at 0.99 (bench/README.md "A creeping neighbour
struck", tests/test_contacts.py). The
velocities follow dv_i/dt = -sum_k F_k n_k / m_i over its contacts. Distributing the impulse by
these laws is the LZB model's distribution by contact stiffness ratios; it is integrated here in
time (velocity Verlet, steps of delta*/v over the resolution: 60 a contact at the default 20;
`model_params[MP_IMPACT_STEPS]`, tables.contact.IMPACT_STEPS; halved while a contact is
stiffer than the step resolves, `impact_step.STIFFER`) rather than in the
normal-impulse domain, which is the same solution reparametrised, and lets contacts that start
unloaded (a frozen row ahead of the struck piece) take part without a 0/0 ratio. The outcome
depends only on the stiffness ratios when every contact starts closed. It gives Newton's
cradle (e = 1: the far piece leaves with nearly all the speed), dispersion of the wave along
rows, split rows instead of rigid blocks; momentum is conserved by every step, and the energy
can only fall (an integration surplus, below 1e-6 of the energy, is removed at the end).
A contact that starts from a gap to a round body (another piece, a knuckle) is open until it
touches: its compression is the real one, rho - |p_i - p_j| from its pieces' relative
displacement, and its normal turns with them (`_open_gap`); it takes the normal it touches
with. Along a frozen normal a cue ball passing a knuckle 1.3 mm away at 1.9 m/s, while another
ball's cushion kept the impact going for milliseconds, struck the knuckle its real path misses
(tests/test_tunnels.py, the wedge shot). A flat rail's gap closes linearly, which is exact.
While no contact is loaded and one still closes (pieces parted by the wave, one catching up
with another) the velocities are constant, so the integration jumps to a step short of that
contact's force coming on again instead of stepping through the gap (`_free_flight`).
The impact ends when no contact is loaded and none closes faster than v_open, the round-off
floor of approach speeds (V_OPEN of the impact's fastest approach, or V_ROUND of the fastest
piece's speed, whose ulps an approach speed inherits), or when none closes that fast and each
loaded contact stores less energy than v_open carries (`impact_step.spent`): what is left is
round-off, which can otherwise keep a lattice's contacts loaded by 1e-14 N for millions of
steps. It also ends at its time bound (`impact_step.impact_time_bound`: 64 contact time
scales per contact, or the time the cloth takes to stop its fastest approach, whichever is
longer), past which a frozen configuration without the cloth no longer holds: no impact of
the fingerprint shots comes near it; in lattices of hundreds of touching pucks, spinning
pucks wedging themselves against their neighbours by friction kept one going for millions of
steps.

Tangential friction (documented simplification of LZB 2009's frictional model): each step, the
normal impulse increment dP_k = F_k dt bounds a Coulomb impulse against the current contact slip
  discs:  dJ_t = -sign(v_t) min(mu_k dP_k, r |v_t| / k_t), v_t = (v_i - v_j) . t + w_i R_i + w_j R_j
  balls:  the ball-ball friction law of resolve.ball_ball (mu from the slip), or, against a
          cushion or knuckle, Han's law as the binary impact and the soft reference have it
          (resolve.ball_cushion): the caller gives the contact Han's horizontal restitution
          at the nose (`nose_restitution`); its friction keeps the direction of the slip it
          loads with, mu dP_N a step (dP_N = dP_k / cos(theta), along the nose normal) up to
          the impulse that stops that slip, and its part along the normal waits for the
          impact's end (`_deferred_friction`), so a lone cushion contact gives Han's outcome
          (tests/test_cushion_in_multi_impact.py).
Sticking (discs, ball pairs) is rigid-body sticking, regularised: a sticking contact's slip
relaxes with the time constant tau = STICK_TIME delta*/v (a fifth of the contact time scale,
well inside the contact) by the exact factor r = 1 - exp(-dt / tau) per step, or 1 / (pieces'
contact count) if smaller (the Jacobi bound that keeps several contacts of one piece from
overshooting). Its limit tau -> 0
is the soft reference's friction, which stops a slip within one of its steps (sim.soft.step);
a tenth of STICK_TIME moves no outgoing velocity of the openings' first impacts by more than
the resolution's own error (tests/test_impact_resolution.py). The
friction pass sits between two Verlet steps with the normal impulse F_k dt of the force at that
instant (two half passes merged: a symmetric splitting of the normal and tangential parts).
Against the 1280-step result the frozen 9-ball and 8-ball racks leave within 1.5-1.9 mm/s at
a resolution of 20 and 0.4-0.6 mm/s at 40; the earlier splitting (the friction after the
step with its mean force, r = dt / tau) needed 40 steps for 1.7-1.9 mm/s.
"""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_norc
from cuesim.sim.resolve.ball_ball import apply_friction_impulse, ball_ball_friction_impulse
from cuesim.sim.resolve.impact_friction import (
    F_BALL_BALL,
    F_BALL_FIXED,
    F_NONE,
    FC_A,
    FC_B,
    FC_C,
    FC_D,
    FC_E,
    FC_LAW,
    FC_PN,
    N_FC,
    apply_ball_fixed_friction,
    apply_disc_friction,
    ball_fixed_friction,
    disc_friction,
    friction_constants,
    nose_constants,
)
from cuesim.sim.resolve.impact_step import (
    contact_time_scale,
    finer_step,
    impact_time_bound,
    spent,
    stiffness_limits,
)
from cuesim.sim.state import (
    INERTIA,
    LAW,
    LAW_BALL,
    MP_FIT_A,
    MP_FIT_B,
    MP_FIT_C,
    MP_IMPACT_STEPS,
    MP_V_STICK,
    VX,
    VY,
    W0,
    WX,
    WY,
    M,
)

# the time constant of sticking, in contact time scales: a regularisation of rigid sticking, not
# a property of the pieces. Measured on the first impacts of the novus opening and the 9-ball and
# 8-ball breaks (bench/scenarios.py, pure Python runs): a tenth of it moves their outgoing
# velocities by 5.5, 2.3 and 3.0 mm/s (the resolution's own error is 4.5, 1.4 and 1.9) and the
# novus opening's rest by 2.1 mm, the same pucks pocketed; a hundredth gives the tenth's result
# bit for bit, the Jacobi bound then setting every sticking contact of these impacts (the limit
# is reached). Ten times it (2 contact time scales) is another contact model, not a setting:
# sticking outlasts a contact (about 3 time scales), and the same impacts change by 63-420 mm/s
STICK_TIME = 0.2
# an open contact whose approach speed is above V_OPEN times the impact's fastest still closes
# and keeps the impact going (a round-off floor, not physics: 10x either way changes no
# outgoing velocity visibly, tests/test_impact_resolution.py)
V_OPEN = 1e-9
# ... or above V_ROUND times the fastest piece's speed: an approach speed is a difference of
# velocities that take a rounded kick at every step, so its round-off grows with the steps
# (measured 1.5e-14 of the fastest piece's speed, 136 ulps, after 400,000 steps of a plastic,
# frictionless rack barely closing at 6e-10 m/s); a slower approach is round-off whatever the
# impact's own speed (a round-off floor as V_OPEN is: 10x either way changes nothing visible,
# tests/test_impact_lattices.py; it keeps a slow impact among fast pieces from running on
# round-off; at 1e-14 that rack's impact ran to MAX_STEPS)
V_ROUND = 1e-12
# how often a step with no contact closing asks whether only round-off is left
# (`impact_step.spent`):
# each asking costs a pass over the contacts, and an impact's natural end comes first
SPENT_EVERY = 64
# a bound on one impact's steps: a wave along 16 pieces needs ~20,000 at the default
# resolution of 20, ~320,000 at the finest (tables.contact IMPACT_STEPS_RANGE). A constant: the
# bound computed from the resolution made the steps' loop 2 % slower on the 8-ball rack
MAX_STEPS = 6_400_000
# an impact is integrated for at most this many contact time scales per contact, or as long as
# the cloth takes to stop its fastest approach, whichever is longer (`impact_time_bound`): the
# impacts of shots end within a few per contact (the novus opening's first, 12 for 10
# contacts; a wave along a row of n contacts takes ~(pi / 2) n); 10x fewer or more changes no
# result of the fingerprint shots (tests/test_impact_lattices.py)
IMPACT_TIMES = 64.0
# a step's normal impulse on one contact beyond BLOW_UP sqrt(2 M E) (M the impact's mass, E its
# kinetic energy at the start: the most momentum that energy could give it at once) is an
# integration gone unstable, never physics: before impact_step.STIFFER, the step, fixed at the
# start from slow approaches, while a long pressing contact stiffened (bench/tunnels.py 14.1
# seed 4000449, random physics, ran to speeds of 1e281 m/s and then NaN). Such an impact ends
# unfinished (MAX_STEPS: the shot stops as truncated) instead; none of the hunter's is left.
# Stable impacts stay far below it: at most 0.105 sqrt(2 M E) on one step, over every impact of 60
# hunter shots of the five games, both physics (seeds 4000440-4000445), so the bound is a
# hundredfold margin, not a model (10x either way leaves the recorded impacts bit for bit:
# tests/test_impact_lattices.py)
BLOW_UP = 10.0


@njit_norc
def _approach(S: np.ndarray, i: int, j: int, nx: float, ny: float) -> float:
    vjx, vjy = (S[j, VX], S[j, VY]) if j >= 0 else (0.0, 0.0)
    return (S[i, VX] - vjx) * nx + (S[i, VY] - vjy) * ny


@njit_norc
def _power(x: float, eta: float) -> float:
    """x^eta for x > 0, without the general power where the law is Hertz's or linear."""
    if eta == 1.5:
        return x * math.sqrt(x)
    if eta == 1.0:
        return x
    return x**eta


@njit_norc
def _force(delta: float, dmax: float, k: float, k_unload: float, eta: float, e: float) -> float:
    """Normal force of a contact at compression delta whose largest compression was dmax
    (k_unload = k e^(-2 eta), the unloading law's stiffness)."""
    if delta <= 0.0:
        return 0.0
    if delta >= dmax:
        return k * _power(delta, eta)
    if e <= 0.0:
        return 0.0
    dr = (1.0 - e * e) * dmax
    if delta <= dr:
        return 0.0
    return k_unload * _power(delta - dr, eta)


@njit_norc
def _dent_stiffness(dmax: float, k: float, eta: float) -> float:
    """dF/d(delta) = eta K delta_m^(eta - 1) of the law K delta^eta at the compression
    delta_m: a plastic contact's stiffness when it closes again on its dent."""
    if eta == 1.0:
        return k
    if eta == 1.5:
        return 1.5 * k * math.sqrt(dmax)
    return eta * k * dmax ** (eta - 1.0)


@njit_norc
def _kick_contact(S: np.ndarray, i: int, j: int, px: float, py: float, inv_mi: float,
                  inv_mj: float) -> None:
    """The impulse (px, py) of one contact: -(px, py) on piece i, + on j (j < 0: fixed)."""
    S[i, VX] -= px * inv_mi
    S[i, VY] -= py * inv_mi
    if j >= 0:
        S[j, VX] += px * inv_mj
        S[j, VY] += py * inv_mj


@njit_norc
def _kick(S: np.ndarray, ci: np.ndarray, cj: np.ndarray, nx: np.ndarray, ny: np.ndarray,
          f: np.ndarray, inv_mi: np.ndarray, inv_mj: np.ndarray, n_c: int, h: float) -> None:
    """Apply the impulses f_k h along the normals (-on ci, + on cj)."""
    for k in range(n_c):
        if f[k] == 0.0:
            continue
        p = f[k] * h
        _kick_contact(S, ci[k], cj[k], p * nx[k], p * ny[k], inv_mi[k], inv_mj[k])


@njit_norc
def _kick_closing(S: np.ndarray, ci: np.ndarray, cj: np.ndarray, nx: np.ndarray,
                  ny: np.ndarray, f: np.ndarray, f_new: np.ndarray, inv_mi: np.ndarray,
                  inv_mj: np.ndarray, n_c: int, dt: float, impulse: np.ndarray,
                  dp: np.ndarray) -> None:
    """A step's closing half kick (`_kick` of f_new over dt / 2), with each contact's step
    booked in the same pass: impulse += (f + f_new) dt / 2 (the trapezoid), dp = f_new dt
    (friction acts at the step's end with the force there), f = f_new. The bookkeeping reads
    no velocity, so one pass gives what a kick pass and then a bookkeeping pass gave."""
    h = 0.5 * dt
    for k in range(n_c):
        fk = f_new[k]
        impulse[k] += 0.5 * (f[k] + fk) * dt
        dp[k] = fk * dt
        f[k] = fk
        if fk == 0.0:
            continue
        p = fk * h
        _kick_contact(S, ci[k], cj[k], p * nx[k], p * ny[k], inv_mi[k], inv_mj[k])


# rows of the impact's float work array (a column per contact, `work[row, k]`): the caller
# owns it, so an impact allocates nothing
W_INV_MI, W_INV_MJ, W_K_UNLOAD, W_DELTA, W_DMAX, W_F, W_F_NEW, W_DP, W_RELAX = range(9)
W_FR = 9  # 3 rows: the friction impulses of the step
W_FC = W_FR + 3  # N_FC rows: the friction constants
# copies of nx, ny and mu: `_friction`, called at every step, then takes one array for the
# eight rows it reads (numba passes an array as a structure of 7-9 words, all pushed on the
# stack at every call: 99 words for its 13 arguments before; 4-5 % of the novus opening)
W_NX, W_NY, W_MU = W_FC + N_FC, W_FC + N_FC + 1, W_FC + N_FC + 2
# a contact that starts from a gap to a round body (another piece, a knuckle) and has not
# touched yet: its pieces' relative position p_i - p_j (`_open_gap`), and 1.0 while it is open
W_PX, W_PY, W_OPEN = W_MU + 1, W_MU + 2, W_MU + 3
# each contact's restitution in the impact, and the one it takes if the impact drives it
# faster than v_stick (`_driven`)
W_E, W_E_DRIVEN = W_OPEN + 1, W_OPEN + 2
# each contact's largest compression the step resolves (`impact_step.stiffness_limits`)
W_D_LIM = W_E_DRIVEN + 1
N_WORK_ROWS = W_D_LIM + 1


@njit_norc
def _friction(S: np.ndarray, P: np.ndarray, ci: np.ndarray, cj: np.ndarray, n_c: int,
              fit_a: float, fit_b: float, fit_c: float, work: np.ndarray) -> None:
    """One Jacobi pass of friction impulses: all computed from the same velocities, then
    applied, so the order of the contacts cannot matter. The contacts' normals, friction
    coefficients, impulses and constants are rows of `work` (`solve_multi_impact`); fit_a,
    fit_b, fit_c: the ball-ball friction fit (model_params)."""
    dp, relax = work[W_DP], work[W_RELAX]
    fr, fc = work[W_FR:W_FR + 3], work[W_FC:W_FC + N_FC]
    nx, ny, mu = work[W_NX], work[W_NY], work[W_MU]
    for k in range(n_c):
        fr[0, k] = fr[1, k] = fr[2, k] = 0.0
        law = fc[FC_LAW, k]
        if dp[k] <= 0.0 or law == F_NONE:
            continue
        i, j = ci[k], cj[k]
        if law == F_BALL_BALL:
            fr[0, k], fr[1, k], fr[2, k] = ball_ball_friction_impulse(
                S, P, i, j, nx[k], ny[k], dp[k], fit_a, fit_b, fit_c, relax[k], fc[FC_A, k])
        elif law == F_BALL_FIXED:
            fr[0, k], fr[1, k], fr[2, k] = ball_fixed_friction(S, P, i, fc, k, dp[k], mu[k])
        else:
            fr[0, k] = disc_friction(S, P, i, j, nx[k], ny[k], dp[k], mu[k], relax[k],
                                      fc[FC_A, k])
    for k in range(n_c):
        if fr[0, k] == 0.0 and fr[1, k] == 0.0 and fr[2, k] == 0.0:
            continue
        i, j = ci[k], cj[k]
        law = fc[FC_LAW, k]
        if law == F_BALL_BALL:
            apply_friction_impulse(S, i, j, nx[k], ny[k], fr[0, k], fr[1, k], fr[2, k], fc[FC_B, k],
                             fc[FC_C, k], fc[FC_D, k], fc[FC_E, k])
        elif law == F_BALL_FIXED:
            # Han's normal impulse is the compliance law's alone: the friction's part along
            # the normal waits for the impact's end (`_deferred_friction`), where the law
            # cannot answer it
            fn = fr[0, k] * nx[k] + fr[1, k] * ny[k]
            fc[FC_PN, k] += fn
            apply_ball_fixed_friction(S, P, i, fc[FC_A, k], fc[FC_B, k], fc[FC_C, k],
                                       fr[0, k], fr[1, k], fr[2, k], fn * nx[k], fn * ny[k])
        else:
            apply_disc_friction(S, P, i, j, nx[k], ny[k], fr[0, k])


@njit_norc
def _deferred_friction(S: np.ndarray, P: np.ndarray, ci: np.ndarray, n_c: int,
                       work: np.ndarray) -> None:
    """At the impact's end, each ball's cushion friction's part along the normal, held back
    (`_friction`): Han's P_X = (normal) - mu P_N cos(phi) sin(theta)."""
    fc, nx, ny = work[W_FC:W_FC + N_FC], work[W_NX], work[W_NY]
    for k in range(n_c):
        if fc[FC_LAW, k] == F_BALL_FIXED and fc[FC_PN, k] != 0.0:
            i = ci[k]
            S[i, VX] += fc[FC_PN, k] * nx[k] / P[i, M]
            S[i, VY] += fc[FC_PN, k] * ny[k] / P[i, M]


@njit_norc
def _open_gap(S: np.ndarray, i: int, j: int, k: int, h: float, rho: float,
              work: np.ndarray) -> float:
    """Move an open contact to a round body on by h: its pieces' relative position
    p = p_i - p_j (work rows W_PX, W_PY) by their relative velocity, its normal to -p / |p| (the
    real geometry: a piece passing a knuckle or another piece closes the gap only if its path
    reaches it, not along the normal it had at the impact's start), its compression rho - |p|
    (rho: the sum of the radii) returned."""
    vjx, vjy = (S[j, VX], S[j, VY]) if j >= 0 else (0.0, 0.0)
    px = work[W_PX, k] + (S[i, VX] - vjx) * h
    py = work[W_PY, k] + (S[i, VY] - vjy) * h
    d = math.sqrt(px * px + py * py)
    work[W_PX, k], work[W_PY, k] = px, py
    work[W_NX, k], work[W_NY, k] = -px / d, -py / d
    return rho - d


@njit_norc
def _open_gaps(S: np.ndarray, P: np.ndarray, ci: np.ndarray, cj: np.ndarray, n_c: int,
               h: float, rho: np.ndarray, delta: np.ndarray, model_params: np.ndarray,
               work: np.ndarray) -> bool:
    """A step h of the open contacts (`_open_gap`), each compression written less the
    approach the step's common pass then adds (along the new normal, from the same
    velocities), so that the pass, kept free of a branch, gives the geometric one. A contact
    that touches is open no more: its normal stays where it touched (and a ball's nose point
    on a knuckle with it). Returns whether any contact is still open."""
    opened, nx, ny = work[W_OPEN], work[W_NX], work[W_NY]
    fc = work[W_FC:W_FC + N_FC]
    still = False
    for k in range(n_c):
        if opened[k] == 0.0:
            continue
        d = _open_gap(S, ci[k], cj[k], k, h, rho[k], work)
        delta[k] = d - _approach(S, ci[k], cj[k], nx[k], ny[k]) * h
        if d > 0.0:
            opened[k] = 0.0
            if fc[FC_LAW, k] == F_BALL_FIXED:
                nose_constants(P, ci[k], nx[k], ny[k], model_params, fc, k)
        else:
            still = True
    return still


@njit_norc
def _driven(k: int, e: np.ndarray, e_driven: np.ndarray, stiff: np.ndarray, expo: np.ndarray,
            k_unload: np.ndarray) -> None:
    """Contact k, slow and pressed at the impact's start (perfectly inelastic), is driven
    faster than v_stick by the impact: it takes its restitution e_driven[k], and the unloading
    law's stiffness K e^(-2 eta) (in place of a dent's), before it unloads from this loading."""
    e[k] = e_driven[k]
    k_unload[k] = stiff[k] * e[k] ** (-2.0 * expo[k]) if e[k] > 0.0 else 0.0


@njit_norc
def _energy(S: np.ndarray, P: np.ndarray, objs: np.ndarray, n_obj: int) -> float:
    ke = 0.0
    for m in range(n_obj):
        a = objs[m]
        ke += 0.5 * P[a, M] * (S[a, VX] ** 2 + S[a, VY] ** 2)
        ke += 0.5 * P[a, INERTIA] * (S[a, W0] ** 2 + S[a, WX] ** 2 + S[a, WY] ** 2)
    return ke


@njit_norc
def _remove_surplus(S: np.ndarray, P: np.ndarray, ci: np.ndarray, cj: np.ndarray, n_c: int,
                    objs: np.ndarray, n_obj: int, impulse: np.ndarray, fixed: bool, ke0: float,
                    touched: np.ndarray) -> None:
    """Remove an integration surplus of kinetic energy (never a physical gain) from the pieces
    the impact touched (a contact of theirs took an impulse): their velocities scale about
    their centre of mass, v' = c + s (v - c), spins by s, s^2 = (E0 - E_cm) / (E1 - E_cm) (c = 0
    when a fixed body takes part). The other pieces keep their motion bit for bit: scaled
    about the centre too, a ball at rest in the system (1 - s) c moved by some 1e-15 m/s, and
    stopped again a femtosecond later with no event that set it moving (bench/tunnels.py
    9-ball seed 4000146, random physics). touched: a work array over all pieces."""
    for k in range(n_c):
        touched[ci[k]] = 0.0
        if cj[k] >= 0:
            touched[cj[k]] = 0.0
    for k in range(n_c):
        if impulse[k] > 0.0:
            touched[ci[k]] = 1.0
            if cj[k] >= 0:
                touched[cj[k]] = 1.0
    ke1, ke_still = 0.0, 0.0  # ke_still: the untouched pieces', the same before and after
    for m in range(n_obj):
        a = objs[m]
        lin = 0.5 * P[a, M] * (S[a, VX] ** 2 + S[a, VY] ** 2)
        rot = 0.5 * P[a, INERTIA] * (S[a, W0] ** 2 + S[a, WX] ** 2 + S[a, WY] ** 2)
        if touched[a] != 0.0:  # summed as `_energy` sums: all touched, the same bits
            ke1 += lin
            ke1 += rot
        else:
            ke_still += lin
            ke_still += rot
    ke0 -= ke_still
    if not (ke1 > ke0 and ke1 > 0.0):
        return
    px, py, m_free = 0.0, 0.0, 0.0
    if not fixed:
        for m in range(n_obj):
            a = objs[m]
            if touched[a] != 0.0:
                px += P[a, M] * S[a, VX]
                py += P[a, M] * S[a, VY]
                m_free += P[a, M]
    cx, cy = (px / m_free, py / m_free) if m_free > 0.0 else (0.0, 0.0)
    ke_cm = 0.5 * m_free * (cx * cx + cy * cy)
    s = math.sqrt(max(ke0 - ke_cm, 0.0) / (ke1 - ke_cm)) if ke1 > ke_cm else 1.0
    for m in range(n_obj):
        a = objs[m]
        if touched[a] == 0.0:
            continue
        S[a, VX] = cx + s * (S[a, VX] - cx)
        S[a, VY] = cy + s * (S[a, VY] - cy)
        S[a, W0] *= s
        S[a, WX] *= s
        S[a, WY] *= s


@njit_norc
def _free_flight(S: np.ndarray, ci: np.ndarray, cj: np.ndarray, nx: np.ndarray, ny: np.ndarray,
                 n_c: int, delta: np.ndarray, dmax: np.ndarray, e: np.ndarray,
                 v_open: float) -> float:
    """With no contact loaded the velocities are constant: the time until the first closing
    contact's force comes on again (its compression reaches 0, or on a dented contact the
    unloading law's onset (1 - e^2) delta_m, or delta_m when e = 0)."""
    tau = math.inf
    for k in range(n_c):
        vk = _approach(S, ci[k], cj[k], nx[k], ny[k])
        if vk <= v_open:
            continue
        onset = 0.0
        if dmax[k] > 0.0:
            onset = dmax[k] if e[k] <= 0.0 else max((1.0 - e[k] * e[k]) * dmax[k], 0.0)
        tau = min(tau, (onset - delta[k]) / vk)
    return tau


@njit_norc
def unfinished(steps: int) -> bool:
    """Whether solve_multi_impact returned at its step bound, MAX_STEPS, with the impact
    still going (no impact of the tests or the lattices measured comes near it)."""
    return steps >= MAX_STEPS


@njit_norc
def solve_multi_impact(S: np.ndarray, P: np.ndarray, ci: np.ndarray, cj: np.ndarray,
                       nx: np.ndarray, ny: np.ndarray, n_c: int, e: np.ndarray, mu: np.ndarray,
                       stiff: np.ndarray, expo: np.ndarray, objs: np.ndarray, n_obj: int,
                       model_params: np.ndarray, impulse: np.ndarray, vpeak: np.ndarray,
                       work: np.ndarray, deg: np.ndarray, gap: np.ndarray,
                       rho: np.ndarray) -> int:
    """Resolve contacts k < n_c (pieces advanced to now) as one multiple impact, contact k
    starting from gap[k] >= 0 (its compression -gap[k]: detect.touching). A contact from a gap
    to a round body, rho[k] > 0 the sum of the radii (another piece, a knuckle; 0: a flat rail),
    closes where its pieces' real paths meet (`_open_gap`) and keeps the normal it touches
    with: the configuration is frozen for what touches, not for what has yet to. Writes each
    contact's normal impulse to impulse[k] and its largest approach speed to vpeak[k]; returns
    the number of integration steps. model_params: the table's (sim.state MP_*), among them
    the resolution, steps per contact time scale; work: float rows W_* (N_WORK_ROWS) of at
    least n_c columns; deg: a float work array over all pieces."""
    v_scale = 0.0
    for k in range(n_c):
        vpeak[k] = max(_approach(S, ci[k], cj[k], nx[k], ny[k]), 0.0)
        v_scale = max(v_scale, vpeak[k])
        impulse[k] = 0.0
    if v_scale <= 0.0:
        return 0
    inv_mi, inv_mj, k_unload = work[W_INV_MI], work[W_INV_MJ], work[W_K_UNLOAD]
    delta, dmax, f, f_new = work[W_DELTA], work[W_DMAX], work[W_F], work[W_F_NEW]
    dp, relax = work[W_DP], work[W_RELAX]
    fr, fc = work[W_FR:W_FR + 3], work[W_FC:W_FC + N_FC]
    any_open = False
    for k in range(n_c):
        inv_mj[k] = k_unload[k] = dmax[k] = f[k] = f_new[k] = dp[k] = 0.0
        delta[k] = -gap[k]
        fr[0, k] = fr[1, k] = fr[2, k] = 0.0
        work[W_NX, k], work[W_NY, k], work[W_MU, k] = nx[k], ny[k], mu[k]
        work[W_OPEN, k] = 0.0
        if gap[k] > 0.0 and rho[k] > 0.0:
            work[W_OPEN, k] = 1.0
            work[W_PX, k] = -(rho[k] + gap[k]) * nx[k]
            work[W_PY, k] = -(rho[k] + gap[k]) * ny[k]
            any_open = True
    # the normals from here on: an open contact's turns with its pieces' paths (`_open_gap`)
    nx, ny = work[W_NX], work[W_NY]
    # the restitutions from here on: a slow pressed contact of a faster impact (e < 0, its
    # restitution negated: resolve.impact) is perfectly inelastic until the impact drives it
    # faster than v_stick (`_driven`), as a piece struck into a creeping neighbour does
    e_in, e, e_driven = e, work[W_E], work[W_E_DRIVEN]
    v_drive = math.inf
    for k in range(n_c):
        e[k], e_driven[k] = max(e_in[k], 0.0), abs(e_in[k])
        if e_in[k] < 0.0:
            v_drive = model_params[MP_V_STICK]
    opened = work[W_OPEN]
    fit_a, fit_b, fit_c = model_params[MP_FIT_A], model_params[MP_FIT_B], model_params[MP_FIT_C]
    fixed, with_friction, plastic = False, False, False
    dt = math.inf
    for k in range(n_c):
        i, j = ci[k], cj[k]
        inv_mi[k] = 1.0 / P[i, M]
        if j >= 0:
            inv_mj[k] = 1.0 / P[j, M]
        fixed = fixed or j < 0
        plastic = plastic or e[k] <= 0.0
        if e[k] > 0.0:
            k_unload[k] = stiff[k] * e[k] ** (-2.0 * expo[k])
        with_friction = with_friction or mu[k] > 0.0 or (
            j >= 0 and P[i, LAW] == LAW_BALL
            and model_params[MP_FIT_A] + model_params[MP_FIT_B] > 0.0)
        m_eff = 1.0 / (inv_mi[k] + inv_mj[k])
        dt = min(dt, contact_time_scale(m_eff, stiff[k], expo[k], v_scale))
    resolution = model_params[MP_IMPACT_STEPS]
    dt /= resolution
    dt0 = dt
    d_lim = work[W_D_LIM]
    stiffness_limits(n_c, stiff, expo, dt, resolution, inv_mi, inv_mj, d_lim)
    stiffer = False
    ke0 = _energy(S, P, objs, n_obj)
    mass = 0.0
    for m in range(n_obj):
        mass += P[objs[m], M]
    p_cap = BLOW_UP * math.sqrt(2.0 * mass * ke0)
    blown = False
    friction_constants(P, ci, cj, nx, ny, n_c, mu, model_params, fc)
    # friction's sticking bound is shared among the contacts of a piece (Jacobi relaxation)
    for k in range(n_c):
        deg[ci[k]] = 0.0
        if cj[k] >= 0:
            deg[cj[k]] = 0.0
    for k in range(n_c):
        deg[ci[k]] += 1.0
        if cj[k] >= 0:
            deg[cj[k]] += 1.0
    relax_in_time = -math.expm1(-1.0 / (STICK_TIME * resolution))
    for k in range(n_c):
        relax[k] = min(1.0 / max(deg[ci[k]], deg[cj[k]] if cj[k] >= 0 else 1.0), relax_in_time)
    v2_fastest = 0.0
    for m in range(n_obj):
        v2_fastest = max(v2_fastest, S[objs[m], VX] ** 2 + S[objs[m], VY] ** 2)
    v_open = max(V_OPEN * v_scale, V_ROUND * math.sqrt(v2_fastest))
    # the impact's own time, against the cloth's (`impact_time_bound`)
    elapsed = 0.0
    t_bound = impact_time_bound(P, objs, n_obj, v_scale, IMPACT_TIMES * n_c * dt * resolution)
    steps = 0
    while steps < MAX_STEPS:
        steps += 1
        _kick(S, ci, cj, nx, ny, f, inv_mi, inv_mj, n_c, 0.5 * dt)
        loaded = False
        if any_open:  # open contacts: their real geometry (the pass below adds it back)
            any_open = _open_gaps(S, P, ci, cj, n_c, dt, rho, delta, model_params, work)
        for k in range(n_c):
            delta[k] += _approach(S, ci[k], cj[k], nx[k], ny[k]) * dt
            if delta[k] > dmax[k]:
                dmax[k] = delta[k]
                stiffer = stiffer or delta[k] > d_lim[k]
            elif plastic and e[k] <= 0.0 and 0.0 < dmax[k] and delta[k] < dmax[k]:  # its dent set
                if k_unload[k] == 0.0:  # the first unloading: the stiffness at the dent
                    k_unload[k] = _dent_stiffness(dmax[k], stiff[k], expo[k])
                delta[k] -= dmax[k]
                dmax[k] = 0.0
            f_new[k] = _force(delta[k], dmax[k], stiff[k], k_unload[k], expo[k], e[k])
            if plastic and e[k] <= 0.0 and k_unload[k] > 0.0 and f_new[k] > 0.0:
                # reloading the dent: its stiffness there, or the law from the dent once deeper
                f_new[k] = max(k_unload[k] * delta[k], f_new[k])
            loaded = loaded or f_new[k] > 0.0
        _kick_closing(S, ci, cj, nx, ny, f, f_new, inv_mi, inv_mj, n_c, dt, impulse, dp)
        if with_friction:
            _friction(S, P, ci, cj, n_c, fit_a, fit_b, fit_c, work)
        approaching = False
        for k in range(n_c):
            blown = blown or not dp[k] <= p_cap  # NaN too
            vk = _approach(S, ci[k], cj[k], nx[k], ny[k])
            if vk > vpeak[k]:
                vpeak[k] = vk
                if vk > v_drive and e[k] != e_driven[k]:
                    _driven(k, e, e_driven, stiff, expo, k_unload)
            # an open contact that still closes keeps the impact going, if it touched: one
            # still closing the gap it started from is the loop's next event (the cloth acts
            # meanwhile), as it would be a little farther away (detect.touching's reach)
            approaching = approaching or vk > v_open and (
                gap[k] == 0.0 or dmax[k] > 0.0 or k_unload[k] > 0.0 and e[k] <= 0.0)
        elapsed += dt
        if stiffer:  # a contact stiffer than the step resolves: a finer step from here on
            factor = finer_step(dmax, expo, n_c, d_lim)
            dt *= factor
            relax_in_time = -math.expm1(-dt / (STICK_TIME * resolution * dt0))
            for k in range(n_c):
                relax[k] = min(relax[k], relax_in_time)
            stiffer = False
        if blown:
            steps = MAX_STEPS  # unfinished: the loop ends the shot as truncated
            break
        if not loaded and not approaching or elapsed >= t_bound:
            break
        if not approaching and steps % SPENT_EVERY == 0 \
                and spent(f, delta, dmax, e, expo, k_unload, inv_mi, inv_mj, n_c, v_open):
            break
        if not loaded:  # free flight: jump to a step short of the first contact to load again
            skip = _free_flight(S, ci, cj, nx, ny, n_c, delta, dmax, e, v_open) - dt
            if skip > 0.0:
                elapsed += skip
                for k in range(n_c):
                    if any_open and opened[k] != 0.0:  # the jump stops short of its touch
                        delta[k] = _open_gap(S, ci[k], cj[k], k, skip, rho[k], work)
                    else:
                        delta[k] += _approach(S, ci[k], cj[k], nx[k], ny[k]) * skip
    _deferred_friction(S, P, ci, n_c, work)
    _remove_surplus(S, P, ci, cj, n_c, objs, n_obj, impulse, fixed, ke0, deg)
    return steps
