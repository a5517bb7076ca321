"""The first-root solver: exact cases, grazing double roots, and random quartics against numpy."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cuesim.sim.roots import INF, first_descent, quadratic_roots
from tests.profiles import examples


def coeffs_from_roots(*roots: float, scale: float = 1.0) -> tuple[float, ...]:
    c = np.poly(roots)[::-1] * scale  # ascending
    out = [0.0] * 5
    out[: len(c)] = c
    return tuple(float(x) for x in out)


def test_quadratic_roots_without_cancellation():
    n, r1, r2 = quadratic_roots(1.0, -1e8, 1.0)
    assert n == 2
    assert math.isclose(r1, 1e-8, rel_tol=1e-12)
    assert math.isclose(r2, 1e8, rel_tol=1e-12)
    assert quadratic_roots(1.0, 0.0, 1.0)[0] == 0
    assert quadratic_roots(0.0, 2.0, -4.0)[:2] == (1, 2.0)


def test_first_descent_quartic_four_roots():
    c = coeffs_from_roots(1.0, 2.0, 3.0, 4.0)  # f(0) = 24 > 0, falls through 0 at t = 1
    a, b = first_descent(*c, 10.0)
    assert abs(a - 1.0) < 1e-14 and 0.0 <= b - a < 1e-14


def test_first_descent_respects_the_horizon():
    c = coeffs_from_roots(1.0, 2.0, 3.0, 4.0)
    assert first_descent(*c, 0.999)[0] == INF


def test_first_descent_grazing_minimum_above_zero_is_no_root():
    # (t - 1)^2 + 1e-12: the minimum stays above zero (a near miss)
    c = (1.0 + 1e-12, -2.0, 1.0, 0.0, 0.0)
    assert first_descent(*c, 5.0)[0] == INF


def test_first_descent_grazing_minimum_below_zero_is_found():
    # (t - 1)^2 - 1e-12: roots at 1 -+ 1e-6
    c = (1.0 - 1e-12, -2.0, 1.0, 0.0, 0.0)
    a, b = first_descent(*c, 5.0)
    # a root this close to a double root is defined to ~eps / f'(t) = 1e-16 / 2e-6
    assert abs(a - (1.0 - math.sqrt(1.0 - c[0]))) < 1e-10


def test_first_descent_skips_a_piece_that_starts_at_or_below_zero():
    # f(0) = 0 and rising (a separating contact), comes back down at t = 3
    c = coeffs_from_roots(0.0, 3.0, scale=-1.0)  # -t (t - 3) = 3t - t^2
    a, _ = first_descent(*c, 10.0)
    assert abs(a - 3.0) < 1e-12


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.floats(0.01, 5.0), min_size=1, max_size=4, unique=True),
       st.floats(0.1, 10.0))
def test_first_descent_matches_numpy_on_random_quartics(roots, scale):
    gaps = np.diff(sorted(roots))
    assume(len(gaps) == 0 or gaps.min() > 1e-3)  # near-double roots: see the grazing tests
    c = coeffs_from_roots(*roots, scale=scale)
    if len(roots) % 2 == 1:  # make f(0) > 0
        c = tuple(-x for x in c)
    f = np.polynomial.Polynomial(c)
    if f(0.0) <= 0:
        return
    a, b = first_descent(*c, 6.0)
    # the first root where f changes sign from + to -
    grid = sorted(roots)
    expected = INF
    for r in grid:
        if f(r - 1e-7) > 0 and f(r + 1e-7) < 0:
            expected = r
            break
    if expected == INF:
        assert a == INF or f(b) <= 1e-9
    else:
        assert abs(a - expected) < 1e-7


# --- the boundaries of `fq <= 0`: a root the piece ends on exactly -----------------------------
# A double root is defined only to ~sqrt(eps) (f ~ (t - t0)^2 rounds to 0 within 1e-8 of t0).
def test_first_descent_exact_graze_is_a_root():
    """(t - 1)^2: the minimum touches zero exactly at t = 1 (a grazing contact). The critical
    point is a cut and f there is exactly 0: "a minimum that only touches zero is a root"."""
    a, b = first_descent(1.0, -2.0, 1.0, 0.0, 0.0, 5.0)
    assert 0.0 < 1.0 - a < 1e-7 and 0.0 <= b - a < 1e-15


def test_first_descent_exact_graze_of_a_quartic_is_a_root():
    """(t - 0.5)^2 (t + 1)(t + 2) / 2: a double root at t = 0.5 where f only touches zero."""
    c = coeffs_from_roots(0.5, 0.5, -1.0, -2.0, scale=0.5)
    assert np.polynomial.Polynomial(c)(0.5) == 0.0  # the coefficients are exact
    a, b = first_descent(*c, 3.0)
    assert 0.0 < 0.5 - a < 1e-7 and 0.0 <= b - a < 1e-15


def test_first_descent_root_exactly_at_the_interval_end():
    """f = 1 - t on [0, 1]: f(h) = 0 exactly, the root is the interval's end; an interval one
    float shorter holds no root."""
    a, b = first_descent(1.0, -1.0, 0.0, 0.0, 0.0, 1.0)
    assert b == 1.0 and 1.0 - a < 1e-15
    assert first_descent(1.0, -1.0, 0.0, 0.0, 0.0, float(np.nextafter(1.0, 0.0)))[0] == INF
    # 4 - t^2 reaches zero exactly at h = 2
    a, b = first_descent(4.0, 0.0, -1.0, 0.0, 0.0, 2.0)
    assert b == 2.0 and 2.0 - a < 1e-15
