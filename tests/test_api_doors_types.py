"""Doors of the Python API given a value of the wrong type or an impossible one: each raises its
documented exception (README, Errors) naming the argument and what was expected, where it used
to raise an AttributeError, KeyError or TypeError from deep inside, or answer silently wrong.

Every test here failed before its fix (the docstring says what was wrong)."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest

from cuesim import CueShot, NovusShot, SimulationError, simulate
from cuesim.api import game_table, simulate_input, start_layout
from cuesim.sim import batch_parallel as bp
from cuesim.sim.events import EventKind
from cuesim.sim.state import SEG_T1
from cuesim.tables import (
    BallPhysics,
    NovusPhysics,
    NovusTable,
    cue_ball_in_kitchen,
    nine_ball_rack,
    novus_singles_layout,
    novus_table,
    pool_table,
)
from cuesim.tables.balls import BALL_PHYSICS_SANITY, MAX_CUE_SPEED
from cuesim.tables.carom import carom_table, five_pins_lag_layout, five_pins_layout
from cuesim.tables.coefficients import MAX_FRICTION, MAX_GRAVITY, MIN_FRICTION, MIN_GRAVITY
from cuesim.tables.layout import LayoutError
from cuesim.tables.novus import MAX_STRIKE_SPEED, NOVUS_PHYSICS_SANITY

NOVUS = novus_table()
SINGLES = novus_singles_layout(NOVUS)
SHOT = NovusShot(x=0.5, angle=math.pi / 2, speed=3.0)


@pytest.fixture(scope="module")
def result():  # noqa: ANN201 - a ShotResult
    """A novus opening shot: the striker hits the row of pucks (COLLIDE events)."""
    return simulate(NOVUS, SINGLES, SHOT)


# --- 1. the tables' physics ----------------------------------------------------------------------
@pytest.mark.parametrize("physics", ["x", 0, "", [], NovusPhysics, BallPhysics()])
def test_novus_table_refuses_physics_that_is_no_novus_physics(physics):
    """novus_table(physics): 'x' was taken (`physics or NovusPhysics()`, no check) and
    `simulate` then raised an AttributeError inside; 0, '' and [] silently gave the defaults."""
    with pytest.raises(ValueError, match=r"novus_table: physics must be a NovusPhysics or None"):
        novus_table(physics)  # type: ignore[arg-type]


@pytest.mark.parametrize("physics", ["x", None, BallPhysics()])
def test_novus_table_made_directly_refuses_physics_of_the_wrong_kind(physics):
    """NovusTable(physics=...) made directly took anything (PoolTable and CaromTable check)."""
    with pytest.raises(ValueError, match=r"NovusTable.physics must be a NovusPhysics"):
        NovusTable(physics)  # type: ignore[arg-type]


def test_novus_table_keeps_its_defaults_and_the_physics_it_is_given():
    assert novus_table() == novus_table(None) == NovusTable()
    physics = NovusPhysics(mu_puck=0.2)
    assert novus_table(physics).physics is physics


@pytest.mark.parametrize("physics", [0, "", [], "x", NovusPhysics()])
def test_carom_table_refuses_physics_that_is_no_ball_physics(physics):
    """carom_table(physics): 0, '' and [] silently gave the default physics
    (`physics or BallPhysics()`)."""
    with pytest.raises(ValueError, match=r"physics must be a BallPhysics"):
        carom_table(physics)  # type: ignore[arg-type]
    assert carom_table(None) == carom_table()


@pytest.mark.parametrize("layout", [five_pins_layout, five_pins_lag_layout])
@pytest.mark.parametrize("table", ["x", 1, novus_table()])
def test_five_pins_layouts_refuse_another_table(layout, table):
    """five_pins_layout('x') raised an AttributeError ('str' has no 'name'), as the lag's."""
    with pytest.raises(LayoutError, match=rf"{layout.__name__}: the table is a "
                                          rf"{type(table).__name__}, not a CaromTable"):
        layout(table)


@pytest.mark.parametrize("xy", ["ab", (0.3,), (0.3, 0.5, 0.1), (0.3, math.nan), object(),
                                (0.3, "0.5"), 0.3])
def test_five_pins_layout_refuses_a_breaker_place_that_is_no_point(xy):
    """five_pins_layout(breaker_xy='ab') raised a TypeError from a comparison inside."""
    with pytest.raises(LayoutError, match=r"breaker_xy must be two finite numbers"):
        five_pins_layout(breaker_xy=xy)  # type: ignore[arg-type]
    assert five_pins_layout(breaker_xy=np.array([0.3, 0.5])).get("white").x == 0.3


# --- 2. run_inputs -----------------------------------------------------------------------------
@pytest.mark.parametrize("inputs, expected", [
    ([1], r"inputs\[0\] must be a MotionInput"),
    ("abc", r"inputs must be a sequence of MotionInputs, got a str"),
    (None, r"inputs must be a sequence of MotionInputs, got None"),
    (3, r"inputs must be a sequence of MotionInputs, got 3"),
    ({"a": 1}, r"inputs must be a sequence of MotionInputs, got a dict"),
])
def test_run_inputs_refuses_what_is_no_sequence_of_motion_inputs(inputs, expected):
    """run_inputs([1]) and run_inputs('abc') raised an AttributeError (`inputs[0].arr`),
    run_inputs(None) a TypeError (`list(None)`)."""
    with pytest.raises(SimulationError, match=rf"run_inputs: {expected}"):
        bp.run_inputs(inputs)  # type: ignore[arg-type]


def test_run_inputs_refuses_one_input_alone_and_a_stranger_after_good_ones():
    """One MotionInput is no sequence of them; a non-input after good ones is named by place."""
    one = simulate_input(NOVUS, SINGLES, SHOT)
    with pytest.raises(SimulationError, match=r"got a MotionInput"):
        bp.run_inputs(one)  # type: ignore[arg-type]
    with pytest.raises(SimulationError, match=r"inputs\[1\] must be a MotionInput"):
        bp.run_inputs([one, "x"])  # type: ignore[list-item]
    assert bp.run_inputs(()) == []


# --- 3. Layout.moved ------------------------------------------------------------------------------
@pytest.mark.parametrize("piece_id", ["zz", None, 3, ["red1"]])
def test_moved_names_an_unknown_piece_with_a_layout_error(piece_id):
    """layout.moved('zz', 0.5, 0.5) raised a KeyError (Layout.index); the README's Errors
    table says a layout's edits raise LayoutError."""
    with pytest.raises(LayoutError, match=r"moved: no piece .* in the layout; ids are "
                                          r"\['striker', 'red1'"):
        SINGLES.moved(piece_id, 0.5, 0.5)  # type: ignore[arg-type]


def test_index_and_get_still_raise_key_error_and_moved_still_moves():
    with pytest.raises(KeyError, match="no piece 'zz'"):
        SINGLES.index("zz")
    with pytest.raises(KeyError):
        SINGLES.get("zz")
    assert SINGLES.moved("red1", 0.5, 0.5).get("red1").x == 0.5


# --- 4. ShotResult.events_of ---------------------------------------------------------------------
def test_events_of_takes_a_kind_its_code_or_its_name(result):
    """events_of('collide') returned [] though the shot had COLLIDE events."""
    hits = result.events_of(EventKind.COLLIDE)
    assert hits and all(e.kind == EventKind.COLLIDE for e in hits)
    assert result.events_of("collide") == result.events_of("COLLIDE") == hits
    assert result.events_of(1) == result.events_of(np.int64(1)) == hits


@pytest.mark.parametrize("kind", [None, 99, -1, "bump", "", 1.0, True, [EventKind.COLLIDE]])
def test_events_of_refuses_what_names_no_kind(result, kind):
    """events_of(None), events_of(99), events_of('bump') silently returned []."""
    with pytest.raises(SimulationError, match=r"events_of: kind must be an EventKind or its "
                                              r"name \(strike, collide, .*pin\)"):
        result.events_of(kind)


# --- 5. friction and gravity past any real table -----------------------------------------------
def test_novus_friction_past_any_material_is_refused_when_made():
    """NovusPhysics().with_(mu_puck=1e308, mu_striker=1e308) was accepted; `simulate` then
    raised a misleading LayoutError (the striker at a non-finite position (nan, nan))."""
    with pytest.raises(ValueError, match=r"NovusPhysics.mu_puck must be a real number in "
                                         r"\[1e-06, 1000\] \(sanity bounds: a thousandth "
                                         r"of .*\), got 1e\+308"):
        NovusPhysics().with_(mu_puck=1e308, mu_striker=1e308)
    for name, rng in NOVUS_PHYSICS_SANITY.items():
        with pytest.raises(ValueError, match=rf"NovusPhysics.{name} must be"):
            NovusPhysics(**{name: rng.high * (1 + 1e-9)})
        with pytest.raises(ValueError, match=rf"NovusPhysics.{name} must be"):
            NovusPhysics(**{name: 10**400})


def test_ball_friction_past_any_material_is_refused_when_made():
    """BallPhysics(mu_slide=1e308) (or mu_roll) was accepted and ended in NaN positions."""
    for name, rng in BALL_PHYSICS_SANITY.items():
        for value in (rng.high * (1 + 1e-9), 1e308):
            with pytest.raises(ValueError, match=rf"BallPhysics.{name} must be a real number "
                                                 rf"in .*sanity bound"):
                BallPhysics(**{name: value})
    with pytest.raises(ValueError, match=r"BallPhysics.g must be"):
        pool_table().with_physics(g=1e308)


def test_friction_and_gravity_below_any_real_table_are_refused_when_made():
    """`--physics mu_roll=1e-100` was accepted: a deceleration of 1e-99 m/s^2 underflowed the
    core's predictions, balls left the table through its cushions to 1e97 m, the referee ruled
    on it and `--save` wrote a file `show` refused. The sanity floors (a thousandth of
    superlubric carbon's friction, a ten-thousandth of standard gravity) refuse it when made."""
    for cls, bounds in ((NovusPhysics, NOVUS_PHYSICS_SANITY), (BallPhysics, BALL_PHYSICS_SANITY)):
        for name, rng in bounds.items():
            if rng.low > 0.0:
                with pytest.raises(ValueError, match=rf"{cls.__name__}.{name} must be a real "
                                                     r"number in \[.*sanity bounds"):
                    cls(**{name: rng.low * (1 - 1e-9)})
                cls(**{name: rng.low})  # the floor itself is taken
    with pytest.raises(ValueError, match=r"BallPhysics.mu_roll must be .*got 1e-100"):
        pool_table().with_physics(mu_roll=1e-100)


@pytest.mark.parametrize("game", ["9-ball", "5-pins", "novus"])
def test_a_shot_at_the_floors_ends_at_rest_on_the_table(game: str):
    """Every friction of the bed and g at their sanity floors, the hardest strike: the shot
    ends (cushion losses stop it) with every piece on the table or in a pocket."""
    table = game_table(game)
    names = ("mu_puck", "mu_striker") if game == "novus" else ("mu_slide", "mu_roll", "mu_spin")
    table = table.with_physics(g=MIN_GRAVITY, **{n: MIN_FRICTION for n in names})
    shot = (NovusShot(x=0.5, angle=math.pi / 2 + 0.05, speed=MAX_STRIKE_SPEED) if game == "novus"
            else CueShot(angle=math.pi / 2 + 0.02, speed=MAX_CUE_SPEED,
                         ball="white" if game == "5-pins" else "cue"))
    result = simulate(table, start_layout(game, table), shot)
    assert not result.truncated
    table.check_layout(result.final)  # on the bed, inside the cushions, none overlapping


def _sound(res) -> None:  # noqa: ANN001
    assert not res.truncated
    assert np.all(np.isfinite(res.final_positions))
    assert np.all(np.isfinite(res.events))
    assert np.all(np.isfinite(np.delete(res.segments, SEG_T1, axis=1)))


def _novus(physics: NovusPhysics):  # noqa: ANN202
    table = novus_table(physics)
    return simulate(table, novus_singles_layout(table),
                    NovusShot(x=0.5, angle=math.pi / 2 + 0.05, speed=6.0, offset=0.004))


def _pool(physics: BallPhysics):  # noqa: ANN202
    table = pool_table(physics=physics)
    layout = nine_ball_rack(table, cue=cue_ball_in_kitchen(table))
    cue = layout.get("cue")
    fx, fy = table.foot_spot
    return simulate(table, layout, CueShot(angle=math.atan2(fy - cue.y, fx - cue.x) + 0.01,
                                           speed=7.0, side=0.2, height=0.2))


def _five_pins(physics: BallPhysics):  # noqa: ANN202
    table = carom_table(physics)
    layout = five_pins_layout(table)
    red, white = layout.get("red"), layout.get("white")
    return simulate(table, layout, CueShot(ball="white", speed=5.0, side=-0.2, angle=math.atan2(
        red.y - white.y, red.x - white.x) + 0.02))


def test_the_sanity_bounds_are_far_above_the_defaults():
    assert MAX_FRICTION == 1000.0 and MAX_GRAVITY == pytest.approx(98066.5)
    for cls, bounds in ((NovusPhysics, NOVUS_PHYSICS_SANITY), (BallPhysics, BALL_PHYSICS_SANITY)):
        default = cls()
        for name, rng in bounds.items():
            assert rng.holds(getattr(default, name) * 1e3 + 10.0), (cls.__name__, name)


@pytest.mark.parametrize("name", [*NOVUS_PHYSICS_SANITY, "all"])
def test_novus_simulates_at_the_sanity_bounds(name):
    """Every value up to the new bounds simulates to rest without NaN: each field alone at its
    bound, and all of them at once (the largest deceleration, mu g)."""
    names = list(NOVUS_PHYSICS_SANITY) if name == "all" else [name]
    _sound(_novus(NovusPhysics(**{n: NOVUS_PHYSICS_SANITY[n].high for n in names})))


@pytest.mark.parametrize("name", [*BALL_PHYSICS_SANITY, "all"])
def test_pool_and_five_pins_simulate_at_the_sanity_bounds(name):
    names = list(BALL_PHYSICS_SANITY) if name == "all" else [name]
    physics = BallPhysics(**{n: BALL_PHYSICS_SANITY[n].high for n in names})
    _sound(_pool(physics))
    _sound(_five_pins(physics))


# --- 6. ShotResult.to_dict ---------------------------------------------------------------------
@pytest.mark.parametrize("value", ["yes", 1, 0, None, "False"])
def test_to_dict_trajectories_must_be_a_bool(result, value):
    """to_dict(trajectories='yes') was read as true, to_dict(trajectories=0) as false."""
    with pytest.raises(SimulationError, match=r"to_dict: trajectories must be True or False"):
        result.to_dict(trajectories=value)
    assert "segments" in result.to_dict(trajectories=np.bool_(True))


def test_to_dict_exact_must_be_a_bool(result):
    """to_dict(exact='yes') was read as exact=True."""
    with pytest.raises(SimulationError, match=r"to_dict: exact must be True or False"):
        result.to_dict(exact="yes")


def test_pool_table_physics_of_the_wrong_kind_is_refused():
    """pool_table(physics=0) (or '') silently gave the defaults."""
    for value in (0, "", "x"):
        with pytest.raises(ValueError, match=r"pool_table: physics must be a BallPhysics"):
            pool_table(physics=value)


@pytest.mark.parametrize("table", [novus_table(), pool_table(), carom_table()],
                         ids=["novus", "pool", "carom"])
@pytest.mark.parametrize("layout", [None, "9-ball", {"table": "novus", "pieces": []}, [], 3])
def test_a_tables_layout_check_needs_a_layout(table, layout):
    """check_layout and layout_arrays given anything but a Layout (a layout's dict, a game's
    name): an AttributeError ('dict' object has no attribute 'table'); now a TypeError naming
    what it needs."""
    with pytest.raises(TypeError, match=r"check_layout needs a Layout \(cuesim.Layout, "
                                        r"start_layout\(game\)\), got "):
        table.check_layout(layout)
    with pytest.raises(TypeError, match=r"check_layout needs a Layout"):
        table.layout_arrays(layout)


@pytest.mark.parametrize("game", ["pool", "fivepins"])
@pytest.mark.parametrize("result", [None, {}, "shot.json", []])
def test_shot_from_result_needs_a_shot_result(game, result):
    """The pool and 5-pins referees' shot_from_result given anything but a ShotResult (a
    result's dict, a shot file's name): an AttributeError ('dict' object has no attribute
    'require_complete'); now the referees' ArgumentTypeError (a TypeError) naming it, as
    the novus referee's adjudicate does."""
    from importlib import import_module

    shot_from_result = import_module(f"cuesim.rules.{game}").shot_from_result
    with pytest.raises(TypeError, match=r"shot_from_result: result must be a ShotResult"):
        shot_from_result(result)


@pytest.mark.parametrize("layout", [None, "9-ball", {"table": "pool_9ft", "pieces": []}])
def test_simulate_input_checks_its_layout_and_event_limit_as_simulate_does(layout):
    """simulate_input (for run_inputs) is "the checked input of simulate (same errors)", but
    a layout that is not a Layout was an AttributeError there ('dict' object has no attribute
    'pieces') and a bad max_events went through to the compiled call: the checks are now
    simulate_input's, which simulate calls."""
    from cuesim import ShotError, start_layout

    table = pool_table()
    for call in (simulate, simulate_input):
        with pytest.raises(ShotError, match=r"simulate needs a Layout of the pieces"):
            call(table, layout, CueShot(angle=1.5, speed=3.0))
        with pytest.raises(ShotError, match=r"max_events must be"):
            call(table, start_layout("9-ball", table), CueShot(angle=1.5, speed=3.0),
                 max_events=0)


@pytest.mark.parametrize("order", [[1, 2, 3, 4, 5, 6, 7, 8, 9], (1, 2)])
def test_a_racks_order_of_numbers_is_refused_naming_it(order):
    """A rack's order given as numbers, not the balls' ids: an AttributeError ('int' object
    has no attribute 'isdigit'); now the rack's LayoutError naming what it racks."""
    from cuesim.tables import LayoutError, eight_ball_rack, straight_pool_rack

    for rack, game in ((nine_ball_rack, "9-ball"), (eight_ball_rack, "8-ball"),
                       (straight_pool_rack, "14.1")):
        with pytest.raises(LayoutError, match=f"{game} racks the balls"):
            rack(order=order)


@pytest.mark.parametrize("others, message", [
    (["cue"], "others must be the Pieces left on the table"),
    ("cue", "others must be the Pieces left on the table"),
    ([1, 2], "others must be the Pieces left on the table"),
])
def test_a_rerack_with_other_pieces_not_pieces_is_refused(others, message):
    """straight_pool_rerack's `others` given as ids: an AttributeError ('str' object has no
    attribute 'id'); and its ball_ids as numbers an AttributeError too."""
    from cuesim.tables import LayoutError, straight_pool_rerack

    with pytest.raises(LayoutError, match=message):
        straight_pool_rerack(others=others)
    with pytest.raises(LayoutError, match=r"re-rack's ball_ids are the balls' ids \(strings\)"):
        straight_pool_rerack(ball_ids=list(range(1, 15)))


@pytest.mark.parametrize("field, value, expected", [
    ("debt", "x", "debt must be a dict of str to int"),
    ("sets_won", 0, "sets_won must be a dict of str to int"),
    ("warnings", ["A"], "warnings must be a dict of str to int"),
    ("skip", "A", "skip must be a list of str"),
    ("match_over", "no", "match_over must be bool"),
    ("layout", {"table": "novus"}, "layout must be a Layout or None"),
])
def test_novus_game_state_fields_given_to_the_constructor_are_type_checked(field, value,
                                                                          expected):
    """NovusGame's state fields (set_number to layout) given to the constructor were taken
    unchecked: sets_won=0 and warnings=["A"] an AttributeError ('int' object has no attribute
    'setdefault') at once, a debt of "x" a failure in the middle of a later ruling. Now each
    given is of its annotated type (the referees' ArgumentTypeError); what a state means is
    checked as game_from_dict checks it (below)."""
    from cuesim.rules.novus import NovusGame

    with pytest.raises(TypeError, match=f"^{expected}, got "):
        NovusGame(["A", "B"], **{field: value})
    NovusGame(["A", "B"], sets_won={"A": 0}, warnings={"B": 1}, match_over=False)  # right types


@pytest.mark.parametrize("given", [{"debt": {"red": 1, "black": 0}}, {"shooter": "B"},
                                   {"series": {"A": 2, "B": 1}, "skip": ["A"]}])
def test_novus_set_state_given_without_seats_is_refused_not_replaced(given):
    """A NovusGame without seats sets its set up afresh (seats, opener, shooter, debt, ...):
    a shooter or a debt given with it was replaced silently (shooter="B" gave A to shoot).
    Now a ValueError naming them; with game_from_dict the same state loads."""
    from cuesim.rules.novus import NovusGame
    from cuesim.rules.novus.scenario import game_from_dict

    with pytest.raises(ValueError, match=f"NovusGame: {', '.join(given)} given without seats"):
        NovusGame(["A", "B"], **given)
    if "shooter" in given:
        assert game_from_dict({"players": ["A", "B"], **given}).shooter == "B"


@pytest.mark.parametrize("given, message", [
    ({"winner": "A"}, r"NovusGame: state.winner is 'A' but the match is on .*\(23.1\)"),
    ({"warnings": {"B": 3}}, r"NovusGame: state.warnings: B has 3; the third warning ends the "
                             r"match \(novus 15.3\)"),
    ({"sets_won": {"A": 1}}, r"NovusGame: state.sets_won .*set 1 of 1 is being played"),
    ({"seats": {"south": "A", "north": "B"}, "shooter": "B", "series": {"B": 0}},
     r"NovusGame: state.series: the shooter B is in his series"),
    ({"seats": {"south": "A", "east": "B"}}, r"NovusGame: singles players sit opposite"),
    ({"match_over": True, "winner": "Zed"}, r"NovusGame: winner must be one of \['A', 'B'\]"),
])
def test_novus_game_state_given_to_the_constructor_is_checked_for_what_it_means_23_1_15_3(
        given, message):
    """The constructor checked a given state's types, not what it means: a winner named while
    the match is on (23.1), a third warning in a match still on (15.3), sets won beyond the
    sets played were taken, and ruled on. A given state is now loaded as game_from_dict
    loads one, with its checks."""
    from cuesim.rules.novus import NovusGame

    with pytest.raises(ValueError, match=message):
        NovusGame(["A", "B"], **given)


def test_novus_game_state_given_to_the_constructor_is_the_state_game_from_dict_loads():
    """The set-up fields not given are filled as game_from_dict fills them (the opener at the
    start side, the shooter's series begun, no debts), and the caller's dicts stay his."""
    from cuesim.rules.novus import NovusGame
    from cuesim.rules.novus.scenario import game_from_dict

    given = {"seats": {"south": "B", "north": "A"}, "shooter": "A",
             "debt": {"black": 1}, "warnings": {"A": 1}}
    kept = copy.deepcopy(given)
    g = NovusGame(["A", "B"], **given)
    assert given == kept
    assert g.to_dict() == game_from_dict({"players": ["A", "B"], **given}).to_dict()
    assert (g.opener, g.shooter, g.series, g.debt, g.warnings) == (
        "B", "A", {"A": 1, "B": 0}, {"red": 0, "black": 1}, {"A": 1, "B": 0})
    over = NovusGame(["A", "B"], match_over=True, winner=None)  # a drawn even match
    assert over.match_over and over.winner is None
