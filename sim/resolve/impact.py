"""The place that selects the impact model for the contacts due now.

The touching system (detect.touching) holds every contact due now and every contact chained to
them by touching pieces, rails and knuckles. A system of one contact is a binary impact, resolved
in closed form (resolve.disc_disc, disc_rail, ball_ball, and Han's model for a ball on a cushion
or knuckle: resolve.ball_cushion); a larger one is one multiple impact (resolve.multi_impact),
unless only one contact is due and no other contact closes before or after its binary impact,
or the multiple impact finds that no other took an impulse: then the others carry no force
and the binary impact is the multiple impact's solution (`_binary_alone`, `_binary_after_all`).
Slow pressing contacts are perfectly inelastic and their pieces then move on together
(resolve.cluster), unless a pair alone parts for good: its press ends before a bounce would
come back (`_bounce_short_presses`).
"""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_norc
from cuesim.sim.detect import V_TOUCH
from cuesim.sim.resolve.ball_ball import resolve_ball_ball
from cuesim.sim.resolve.ball_cushion import nose_restitution, resolve_ball_cushion
from cuesim.sim.resolve.cluster import join_pressed
from cuesim.sim.resolve.disc_disc import resolve_disc_disc
from cuesim.sim.resolve.disc_rail import resolve_disc_rail
from cuesim.sim.resolve.impact_step import contact_time_scale
from cuesim.sim.resolve.multi_impact import N_WORK_ROWS, solve_multi_impact, unfinished
from cuesim.sim.resolve.press import comes_back, find_root, pressing
from cuesim.sim.state import (
    KIND,
    LAW,
    LAW_BALL,
    MP_FIT_A,
    MP_FIT_B,
    MP_FIT_C,
    MP_NOSE,
    VX,
    VY,
    M,
    R,
)
from cuesim.sim.work_rows import (
    CC_I,
    CC_J,
    CW_GAP,
    CW_IMPULSE,
    CW_NX,
    CW_NY,
    CW_PUSHED,
    CW_RHO,
    CW_VPEAK,
    IW_AFFECTED,
    IW_LABEL,
    IW_PARENT,
)

# rows of resolve_impact's float work array (a column per contact and per piece, and at least
# NS columns): the contacts' laws, then the multiple impact's rows, a row over all pieces, the
# rows of one system's contacts when there are several, and four saved states of pieces
R_E, R_MU, R_K, R_ETA = range(4)
R_IMPACT = 4  # N_WORK_ROWS rows: solve_multi_impact's work
R_DEG = R_IMPACT + N_WORK_ROWS  # over all pieces: their contact counts in a multiple impact
R_SYSTEM = R_DEG + 1  # 10 rows: one system's nx, ny, e, mu, K, eta, impulse, peak speed, gap, rho
R_SAVED = R_SYSTEM + 10  # 4 rows of NS: the pieces of a binary impact tried alone, and of
#                          a multiple impact found binary (`_binary_after_all`)
N_FLOAT_ROWS = R_SAVED + 4
# rows of its int work array (2 columns per contact): the contacts' systems, then one system's
# pieces i and j, the contacts' places in the whole, and its pieces
I_COMP, I_CI, I_CJ, I_INDEX, I_OBJS = range(5)
N_INT_ROWS = 5
# a binary contact lasts at most this many contact time scales delta*/v (an elastic one:
# Hertz 2.94, a linear law pi; a dissipating one less): a contact starting from a gap that
# cannot close within it does not take part in that binary impact (`_binary_alone`)
DURATION = 4.0


@njit_norc
def approach(S: np.ndarray, i: int, j: int, nx: float, ny: float) -> float:
    """(v_i - v_j) . n: positive when the contact closes (j < 0: a fixed body)."""
    vjx, vjy = (S[j, VX], S[j, VY]) if j >= 0 else (0.0, 0.0)
    return (S[i, VX] - vjx) * nx + (S[i, VY] - vjy) * ny


@njit_norc
def _binary(S: np.ndarray, P: np.ndarray, i: int, j: int, nx: float, ny: float, e: float,
            mu: float, model_params: np.ndarray, impulse: np.ndarray, vpeak: np.ndarray) -> None:
    """One contact alone: the closed-form binary impact of its model (impulse[0] = 1 when it
    acted; its size is not needed)."""
    vn = approach(S, i, j, nx, ny)
    vpeak[0] = max(vn, 0.0)
    impulse[0] = 0.0
    if vn <= 0.0:
        return
    impulse[0] = 1.0
    if j >= 0 and P[i, LAW] == LAW_BALL and P[j, LAW] == LAW_BALL:
        resolve_ball_ball(S, P, i, j, e, model_params[MP_FIT_A], model_params[MP_FIT_B],
                          model_params[MP_FIT_C])
    elif j >= 0:
        resolve_disc_disc(S, P, i, j, e, mu)
    elif P[i, LAW] == LAW_BALL:
        resolve_ball_cushion(S, P, i, -nx, -ny, e, mu, model_params[MP_NOSE])
    else:
        resolve_disc_rail(S, P, i, -nx, -ny, e, mu)


@njit_norc
def _binary_alone(S: np.ndarray, P: np.ndarray, ci: np.ndarray, cj: np.ndarray,
                  nx: np.ndarray, ny: np.ndarray, n_c: int, e: np.ndarray, mu: np.ndarray,
                  kk: np.ndarray, eta: np.ndarray, gap: np.ndarray, model_params: np.ndarray,
                  impulse: np.ndarray, vpeak: np.ndarray, saved: np.ndarray) -> bool:
    """The due contact 0 resolved alone, when no other contact of the system closes while it
    acts.

    The binary impact changes the velocities of its two pieces along its normal in proportion
    to its impulse, which only grows; so an other contact's approach speed moves linearly from
    its value before to its value after. A touching contact (gap 0) not closing at both ends
    never closes; one starting from a gap that it cannot close at the faster of those speeds
    within DURATION time scales of contact 0 (longer than any binary contact lasts) loads only
    after contact 0 has ended, and then ends the multiple impact unloaded (resolve.multi_impact:
    only a contact that touched keeps it going). Either way it carries no force in the
    multiple impact, and the binary impact is that impact's exact solution. Closing means
    faster than V_TOUCH, as detection has it: a ball running along the cushion it touches
    closes on it by the round-off of its direction (1e-14 m/s), and that alone sent a head-on
    hit along the cushion to the multiple impact, 14 mm from the exactly parallel shot
    (tests/test_round_off_symmetry.py). Returns False (the state untouched) when some contact
    would close: the multiple impact is needed. saved: two rows of NS, work."""
    i, j = ci[0], cj[0]
    v0 = approach(S, i, j, nx[0], ny[0])
    m_eff = P[i, M] if j < 0 else 1.0 / (1.0 / P[i, M] + 1.0 / P[j, M])
    reach_time = DURATION * contact_time_scale(m_eff, kk[0], eta[0], v0) if v0 > 0.0 else 0.0
    for k in range(1, n_c):
        v = approach(S, ci[k], cj[k], nx[k], ny[k])
        if v > V_TOUCH and (gap[k] == 0.0 or gap[k] < v * reach_time):
            return False
    _save_pair(S, i, j, saved)
    _binary(S, P, i, j, nx[0], ny[0], max(e[0], 0.0), mu[0], model_params, impulse, vpeak)
    for k in range(1, n_c):
        v = approach(S, ci[k], cj[k], nx[k], ny[k])
        if v > V_TOUCH and (gap[k] == 0.0 or gap[k] < v * reach_time):
            _restore_pair(S, i, j, saved)
            return False
    _only_the_first(n_c, impulse, vpeak)
    return True


@njit_norc
def _save_pair(S: np.ndarray, i: int, j: int, saved: np.ndarray) -> None:
    """Pieces i and j (j < 0: a fixed body) into saved's two rows."""
    for c in range(S.shape[1]):  # by element: slice assignment compiles a shape check
        saved[0, c] = S[i, c]
        if j >= 0:
            saved[1, c] = S[j, c]


@njit_norc
def _restore_pair(S: np.ndarray, i: int, j: int, saved: np.ndarray) -> None:
    """Pieces i and j as `_save_pair` saved them."""
    for c in range(S.shape[1]):
        S[i, c] = saved[0, c]
        if j >= 0:
            S[j, c] = saved[1, c]


@njit_norc
def _only_the_first(n_c: int, impulse: np.ndarray, vpeak: np.ndarray) -> None:
    """Contacts 1.. of a system resolved as contact 0's binary impact carried no force."""
    for k in range(1, n_c):
        impulse[k] = 0.0
        vpeak[k] = 0.0


@njit_norc
def _binary_after_all(S: np.ndarray, P: np.ndarray, ci: np.ndarray, cj: np.ndarray,
                      nx: np.ndarray, ny: np.ndarray, n_c: int, e0: float, mu0: float,
                      gap: np.ndarray, model_params: np.ndarray, impulse: np.ndarray,
                      vpeak: np.ndarray, saved: np.ndarray) -> None:
    """A multiple impact of one due contact in which no other contact took an impulse (a
    neighbour within `_binary_alone`'s reach that the impact ended before it touched) is that
    contact's binary impact: its closed form replaces the integration, from the pieces saved
    before it (saved's rows 0 and 1, `_save_pair`; e0: contact 0's restitution before Han's
    nose transform), unless a touching contact then closes (as `_binary_alone` checks; the
    integration is kept: rows 2 and 3). So the outcome does not depend on whether a body it
    never touches lay within DURATION's reach: the integration differs from the closed form
    by its resolution and by its ball friction, Coulomb's along the slip as the slip turns
    where the binary law keeps its first direction (a ball struck 1.2 mm from a cushion at
    4.8 m/s: 9e-5 m/s at 20 steps a contact, 2e-5 at 320; a harder-spinning one 51 mm/s,
    bench/README "A multiple impact that no other contact joins is the binary impact")."""
    for k in range(1, n_c):
        if impulse[k] != 0.0:
            return
    i, j = ci[0], cj[0]
    kept_impulse, kept_vpeak = impulse[0], vpeak[0]
    _save_pair(S, i, j, saved[2:4])
    _restore_pair(S, i, j, saved[0:2])
    _binary(S, P, i, j, nx[0], ny[0], max(e0, 0.0), mu0, model_params, impulse, vpeak)
    for k in range(1, n_c):
        if gap[k] == 0.0 and approach(S, ci[k], cj[k], nx[k], ny[k]) > V_TOUCH:
            _restore_pair(S, i, j, saved[2:4])
            impulse[0], vpeak[0] = kept_impulse, kept_vpeak
            return
    _only_the_first(n_c, impulse, vpeak)


@njit_norc
def _resolve_system(S: np.ndarray, P: np.ndarray, ci: np.ndarray, cj: np.ndarray,
                    nx: np.ndarray, ny: np.ndarray, n_c: int, n_due: int, e: np.ndarray,
                    mu: np.ndarray, kk: np.ndarray, eta: np.ndarray, objs: np.ndarray,
                    n_obj: int, model_params: np.ndarray, impulse: np.ndarray,
                    vpeak: np.ndarray, gap: np.ndarray, rho: np.ndarray,
                    work: np.ndarray) -> bool:
    """One connected system: a binary impact, or one multiple impact whose contacts start from
    their gaps, rho the sums of radii of those to round bodies (work: resolve_impact's float
    work array). False when the multiple impact reached its step bound unfinished."""
    if n_c == 1:  # a lone slow contact is perfectly inelastic (e < 0: see resolve_impact)
        _binary(S, P, ci[0], cj[0], nx[0], ny[0], max(e[0], 0.0), mu[0], model_params, impulse,
                vpeak)
    elif not (n_due == 1 and _binary_alone(S, P, ci, cj, nx, ny, n_c, e, mu, kk, eta, gap,
                                           model_params, impulse, vpeak,
                                           work[R_SAVED:R_SAVED + 2])):
        e0 = e[0]
        if n_due == 1:
            _save_pair(S, ci[0], cj[0], work[R_SAVED:R_SAVED + 2])
        for k in range(n_c):  # a ball's cushion: Han's normal at the nose (horizontal part)
            if cj[k] < 0 and P[ci[k], LAW] == LAW_BALL:  # (a slow one's sign kept)
                e[k] = math.copysign(nose_restitution(abs(e[k]), P[ci[k], R],
                                                      model_params[MP_NOSE]), e[k])
        steps = solve_multi_impact(S, P, ci, cj, nx, ny, n_c, e, mu, kk, eta, objs, n_obj,
                                   model_params, impulse, vpeak,
                                   work[R_IMPACT:R_IMPACT + N_WORK_ROWS], work[R_DEG], gap,
                                   rho)
        if unfinished(steps):
            return False
        if n_due == 1:
            _binary_after_all(S, P, ci, cj, nx, ny, n_c, e0, mu[0], gap, model_params,
                              impulse, vpeak, work[R_SAVED:R_SAVED + 4])
    return True


@njit_norc
def _components(ci: np.ndarray, cj: np.ndarray, n_c: int, comp: np.ndarray,
                parent: np.ndarray, label: np.ndarray, objs: np.ndarray, n_obj: int) -> int:
    """Label the contacts by connected system (comp[k] = 0, 1, ...): two contacts belong to
    one system when a chain of contacts between pieces joins them; fixed bodies join nothing
    (two balls on one cushion are two impacts). Returns the number of systems. parent and label
    are work arrays over all pieces (parent[a] = a, label[a] = -1), restored on return for
    the pieces objs[:n_obj] (every piece of a contact)."""
    for k in range(n_c):
        if cj[k] >= 0:
            a, b = find_root(parent, ci[k]), find_root(parent, cj[k])
            if a != b:
                parent[b] = a
    n_comp = 0
    for k in range(n_c):
        r = find_root(parent, ci[k])
        if label[r] < 0:
            label[r] = n_comp
            n_comp += 1
        comp[k] = label[r]
    for m in range(n_obj):
        parent[objs[m]] = objs[m]
        label[objs[m]] = -1
    return n_comp


@njit_norc
def _resolve_each(S: np.ndarray, P: np.ndarray, ci: np.ndarray, cj: np.ndarray,
                  nx: np.ndarray, ny: np.ndarray, n_c: int, n_due: int, e: np.ndarray,
                  mu: np.ndarray, kk: np.ndarray, eta: np.ndarray, comp: np.ndarray,
                  model_params: np.ndarray, impulse: np.ndarray, vpeak: np.ndarray,
                  gap: np.ndarray, rho: np.ndarray, listed: np.ndarray, work: np.ndarray,
                  iwork: np.ndarray) -> bool:
    """Resolve each connected system on its own (its due contacts first, as listed). listed
    is a work array over all pieces, all -1, restored on return; work and iwork are
    resolve_impact's. False when a multiple impact reached its step bound unfinished."""
    lci, lcj, index, lobjs = iwork[I_CI], iwork[I_CJ], iwork[I_INDEX], iwork[I_OBJS]
    lnx, lny, le, lmu = work[R_SYSTEM], work[R_SYSTEM + 1], work[R_SYSTEM + 2], work[R_SYSTEM + 3]
    lkk, leta = work[R_SYSTEM + 4], work[R_SYSTEM + 5]
    limp, lvp, lgap = work[R_SYSTEM + 6], work[R_SYSTEM + 7], work[R_SYSTEM + 8]
    lrho = work[R_SYSTEM + 9]
    n_comp = 0
    for k in range(n_c):
        n_comp = max(n_comp, comp[k] + 1)
    finished = True
    for c in range(n_comp):
        m, due, n_obj = 0, 0, 0
        for k in range(n_c):
            if comp[k] != c:
                continue
            lci[m], lcj[m], lnx[m], lny[m] = ci[k], cj[k], nx[k], ny[k]
            le[m], lmu[m], lkk[m], leta[m], lgap[m] = e[k], mu[k], kk[k], eta[k], gap[k]
            lrho[m] = rho[k]
            index[m] = k
            due += k < n_due
            m += 1
            for a in (ci[k], cj[k]):
                if a >= 0 and listed[a] < 0:
                    listed[a] = 0
                    lobjs[n_obj] = a
                    n_obj += 1
        finished = _resolve_system(S, P, lci, lcj, lnx, lny, m, due, le, lmu, lkk, leta, lobjs,
                                   n_obj, model_params, limp, lvp, lgap, lrho,
                                   work) and finished
        for q in range(m):
            impulse[index[q]], vpeak[index[q]] = limp[q], lvp[q]
    for k in range(n_c):
        listed[ci[k]] = -1
        if cj[k] >= 0:
            listed[cj[k]] = -1
    return finished


@njit_norc
def _only_contact(ci: np.ndarray, cj: np.ndarray, gap: np.ndarray, n_c: int, k: int) -> bool:
    """Whether contact k is the only touching contact (gap 0) of the system that either of its
    pieces takes part in: no cushion, jaw or other piece touches them (one a gap away, within
    the impact's reach, is not touching: counted, the reach would decide)."""
    i, j = ci[k], cj[k]
    for q in range(n_c):
        if q != k and gap[q] == 0.0 and (ci[q] == i or ci[q] == j or cj[q] == i or cj[q] == j):
            return False
    return True


@njit_norc
def _bounce_short_presses(S: np.ndarray, P: np.ndarray, t: float, ci: np.ndarray,
                          cj: np.ndarray, nx: np.ndarray, ny: np.ndarray, gap: np.ndarray,
                          n_c: int, e: np.ndarray, e_pair: np.ndarray, slow: np.ndarray) -> None:
    """A slow closing pair contact, neither piece touching anything else (`_only_contact`),
    is perfectly inelastic only if it is a persistent contact (resolve.press `comes_back`: the
    press of the pieces' own motion laws brings it back from a bounce before those laws end);
    otherwise it is no longer slow and keeps its restitution, as under any v_stick below its
    speed. So too in a system slower than v_stick: a press of round-off (two equal pucks
    braking alike) must not decide it. Among more touching contacts (a row, balls wedged in a
    pocket's jaws) it stays slow: bounced there, the others sent it back at once, at ever
    smaller speeds (the jaws' wedge: 352 events against 75)."""
    for k in range(n_c):
        i, j = ci[k], cj[k]
        if not slow[k] or j < 0:
            continue
        v0 = approach(S, i, j, nx[k], ny[k])
        e_k = e_pair[int(P[i, KIND]), int(P[j, KIND])]
        # the pair's own test first: it is O(1), the search for other contacts O(n_c)
        if v0 > 0.0 and not comes_back(S, P, i, j, nx[k], ny[k], v0, e_k, t) \
                and _only_contact(ci, cj, gap, n_c, k):
            slow[k] = False
            e[k] = e_k


@njit_norc
def resolve_impact(S: np.ndarray, P: np.ndarray, t: float, cc: np.ndarray, cw: np.ndarray,
                   n_c: int, n_due: int, iw: np.ndarray, n_obj: int, e_pair: np.ndarray,
                   mu_pair: np.ndarray, e_rail: np.ndarray, mu_rail: np.ndarray,
                   stiffness: np.ndarray, exponent: np.ndarray, v_stick: float,
                   model_params: np.ndarray, work: np.ndarray, iwork: np.ndarray,
                   slow: np.ndarray) -> bool:
    """Resolve the touching system (its pieces objs[:n_obj], iw's `affected`, advanced to t;
    its contacts k < n_c the columns of cc and cw, sim.work_rows: pieces ci, cj and normals
    nx, ny; its first n_due the ones detection found due now: a due contact that does not
    close is pressed, detect.pairs/rails, and counts as slow and pressing whatever the sign
    test). Writes each contact's normal impulse (cw's impulse row: > 0, the contact acted) and
    its largest approach speed (vpeak). stiffness/exponent hold the compliance law K delta^eta
    of kind pairs (rows < n_kinds) and of each kind on a rail (last row). Work arrays, so that
    an impact allocates nothing: `work`, float, N_FLOAT_ROWS x (at least n_c, the pieces and
    NS); `iwork`, int, N_INT_ROWS x (2 n_c or more); iw's parent and label rows, over all
    pieces, parent[a] = a and label[a] = -1, as they are again on return: no work here costs
    more than the system's size. Returns False when a multiple impact reached its step bound
    unfinished (the loop then stops the shot as truncated). The loop's rows come as whole
    arrays: numba pushes every word of every array argument at a call (sim.work_rows)."""
    ci, cj, nx, ny = cc[CC_I], cc[CC_J], cw[CW_NX], cw[CW_NY]
    impulse, vpeak, gap, rho = cw[CW_IMPULSE], cw[CW_VPEAK], cw[CW_GAP], cw[CW_RHO]
    objs, parent, label = iw[IW_AFFECTED], iw[IW_PARENT], iw[IW_LABEL]
    n_kinds = stiffness.shape[1]
    e, mu, kk, eta = work[R_E], work[R_MU], work[R_K], work[R_ETA]
    v_fast = 0.0  # the fastest approach in the system: a slow system is all slow contacts
    for k in range(n_c):
        v_fast = max(v_fast, approach(S, ci[k], cj[k], nx[k], ny[k]))
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
        # slower than v_stick: perfectly inelastic when pressed, or when the whole system is
        # that slow (pieces creeping to rest in contact: no bounces at micrometres per second,
        # which chattered, hundreds of impacts at one instant, as each piece stopped in turn)
        slow[k] = v0 <= v_stick and (pressed or v_fast <= v_stick)
        if slow[k]:
            # perfectly inelastic; a pair of pieces in a faster system, only until the impact
            # drives it faster than v_stick (a piece struck into a creeping neighbour): its
            # restitution then (resolve.multi_impact), carried negated. Against a fixed body it
            # stays plastic: driven elastic, the wedge shot's balls jammed in a pocket's jaws
            # rested 22 mm from the stiffened soft reference, against 1.7 mm
            # (tests/test_tunnels.py)
            e[k] = -e[k] if v_fast > v_stick and j >= 0 else 0.0
        # a contact that starts from a gap is not touching: its pieces are never joined
        slow[k] = slow[k] and gap[k] == 0.0
    _bounce_short_presses(S, P, t, ci, cj, nx, ny, gap, n_c, e, e_pair, slow)
    comp = iwork[I_COMP]
    if _components(ci, cj, n_c, comp, parent, label, objs, n_obj) == 1:
        finished = _resolve_system(S, P, ci, cj, nx, ny, n_c, n_due, e, mu, kk, eta, objs,
                                   n_obj, model_params, impulse, vpeak, gap, rho, work)
    else:
        finished = _resolve_each(S, P, ci, cj, nx, ny, n_c, n_due, e, mu, kk, eta, comp,
                                 model_params, impulse, vpeak, gap, rho, label, work, iwork)
    join_pressed(S, P, t, ci, cj, nx, ny, n_c, n_due, slow, v_stick, objs, n_obj, parent,
                 impulse, cw[CW_PUSHED], mu)
    return finished
