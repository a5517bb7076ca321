"""5-pins 3, the lag as simulated: `run_motion(..., struck=(ball, ball))` logs a strike of each
ball at t = 0, so both are moving before either reaches the top rail and the referee rules on
where they stop. A log where a ball moves without a strike cannot have happened: refused."""

from __future__ import annotations

import numpy as np
import pytest

from cuesim import ShotResult, SimulationError
from cuesim.rules.fivepins import FivePinsGame, adjudicate_lag, shot_from_result
from cuesim.rules.fivepins.lag import _path_x_range
from cuesim.sim import run_motion
from cuesim.sim.events import EventKind
from cuesim.sim.state import SEG_EVENT, SEG_T0
from cuesim.tables.carom import TABLE_WIDTH, carom_table, five_pins_lag_layout

TABLE = carom_table()
LAG = five_pins_lag_layout(TABLE)
BALLS = {"Ann": "white", "Bob": "yellow"}


def lag_motions(v_white: float, v_yellow: float) -> dict[str, tuple[float, ...]]:
    """Both balls sent straight up the table (rolling from the start), as a lag is played."""
    return {"white": (0.0, v_white, 0.0, 0.0, 0.0), "yellow": (0.0, v_yellow, 0.0, 0.0, 0.0)}


def test_3_a_simulated_lag_strikes_both_balls_and_is_decided():
    """3: both struck at t = 0, both reach the top rail and come back; the ball that stops
    nearer the bottom rail wins, and nobody is faulted for a late start."""
    res = run_motion(TABLE, LAG, lag_motions(1.9, 1.9 * 0.97), struck=("white", "yellow"))
    strikes = [(e.a, e.t) for e in res.event_log() if e.kind == EventKind.STRIKE]
    assert strikes == [("white", 0.0), ("yellow", 0.0)]
    assert {e.a for e in res.event_log() if e.feature == "top_rail"} == {"white", "yellow"}
    game = FivePinsGame(players=("Ann", "Bob"), lag=True)
    out = game.play(shot_from_result(res))
    assert out.lag["faults"] == {"Ann": 0, "Bob": 0} and not out.lag["replay"]
    nearer = min(BALLS, key=lambda p: res.final.get(BALLS[p]).y)
    assert out.lag["winner"] == nearer and game.state.phase == "lag_choice"


BALL_RADIUS = carom_table().piece_spec("ball").radius
MIDDLE = TABLE_WIDTH / 2  # the long middle line between the two players' halves


def curving_lag() -> ShotResult:
    """White sent up the table toward yellow's half with heavy spin about the table's long
    axis (a massé): its slip drags it back, so it crosses the long middle line and comes back
    to its own half, touching only the short rails; yellow is sent straight."""
    motions = {"white": (1.6, 1.6, -1.6 / BALL_RADIUS, -140.0, 0.0),
               "yellow": (0.0, 1.9, -1.9 / BALL_RADIUS, 0.0, 0.0)}
    return run_motion(TABLE, LAG, motions, struck=("white", "yellow"))


def test_3_a_lag_ball_that_went_into_the_other_half_and_came_back_loses():
    """3 ("шар игрока зашел на половину соперника"): white's centre crosses the long middle
    line and comes back, touching no long rail, pin or ball; judged over its path, white has
    entered the opponent's half and loses the lag. Where it stopped alone (a log without its
    simulation) cannot see it."""
    res = curving_lag()
    xs = [res.positions_at(t)[0][LAG.ids().index("white"), 0]
          for t in np.linspace(0.0, res.duration, 2001)]
    assert max(xs) > MIDDLE + 0.2 and res.final.get("white").x < MIDDLE
    assert {e.feature for e in res.event_log()
            if e.a == "white" and e.kind == EventKind.RAIL} <= {"top_rail", "bottom_rail"}
    assert not any(e.kind in (EventKind.COLLIDE, EventKind.PIN) for e in res.event_log())
    out = FivePinsGame(players=("Ann", "Bob"), lag=True).play(shot_from_result(res))
    assert out.lag["losers"] == ["Ann"] and out.lag["winner"] == "Bob"
    assert "entered the opponent's half" in out.lag["violations"][0]["text"]
    assert out.lag["violations"][0]["article"].endswith("3")
    from_log = adjudicate_lag(res.event_log(), res.initial, res.final, BALLS)
    assert from_log.losers == []  # the log alone: ruled by where the balls stopped


def test_the_path_x_range_is_exact_over_the_segments():
    """`_path_x_range` (the turning points of each segment's quadratic) against the path
    sampled densely: never beyond it, and within a sample's travel of it."""
    res = curving_lag()
    index = LAG.ids().index("white")
    xs = [res.positions_at(t)[0][index, 0] for t in np.linspace(0.0, res.duration, 20001)]
    low, high = _path_x_range(res, "white")
    step = 2.6 * res.duration / 20000  # the ball's fastest travel in one sample
    assert low <= min(xs) + 1e-12 and min(xs) - low < step
    assert high >= max(xs) - 1e-12 and high - max(xs) < step
    assert _path_x_range(None, "white") is None and _path_x_range(res, "nobody") is None


def test_3_a_lag_ball_moving_without_a_strike_is_refused():
    """3: one strike logged but both balls moving is no lag that can have happened (before,
    the unstruck player was faulted for a late start on every try, forever)."""
    res = run_motion(TABLE, LAG, lag_motions(1.9, 1.85), struck="white")
    with pytest.raises(ValueError, match=r"'yellow' moves .* no strike of it \(5-pins 3\)"):
        FivePinsGame(players=("Ann", "Bob"), lag=True).play(shot_from_result(res))
    with pytest.raises(ValueError, match="no strike"):
        adjudicate_lag(res.event_log(), res.initial, res.final, BALLS)


def test_several_struck_pieces_change_nothing_but_the_strike_events():
    """The extra strikes are log entries only: the same motions with one struck piece give
    the same final positions and the same other events."""
    motions = lag_motions(2.2, 2.0)
    one = run_motion(TABLE, LAG, motions, struck="white")
    two = run_motion(TABLE, LAG, motions, struck=("white", "yellow"))
    assert np.array_equal(one.final_positions, two.final_positions)
    rows = [r for r in range(len(two.events)) if not (r == 1)]
    assert np.array_equal(two.events[rows], one.events)
    assert two.events[1, 5] == pytest.approx(2.0)  # the struck speed
    opened = two.segments[:, SEG_EVENT].astype(int)  # segments name the events that opened
    named = opened >= 0  # them: those indices follow the inserted strike
    assert np.array_equal(two.segments[named, SEG_T0], two.events[opened[named], 0])
    assert np.array_equal(one.segments[:, :SEG_EVENT], two.segments[:, :SEG_EVENT])


@pytest.mark.parametrize("suffix", [".json", ".npz"])
def test_a_simulated_lag_saves_and_reloads(tmp_path, suffix):
    """A shot file checks each segment against the event that opened it: the extra strike
    shifts those indices, and the file still reloads whole."""
    res = run_motion(TABLE, LAG, lag_motions(1.9, 1.85), struck=("white", "yellow"))
    res.save(tmp_path / f"lag{suffix}")
    again = ShotResult.load(tmp_path / f"lag{suffix}")
    assert np.array_equal(again.events, res.events)
    assert np.array_equal(again.segments, res.segments)


@pytest.mark.parametrize("struck, message", [
    (("white", "white"), "names a piece twice"),
    (("white", "nobody"), "'nobody' is not in the layout"),
    (("white", 3), "a sequence of piece ids"),
    (b"white", "a sequence of piece ids"),
    (7, "a sequence of piece ids"),
])
def test_struck_is_checked(struck, message):
    with pytest.raises(SimulationError, match=message):
        run_motion(TABLE, LAG, lag_motions(1.0, 1.0), struck=struck)


@pytest.mark.parametrize("struck", [("white", "yellow"), "yellow"])
def test_a_struck_piece_given_no_motion_is_refused(struck):
    """A strike logged for a ball that never left the lag line would count it as started in
    time (3): a struck piece must be given a motion."""
    with pytest.raises(SimulationError, match="struck piece 'yellow' is given no motion"):
        run_motion(TABLE, LAG, {"white": (0.0, 1.9, 0.0, 0.0, 0.0)}, struck=struck)
    with pytest.raises(SimulationError, match="struck piece 'yellow' is given no motion"):
        run_motion(TABLE, LAG, {"white": (0.0, 1.9, 0.0, 0.0, 0.0),
                                "yellow": (0.0, 0.0, 0.0, 0.0, 0.0)}, struck=struck)


def test_struck_names_at_least_one_piece():
    with pytest.raises(SimulationError, match="at least one piece"):
        run_motion(TABLE, LAG, lag_motions(1.0, 1.0), struck=())


@pytest.mark.truncation
def test_the_extra_strikes_count_against_max_events():
    """A truncated lag holds max_events events, the inserted strikes among them."""
    with pytest.warns(RuntimeWarning, match="after 3 events"):
        res = run_motion(TABLE, LAG, lag_motions(1.9, 1.85), struck=("white", "yellow"),
                         max_events=3)
    assert res.truncated and len(res.events) == 3
    with pytest.raises(SimulationError, match="max_events 1 leaves no room"):
        run_motion(TABLE, LAG, lag_motions(1.9, 1.85), struck=("white", "yellow"), max_events=1)
