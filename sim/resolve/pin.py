"""Skittles (5-pins): a ball or a thrown pin touching a standing pin — an impact.

Model (rigid bodies, first principles; numbers in cuesim.tables.carom.pin_model):
- Impact. In the vertical plane through the horizontal contact normal e, the pin (mass m,
  centre of mass G at height h_G, inertia I_G about a horizontal axis through G, base radius
  r_b) stands on the cloth and takes the impulse J along the 3D contact normal
  n = (cos th e, -sin th z). A ball (radius R) touches the spherical head (radius a, centre at
  height c): sin th = (R - c) / (R + a), and n runs through the head's centre. A thrown pin,
  lying, strikes at height c = h_pp with th = 0. The cloth acts at one base rim
  (x = sigma r_b, sigma = +1 the far rim, -1 the near one) with Coulomb friction mu: the pin
  pivots on the rim sticking (I_P omega = J (c cos th - r_b sin th), I_P = I_G + m (r_b^2 +
  h_G^2)) or slipping (F = s mu N), or slides flat when the cloth can hold it upright; the
  first mode whose impulses are consistent (N >= 0, |F| <= mu N, friction against the slip,
  the rim it turns about) is taken. J follows from Newton's restitution e along n:
  J = (1 + e) v_n / (1/m_k + w_p), v_n the knocker's normal approach, w_p the pin's normal
  mobility in that mode. The knocker takes -J cos th e in the plane (its small upward part
  J sin th is lost into the cloth); momentum along e is exchanged exactly, the cloth takes
  the rest (F), and kinetic energy never rises.
- Topple or stand. The pin topples when it turns about its rim faster than Housner's
  overturning rate (G. W. Housner, Bull. Seismol. Soc. Am. 53 (1963) 403: a rigid block on a
  base edge, omega >= p alpha with alpha = atan(r_b / h_G), p^2 = m g rho / I_P,
  rho = |G - rim|), or when a ball's path forces the head past the tipping angle: its centre
  passes the pin's axis closer than D - x_tip (D the ball-pin contact distance,
  x_tip = r_b (1 - cos alpha) + c sin alpha the head's sideways travel when G is over the rim)
  or stops before it has passed (12.6: the ball moved onto the pin).
- A toppled pin is thrown: G leaves at (v_x, v_z) = (u + omega h_G, sigma r_b omega), flies
  (free fall of G from h_G to h_L, a lying pin's height: t_f = (v_z + v_l) / g,
  v_l = sqrt(v_z^2 + 2 g (h_G - h_L))), lands (Coulomb impulse of the cloth: the horizontal
  speed drops by at most mu (1 + e_f) v_l) and slides to rest (mu g): its travel is
  D = |v_x| t_f + v_1^2 / (2 mu g), v_1 = max(|v_x| - mu (1 + e_f) v_l, 0), always within
  [|v_x| t_f, |v_x| t_f + v_x^2 / (2 mu g)] (`thrown_travel`). In the plane it runs along e from
  the knock at its true speed |v_x| and stops at D (one straight segment, deceleration
  v_x^2 / (2 D)); on the way it knocks the standing pins it reaches (12.3).
- Knocked pins, thrown or lying, meet one another at the widest pin diameter, as impacts of the
  contact core (restitution E_PIN_PIN; a lying pin so struck slides, PIN_THROWN, at the cloth's
  mu g, as a thrown pin does after any impact). Balls pass over them: a 0.72 g pin cannot hold
  up a 210 g ball, which rides over it or brushes it aside (its push on the pin is not
  modelled, so a pin can come to rest under a ball).
- A pin that stands rocks back (Housner's return time (2/p) atanh(omega / (p alpha))) while its
  base slides with the slip speed u by u^2 / (2 mu g) (moved, 12.4; u = 0 when the rim sticks:
  only touched, 12.5). Until it is upright and still (the longest of the rocking, the slide and
  the ball's passage) it is PIN_MOVED: it slides its distance in that time, lets the piece that
  touched it pass (S[PBY]), and is felled by any other ball or thrown pin that strikes it
  (tilted, it has no standing response left), or by the piece let pass when an impact turns
  that piece into it (`second_pass`); then it stands again (REST). The passage is
  judged again when the pin would stand, on the true paths (`pin_clear_time`): the piece
  passing it, still inside its contact circle, keeps it leaning (PIN_LEANS, at rest; no event;
  felled as above if another strikes it) until it has left; one that comes to rest there
  fells it (12.6: the ball moved onto the pin), at its stop.
"""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_norc
from cuesim.sim.detect import TOUCH
from cuesim.sim.motion.ball import U_ROLL
from cuesim.sim.motion.dispatch import contact_distance
from cuesim.sim.motion.segment import position, velocity
from cuesim.sim.roots import INF, first_descent
from cuesim.sim.state import (
    AX,
    AY,
    DECEL,
    KSEG,
    LAW,
    LAW_BALL,
    LAW_PIN,
    MST,
    ON,
    PBY,
    PEND,
    PIN_DOWN,
    PIN_LEANS,
    PIN_MOVED,
    PIN_THROWN,
    PM_EF,
    PM_G,
    PM_HA,
    PM_HC,
    PM_HG,
    PM_HL,
    PM_HPP,
    PM_IG,
    PM_MU,
    PM_RB,
    RDECEL,
    TEND,
    VX,
    VY,
    WX,
    WY,
    M,
    R,
    X,
    Y,
)


@njit_norc
def pin_response(c: float, ct: float, st: float, m: float, hg: float, ig: float, rb: float,
                 mu: float) -> tuple[float, float, float, float, float]:
    """The pin's response to a unit impulse along n = (ct e, -st z) through the point of its
    axis at height c: (omega, u, sigma, F, N) = its rate of turning about the rim sigma
    (+1 far, -1 near, 0 none: it slides flat), the slip speed of its base along e, and the
    cloth's horizontal and vertical impulses. The first consistent mode: the far rim sticking,
    a rim slipping, held flat (the impulse inside the friction cone), sliding flat."""
    ip = ig + m * (rb * rb + hg * hg)
    om = (c * ct - rb * st) / ip
    f = m * om * hg - ct
    nn = m * rb * om + st
    if om >= 0.0 and nn >= 0.0 and abs(f) <= mu * nn:
        return om, 0.0, 1.0, f, nn
    for sig in (1.0, -1.0):
        for s in (1.0, -1.0):
            den = ig + m * sig * rb * (s * mu * hg + sig * rb)
            if den <= 0.0:
                continue
            om = (ct * (c - hg) - (s * mu * hg + sig * rb) * st) / den
            nn = m * sig * rb * om + st
            f = s * mu * nn
            u = (ct + f) / m - om * hg
            if sig * om > 0.0 and nn >= 0.0 and s * u <= 0.0:
                return om, u, sig, f, nn
    nn = st
    if ct <= mu * st and abs(ct * (c - hg) + hg * ct) <= rb * nn:
        return 0.0, 0.0, 0.0, -ct, nn  # inside the friction cone: the cloth holds it still
    for s in (-1.0, 1.0):
        f = s * mu * nn
        u = (ct + f) / m
        if s * u <= 0.0 and abs(ct * (c - hg) - hg * f) <= rb * nn:
            return 0.0, u, 0.0, f, nn
    # no consistent rigid mode (none met on the grid of heights, tilts and frictions the tests
    # sweep): the cloth holds nothing back
    return 0.0, ct / m, 0.0, 0.0, 0.0


@njit_norc
def normal_mobility(om: float, u: float, sig: float, c: float, ct: float, st: float,
                    rb: float) -> float:
    """Normal velocity of the struck point per unit impulse: (u + omega c) cos th -
    sigma r_b omega sin th (the velocity of the axis point at height c, through which n runs)."""
    return (u + om * c) * ct - sig * rb * om * st


@njit_norc
def housner(m: float, hg: float, ig: float, rb: float, g: float) -> tuple[float, float]:
    """(p, alpha) of a pin rocking on a base rim: p^2 = m g rho / I_P, alpha = atan(r_b / h_G)."""
    rho2 = rb * rb + hg * hg
    return math.sqrt(m * g * math.sqrt(rho2) / (ig + m * rho2)), math.atan2(rb, hg)


@njit_norc
def tipping_clearance(rb: float, hg: float, c: float) -> float:
    """x_tip = r_b (1 - cos alpha) + c sin alpha, alpha = atan(r_b / h_G): how far sideways the
    point of the axis at height c travels when the pin rocks onto its rim until G is over it.
    A ball whose path passes within D - x_tip of the axis pushes the pin past it (felled); a
    ball passing farther out tilts the standing pin away by at most x_tip as it goes by."""
    alpha = math.atan2(rb, hg)
    return rb * (1.0 - math.cos(alpha)) + c * math.sin(alpha)


@njit_norc
def thrown_travel(vx: float, vz: float, hg: float, hl: float, mu: float, ef: float,
                  g: float) -> tuple[float, float, float]:
    """(D, D_min, D_max): a thrown pin's travel from the knock to rest, and its bounds (the
    landing taking all or none of the horizontal speed)."""
    vl = math.sqrt(vz * vz + 2.0 * g * max(hg - hl, 0.0))
    tf = (vz + vl) / g
    v = abs(vx)
    v1 = max(v - mu * (1.0 + ef) * vl, 0.0)
    flight = v * tf
    return flight + v1 * v1 / (2.0 * mu * g), flight, flight + v * v / (2.0 * mu * g)


@njit_norc
def contact_geometry(P: np.ndarray, knocker: int, pin: int) -> tuple[float, float, float]:
    """(c, cos th, sin th) of a knock: a ball on the head sphere, a thrown pin at h_pp."""
    if P[knocker, LAW] == LAW_PIN:
        return P[pin, PM_HPP], 1.0, 0.0
    a, c, rb = P[pin, PM_HA], P[pin, PM_HC], P[knocker, R]
    st = (rb - c) / (rb + a)
    return c, math.sqrt(1.0 - st * st), st


@njit_norc
def passage_time(fx: float, fy: float, vx: float, vy: float, v: float, k: float,
                 d: float) -> float:
    """How long a ball at the origin moving at (vx, vy) (speed v > 0, decelerating at k along
    its path) takes to leave the circle of radius d around (fx, fy), the place where a moved
    pin will stand: the path length s = along + sqrt(d^2 - miss^2) (along and miss: the
    circle's centre along and across the path), at v t - k t^2 / 2 = s; 0 when the path misses
    the circle or leaves it behind. A ball that stops first takes v / k, and the pin's stand
    is judged again then (`pin_clear_time`)."""
    along = (fx * vx + fy * vy) / v
    miss = abs(fx * vy - fy * vx) / v
    if miss >= d:
        return 0.0
    s = along + math.sqrt(d * d - miss * miss)
    if s <= 0.0:
        return 0.0
    if k == 0.0:
        return s / v
    if v * v <= 2.0 * k * s:
        return v / k
    return (v - math.sqrt(v * v - 2.0 * k * s)) / k


@njit_norc
def _gap_quartic(qx: float, qy: float, wx: float, wy: float, ax: float, ay: float,
                 d: float) -> tuple[float, float, float, float, float]:
    """The coefficients (c0..c4, in tau) of |q + w tau + a tau^2 / 2|^2 - d^2."""
    return (qx * qx + qy * qy - d * d, 2.0 * (qx * wx + qy * wy),
            wx * wx + wy * wy + qx * ax + qy * ay, wx * ax + wy * ay, 0.25 * (ax * ax + ay * ay))


@njit_norc
def _enters(qx: float, qy: float, wx: float, wy: float, ax: float, ay: float, d_in: float,
            h: float) -> bool:
    """Whether q + w tau + a tau^2 / 2 comes within d_in of the origin for tau in [0, h]."""
    c0, c1, c2, c3, c4 = _gap_quartic(qx, qy, wx, wy, ax, ay, d_in)
    if c0 <= 0.0:
        return True
    if not h > 0.0:
        return False
    _, end = first_descent(c0, c1, c2, c3, c4, h)
    return end < INF


@njit_norc
def passes_within(S: np.ndarray, P: np.ndarray, ball: int, qx: float, qy: float, bx: float,
                  by: float, kb: float, d_in: float, h: float) -> bool:
    """Whether `ball`, just knocked (its reaction taken), comes within d_in of a touched pin's
    axis within h while the pin's base slides: the ball from q (relative to the base) on its
    true path (motion.ball: the slip's parabola, a = -mu_s g u/|u| with u = v + R k x w, for
    2 |u| / (7 mu_s g), then rolling straight at -mu_r g along its velocity, to rest), the base
    from rest at (bx, by), decelerating at kb along it. The knock's straight line at the ball's
    velocity missed by micrometres where the base slid back toward the ball as it went by
    (bench/tunnels.py 5-pins seed 604242, random physics)."""
    r, k_slide, k_roll = P[ball, R], P[ball, DECEL], P[ball, RDECEL]
    vx, vy = S[ball, VX], S[ball, VY]
    b = math.sqrt(bx * bx + by * by)
    abx, aby = (-kb * bx / b, -kb * by / b) if b > 0.0 else (0.0, 0.0)
    ux, uy = vx - r * S[ball, WY], vy + r * S[ball, WX]
    u = math.sqrt(ux * ux + uy * uy)
    ts = 2.0 * u / (7.0 * k_slide) if u > U_ROLL and k_slide > 0.0 else 0.0
    if ts > 0.0:  # the slip
        a1x, a1y = -k_slide * ux / u, -k_slide * uy / u
        if _enters(qx, qy, vx - bx, vy - by, a1x - abx, a1y - aby, d_in, min(ts, h)):
            return True
        if ts >= h:
            return False
        qx += ts * (vx - bx + 0.5 * ts * (a1x - abx))
        qy += ts * (vy - by + 0.5 * ts * (a1y - aby))
        vx, vy = vx + a1x * ts, vy + a1y * ts
        bx, by = bx + abx * ts, by + aby * ts
        h -= ts
    v = math.sqrt(vx * vx + vy * vy)  # the roll
    if v == 0.0:
        return _enters(qx, qy, -bx, -by, -abx, -aby, d_in, h)
    if k_roll > 0.0:
        h = min(h, v / k_roll)
    return _enters(qx, qy, vx - bx, vy - by, -k_roll * vx / v - abx, -k_roll * vy / v - aby,
                   d_in, h)


@njit_norc
def knock_pin(S: np.ndarray, P: np.ndarray, knocker: int, pin: int, e: float,
              t: float) -> tuple[float, bool]:
    """Resolve the standing `pin` touched by `knocker` (a ball or a thrown pin; both advanced
    to t): the knocker takes the reaction, the pin is thrown (felled) or moved standing, the
    knocker then passing it (S[PBY]). A pin already touched, rocking on its rim or leaning on
    the piece passing it, that another piece strikes is felled: tilted, it has no standing
    response left to give (the impulse as for a standing pin throws it).
    Returns (the normal approach speed, felled)."""
    tilted = S[pin, MST] == PIN_MOVED or S[pin, MST] == PIN_LEANS
    dx, dy = S[pin, X] - S[knocker, X], S[pin, Y] - S[knocker, Y]
    dist = math.sqrt(dx * dx + dy * dy)
    ex, ey = dx / dist, dy / dist
    vh = (S[knocker, VX] - S[pin, VX]) * ex + (S[knocker, VY] - S[pin, VY]) * ey
    c, ct, st = contact_geometry(P, knocker, pin)
    vn = vh * ct
    m, mk = P[pin, M], P[knocker, M]
    hg, ig, rb, mu, g = P[pin, PM_HG], P[pin, PM_IG], P[pin, PM_RB], P[pin, PM_MU], P[pin, PM_G]
    om1, u1, sig, _, _ = pin_response(c, ct, st, m, hg, ig, rb, mu)
    jn = (1.0 + e) * max(vn, 0.0) / (1.0 / mk + normal_mobility(om1, u1, sig, c, ct, st, rb))
    S[knocker, VX] -= jn * ct / mk * ex
    S[knocker, VY] -= jn * ct / mk * ey
    om, u = jn * om1, jn * u1
    p, alpha = housner(m, hg, ig, rb, g)
    felled = tilted or sig != 0.0 and sig * om >= p * alpha
    passing = False
    v = k = x_tip = 0.0
    # how deep a ball's path goes into the pin's circle is measured from their contact
    # distance, not from where the ball is: it may be inside already (it came in while the pin
    # rocked from another's touch, and the pin stood again around it)
    d_contact = contact_distance(P, knocker, pin)
    if P[knocker, LAW] != LAW_PIN:  # a ball's path may push the head past the tipping angle
        vx, vy = S[knocker, VX], S[knocker, VY]
        v = math.sqrt(vx * vx + vy * vy)
        if v > 0.0:
            along = (dx * vx + dy * vy) / v
            miss = abs(dx * vy - dy * vx) / v
            x_tip = tipping_clearance(rb, hg, c)
            chord = 2.0 * along
            k = math.sqrt(S[knocker, AX] ** 2 + S[knocker, AY] ** 2)
            if along > 0.0 and d_contact - miss > x_tip:
                felled = True
            elif along > 0.0 and k > 0.0 and v * v <= 2.0 * k * chord:
                felled = True  # the ball stops against the pin (12.6: moved onto it)
            elif along > 0.0:
                passing = True
    S[pin, PEND] = 0.0
    S[pin, PBY] = 0.0
    if not felled:
        slide = u * u / (2.0 * mu * g)
        direction = 1.0 if u >= 0.0 else -1.0
        t_rock = 0.0 if sig == 0.0 else 2.0 / p * math.atanh(sig * om / (p * alpha))
        t_pass = 0.0
        if passing:  # until the ball has left the circle around where the pin will stand
            t_pass = passage_time(dx + direction * slide * ex, dy + direction * slide * ey,
                                  S[knocker, VX], S[knocker, VY], v, k, d_contact)
        window = max(abs(u) / (mu * g), t_rock, t_pass)
        speed = 2.0 * slide / window if window > 0.0 else 0.0
        # the base slides while the ball goes by (back toward it when struck high): the path
        # judged against the base's place at each time as well
        felled = passing and passes_within(
            S, P, knocker, -dx, -dy, direction * speed * ex, direction * speed * ey,
            speed / window if window > 0.0 else 0.0, d_contact - x_tip, window)
        if not felled:
            S[pin, VX] = direction * speed * ex
            S[pin, VY] = direction * speed * ey
            if speed > 0.0:
                S[pin, KSEG] = speed / window
            S[pin, MST] = PIN_MOVED
            S[pin, PEND] = t + window
            S[pin, PBY] = knocker + 1.0
            return vn, False
    vx = u + om * hg
    travel, _, _ = thrown_travel(vx, sig * rb * om, hg, P[pin, PM_HL], mu, P[pin, PM_EF], g)
    if vx == 0.0 or travel <= 0.0:
        S[pin, VX] = 0.0
        S[pin, VY] = 0.0
        S[pin, MST] = PIN_DOWN
    else:
        S[pin, VX] = vx * ex
        S[pin, VY] = vx * ey
        S[pin, KSEG] = vx * vx / (2.0 * travel)
        S[pin, MST] = PIN_THROWN
    return vn, True


@njit_norc
def tilts(S: np.ndarray, P: np.ndarray, pin: int, j: int, t: float) -> bool:
    """Whether piece j, at t, keeps the touched `pin` from standing: a ball or a thrown pin
    (what a standing pin meets: dispatch.interacts) whose centre is inside the pin's contact
    circle, closer than their contact distance by more than TOUCH (the core's contact
    tolerance: within it they only touch)."""
    if j == pin or S[j, ON] == 0.0:
        return False
    if not (P[j, LAW] == LAW_BALL or (P[j, LAW] == LAW_PIN and S[j, MST] == PIN_THROWN)):
        return False
    bx, by = position(S, j, t)
    return math.sqrt((bx - S[pin, X]) ** 2 + (by - S[pin, Y]) ** 2) < (
        contact_distance(P, j, pin) - TOUCH)


@njit_norc
def second_pass(S: np.ndarray, P: np.ndarray, pin: int, k: int, t: float) -> bool:
    """Piece k, which touched the rocking or leaning `pin` and was let pass it (S[PBY]), took
    a new motion at t (an impact): its passage was judged on its old path. Outside the pin's
    contact circle it has passed: the pin no longer lets it through (PBY cleared), and its
    return is a blow like another piece's, which fells the tilted pin (`struck_again`).
    Inside, its new path is judged as `knock_pin` judges a ball's pass: one that goes for the
    pin's axis closer than D - x_tip pushes the head over. Returns True then (the loop knocks
    the pin: felled); a path out of the circle, or past it within x_tip, goes on passing.
    Before, such a ball, turned back by another ball, went on through the rocking pin
    unseen, up to 7.5 mm inside its standing circle (bench/tunnels.py --physics random,
    5-pins 880566)."""
    bx, by = position(S, k, t)
    dx, dy = S[pin, X] - bx, S[pin, Y] - by
    d_contact = contact_distance(P, k, pin)
    if math.sqrt(dx * dx + dy * dy) >= d_contact - TOUCH:
        S[pin, PBY] = 0.0
        return False
    if P[k, LAW] != LAW_BALL:
        return False
    vx, vy = S[k, VX], S[k, VY]
    v = math.sqrt(vx * vx + vy * vy)
    if v == 0.0:
        return False
    along = (dx * vx + dy * vy) / v
    miss = abs(dx * vy - dy * vx) / v
    c, _, _ = contact_geometry(P, k, pin)
    return along > 0.0 and d_contact - miss > tipping_clearance(P[pin, PM_RB], P[pin, PM_HG], c)


@njit_norc
def pin_clear_time(S: np.ndarray, P: np.ndarray, pin: int, t: float) -> tuple[float, int]:
    """A touched pin's stand at t, judged on the true paths: (t_clear, rester). A piece that
    `tilts` it keeps it leaning until it has left: its exit is the first time in its current
    segment where D^2 - |q + w tau + a tau^2 / 2|^2 falls through 0 (D their contact
    distance; q, w its offset from the pin and its velocity at t, a its acceleration), or that
    segment's end, when the pin is judged again. t_clear is the latest exit (t when none
    tilts it; a piece inside that is not moving out, as one that entered while the pin
    rocked, does not hold it: the pin stands and the piece knocks it at once, as the pair's
    contact); rester is a piece at rest inside, which fells the pin (12.6: it moved onto the
    pin), or -1 (a piece that stops inside fells it at its stop: the loop's `S_STOP`). A
    piece whose exit or segment end rounds to t (its own event at t not yet done) is judged
    again at the next instant after t."""
    t_clear, rester = t, -1
    for j in range(S.shape[0]):
        if not tilts(S, P, pin, j, t):
            continue
        bx, by = position(S, j, t)
        qx, qy = bx - S[pin, X], by - S[pin, Y]
        d = contact_distance(P, j, pin)
        wx, wy = velocity(S, j, t)
        ax, ay = S[j, AX], S[j, AY]
        if wx == 0.0 and wy == 0.0 and ax == 0.0 and ay == 0.0:
            rester = j
            continue
        if qx * wx + qy * wy <= 0.0:
            continue  # coming in (or across): the standing pin meets it, a knock (12.3-12.6)
        h = S[j, TEND] - t
        leave = INF
        if h > 0.0:
            c0, c1, c2, c3, c4 = _gap_quartic(qx, qy, wx, wy, ax, ay, d)
            _, b = first_descent(-c0, -c1, -c2, -c3, -c4, h)  # D^2 - |...|^2 falls: it leaves
            if b < INF:
                leave = t + b
        if leave == INF:  # still inside at its segment's end: judged again then
            leave = S[j, TEND]
        if not (leave > t):  # its own event at t is not done yet (numpy's nextafter: numba
            leave = np.nextafter(t, INF)  # compiles math.nextafter only from 0.60 on)
        t_clear = max(t_clear, leave)
    return t_clear, rester
