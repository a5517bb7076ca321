"""Dense lattices of touching pucks as one multiple impact (sim.resolve.multi_impact).

A 12 x 16 lattice of touching pucks struck by the striker (`LATTICE` below) held impacts
that never ended: two where perfectly plastic contacts (e = 0, the slow ones) pumped energy
each time they closed again after unloading (their law jumped from nothing to K delta_m^eta,
a force no step resolves: the energy grew from 3 mJ to 1e17 J), and one whose approach speeds
were round-off (the fastest 3.6e-9 m/s among pieces at 0.1 m/s: V_OPEN of that is below their
ulps), which ran to the 6.4 million step bound. The shot took more than five minutes and
`max_events` could not bound it. The inputs of those three impacts, recorded from the core
before the fix, are in tests/golden/lattice_impacts.npz, with a fourth, a ball pressed into a
pocket's jaws, recorded where the first fix (a dent reloaded by its law from zero) was slow.
"""

from __future__ import annotations

import math
from pathlib import Path

import numba
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuesim import Layout, NovusShot, Piece, novus_table, simulate
from cuesim.sim.engine import motion_input
from cuesim.sim.resolve import multi_impact as mi
from cuesim.sim.state import INERTIA, KIND, VX, VY, W0, WX, WY, M
from cuesim.tables.novus import NovusPhysics
from tests.profiles import examples
from tests.test_novus_properties import check_invariants

RECORDED = Path(__file__).resolve().parent / "golden" / "lattice_impacts.npz"
NAMES = ("reload_blowup_a", "reload_blowup_b", "slow_among_fast")
NOVUS = novus_table()
D = 2.0 * NOVUS.piece_spec("puck").radius
STRIKER_Y = sum(NOVUS.striker_strip()[1]) / 2  # where a NovusShot puts the striker by default


def _recorded(name: str) -> list:
    """solve_multi_impact's arguments of a recorded impact (pieces renumbered 0..n-1)."""
    with np.load(RECORDED) as z:
        a = {k.split("/")[1]: z[k] for k in z.files if k.startswith(name + "/")}
    n, n_c = a["S"].shape[0], a["ci"].shape[0]
    return [a["S"].copy(), a["P"], a["ci"], a["cj"], a["nx"], a["ny"], n_c, a["e"], a["mu"],
            a["stiff"], a["expo"], np.arange(n), n, a["model_params"], np.zeros(n_c),
            np.zeros(n_c), np.zeros((mi.N_WORK_ROWS, max(n_c, n))), np.zeros(n), np.zeros(n_c),
            np.zeros(n_c)]


def _energy(S: np.ndarray, P: np.ndarray) -> float:
    v2 = S[:, VX] ** 2 + S[:, VY] ** 2
    w2 = S[:, W0] ** 2 + S[:, WX] ** 2 + S[:, WY] ** 2
    return float(np.sum(0.5 * P[:, M] * v2 + 0.5 * P[:, INERTIA] * w2))


def _momentum(S: np.ndarray, P: np.ndarray) -> np.ndarray:
    return np.array([np.sum(P[:, M] * S[:, VX]), np.sum(P[:, M] * S[:, VY])])


def _check_outcome(args: list, steps: int, S0: np.ndarray) -> None:
    """Ended before the step bound, finite, momentum kept (no fixed body here), no energy
    gained (the end's surplus removal is for integration error, not a rescue)."""
    S, P = args[0], args[1]
    assert steps < mi.MAX_STEPS
    assert np.all(np.isfinite(S[:, [VX, VY, W0, WX, WY]]))
    assert _energy(S, P) <= _energy(S0, P) * (1.0 + 1e-12)
    p0, p1 = _momentum(S0, P), _momentum(S, P)
    assert np.abs(p1 - p0).max() <= 1e-12 * max(np.abs(p0).max(), 1e-6)


@pytest.mark.parametrize("name", NAMES)
def test_the_recorded_lattice_impacts_end_and_gain_no_energy(name: str) -> None:
    args = _recorded(name)
    assert np.all(args[7] == 0.0)  # every contact slow: perfectly plastic
    S0 = args[0].copy()
    steps = mi.solve_multi_impact(*args)
    _check_outcome(args, steps, S0)
    # the impact dissipates: the pieces leave no faster, as a whole, than they came
    assert _energy(args[0], args[1]) >= 0.9 * _energy(S0, args[1])  # and it is no collapse


def test_a_ball_pressed_into_a_pockets_jaws_by_another_settles_in_few_steps() -> None:
    """A ball against both jaw cushions of a pocket, pressed there by another ball, every
    contact perfectly plastic (recorded from an 8-ball break at e = 0.03 without impact
    friction): the contacts take turns, each closing again as the other pushes. Reloading a
    ball's dent with its Hertz law from zero took 3,008,064 steps; with the stiffness at the
    dent it took 135,104 by itself, and the impact time bound (64 contact time scales for
    each of its 3 contacts) ends it at 3,840 (a count, deterministic: no clock). It gains no
    energy."""
    args = _recorded("plastic_jaws")
    assert np.all(args[7] == 0.0) and np.sum(args[3] < 0) == 2  # plastic; two cushions
    S0 = args[0].copy()
    steps = mi.solve_multi_impact(*args)
    assert steps <= 3_840
    assert np.all(np.isfinite(args[0][:, [VX, VY, W0, WX, WY]]))
    assert _energy(args[0], args[1]) <= _energy(S0, args[1]) * (1.0 + 1e-12)


def _outcomes(solve, names: tuple[str, ...] = NAMES  # noqa: ANN001 - compiled
              ) -> list[np.ndarray]:
    out = []
    for name in names:
        args = _recorded(name)
        solve(*args)
        out.append(args[0][:, [VX, VY, W0]].copy())
    return out


def test_the_round_off_floors_change_nothing_visible_in_the_lattice_impacts(monkeypatch) -> None:
    """V_OPEN and V_ROUND (approach speeds below them are round-off; so is the energy a loaded
    contact stores below what V_OPEN carries) are not physics, nor is SPENT_EVERY (how often
    that is asked): 10x either way leaves every outgoing velocity and spin of the recorded
    impacts within 1e-9 (m/s, rad/s). Each factor compiles its own copy of
    solve_multi_impact, which reads the constants at compile time."""
    base = _outcomes(mi.solve_multi_impact)
    for factor in (10.0, 0.1):
        monkeypatch.setattr(mi, "V_OPEN", mi.V_OPEN * factor)
        monkeypatch.setattr(mi, "V_ROUND", mi.V_ROUND * factor)
        monkeypatch.setattr(mi, "SPENT_EVERY", max(1, round(mi.SPENT_EVERY * factor)))
        scaled = _outcomes(numba.njit(mi.solve_multi_impact.py_func))
        monkeypatch.undo()
        for b, s in zip(base, scaled, strict=True):
            assert np.abs(b - s).max() < 1e-9


def test_a_frictional_lattice_wedging_itself_ends_at_the_impact_time_bound() -> None:
    """Recorded from a 16 x 20 lattice of touching pucks struck at 4 m/s: 499 slow contacts
    where spinning pucks keep wedging themselves against their neighbours by friction, with
    micronewtons and approach speeds 1e-7 of the impact's (frictionless, it ends in 15,040
    steps). It ran past 6.4 million steps, 0.55 s of contact and 15 s of free flight with the
    configuration frozen and the cloth left out, and the shot came back truncated. It now ends
    at the impact's time bound (impact_step.impact_time_bound), gaining no energy."""
    args = _recorded("friction_wedging")
    S0 = args[0].copy()
    steps = mi.solve_multi_impact(*args)
    _check_outcome(args, steps, S0)
    assert steps < 400_000


def test_the_impact_time_bound_changes_nothing_visible(monkeypatch) -> None:
    """IMPACT_TIMES (how many contact time scales per contact an impact may last) bounds a
    model's validity; it is not physics: 10x either way leaves the recorded impacts that end
    by themselves bit for bit, and the two it ends within the model's own error. The
    friction_wedging lattice moves by 1e-7 m/s and 1e-5 rad/s (50 nm in a second of motion);
    the ball pressed into the jaws (135,104 steps by itself) by 3 mm/s, below the 4.5 mm/s
    by which a resolution of 20 steps leaves the converged impact (bench/README.md)."""
    names = (*NAMES, "plastic_jaws", "friction_wedging")
    cut = {"friction_wedging": 1e-4, "plastic_jaws": 4.5e-3}  # m/s and rad/s
    base = _outcomes(mi.solve_multi_impact, names)
    for factor in (10.0, 0.1):
        monkeypatch.setattr(mi, "IMPACT_TIMES", mi.IMPACT_TIMES * factor)
        scaled = _outcomes(numba.njit(mi.solve_multi_impact.py_func), names)
        monkeypatch.undo()
        for name, b, s in zip(names, base, scaled, strict=True):
            d = np.abs(b - s).max(axis=0)
            if name in cut:
                assert d.max() < cut[name], (name, factor, d)
            else:
                assert np.array_equal(b, s), (name, factor, d)


def test_a_16_by_20_lattice_struck_at_4_m_s_comes_to_rest() -> None:
    """The whole shot of the friction_wedging impact: it was truncated at the step bound."""
    res = simulate(NOVUS, _lattice(16, 20), NovusShot(x=0.5, angle=math.pi / 2, speed=4.0))
    assert not res.truncated
    check_invariants(res)


def _lattice(rows: int, cols: int) -> Layout:
    return Layout("novus", tuple(Piece(f"p{r}_{c}", "puck", 0.12 + D * c, 0.3 + D * r, "red")
                                 for r in range(rows) for c in range(cols)))


LATTICE = _lattice(12, 16)


@pytest.mark.parametrize("e", [None, 0.0, 0.02])
def test_a_struck_lattice_of_touching_pucks_comes_to_rest(e: float | None) -> None:
    """The whole shot (the table's restitutions, everything perfectly plastic, nearly so):
    it ends, on the board, with no two pieces overlapping."""
    table = NOVUS if e is None else novus_table(
        NovusPhysics(e_puck_puck=e, e_striker_puck=e, e_rail=e))
    res = simulate(table, LATTICE, NovusShot(x=0.5, angle=math.pi / 2, speed=4.0))
    assert not res.truncated
    xy = res.final_positions[res.final_on]
    assert np.all(np.isfinite(xy))
    gaps = np.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1))
    radii = np.array([NOVUS.piece_spec(p.kind).radius
                      for p, on in zip(res.initial.pieces, res.final_on, strict=True) if on])
    overlap = radii[:, None] + radii[None, :] - gaps
    np.fill_diagonal(overlap, -1.0)
    assert overlap.max() < 1e-9


def _random_lattice(rows: int, cols: int, e: float, speed: float, seed: int) -> list:
    """solve_multi_impact's arguments for a lattice of touching pucks with random motions:
    each neighbour pair one contact (normal along x or y), restitution e, the table's
    friction, stiffness and exponent."""
    pieces = tuple(Piece(f"p{r}_{c}", "puck", 0.2 + D * c, 0.2 + D * r)
                   for r in range(rows) for c in range(cols))
    inp = motion_input(NOVUS, Layout("novus", pieces), {}, check=False)
    S, P, arr = inp.S.copy(), inp.P, inp.arr
    rng = np.random.default_rng(seed)
    n = len(pieces)
    S[:, VX], S[:, VY] = rng.uniform(-speed, speed, n), rng.uniform(-speed, speed, n)
    S[:, W0] = rng.uniform(-speed, speed, n) / D
    ci, cj, nx, ny = [], [], [], []
    for r in range(rows):
        for c in range(cols):
            a = r * cols + c
            for b, ux, uy in ((a + 1, 1.0, 0.0), (a + cols, 0.0, 1.0)):
                if (b == a + 1 and c + 1 < cols) or (b == a + cols and r + 1 < rows):
                    ci.append(a)
                    cj.append(b)
                    nx.append(ux)
                    ny.append(uy)
    n_c, k = len(ci), int(P[0, KIND])
    return [S, P, np.array(ci), np.array(cj), np.array(nx), np.array(ny), n_c,
            np.full(n_c, e), np.full(n_c, arr.mu_pair[k, k]), np.full(n_c, arr.stiffness[k, k]),
            np.full(n_c, arr.exponent[k, k]), np.arange(n), n, arr.model_params.copy(),
            np.zeros(n_c), np.zeros(n_c), np.zeros((mi.N_WORK_ROWS, max(n_c, n))), np.zeros(n),
            np.zeros(n_c), np.zeros(n_c)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.integers(2, 6), cols=st.integers(2, 6), e=st.sampled_from([0.0, 0.02, 0.75]),
       speed=st.sampled_from([0.003, 0.5]), seed=st.integers(0, 2**31))
def test_random_lattice_impacts_end_keep_momentum_and_gain_no_energy(rows, cols, e, speed,
                                                                     seed) -> None:
    args = _random_lattice(rows, cols, e, speed, seed)
    S0 = args[0].copy()
    steps = mi.solve_multi_impact(*args)
    _check_outcome(args, steps, S0)
    again = _random_lattice(rows, cols, e, speed, seed)
    mi.solve_multi_impact(*again)
    assert np.array_equal(again[0], args[0])  # same input, same output


def _cluster(rows: int, cols: int, hexagonal: bool, x0: float, y0: float) -> Layout:
    """rows x cols touching pucks from (x0, y0): a square lattice (4 neighbours) or a
    hexagonal one (rows offset by a radius, 6 neighbours)."""
    r = D / 2
    dy = D * math.sqrt(3.0) / 2 if hexagonal else D
    return Layout("novus", tuple(
        Piece(f"p{i}_{j}", "puck", x0 + D * j + (r if hexagonal and i % 2 else 0.0),
              y0 + dy * i, "red") for i in range(rows) for j in range(cols)))


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.integers(2, 7), cols=st.integers(2, 8), hexagonal=st.booleans(),
       x0=st.floats(0.15, 0.45), y0=st.floats(0.3, 0.55), plastic=st.booleans(),
       x=st.floats(0.3, 0.7), aim=st.floats(-0.12, 0.12), speed=st.floats(0.5, 9.0))
def test_random_shots_into_touching_clusters(rows, cols, hexagonal, x0, y0, plastic, x, aim,
                                             speed) -> None:
    """Square and hexagonal clusters of touching pucks, the table's restitutions or all
    perfectly plastic, struck at random (aimed at the cluster's centre, give or take `aim`
    radians): the invariants of the property tests (no NaN, no overlap, nothing off the board,
    every piece at rest at the end), and the same result twice."""
    table = novus_table(NovusPhysics(e_puck_puck=0.0, e_striker_puck=0.0, e_rail=0.0)) \
        if plastic else NOVUS
    layout = _cluster(rows, cols, hexagonal, x0, y0)
    cx = sum(p.x for p in layout.pieces) / len(layout.pieces)
    cy = sum(p.y for p in layout.pieces) / len(layout.pieces)
    shot = NovusShot(x=x, angle=math.atan2(cy - STRIKER_Y, cx - x) + aim, speed=speed)
    a = simulate(table, layout, shot)
    check_invariants(a)
    b = simulate(table, layout, shot)
    assert np.array_equal(a.events, b.events) and np.array_equal(a.segments, b.segments)


BOUND_PROBE = """
import json, sys, warnings
warnings.simplefilter('ignore')
from cuesim import Layout, Piece, novus_table
from cuesim.sim import run_motion
from cuesim.sim.resolve import multi_impact as mi
mi.MAX_STEPS = int(sys.argv[1])
table = novus_table()
row = Layout('novus', (Piece('s', 'puck', 0.3, 0.5), Piece('a', 'puck', 0.4, 0.5),
                       Piece('b', 'puck', 0.43, 0.5), Piece('c', 'puck', 0.46, 0.5)))
res = run_motion(table, row, {'s': (2.0, 0.0, 0.0)})
print(json.dumps([res.truncated, res.truncation_message() if res.truncated else '']))
"""


@pytest.mark.parametrize("bound, truncated", [(40, True), (mi.MAX_STEPS, False)])
def test_a_multiple_impact_at_its_step_bound_truncates_the_shot(bound, truncated) -> None:
    """An impact that reaches MAX_STEPS unfinished is no outcome of the model: the shot stops
    there as truncated (no layout, its warning), never silently. Shown with the bound lowered
    to 40 steps under NUMBA_DISABLE_JIT (the core then reads it at each call): a puck into a
    touching row of three needs more."""
    import json
    import os
    import subprocess
    import sys

    from tests.scaled_constants import REPO

    run = subprocess.run([sys.executable, "-c", BOUND_PROBE, str(bound)], cwd=REPO, check=True,
                         capture_output=True, text=True,
                         env=dict(os.environ, NUMBA_DISABLE_JIT="1"))
    got, message = json.loads(run.stdout.strip().splitlines()[-1])
    assert got is truncated
    if truncated:
        assert "step bound" in message


def test_a_slow_gap_contact_that_never_touched_keeps_no_impact_going() -> None:
    """A multiple impact of two touching pucks (1 m/s) and, in the same call, a perfectly
    plastic contact (a slow one) between two other pucks 0.1 mm apart closing at 5 mm/s: the
    impact ends with the fast contact, and the gap is the loop's next event (the cloth acts
    meanwhile). The dent branch took the untouched contact's first opening step for an
    unloading and gave it a dent stiffness, and a disc's contact so marked kept the frozen
    impact going: it jumped the 20 ms the gap took to close, with no cloth, and the two met
    inside it (c left at 2.5 mm/s)."""
    pieces = (Piece("a", "puck", 0.3, 0.5), Piece("b", "puck", 0.3 + D, 0.5),
              Piece("c", "puck", 0.6, 0.5), Piece("d", "puck", 0.6 + D + 1e-4, 0.5))
    inp = motion_input(NOVUS, Layout("novus", pieces), {}, check=False)
    S, P, arr = inp.S.copy(), inp.P, inp.arr
    S[0, VX], S[2, VX] = 1.0, 0.005
    k = int(P[0, KIND])
    n_c = 2
    args = [S, P, np.array([0, 2]), np.array([1, 3]), np.array([1.0, 1.0]), np.zeros(2), n_c,
            np.array([arr.e_pair[k, k], 0.0]), np.zeros(2), np.full(2, arr.stiffness[k, k]),
            np.full(2, arr.exponent[k, k]), np.arange(4), 4, arr.model_params.copy(),
            np.zeros(2), np.zeros(2), np.zeros((mi.N_WORK_ROWS, 4)), np.zeros(4),
            np.array([0.0, 1e-4]), np.array([0.0, D])]
    steps = mi.solve_multi_impact(*args)
    assert steps < 2_000
    assert S[2, VX] == 0.005 and S[3, VX] == 0.0


def test_the_blow_up_bound_changes_nothing_visible(monkeypatch) -> None:
    """BLOW_UP (a step's impulse on one contact beyond BLOW_UP sqrt(2 M E) ends the impact as
    an unstable integration, tests/test_impact_blow_up.py) is no physics either: 10x either way
    leaves every recorded impact, the lattices' and the jaws' included, bit for bit; /1e10
    ends them early, which shows the copy compiled reads the changed bound."""
    names = (*NAMES, "plastic_jaws", "friction_wedging")
    base = _outcomes(mi.solve_multi_impact, names)
    for factor in (10.0, 0.1, 1e-10):
        monkeypatch.setattr(mi, "BLOW_UP", mi.BLOW_UP * factor)
        scaled = _outcomes(numba.njit(mi.solve_multi_impact.py_func), names)
        monkeypatch.undo()
        same = [np.array_equal(b, s) for b, s in zip(base, scaled, strict=True)]
        assert all(same) if factor >= 0.1 else not all(same), (factor, same)
