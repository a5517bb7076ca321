"""The API's doors refuse what cannot be played or asked, each with its documented exception
(all subclasses of ValueError) and a message that says what was expected."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from cuesim import (
    CueShot,
    Layout,
    LayoutError,
    NovusShot,
    Piece,
    ShotError,
    SimulationError,
    novus_table,
    simulate,
    start_layout,
)
from cuesim.cli import main
from cuesim.sim import run_motion
from cuesim.sim.engine import motion_limits, table_arrays
from cuesim.tables import pool_table
from cuesim.tables.balls import MAX_CUE_SPEED
from cuesim.tables.carom import CaromTable
from cuesim.tables.novus import MAX_STRIKE_SPEED


@pytest.fixture(scope="module")
def table():
    return novus_table()


@pytest.fixture(scope="module")
def one_puck():
    return Layout("novus", (Piece("a", "puck", 0.3, 0.5, "red"),))


def test_public_exceptions_are_value_errors():
    assert issubclass(ShotError, ValueError) and issubclass(SimulationError, ValueError)


@pytest.mark.parametrize("where", [(5.0, 0.2), (0.49, 0.0), (0.05, 0.05)])
def test_a_layout_off_the_table_is_both_a_shot_and_a_layout_error(table, where):
    """The README's Errors table: `simulate` refuses a shot it cannot play (ShotError), and what
    is wrong is the layout's table check (LayoutError): the error is both, so either catches it."""
    layout = start_layout("novus").moved("red3", *where)
    shot = NovusShot(x=0.5, angle=1.57, speed=2.0)
    for caught in (ShotError, LayoutError):
        with pytest.raises(caught, match="piece 'red3' at .* (is not wholly on the board|hole)"):
            simulate(table, layout, shot)
    pool = start_layout("9-ball").moved("2", 5.0, 0.5)
    with pytest.raises(LayoutError, match="piece '2'"):
        simulate(pool_table(), pool, CueShot(angle=1.5708, speed=3.0))


@pytest.mark.parametrize("speed", [1e300, MAX_STRIKE_SPEED * 1.01])
def test_run_motion_refuses_speeds_no_cue_can_give(table, one_puck, speed):
    with pytest.raises(SimulationError, match=r"beyond what a cue gives a striker \(at most 15"):
        run_motion(table, one_puck, {"a": (speed, 0.0, 0.0)})


def test_run_motion_refuses_spins_no_cue_can_give(table, one_puck):
    v_max, w_max, _ = motion_limits(table_arrays(table), "puck")
    assert v_max == MAX_STRIKE_SPEED
    with pytest.raises(SimulationError, match="spin .* rad/s is beyond"):
        run_motion(table, one_puck, {"a": (1.0, 0.0, 1.01 * w_max)})


def test_run_motion_at_the_limit_still_moves(table, one_puck):
    result = run_motion(table, one_puck, {"a": (MAX_STRIKE_SPEED, 0.0, 0.0)})
    assert result.n_events > 0


def test_ball_limits_are_what_the_strongest_cue_gives():
    """The centre hit of a cue at MAX_CUE_SPEED: v = (1 + e) V / (m (1/M + 1/m))."""
    from cuesim.sim.cue import CUE_MASS, MISCUE_LIMIT, TIP_RESTITUTION

    pool = pool_table("9ft")
    v_max, w_max, what = motion_limits(table_arrays(pool), "ball")
    spec = pool.piece_spec("ball")
    expected = (1 + TIP_RESTITUTION) * MAX_CUE_SPEED / (spec.mass * (1 / CUE_MASS + 1 / spec.mass))
    assert v_max == pytest.approx(expected, rel=1e-12)
    assert w_max == pytest.approx(spec.mass * v_max * MISCUE_LIMIT * spec.radius / spec.inertia)
    assert "15 m/s" in what
    layout = start_layout("9-ball", pool)
    with pytest.raises(SimulationError, match="at most 20.9 m/s"):
        run_motion(pool, layout, {"cue": (1e300, 0.0, 0.0, 0.0, 0.0)})
    carom = CaromTable()
    assert motion_limits(table_arrays(carom), "pin")[:2] == motion_limits(
        table_arrays(carom), "ball")[:2]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda t, l: run_motion(t, None, {}), "run_motion needs a Layout, got NoneType"),
        (lambda t, l: run_motion(t, l, [("a", (1, 0, 0))]), "initial must map piece ids"),
        (lambda t, l: run_motion(t, l, {}, struck="b"), "struck piece 'b' is not in the layout"),
        (lambda t, l: run_motion(t, l, {}, max_events=0), "max_events must be a whole number"),
        (lambda t, l: run_motion(t, l, {"zz": (1, 0, 0)}), "zz"),
    ],
)
def test_run_motion_says_what_it_expects(table, one_puck, call, message):
    with pytest.raises(SimulationError, match=message):
        call(table, one_puck)


def test_cue_shot_refuses_to_cue_a_pin():
    carom = CaromTable()
    layout = start_layout("5-pins", carom)
    with pytest.raises(ShotError, match=r"'pin_centre' is a pin; balls are \['white'"):
        simulate(carom, layout, CueShot(angle=1.0, speed=2.0, ball="pin_centre"))
    # an unknown id listed the pins among the balls
    with pytest.raises(ShotError, match=r"no ball 'pin1' on the table; balls are \['white', "
                                        r"'yellow', 'red'\]"):
        simulate(carom, layout, CueShot(angle=1.0, speed=2.0, ball="pin1"))


@pytest.mark.parametrize("t", [math.nan, -0.1, math.inf, "soon", None])
def test_positions_at_refuses_what_is_not_a_time(table, t):
    result = simulate(table, start_layout("novus"), NovusShot(x=0.5, angle=1.5, speed=2.0))
    with pytest.raises(SimulationError, match="positions_at needs a (finite )?time"):
        result.positions_at(t)


def test_positions_after_the_shot_are_where_everything_rests(table):
    result = simulate(table, start_layout("novus"), NovusShot(x=0.5, angle=1.5, speed=2.0))
    pos, on = result.positions_at(result.duration + 10.0)
    assert np.allclose(pos[on], result.final.positions(), atol=1e-12)


@pytest.mark.parametrize("layout", [None, "novus", {"pieces": []}])
def test_simulate_says_a_layout_is_expected(table, layout):
    with pytest.raises(ShotError, match="simulate needs a Layout .* got"):
        simulate(table, layout, NovusShot(x=0.5, angle=1.5, speed=2.0))


@pytest.mark.parametrize("max_events", [0, -5, 2.5, True, 2**63, 10**400])
def test_simulate_refuses_a_meaningless_event_limit(table, max_events):
    """An event limit past the compiled loop's 64-bit counter was an OverflowError."""
    with pytest.raises(ShotError, match=r"max_events must be a whole number in \[1, 2\*\*63 - 1\]"):
        simulate(table, start_layout("novus"), NovusShot(x=0.5, angle=1.5, speed=2.0),
                 max_events=max_events)


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--candidates", "-1", "'-1' must be at least 1"),
        ("--candidates", "0", "'0' must be at least 1"),
        ("--candidates", "many", "'many' is not a whole number"),
        ("--sets", "0", "'0' must be at least 1"),
        ("--race-to", "-2", "'-2' must be at least 1"),
        ("--points-to", "0", "'0' must be at least 1"),
    ],
)
def test_play_refuses_counts_below_one(option, value, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["play", "novus", option, value, "--screenshot", "never.png"])
    assert exc.value.code == 2
    assert f"argument {option}: {message}" in capsys.readouterr().err


@pytest.mark.parametrize("few", [0, 100])
def test_many_initial_motions_make_the_state_piece_by_piece_would(monkeypatch, few):
    """motion_input checks every motion, then writes many of them a column at a time (few: 0,
    always; 100, never): the state is the one the piece-by-piece writes give (3 numbers: vx,
    vy, w; 5: vx, vy, wx, wy, wz), for balls given either form, and a bad motion after good
    ones is refused as before."""
    import cuesim.sim.engine as engine
    from cuesim.sim.engine import _kind_properties, _rest_state, motion_input

    monkeypatch.setattr(engine, "FEW_MOTIONS", few)
    from cuesim.sim.state import VX, VY, W0, WX, WY

    pool = pool_table("9ft")
    layout = start_layout("9-ball", pool)
    rng = np.random.default_rng(5)
    initial: dict[str, tuple[float, ...]] = {}
    for k, pid in enumerate(layout.ids()):
        if k % 3 == 1:
            continue  # some stay at rest
        n = 3 if k % 2 else 5
        initial[pid] = tuple(float(v) for v in rng.uniform(-2.0, 2.0, n))
    got = motion_input(pool, layout, initial).S
    _kind_properties(pool, layout.kinds())
    want = _rest_state(pool, layout).copy()
    for pid, value in initial.items():
        k = layout.index(pid)
        want[k, VX], want[k, VY], want[k, W0] = value[0], value[1], value[-1]
        if len(value) == 5:
            want[k, WX], want[k, WY] = value[2], value[3]
    np.testing.assert_array_equal(got, want)
    assert got.tobytes() == want.tobytes()
    for bad, message in (((1e300, 0.0, 0.0), "beyond what a cue"),
                         ((0.0, 0.0, 1e300, 0.0, 0.0), "spin .* rad/s is beyond"),
                         ((math.nan, 0.0, 0.0), "is not finite"),
                         ((1.0, 0.0), "must be \\(vx, vy, w\\) or")):
        with pytest.raises(SimulationError, match=message):
            motion_input(pool, layout, {**initial, layout.ids()[-1]: bad})


@pytest.mark.parametrize("width", [3, 5])
def test_many_plain_motions_are_checked_at_once_with_the_same_state_and_errors(monkeypatch,
                                                                                width):
    """Many motions of one form in plain floats (a box launching every piece) are checked at
    once (engine._plain_motions): the state is bit for bit the piece-by-piece one, and every
    motion the vectorised check does not pass (a bool, a string, an unknown id, NaN, a speed
    or spin over or at its bound, another number type) goes through the loop, which refuses
    or takes it as before."""
    import cuesim.sim.engine as engine
    from cuesim.sim.engine import motion_input, motion_limits, table_arrays

    pool = pool_table("9ft")
    layout = start_layout("9-ball", pool)
    rng = np.random.default_rng(7)
    initial = {pid: tuple(float(v) for v in rng.uniform(-2.0, 2.0, width))
               for pid in layout.ids()}
    assert engine._plain_motions(layout, initial, table_arrays(pool)) is not None
    got = motion_input(pool, layout, initial).S
    monkeypatch.setattr(engine, "FEW_MOTIONS", 100)  # the piece-by-piece loop
    assert got.tobytes() == motion_input(pool, layout, initial).S.tobytes()
    monkeypatch.undo()
    last = layout.ids()[-1]
    v_max, w_max, _ = motion_limits(table_arrays(pool), "ball")
    spin_at = (0.0, 0.0, w_max) if width == 3 else (0.0, 0.0, 0.0, 0.0, w_max)
    pad = (0.0,) * (width - 2)
    for bad, message in (((True, *((0.0,) * (width - 1))), "must be numbers"),
                         (("1", *((0.0,) * (width - 1))), "must be numbers"),
                         ((math.nan, *((0.0,) * (width - 1))), "is not finite"),
                         ((v_max * 1.001, 0.0, *pad), "beyond what a cue"),
                         (tuple(2 * c for c in spin_at), "spin .* rad/s is beyond")):
        with pytest.raises(SimulationError, match=message):
            motion_input(pool, layout, {**initial, last: bad})
    with pytest.raises(SimulationError, match="no piece 'zz'"):
        motion_input(pool, layout, {**initial, "zz": initial[last]})
    for fine in ((v_max, 0.0, *pad), spin_at, (1, *((0,) * (width - 1))),
                 tuple(np.float64(c) for c in initial[last])):
        loop = motion_input(pool, layout, {**initial, last: fine}).S  # at the bound: taken
        k = layout.index(last)
        assert loop[k, engine.VX] == float(fine[0])


@pytest.mark.parametrize("kwargs", [{"angle": 1.0, "speed": "3"}, {"angle": None, "speed": 3.0},
                                    {"angle": 1.0, "speed": 3.0, "side": True}])
def test_a_shot_field_of_the_wrong_type_is_named(kwargs):
    """Not a number where a number goes: ShotError naming the field when the shot is made,
    not a bare TypeError (nor a shot that fails only when simulated)."""
    with pytest.raises(ShotError, match=r"shot (speed|angle|side) must be a finite number"):
        CueShot(**kwargs)
    with pytest.raises(ShotError, match=r"shot x must be a finite number, got '0\.5'"):
        NovusShot(x="0.5", angle=1.5, speed=3)
    with pytest.raises(ShotError, match=r"shot y must be a finite number, got nan"):
        NovusShot(x=0.5, y=math.nan, angle=1.5, speed=3)
    with pytest.raises(ShotError, match=r"shot ball must be the id of the struck ball"):
        CueShot(angle=1.0, speed=3.0, ball=7)  # type: ignore[arg-type]


def test_a_shots_numbers_are_kept_as_python_floats():
    """numpy numbers are taken and kept as floats (to_dict gives JSON types; shots hash)."""
    shot = CueShot(angle=np.float32(1.5), speed=np.float64(3.0), position=np.array([0.5, 0.6]))
    assert type(shot.angle) is float and shot.angle == float(np.float32(1.5))
    assert shot.position == (0.5, 0.6) and type(shot.position) is tuple
    assert hash(shot) == hash(CueShot(angle=float(np.float32(1.5)), speed=3.0,
                                      position=(0.5, 0.6)))
    novus = NovusShot(x=np.float64(0.5), angle=1, speed=3, offset=np.int64(0))
    assert (type(novus.x), type(novus.angle), type(novus.offset)) == (float, float, float)
    json.dumps(novus.to_dict())


def test_an_unknown_coefficient_lists_those_there_are():
    with pytest.raises(TypeError, match=r"BallPhysics has no coefficient 'mu_slid'; "
                                        r"coefficients are \['mu_slide', "):
        pool_table().with_physics(mu_slid=0.2)
    with pytest.raises(TypeError, match="NovusPhysics has no coefficient 'e_ball'"):
        novus_table().physics.with_(e_ball=0.9)


@pytest.mark.parametrize("table", ["novus", None, 3])
def test_simulate_says_a_table_object_is_expected(table):
    """A game name where the table goes is refused saying what to pass (before: 'unknown table
    'novus'', which read as if novus were not simulated)."""
    from cuesim import NovusShot, start_layout
    from cuesim.api import game_table

    layout = start_layout("novus", game_table("novus"))
    with pytest.raises(ShotError, match=r"needs a table object \(cuesim.api.game_table\(game\)"):
        simulate(table, layout, NovusShot(x=0.5, angle=1.0, speed=3.0))
