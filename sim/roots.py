"""First roots of polynomials of degree <= 4 on an interval, without eigenvalues.

f(t) = c0 + c1 t + c2 t^2 + c3 t^3 + c4 t^4. The interval [0, h] is cut at the critical
points of f (the roots of f', found the same way from the roots of f'', a quadratic), so f is
monotone on every piece; the first piece where f falls from > 0 to <= 0 holds the root, which a
safeguarded Newton iteration brackets to machine precision. Near-double roots (grazing
contacts) are handled because the critical point itself is a cut: a minimum that only touches
zero is a root, one that stays above it is not.
"""

from __future__ import annotations

import math

from cuesim.sim.compiled import njit_core

INF = math.inf


@njit_core
def poly(c0: float, c1: float, c2: float, c3: float, c4: float, t: float) -> float:
    return c0 + t * (c1 + t * (c2 + t * (c3 + t * c4)))


@njit_core
def dpoly(c1: float, c2: float, c3: float, c4: float, t: float) -> float:
    return c1 + t * (2.0 * c2 + t * (3.0 * c3 + t * 4.0 * c4))


@njit_core
def quadratic_roots(a: float, b: float, c: float) -> tuple[int, float, float]:
    """Real roots of a t^2 + b t + c, ascending, computed without cancellation."""
    if a == 0.0:
        if b == 0.0:
            return 0, INF, INF
        return 1, -c / b, INF
    disc = b * b - 4.0 * a * c
    if disc < 0.0:
        return 0, INF, INF
    sq = math.sqrt(disc)
    q = -0.5 * (b + sq) if b >= 0.0 else -0.5 * (b - sq)
    if q == 0.0:
        return 1, 0.0, INF
    r1 = q / a
    r2 = c / q
    if r1 > r2:
        r1, r2 = r2, r1
    return 2, r1, r2


@njit_core
def bracket_root(c0: float, c1: float, c2: float, c3: float, c4: float,
                 lo: float, hi: float) -> tuple[float, float]:
    """f monotone on [lo, hi] with f(lo) > 0 >= f(hi): return (a, b), a bracket of the root
    with f(a) > 0 >= f(b) and b - a at machine precision (safeguarded Newton)."""
    a, b = lo, hi
    x = 0.5 * (a + b)
    for _ in range(200):
        tol = 2.5e-16 * max(1.0, abs(b))
        if b - a <= tol:
            break
        fx = poly(c0, c1, c2, c3, c4, x)
        if fx > 0.0:
            a = x
        else:
            b = x
        d = dpoly(c1, c2, c3, c4, x)
        xn = x - fx / d if d != 0.0 else 0.5 * (a + b)
        if abs(xn - x) < 0.25 * tol:
            # Newton has converged from one side: probe a little past its estimate, so the
            # other end of the bracket closes in one step instead of ~50 bisections
            xn += 0.25 * tol if fx > 0.0 else -0.25 * tol
        if not (a < xn < b):
            xn = 0.5 * (a + b)
        if xn == x:
            xn = 0.5 * (a + b)
            if xn == a or xn == b:
                break
        x = xn
    return a, b


@njit_core
def _cubic_critical_roots(d0: float, d1: float, d2: float, d3: float, h: float
                          ) -> tuple[int, float, float, float]:
    """Roots in (0, h) of the cubic g = d0 + d1 t + d2 t^2 + d3 t^3, ascending (up to 3)."""
    k, q1, q2 = quadratic_roots(3.0 * d3, 2.0 * d2, d1)
    cuts0, cuts1 = INF, INF
    m = 0
    if k >= 1 and 0.0 < q1 < h:
        cuts0 = q1
        m = 1
    if k == 2 and 0.0 < q2 < h:
        if m == 0:
            cuts0 = q2
        else:
            cuts1 = q2
        m += 1
    out0, out1, out2 = INF, INF, INF
    count = 0
    p = 0.0
    gp = poly(d0, d1, d2, d3, 0.0, p)
    for s in range(m + 1):
        q = h if s == m else (cuts0 if s == 0 else cuts1)
        gq = poly(d0, d1, d2, d3, 0.0, q)
        root = INF
        if gp == 0.0 and p > 0.0:
            root = p
        elif (gp > 0.0 and gq < 0.0) or (gp < 0.0 and gq > 0.0):
            if gp > 0.0:
                ra, rb = bracket_root(d0, d1, d2, d3, 0.0, p, q)
            else:
                ra, rb = bracket_root(-d0, -d1, -d2, -d3, 0.0, p, q)
            root = 0.5 * (ra + rb)
        if root < INF:
            if count == 0:
                out0 = root
            elif count == 1:
                out1 = root
            else:
                out2 = root
            count += 1
        p, gp = q, gq
    return count, out0, out1, out2


@njit_core
def first_descent(c0: float, c1: float, c2: float, c3: float, c4: float, h: float
                  ) -> tuple[float, float]:
    """The first place in [0, h] where f falls from > 0 to <= 0, as a bracket (a, b) with
    f(a) > 0 >= f(b); (inf, inf) when there is none. Pieces that start at or below zero are
    skipped, so a contact that is separating at t = 0 is not reported again."""
    return descent(c0, c1, c2, c3, c4, h, 0, 0.0)


@njit_core
def next_descent(c0: float, c1: float, c2: float, c3: float, c4: float, h: float
                 ) -> tuple[float, float]:
    """Like first_descent, but the first monotone piece of f is passed over whatever it does:
    the next approach of a contact that touches now (f(0) ~ 0) and is separating or resting,
    i.e. the root after f rises (or drifts by less than the touch tolerance) and falls back.
    f keeps its true constant term, so the root is where the real gap closes."""
    return descent(c0, c1, c2, c3, c4, h, 1, 0.0)


@njit_core
def descent(c0: float, c1: float, c2: float, c3: float, c4: float, h: float, skip: int,
            band: float = 0.0) -> tuple[float, float]:
    """First descent on the monotone pieces of f in [0, h]: through zero on the pieces from
    number `skip` on, or (band > 0) through -band on any piece, whichever comes first; the
    bracket is of f, or of f + band for a crossing of -band. With skip = 1 and band the
    contact's tolerance (in f's units) this is the next approach of a touching contact or the
    moment it sinks deeper than the tolerance (a contact that barely opens, or not at all,
    and closes again), in one pass over the pieces; a contact already below -band (rounding
    puts a caught contact a hair past its catch level) that turns down again is due at the
    turn, (p, p), so it can never sink unseen."""
    if not (h > 0.0):
        return INF, INF
    # Cut points: roots of f' (a cubic) inside (0, h).
    if c4 == 0.0 and c3 == 0.0:
        n = 0
        r0, r1, r2 = INF, INF, INF
        if c2 != 0.0:
            tc = -c1 / (2.0 * c2)
            if 0.0 < tc < h:
                n, r0 = 1, tc
    else:
        n, r0, r1, r2 = _cubic_critical_roots(c1, 2.0 * c2, 3.0 * c3, 4.0 * c4, h)
    p = 0.0
    fp = c0
    for s in range(n + 1):
        if s == n:
            q = h
        elif s == 0:
            q = r0
        elif s == 1:
            q = r1
        else:
            q = r2
        fq = poly(c0, c1, c2, c3, c4, q)
        if s >= skip and fp > 0.0 and fq <= 0.0:
            return bracket_root(c0, c1, c2, c3, c4, p, q)
        if band > 0.0 and fp > -band and fq <= -band:
            return bracket_root(c0 + band, c1, c2, c3, c4, p, q)
        if band > 0.0 and s >= skip and fp <= -band and fq < fp:
            return p, p  # already below -band, it turns down again: due where it turns
        p, fp = q, fq
    return INF, INF


@njit_core
def first_piece_end(c1: float, c2: float, c3: float, c4: float, h: float) -> float:
    """End of the first monotone piece of f on [0, h]: its first critical point, or h."""
    if c4 == 0.0 and c3 == 0.0:
        if c2 != 0.0:
            tc = -c1 / (2.0 * c2)
            if 0.0 < tc < h:
                return tc
        return h
    n, r0, _, _ = _cubic_critical_roots(c1, 2.0 * c2, 3.0 * c3, 4.0 * c4, h)
    return r0 if n > 0 else h
