"""A multiple impact whose contacts stiffen past what its step resolves refines the step
(`resolve.impact_step.STIFFER`); one whose integration still goes unstable ends unfinished and
the shot is truncated, never a result of NaN (`resolve.multi_impact.BLOW_UP`); the tunnel
hunter counts a result that is not finite as an error (NaN compares false, so its penetration
test passed one as clean).

The case: bench/tunnels.py 14.1 seed 4000449, random physics (impact_steps 8.3, e_ball 0,
mu_cushion 1.49, g 3.0). Five balls roll together into a cushion at about 1 cm/s, spinning;
their contacts close at 1e-13 m/s, so the impact's step, set from those approaches (the
contact time scale grows as v^(-1/5)), was 4.9 ms. Friction at the cushion and between the
spinning balls jams them (the spin's energy, microjoules, drives the compressions from 1e-14 m
to far beyond what an approach of 1e-13 m/s would give), the Hertz stiffness grows as
delta^(1/2), and at 1,170 steps the step no longer resolved it: the kicks grew without bound
(1e281 m/s, then NaN in the log; since BLOW_UP, a truncated shot at t = 17.49 s). The impact's
inputs are recorded in tests/golden/lattice_impacts.npz ("cushion_jam")."""

from __future__ import annotations

from dataclasses import replace

import numba
import numpy as np
import pytest

from bench import tunnels
from cuesim import simulate
from cuesim.sim.resolve import impact_step as step
from cuesim.sim.resolve import multi_impact as mi
from cuesim.sim.state import MP_IMPACT_STEPS, VX, VY, W0
from tests.test_impact_lattices import _energy, _recorded


def _jam(resolution: float | None = None, solve=mi.solve_multi_impact  # noqa: ANN001
         ) -> tuple[int, np.ndarray, list]:
    """The recorded jam at its own resolution (8.33) or another: steps, outgoing (vx, vy, w0)
    of its pieces, and the arguments (their S, before and after)."""
    args = _recorded("cushion_jam")
    if resolution is not None:
        args[13] = args[13].copy()
        args[13][MP_IMPACT_STEPS] = resolution
    steps = solve(*args)
    return steps, args[0][:, [VX, VY, W0]].copy(), args


def _with_stiffer(factor: float, monkeypatch: pytest.MonkeyPatch):  # noqa: ANN202 - compiled
    """A compiled copy of solve_multi_impact with STIFFER times factor (numba reads the
    constant when it compiles `stiffness_limits`, so both are compiled again)."""
    monkeypatch.setattr(step, "STIFFER", step.STIFFER * factor)
    monkeypatch.setattr(mi, "stiffness_limits", numba.njit(step.stiffness_limits.py_func))
    return numba.njit(mi.solve_multi_impact.py_func)


def test_the_cushion_jam_shot_now_ends_at_rest() -> None:
    case = tunnels.shot_for("14.1", 4000449, "random")
    result = simulate(case.table, case.layout, case.shot)
    assert not result.truncated
    assert tunnels.non_finite(result) is None
    assert result.events[:, 5].max() < 15.0  # no speed past a cue's (was 2.9e281 m/s)
    assert tunnels.penetration(case.table, result)[0] <= tunnels.DEPTH


def test_the_jam_converges_with_the_resolution_and_gains_no_energy() -> None:
    """The recorded jam ends by itself at every resolution the tables accept, and its outgoing
    velocities approach the 320-step result as the step shrinks (m/s, rad/s): 0.4 mm/s at 2
    steps, 16 um/s at its own 8.33, 6 um/s at 20 (the fingerprint shots' racks: 1.4-1.9 mm/s
    at 20, bench/README.md)."""
    ref = _jam(320.0)[1]
    for resolution, tol in ((2.0, 1e-3), (None, 5e-5), (20.0, 2e-5), (80.0, 2e-5)):
        steps, v, args = _jam(resolution)
        assert steps < mi.MAX_STEPS
        assert np.all(np.isfinite(v))
        assert np.abs(v - ref).max() < tol, (resolution, np.abs(v - ref).max())
        S0 = _recorded("cushion_jam")[0]
        assert _energy(args[0], args[1]) <= _energy(S0, args[1]) * (1.0 + 1e-12)


def test_the_stiffness_bound_changes_nothing_visible(monkeypatch: pytest.MonkeyPatch) -> None:
    """STIFFER sets the step against the contacts' stiffness as the resolution sets it against
    the contact time scale: a numerical setting, not physics. At the default resolution (20)
    10x either way moves the jam's outgoing velocities by less than 1 mm/s (10x finer: 6 um/s
    from the converged result; 10x coarser, the step resolving a Hertz contact at 100 times
    the compression of a binary impact: 0.5 mm/s) and leaves the lattices and the jaws within
    0.2 mm/s. (It cannot be raised 10x at the coarsest resolution the tables accept, 2: omega
    dt would reach 14, past velocity Verlet's stability limit of 2.)"""
    names = ("reload_blowup_a", "reload_blowup_b", "slow_among_fast", "plastic_jaws",
             "friction_wedging")
    base = [_recorded(n) for n in names]
    for args in base:
        mi.solve_multi_impact(*args)
    jam = _jam(20.0)[1]
    for factor in (10.0, 0.1):
        solve = _with_stiffer(factor, monkeypatch)
        steps, v, _ = _jam(20.0, solve)
        monkeypatch.undo()
        assert steps < mi.MAX_STEPS and np.abs(v - jam).max() < 1e-3, (factor, steps)
        for name, b in zip(names, base, strict=True):
            args = _recorded(name)
            solve(*args)
            d = np.abs(args[0][:, [VX, VY, W0]] - b[0][:, [VX, VY, W0]]).max()
            assert d < 2e-4, (name, factor, d)


def test_without_the_stiffness_bound_the_jam_blows_up_and_ends_unfinished(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The step fixed from the approaches alone (STIFFER infinite) reproduces the old blow-up;
    BLOW_UP still ends it as unfinished, its velocities finite (the loop then truncates the
    shot)."""
    solve = _with_stiffer(np.inf, monkeypatch)
    steps, v, _ = _jam(None, solve)
    assert mi.unfinished(steps)
    assert np.all(np.isfinite(v))


def test_the_hunter_counts_a_result_that_is_not_finite_as_an_error() -> None:
    case = tunnels.shot_for("14.1", 4000448, "random")
    result = simulate(case.table, case.layout, case.shot)
    assert tunnels.non_finite(result) is None
    events = result.events.copy()
    events[10, 0] = np.nan
    bad = replace(result, events=events)
    assert tunnels.non_finite(bad).startswith("non-finite result: events[10]")
    segments = result.segments.copy()
    segments[3, 4] = np.inf
    assert tunnels.non_finite(replace(result, segments=segments)) == (
        "non-finite result: segments[3]")
