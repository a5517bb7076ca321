"""The soft-contact (discrete-element) reference, sim/soft (issue 12, item 3): closed-form
checks of the reference itself, its convergence in the step and the stiffness, and its
agreement with the event core's multiple impact on small clusters."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bench import agreement as ag
from cuesim.sim import run_motion
from cuesim.sim.engine import table_arrays
from cuesim.sim.soft import soft_simulate
from cuesim.sim.soft.damping import damping_ratio
from cuesim.tables.balls import BallPhysics
from cuesim.tables.carom import CaromTable, five_pins_layout
from cuesim.tables.contact import (
    PHENOLIC_RESIN,
    effective_modulus,
    hertz_spheres,
    line_contact,
)
from cuesim.tables.layout import Layout, Piece
from cuesim.tables.novus import NovusTable
from cuesim.tables.pool import PoolTable

NOVUS = NovusTable()
POOL = PoolTable()


def _layout(table, *pieces):
    return Layout(table.name, tuple(Piece(pid, kind, x, y) for pid, kind, x, y in pieces))


def _momentum(table, layout, v):
    m = np.array([table.piece_spec(p.kind).mass for p in layout.pieces])
    return (m[:, None] * v).sum(axis=0)


# -- the contact data -------------------------------------------------------------------------
def test_contact_laws_and_the_tables_fields():
    r = 0.028575
    k, eta = hertz_spheres(r, PHENOLIC_RESIN, r, PHENOLIC_RESIN)
    e_star = PHENOLIC_RESIN.young / (2 * (1 - PHENOLIC_RESIN.poisson**2))
    assert eta == 1.5 and k == pytest.approx(4 / 3 * e_star * math.sqrt(r / 2), rel=1e-12)
    k_line, eta_line = line_contact(0.012, PHENOLIC_RESIN, PHENOLIC_RESIN)
    assert eta_line == 1.0
    assert k_line == pytest.approx(math.pi / 4 * effective_modulus(PHENOLIC_RESIN,
                                                                   PHENOLIC_RESIN) * 0.012)
    for table in (NOVUS, POOL, CaromTable()):
        arr = table_arrays(table)
        nk = len(arr.kinds)
        assert arr.k_pair.shape == arr.eta_pair.shape == arr.e_pair.shape == (nk, nk)
        assert arr.k_rail.shape == arr.eta_rail.shape == (nk,)
        assert np.all(arr.k_pair > 0) and np.allclose(arr.k_pair, arr.k_pair.T)
    assert set(table_arrays(NOVUS).eta_pair.ravel()) == {1.0}
    assert set(table_arrays(POOL).eta_pair.ravel()) == {1.5}


def test_damping_ratio_is_zero_for_elastic_and_grows_as_e_falls():
    assert damping_ratio(1.0, 1.5) == 0.0
    gammas = [damping_ratio(e, 1.5) for e in (0.95, 0.75, 0.5)]
    assert gammas == sorted(gammas) and gammas[0] > 0.0


# -- closed-form checks of the reference ------------------------------------------------------
@pytest.mark.parametrize("table, kinds, e", [
    (NOVUS, ("puck", "puck"), NOVUS.physics.e_puck_puck),
    (NOVUS, ("striker", "puck"), NOVUS.physics.e_striker_puck),
    (POOL, ("ball", "ball"), POOL.physics.e_ball),
])
def test_binary_head_on_impact_restitution_and_momentum(table, kinds, e):
    """Head-on, no spin, cloth off: the separation speed is e times the approach speed
    within 1 %, and momentum is conserved."""
    ra, rb = (table.piece_spec(k).radius for k in kinds)
    layout = _layout(table, ("a", kinds[0], 0.3, 0.5), ("b", kinds[1], 0.3 + ra + rb + 0.01,
                                                        0.5))
    launch = (2.0, 0.0, 0.0) if len(table.kinds) > 1 or kinds[0] != "ball" else \
        (2.0, 0.0, 0.0, 0.0, 0.0)
    res = soft_simulate(table, layout, {"a": launch}, bed_friction=False, t_max=0.02)
    v = res.final_velocities
    assert (v[1, 0] - v[0, 0]) / 2.0 == pytest.approx(e, rel=0.01)
    p = _momentum(table, layout, v)
    assert p == pytest.approx(_momentum(table, layout, np.array([[2.0, 0.0], [0.0, 0.0]])),
                              rel=1e-12, abs=1e-15)


def test_disc_rail_rebound_restitution():
    layout = _layout(NOVUS, ("a", "puck", 0.5, 0.95))
    res = soft_simulate(NOVUS, layout, {"a": (0.0, 2.0, 0.0)}, bed_friction=False, t_max=0.05)
    assert -res.final_velocities[0, 1] / 2.0 == pytest.approx(NOVUS.physics.e_rail, rel=0.01)
    assert res.final_velocities[0, 0] == 0.0


def test_ball_on_a_frictionless_nose_rebounds_as_hans_model():
    """A ball free vertically while it presses a nose at height h: along the contact normal
    it rebounds with e, so horizontally with (1 + e) cos^2(theta) - 1 (Han 2005 without
    friction), the vertical part left to the slate."""
    table = PoolTable(BallPhysics(mu_cushion=1e-12))
    r = table.piece_spec("ball").radius
    length = table.geometry.length
    layout = _layout(table, ("cue", "ball", 0.6, length - r - 0.01))
    res = soft_simulate(table, layout, {"cue": (0.0, 2.0, 0.0, 0.0, 0.0)}, bed_friction=False,
                        t_max=0.03)
    sin_t = (table.cushion_height - r) / r
    e_h = (1.0 + table.physics.e_cushion) * (1.0 - sin_t**2) - 1.0
    assert -res.final_velocities[0, 1] / 2.0 == pytest.approx(e_h, rel=0.01)


@pytest.mark.parametrize("speed", [0.5, 1.5])
def test_sliding_disc_stops_at_v2_over_2_mu_g(speed):
    layout = _layout(NOVUS, ("a", "puck", 0.5, 0.2))
    res = soft_simulate(NOVUS, layout, {"a": (0.0, speed, 0.0)})
    mu_g = NOVUS.physics.mu_puck * NOVUS.physics.g
    assert res.at_rest
    assert res.final_positions[0, 1] - 0.2 == pytest.approx(speed**2 / (2 * mu_g), abs=1e-6)
    assert res.t_end == pytest.approx(speed / mu_g, abs=2e-3)


def test_stunned_ball_rolls_at_five_sevenths():
    """A ball launched without spin slides until u = 0, at t = 2 v / (7 mu_s g), then rolls at
    5/7 of its speed."""
    v0 = 2.0
    layout = _layout(POOL, ("cue", "ball", 0.6, 0.5))
    mu_g = POOL.physics.mu_slide * POOL.physics.g
    t_roll = 2 * v0 / (7 * mu_g)
    res = soft_simulate(POOL, layout, {"cue": (0.0, v0, 0.0, 0.0, 0.0)}, t_max=t_roll + 0.01)
    roll = POOL.physics.mu_roll * POOL.physics.g
    expected = 5 / 7 * v0 - roll * (res.t_end - t_roll)
    assert res.final_velocities[0, 1] == pytest.approx(expected, abs=2e-3)
    r = POOL.piece_spec("ball").radius
    assert res.final_spins[0, 0] == pytest.approx(-res.final_velocities[0, 1] / r, rel=1e-9)


def test_elastic_three_ball_cradle():
    """Newton's cradle of 3 balls (one strikes two touching ones), e = 1, cloth off. With
    Hertz contacts the reference predicts that the far ball leaves with nearly all the speed
    and the other two keep a little (the Hertz-chain dispersion; measured: -0.071, 0.076,
    0.995 of the striking speed): energy and momentum are conserved."""
    table = PoolTable(BallPhysics(e_ball=1.0))
    r = table.piece_spec("ball").radius
    layout = _layout(table, ("a", "ball", 0.3, 1.2), ("b", "ball", 0.4, 1.2),
                     ("c", "ball", 0.4 + 2 * r, 1.2))
    res = soft_simulate(table, layout, {"a": (2.0, 0.0, 0.0, 0.0, 0.0)}, bed_friction=False,
                        t_max=0.06)
    v = res.final_velocities[:, 0]
    assert v.sum() == pytest.approx(2.0, rel=1e-12)
    assert (v**2).sum() == pytest.approx(4.0, rel=2e-3)
    assert v[2] > 0.9 * 2.0
    assert abs(v[0]) < 0.15 and 0.0 < v[1] < 0.25
    assert v[0] <= v[1] <= v[2]


def test_mirror_symmetric_layouts_give_mirrored_results():
    case = ag.row_broadside(4)
    res = soft_simulate(case.table, case.layout, case.initial)
    pos = dict(zip(case.layout.ids(), res.final_positions, strict=True))
    assert pos["striker"][0] == pytest.approx(0.5, abs=1e-9)
    for a, b in (("p0", "p3"), ("p1", "p2")):
        assert pos[a][0] == pytest.approx(1.0 - pos[b][0], abs=1e-7)
        assert pos[a][1] == pytest.approx(pos[b][1], abs=1e-7)


def test_novus_opening_is_mirror_symmetric():
    case = ag.novus_opening(3.0)
    res = soft_simulate(case.table, case.layout, case.initial)
    pos = dict(zip(case.layout.ids(), res.final_positions, strict=True))
    for k in range(1, 5):
        a, b = pos[f"red{k}"], pos[f"red{9 - k}"]
        assert a[0] == pytest.approx(1.0 - b[0], abs=1e-9)
        assert a[1] == pytest.approx(b[1], abs=1e-9)


def test_a_frozen_rack_left_alone_stays_put():
    from cuesim.api import start_layout

    layout = start_layout("9-ball", POOL)
    res = soft_simulate(POOL, layout, {})
    assert res.at_rest and res.steps == 1
    assert np.array_equal(res.final_positions, layout.positions())


@pytest.mark.parametrize("overlap", [0.0, 1e-16, 1e-12, 1e-10])
def test_a_resting_row_stays_put_while_a_piece_moves_elsewhere(overlap):
    """Touching pieces at rest press each other by round-off only: nothing moves them while
    another piece slides far from them. A row of four pucks overlapping by 1e-12 m (a layout
    the checks accept) was driven apart by up to half a metre: the stiff contact was
    integrated over the free step, since no contact between pieces at rest counted as near.
    The doubles opening's rows blew apart so, two pucks pocketed, before the striker came."""
    from cuesim import novus_doubles_layout

    d = 0.030 - overlap
    row = _layout(NOVUS, ("s", "striker", 0.8, 0.2),
                  *((f"c{i}", "puck", 0.3 + i * d, 0.5) for i in range(4)))
    res = soft_simulate(NOVUS, row, {"s": (0.0, 0.5, 0.0)})
    assert np.array_equal(res.final_positions[1:], row.positions()[1:])
    doubles = novus_doubles_layout(NOVUS)
    res = soft_simulate(NOVUS, doubles, {"striker": (0.6, 0.0, 0.0)})
    assert np.array_equal(res.final_positions[1:], doubles.positions()[1:]) and not res.pocketed


def test_sampled_trajectory_runs_from_the_layout_to_the_final_positions():
    case = ag.cradle(3)
    res = soft_simulate(case.table, case.layout, case.initial, sample_dt=0.05)
    assert res.times[0] == 0.0 and np.all(np.diff(res.times) > 0.0)
    assert res.times[-1] == res.t_end
    assert np.array_equal(res.trajectory[0], case.layout.positions())
    assert np.array_equal(res.trajectory[-1], res.final_positions)


def test_halving_the_step_changes_final_positions_by_less_than_a_tenth_mm():
    """Step convergence on a small cluster (a puck into a touching row of 3 on a rail,
    end-on). Without friction at work the scheme is of the second order (halving the default
    step moves no piece by 0.1 mm; here at 80 steps per contact, ~0.02 mm); the friction
    ramp is of the first order (the striker into a touching pair: ~1 mm at the default)."""
    case = ag.row_end_on(3)
    a = soft_simulate(case.table, case.layout, case.initial, steps_per_contact=80)
    b = soft_simulate(case.table, case.layout, case.initial, dt=a.dt / 2)
    assert a.at_rest and b.at_rest
    assert np.abs(a.final_positions - b.final_positions).max() < 1e-4


def test_four_times_the_stiffness_changes_little():
    """The outcome depends on the stiffness ratios and exponents, hardly on its scale."""
    case = ag.row_end_on(3)
    a = soft_simulate(case.table, case.layout, case.initial)
    b = soft_simulate(case.table, case.layout, case.initial, stiffness_scale=4.0)
    assert np.abs(a.final_positions - b.final_positions).max() < 1e-3


def test_touching_row_struck_end_on_is_not_a_train():
    """The far puck of a touching row leaves; the others do not follow it as one block."""
    case = ag.row_end_on(4)
    res = soft_simulate(case.table, case.layout, case.initial)
    x = {pid: res.final_positions[k, 0] for k, pid in enumerate(case.layout.ids())}
    assert x["p3"] - x["p2"] > 0.05


def test_order_of_pieces_in_the_layout_does_not_matter():
    case = ag.row_broadside(4)
    order = (3, 1, 4, 0, 2)
    permuted = Layout(case.layout.table, tuple(case.layout.pieces[k] for k in order))
    a = soft_simulate(case.table, case.layout, case.initial)
    b = soft_simulate(case.table, permuted, case.initial)
    for pid in case.layout.ids():
        assert np.allclose(a.position(pid), b.position(pid), atol=1e-7)


def test_no_energy_gain_in_a_cluster_without_cloth():
    """A striker into a touching row on a rail, cloth off: after the impacts the kinetic
    energy (with rotation) is below the initial energy."""
    case = ag.row_broadside(4)
    res = soft_simulate(case.table, case.layout, case.initial, bed_friction=False,
                        t_max=0.3)
    specs = [case.table.piece_spec(p.kind) for p in case.layout.pieces]
    m = np.array([s.mass for s in specs])
    inertia = np.array([s.inertia for s in specs])
    energy = 0.5 * (m * (res.final_velocities**2).sum(axis=1)).sum() + \
        0.5 * (inertia * res.final_spins[:, 2] ** 2).sum()
    initial = 0.5 * specs[0].mass * 4.0**2
    assert 0.0 < energy < initial


def test_the_reference_is_independent_of_the_event_core():
    """sim/soft must not use the event core's loop, detection or resolution."""
    from pathlib import Path

    import cuesim.sim.soft as soft

    for path in Path(soft.__file__).parent.glob("*.py"):
        text = path.read_text()
        for banned in ("sim.loop", "sim.resolve", "sim.detect", "sim.engine"):
            assert banned not in text, f"{path.name} imports {banned}"


def test_pins_are_refused():
    table = CaromTable()
    with pytest.raises(ValueError, match="pins"):
        soft_simulate(table, five_pins_layout(table), {"white": (1.0, 0.0, 0.0, 0.0, 0.0)})


# -- agreement with the event core -----------------------------------------------------------
def _agreement(case):
    """(largest final-position difference, the same pieces pocketed, the longest path of a
    piece in the reference as the straight distance from its start)."""
    core = run_motion(case.table, case.layout, case.initial, check=False)
    soft = soft_simulate(case.table, case.layout, case.initial, check=False)
    both = core.final_on & soft.final_on
    diff = np.hypot(*(core.final_positions - soft.final_positions).T)
    travel = np.hypot(*(soft.final_positions - case.layout.positions()).T)
    return (float(diff[both].max()), bool(np.array_equal(core.final_on, soft.final_on)),
            float(travel.max()))


def _single_rail_shot():
    return ag.Case("puck into a rail", NOVUS, _layout(NOVUS, ("a", "puck", 0.5, 0.5)),
                   {"a": (1.0, 2.0, 0.0)})


def _oblique_pair():
    return ag.Case("oblique pair", NOVUS, _layout(NOVUS, ("a", "puck", 0.3, 0.5),
                                                 ("b", "puck", 0.5, 0.51)),
                   {"a": (2.0, 0.0, 30.0)})


@pytest.mark.parametrize("build", [_single_rail_shot, _oblique_pair])
def test_core_and_reference_agree_on_binary_impacts(build):
    """No touching contacts: the two agree to < 10 mm (measured 2-7 mm: the reference's
    restitution within 0.2 %, its friction ramp, the bed during the contact)."""
    diff, same_on, _ = _agreement(build())
    assert same_on and diff < 0.01


def _elastic(case):
    """The same case with every restitution 1: no dissipation law to tell the two apart."""
    from dataclasses import replace

    from cuesim.tables.novus import NovusPhysics, novus_table

    physics = NovusPhysics(e_puck_puck=1.0, e_striker_puck=1.0, e_rail=1.0)
    return replace(case, table=novus_table(physics))


@pytest.mark.parametrize("build", [
    lambda: ag.cradle(3), lambda: ag.cradle(5), lambda: ag.row_end_on(3),
    lambda: ag.row_end_on(4), ag.striker_into_pair,
])
def test_core_agrees_with_the_reference_on_small_elastic_clusters(build):
    """Issue 12 item 3: touching clusters with e = 1 (the multiple impact is then decided by
    the compliance laws alone): the same pieces pocketed and final positions within 1 mm or
    0.5 % of the longest path (measured 0.1-0.4 mm)."""
    diff, same_on, travel = _agreement(_elastic(build()))
    assert same_on and diff < max(0.001, 0.005 * travel)


def _plastic(case):
    """The same case with the pucks' and the striker's contacts perfectly plastic (e = 0)."""
    from dataclasses import replace

    from cuesim.tables.novus import NovusPhysics, novus_table

    return replace(case, table=novus_table(NovusPhysics(e_puck_puck=0.0, e_striker_puck=0.0)))


@pytest.mark.parametrize("build", [lambda: ag.cradle(3), lambda: ag.cradle(5),
                                   lambda: ag.cradle(7), lambda: ag.row_end_on(4)])
def test_core_agrees_with_the_reference_on_perfectly_plastic_chains(build):
    """Chains of touching pucks whose contacts are perfectly plastic (every slow contact is):
    a contact unloads and closes again as the wave passes, and the core loads it afresh from
    its dent (sim.resolve.multi_impact), as the reference's damped contact builds its force
    from the new overlap. Within 2 mm (measured 0.4-1.1 mm on paths of 0.1-0.3 m; with the
    law's own limit, a jump back to the force at the largest compression, 9-37 mm)."""
    diff, same_on, _ = _agreement(_plastic(build()))
    assert same_on and diff < 0.002


@pytest.mark.parametrize("build", [lambda: ag.cradle(3), lambda: ag.cradle(5)])
def test_dissipative_clusters_differ_only_by_the_dissipation_law(build):
    """With e < 1 the core spends the restitution as LZB's energetic coefficient (a
    rate-independent unloading law) while the reference damps viscously (Tsuji): the binary
    impacts agree, chains differ by a few per cent of the speeds. Bounded here (free cradles:
    measured 29 and 81 mm on paths of 0.5 m; rows on a rail differ more, 130-180 mm); with
    e = 1 the difference vanishes (test above), and with the reference spending e by the
    core's law it falls to 0.1 mm (tests/test_soft_hysteresis.py)."""
    diff, same_on, travel = _agreement(build())
    assert same_on and diff < 0.2 * travel


def _frictionless_elastic(case):
    """The same case with every restitution 1 and no impact friction."""
    from dataclasses import replace

    from cuesim.tables.novus import NovusPhysics, novus_table

    physics = NovusPhysics(e_puck_puck=1.0, e_striker_puck=1.0, e_rail=1.0, mu_impact=0.0,
                           mu_rail_impact=0.0)
    return replace(case, table=novus_table(physics))


def test_broadside_row_agrees_until_a_second_glancing_collision():
    """Issue 12 item 3, the broadside row: the striker into the middle of four touching pucks
    on the north rail (elastic, frictionless). Through the multiple impact, the rail rebounds
    and the pucks' runs to the side rails the two agree within 5 mm (measured 0.2-4.6 mm at
    0.7 s, closer as the reference's stiffness grows: the core is the rigid limit of a contact
    whose configuration changes while it lasts). At 0.77 s the striker meets the two returning
    pucks again in a glancing collision that multiplies those millimetres (final positions
    26-180 mm apart, not monotone in the stiffness): the gap in bench/agreement.py's table is
    that chaos, not a different impact."""
    case = _frictionless_elastic(ag.row_broadside(4))
    core = run_motion(case.table, case.layout, case.initial, check=False)
    again = [e.t for e in core.event_log() if e.kind.name == "COLLIDE" and e.t > 0.2]
    assert again and 0.72 < again[0] < 0.82  # the second collision the gap comes from
    soft = soft_simulate(case.table, case.layout, case.initial, check=False, sample_dt=0.001)
    k = int(np.argmin(abs(soft.times - 0.7)))
    gap = np.hypot(*(core.positions_at(float(soft.times[k]))[0] - soft.trajectory[k]).T)
    assert gap.max() < 0.005
