"""An impact takes in the pieces whose gap is smaller than its compression (detect.touching's
reach, REACH delta*): a gap of nanometres is touching, and TOUCH (1 nm) no longer decides an
outcome. Before, a row of pucks 3 nm apart was a chain of binary impacts and its last puck
ended 38 mm farther than from the touching row; the soft-contact reference gives the same row
either way. REACH itself is not physics: 10x either way changes nothing."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuesim import NovusShot, novus_table, simulate
from cuesim.sim import run_motion
from cuesim.sim.soft import soft_simulate
from cuesim.tables.layout import Layout, Piece
from tests.profiles import examples
from tests.scaled_constants import REPO, same_outcomes
from tests.test_novus_properties import check_invariants

R = 0.015  # a puck's radius (tables.novus)


def _row(gap: float, n: int = 5) -> Layout:
    return Layout("novus", [Piece(f"p{i}", "puck", 0.3 + i * (2 * R + gap), 0.5)
                            for i in range(n)])


def _elastic():
    """Elastic, frictionless pucks: Newton's cradle, whose outcome the gaps decide."""
    return novus_table(novus_table().physics.with_(e_puck_puck=1.0, mu_impact=0.0))


def _last_x(layout: Layout) -> float:
    return next(p.x for p in layout.pieces if p.id == "p4")


def test_a_gap_of_nanometres_is_touching_touch_decides_nothing():
    """A row 0, 1 nm (TOUCH) and 3 nm apart ends the same, within 0.1 mm (it was 38 mm apart
    at 3 nm: the chain of binary impacts of a rigid Newton's cradle); the soft reference moves
    by 0.03 mm."""
    table = _elastic()
    ends = [_last_x(run_motion(table, _row(gap), {"p0": (1.0, 0.0, 0.0)}).final)
            for gap in (0.0, 1e-9, 3e-9)]
    assert max(ends) - min(ends) < 1e-4


@pytest.mark.parametrize("gap", [1e-6, 3e-6])
def test_a_row_with_gaps_below_the_compression_follows_the_soft_reference(gap: float):
    """Gaps of 0.09 and 0.27 of the first impact's compression (delta* = 11 um at 1 m/s): the
    soft reference's last puck travels between the touching row's and the cradle's; the core
    follows it within a millimetre (it gave the cradle's, 16 mm off at 1 um)."""
    table, layout = _elastic(), _row(gap)
    core = _last_x(run_motion(table, layout, {"p0": (1.0, 0.0, 0.0)}).final)
    soft = soft_simulate(table, layout, {"p0": (1.0, 0.0, 0.0)}).position("p4")[0]
    assert abs(core - soft) < 1e-3


@pytest.mark.parametrize("gap", [3e-9, 1e-6, 3e-6])
def test_a_puck_near_a_rail_follows_the_soft_reference(gap: float):
    """A puck struck into another lying 3 nm, 1 um and 3 um from the top rail (elastic,
    frictionless): both rest within 0.3 mm of the soft reference's rests (before, 3 nm gave
    the chain's outcome, the second puck 8.4 mm from where it rests when touching)."""
    table = novus_table(novus_table().physics.with_(e_puck_puck=1.0, e_rail=1.0, mu_impact=0.0,
                                                    mu_rail_impact=0.0))
    layout = Layout("novus", [Piece("a", "puck", 0.5, 0.8), Piece("b", "puck", 0.5, 1 - R - gap)])
    final = run_motion(table, layout, {"a": (0.0, 1.0, 0.0)}).final
    soft = soft_simulate(table, layout, {"a": (0.0, 1.0, 0.0)})
    for p in final.pieces:
        assert abs(p.y - soft.position(p.id)[1]) < 3e-4 and abs(p.x - 0.5) < 1e-9


PROBE = """
import json, math, sys, warnings
warnings.simplefilter('ignore')
from cuesim import CueShot, novus_table, simulate
from cuesim.sim import run_motion
from cuesim.tables import cue_ball_in_kitchen, nine_ball_rack, pool_table
from cuesim.tables.layout import Layout, Piece
from tests.scaled_constants import scaler
scale = scaler(("REACH",))
novus, pool, R = novus_table(), pool_table(), 0.015
def row(gap):
    return Layout("novus", [Piece(f"p{i}", "puck", 0.3 + i * (2 * R + gap), 0.5)
                            for i in range(5)])
cases = [(novus, row(g), None, {"p0": (1.0, 0.0, 0.0)}) for g in (3e-6, 2e-5, 6e-5, 2e-4)]
cases.append((novus, Layout("novus", (Piece("a", "puck", 0.5, 0.5, "red"),
                                      Piece("b", "puck", 0.5 + 2 * R + 4e-5, 0.5, "red"),
                                      Piece("c", "puck", 0.5 + 2 * R + 2e-5, 0.5 + 2 * R))),
              None, {"a": (2.0, 0.1, 0.0)}))
cases.append((pool, nine_ball_rack(pool, cue=cue_ball_in_kitchen(pool), gap=3e-4),
              CueShot(angle=math.pi / 2 + 0.002, speed=7.0), None))
out = {}
for factor in (1.0, 10.0, 0.1, 0.0):
    scale(factor)
    rows = []
    for tab, lay, shot, init in cases:
        res = simulate(tab, lay, shot) if shot else run_motion(tab, lay, init)
        rows.append({"kinds": [int(e.kind) for e in res.event_log()],
                     "final": [[p.id, p.x, p.y] for p in res.final.pieces]})
    out[str(factor)] = rows
print(json.dumps(out))
"""


def test_the_reach_x10_either_way_changes_nothing_visible():
    """Rows of pucks 3-200 um apart (0.3-18 delta*), a puck into two with gaps of 20 and 40 um,
    and a 9-ball rack with gaps of 15-285 um: REACH x10 and /10 leave every event and rest
    position (within a micrometre); 0 (the reach TOUCH, as before) moves them by millimetres,
    which shows the change reaches the core. The core runs interpreted (NUMBA_DISABLE_JIT)
    in a subprocess, so the constant can be changed without recompiling."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    run = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                         text=True, check=True, cwd=REPO)
    rows = json.loads(run.stdout.strip().splitlines()[-1])
    assert same_outcomes(rows["10.0"], rows["1.0"]) and same_outcomes(rows["0.1"], rows["1.0"])
    assert not same_outcomes(rows["0.0"], rows["1.0"], tol=1e-3)


def _patch(n: int, gap: float, jitter: float, seed: int) -> Layout:
    """n pucks of a hexagonal patch around (0.5, 0.6), neighbours 2R + gap apart, each moved
    by up to jitter * gap / 2 (so every neighbouring gap lies within gap (1 +- jitter))."""
    rng = np.random.default_rng(seed)
    step = 2 * R + gap
    sites = sorted(((i + j / 2) * step, j * step * math.sqrt(3) / 2)
                   for i in range(-3, 4) for j in range(-3, 4))
    sites.sort(key=lambda p: math.hypot(*p))
    pieces = []
    for k, (x, y) in enumerate(sites[:n]):
        a, s = rng.uniform(0, 2 * math.pi), rng.uniform(0, jitter * gap / 2)
        pieces.append(Piece(f"p{k}", "puck", 0.5 + x + s * math.cos(a),
                            0.6 + y + s * math.sin(a), "red"))
    return Layout("novus", pieces)


@settings(max_examples=examples(25), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 19), log_gap=st.floats(-12.0, -3.7), jitter=st.floats(0.0, 0.9),
       seed=st.integers(0, 2**32 - 1), x=st.floats(0.3, 0.7),
       angle=st.floats(math.pi / 2 - 0.6, math.pi / 2 + 0.6), speed=st.floats(0.05, 12.0))
def test_random_shots_into_patches_with_tiny_gaps(n, log_gap, jitter, seed, x, angle, speed):
    """Patches of pucks 1e-12 to 2e-4 m apart (the impact's reach takes in all, some or none
    of them), struck at random: no NaN, no overlap, nothing off the board, every shot ends at
    rest, and the same input gives the same output."""
    table = novus_table()
    layout = _patch(n, 10.0 ** log_gap, jitter, seed)
    shot = NovusShot(x=x, angle=angle, speed=speed)
    result = simulate(table, layout, shot)
    check_invariants(result)
    again = simulate(table, layout, shot)
    assert np.array_equal(result.events, again.events)
    assert np.array_equal(result.segments, again.segments)


# A ball struck 1.2 mm from the top cushion (the carom table), heavy spin on the striker: the
# struck ball meets the cushion 0.27 ms after the impact, within the reach `_binary_alone`
# allows a binary impact (DURATION contact time scales), so the impact was integrated as a
# multiple impact, whose cushion contact never touched. (pooltool replay, seed 91, shot 194.)
NEAR_CUSHION = ("white", 1.155177112852848, 2.387522863760038,
                "yellow", 1.0621076976550823, 2.8080658845837836)
NEAR_CUSHION_STRIKE = {"white": (-0.9759061468440008, 4.8786805501483, 149.41909429305332,
                                 97.07666765119795, 50.00342196954007)}


def _near_cushion(dy: float = 0.0) -> Layout:
    a, ax, ay, b, bx, by = NEAR_CUSHION
    return Layout("carom", [Piece(a, "ball", ax, ay + dy), Piece(b, "ball", bx, by + dy)])


def _after_first_impact(table, layout: Layout) -> np.ndarray:
    from cuesim.trajectory import sample

    res = run_motion(table, layout, NEAR_CUSHION_STRIKE)
    first = res.event_log()[0]
    assert (first.kind.name, first.a, first.b) == ("COLLIDE", "white", "yellow")
    s = sample(res, [first.t])
    return np.concatenate([s.velocities[0].ravel(), s.spin[0].ravel()])


def test_a_cushion_the_impact_ends_before_reaching_changes_nothing():
    """The impact's outcome is its binary impact's whether the cushion lies 1.2 mm, 1.7 mm or
    0.1 m away, and at any resolution: the multiple impact of a due contact in which no other
    contact took an impulse is replaced by the binary closed form (`_binary_after_all`). It
    moved by 9e-5 m/s at 1.2 and 1.7 mm (the integration's error at 20 steps) and not at
    2.2 mm (the binary impact at once): where a neighbour lay, within a threshold's reach,
    decided the outcome's fifth digit."""
    from cuesim.tables.carom import carom_table

    table = carom_table()
    near = _after_first_impact(table, _near_cushion())
    for dy in (-0.0005, -0.1):
        np.testing.assert_allclose(_after_first_impact(table, _near_cushion(dy)), near,
                                   rtol=0, atol=1e-12)
    for steps in (10, 80):
        coarse_or_fine = table.with_physics(impact_steps=steps)
        assert np.array_equal(_after_first_impact(coarse_or_fine, _near_cushion()), near)


DURATION_PROBE = """
import json
from cuesim.sim import run_motion
from cuesim.sim.resolve import impact
from cuesim.tables.carom import carom_table
from cuesim.tables.layout import Layout, Piece
from tests.test_impact_reach import NEAR_CUSHION_STRIKE, _near_cushion

out = {}
for factor in (1.0, 10.0, 0.1):
    impact.DURATION = 4.0 * factor
    res = run_motion(carom_table(), _near_cushion(), NEAR_CUSHION_STRIKE)
    out[str(factor)] = [{"kinds": [int(e.kind) for e in res.event_log()],
                         "final": [[p.id, p.x, p.y] for p in res.final.pieces]}]
print(json.dumps(out))
"""


def test_binary_reach_duration_x10_either_way_changes_nothing():
    """DURATION (how long a binary contact may last, in contact time scales) only chooses
    between the binary impact at once and the multiple impact that then finds no other
    contact loaded: x10 and /10 leave the near-cushion shot's every event and rest position
    bit for bit (interpreted in a subprocess, NUMBA_DISABLE_JIT, to change the constant)."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    run = subprocess.run([sys.executable, "-c", DURATION_PROBE], env=env, capture_output=True,
                         text=True, check=True, cwd=REPO)
    rows = json.loads(run.stdout.strip().splitlines()[-1])
    assert rows["10.0"] == rows["1.0"] and rows["0.1"] == rows["1.0"]
