"""Physics coefficients at their physical bounds (issue 12, item 7): every field of
NovusPhysics and BallPhysics is accepted anywhere in its range, including a closed bound
itself (restitution 0 and 1, impact friction 0), and a shot then simulates to rest without
NaN; anything else (out of range, NaN, inf, not a real number) is refused with a ValueError
that names the field and the range."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from cuesim import CueShot, NovusShot, simulate
from cuesim.sim import run_motion
from cuesim.sim.state import SEG_OBJ, SEG_T0, SEG_T1, SEG_VX, SEG_VY
from cuesim.tables import (
    BallPhysics,
    NovusPhysics,
    cue_ball_in_kitchen,
    nine_ball_rack,
    novus_singles_layout,
    novus_table,
    pool_table,
)
from cuesim.tables.balls import BALL_PHYSICS_RANGES, BALL_PHYSICS_SANITY
from cuesim.tables.carom import CaromTable, carom_table, five_pins_layout
from cuesim.tables.coefficients import INF, Range
from cuesim.tables.layout import Layout, Piece
from cuesim.tables.novus import NOVUS_PHYSICS_RANGES, NOVUS_PHYSICS_SANITY
from cuesim.tables.pool import PoolTable

RANGES = {NovusPhysics: NOVUS_PHYSICS_RANGES, BallPhysics: BALL_PHYSICS_RANGES}
SANITY = {NovusPhysics: NOVUS_PHYSICS_SANITY, BallPhysics: BALL_PHYSICS_SANITY}


def test_every_field_has_a_range():
    for cls, ranges in RANGES.items():
        assert set(ranges) == {f.name for f in dataclasses.fields(cls)}, cls.__name__


def _bound_values(rng: Range, default: float, sanity: Range | None) -> list[float]:
    """A closed bound itself; an open lower bound approached (a millionth of the default, or
    the sanity bound above it: `tables.coefficients`); an infinite upper bound approached by a
    large value."""
    low = rng.low if not rng.low_open else default * 1e-6
    if sanity is not None:
        low = max(low, sanity.low)
    high = rng.high if rng.high != INF else default * 1e3 + 10.0
    return [low, high]


# --- accepted ------------------------------------------------------------------------------------
@pytest.mark.parametrize("cls", [NovusPhysics, BallPhysics])
def test_bounds_accepted(cls):
    default = cls()
    for name, rng in RANGES[cls].items():
        for value in _bound_values(rng, getattr(default, name), SANITY[cls].get(name)):
            assert getattr(cls(**{name: value}), name) == value
        assert getattr(cls(**{name: int(math.ceil(getattr(default, name)))}), name) >= 0


def _sound(res) -> None:
    assert not res.truncated
    assert np.all(np.isfinite(res.final_positions))
    assert np.all(np.isfinite(res.events))
    seg = np.delete(res.segments, SEG_T1, axis=1)  # the last segments end at inf
    assert np.all(np.isfinite(seg))


def _novus_shot(physics: NovusPhysics):
    table = novus_table(physics)
    return simulate(table, novus_singles_layout(table),
                    NovusShot(x=0.5, angle=math.pi / 2 + 0.05, speed=6.0, offset=0.004))


def _pool_break(physics: BallPhysics):
    table = pool_table(physics=physics)
    layout = nine_ball_rack(table, cue=cue_ball_in_kitchen(table))
    cue = layout.pieces[layout.index("cue")]
    fx, fy = table.foot_spot
    return simulate(table, layout, CueShot(angle=math.atan2(fy - cue.y, fx - cue.x) + 0.01,
                                           speed=7.0, side=0.2, height=0.2))


def _five_pins(physics: BallPhysics):
    table = carom_table(physics)
    layout = five_pins_layout(table)
    red = layout.pieces[layout.index("red")]
    white = layout.pieces[layout.index("white")]
    return simulate(table, layout, CueShot(ball="white", speed=5.0, side=-0.2, angle=math.atan2(
        red.y - white.y, red.x - white.x) + 0.02))


# The simulated values per field: closed bounds themselves; open ones (the cloth's
# decelerations, g, v_stick) at a tenth of the default, where a shot still ends soon.
def _simulated(cls) -> list[tuple[str, float]]:
    default = cls()
    cases = []
    for name, rng in RANGES[cls].items():
        d = getattr(default, name)
        cases.append((name, d / 10.0 if rng.low_open else rng.low))
        if rng.high != INF:
            cases.append((name, rng.high))
        elif not rng.low_open:
            cases.append((name, 2.0))  # a high friction
    return cases


@pytest.mark.parametrize("name, value", _simulated(NovusPhysics))
def test_novus_simulates_at_the_bounds(name, value):
    _sound(_novus_shot(NovusPhysics(**{name: value})))


@pytest.mark.parametrize("name, value", _simulated(BallPhysics))
def test_pool_and_five_pins_simulate_at_the_bounds(name, value):
    physics = BallPhysics(**{name: value})
    _sound(_pool_break(physics))
    _sound(_five_pins(physics))


EXTREMES = [(1.0, 0.0), (0.0, 0.0), (0.0, 2.0), (1.0, 2.0)]  # (every e, every impact mu)


def _balls_at(e: float, mu: float) -> BallPhysics:
    return BallPhysics(e_ball=e, e_cushion=e, mu_cushion=mu, ball_friction_a=mu,
                       ball_friction_b=0.0, ball_friction_c=0.0)


@pytest.mark.parametrize("e, mu", EXTREMES)
def test_novus_and_pool_with_every_restitution_and_impact_friction_at_a_bound(e, mu):
    """Elastic or perfectly inelastic, frictionless or very rough impacts everywhere."""
    _sound(_novus_shot(NovusPhysics(e_puck_puck=e, e_striker_puck=e, e_rail=e, mu_impact=mu,
                                    mu_rail_impact=mu)))
    _sound(_pool_break(_balls_at(e, mu)))


@pytest.mark.parametrize("e, mu", EXTREMES)
def test_five_pins_with_every_restitution_and_impact_friction_at_a_bound(e, mu):
    _sound(_five_pins(_balls_at(e, mu)))


def test_frictionless_elastic_discs_keep_their_energy_in_a_head_on_impact():
    """mu_impact = 0, e = 1: the striker's speed passes to the puck it hits head-on as the
    closed form says (1D elastic impact of unequal masses), whatever the striker's spin."""
    table = novus_table(NovusPhysics(e_striker_puck=1.0, mu_impact=0.0))
    layout = Layout("novus", (Piece("striker", "striker", 0.5, 0.2),
                              Piece("p", "puck", 0.5, 0.5)))
    res = run_motion(table, layout, {"striker": (0.0, 3.0, 5.0)}, struck="striker")
    hit = res.events[res.events[:, 1] == 1][0]
    ms, mp = (table.piece_spec(k).mass for k in ("striker", "puck"))
    t = float(hit[0])
    v_s = 3.0 - table.physics.mu_striker * table.physics.g * t  # speed at the impact
    seg = res.segments
    after = seg[(seg[:, SEG_OBJ] == 1) & (seg[:, SEG_T0] == t)][0]  # the puck from the impact
    assert after[SEG_VX] == pytest.approx(0.0, abs=1e-15)  # no friction: no sideways throw
    assert after[SEG_VY] == pytest.approx(2 * ms / (ms + mp) * v_s, rel=1e-9)


# --- refused -------------------------------------------------------------------------------------
def _bad_values(rng: Range) -> list[object]:
    bad: list[object] = [math.nan, math.inf, -math.inf, "0.5", None, True, [0.1]]
    bad.append(rng.low if rng.low_open else rng.low - 0.1)
    if rng.high != INF:
        bad.append(rng.high + 1e-9)
    return bad


@pytest.mark.parametrize("cls", [NovusPhysics, BallPhysics])
def test_out_of_range_refused_naming_the_field_and_range(cls):
    for name, rng in RANGES[cls].items():
        for value in _bad_values(rng):
            with pytest.raises(ValueError) as err:
                cls(**{name: value})
            message = str(err.value)
            assert f"{cls.__name__}.{name} must be a real number in {rng.text()}" in message
            assert repr(value) in message


def test_range_texts():
    assert BALL_PHYSICS_RANGES["e_ball"].text() == "[0, 1]"
    assert BALL_PHYSICS_RANGES["mu_cushion"].text() == "[0, inf)"
    assert BALL_PHYSICS_RANGES["mu_slide"].text() == "(0, inf)"
    with pytest.raises(ValueError, match=r"mu_slide must be a real number in \(0, inf\) "
                                         r"\(sliding ends after"):
        BallPhysics(mu_slide=0.0)
    NovusPhysics(mu_impact=0)  # impact friction switched off (an int is a real number)


def test_tables_refuse_physics_of_the_wrong_kind():
    with pytest.raises(ValueError, match="PoolTable.physics must be a BallPhysics"):
        PoolTable(NovusPhysics())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="CaromTable.physics must be a BallPhysics"):
        CaromTable(NovusPhysics())  # type: ignore[arg-type]
