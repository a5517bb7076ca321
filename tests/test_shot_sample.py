"""ShotResult.sample: every piece on a time grid, exactly (the positions of positions_at, the
velocities its derivative), with its input checked."""

from __future__ import annotations

import numpy as np
import pytest

from cuesim import SimulationError
from cuesim.sim.state import SEG_OBJ, SEG_T0, SEG_T1
from tests.shot_fixtures import ALL, nine_ball_break, novus_opening


def _grid(result, m=157):
    """Times across the shot, the event times themselves and past its end."""
    return np.concatenate([np.linspace(0.0, result.duration * 1.1, m),
                           result.events[:40, 0], [result.duration, 50.0]])


@pytest.mark.parametrize("shot", ALL, ids=lambda f: f.__name__)
def test_positions_equal_positions_at_exactly(shot):
    result = shot()
    times = _grid(result)
    s = result.sample(times)
    assert s.positions.shape == (len(times), len(result.initial), 2)
    assert s.ids == tuple(result.initial.ids())
    for j, t in enumerate(times):
        pos, on = result.positions_at(t)
        np.testing.assert_array_equal(s.on_table[j], on)
        np.testing.assert_array_equal(s.positions[j][on], pos[on])  # bit for bit


@pytest.mark.parametrize("shot", ALL, ids=lambda f: f.__name__)
def test_velocities_are_the_derivative(shot):
    """Central differences are exact for the quadratic segments, up to rounding: checked at
    the middle of every segment of finite length."""
    result = shot()
    seg = result.segments[np.isfinite(result.segments[:, SEG_T1])]
    seg = seg[seg[:, SEG_T1] - seg[:, SEG_T0] > 1e-6]
    mid = (seg[:, SEG_T0] + seg[:, SEG_T1]) / 2
    h = (seg[:, SEG_T1] - seg[:, SEG_T0]) / 4
    plus, minus, at = result.sample(mid + h), result.sample(mid - h), result.sample(mid)
    k = np.arange(len(seg))
    obj = seg[:, SEG_OBJ].astype(int)
    fd = (plus.positions[k, obj] - minus.positions[k, obj]) / (2 * h[:, None])
    assert at.on_table[k, obj].all()
    np.testing.assert_allclose(at.velocities[k, obj], fd, rtol=1e-7, atol=1e-9)


def test_a_pocketed_ball_stays_where_it_dropped():
    result = nine_ball_break()
    assert result.pocketed
    s = result.sample([result.duration, 10.0, 100.0])
    for pid in result.pocketed:
        k = s.ids.index(pid)
        assert not s.on_table[:, k].any()
        np.testing.assert_array_equal(s.positions[:, k], np.tile(result.final_positions[k],
                                                                  (3, 1)))
        assert not s.velocities[:, k].any() and not s.spin[:, k].any()


@pytest.mark.parametrize("shot", ALL, ids=lambda f: f.__name__)
def test_dt_grid_starts_at_rest_positions_and_ends_at_rest(shot):
    result = shot()
    s = result.sample(dt=0.01)
    assert s.t[0] == 0.0 and s.t[-1] >= result.duration > s.t[-2]
    np.testing.assert_allclose(np.diff(s.t), 0.01, rtol=1e-9)
    np.testing.assert_array_equal(s.positions[0], result.initial.positions())
    assert not s.velocities[-1].any() and not s.spin[-1].any()
    np.testing.assert_array_equal(s.on_table[-1], result.final_on)
    np.testing.assert_array_equal(s.positions[-1], result.final_positions)


def test_spin_starts_as_the_cue_gave_it_and_decays():
    result = novus_opening()
    s = result.sample(dt=0.001)
    pos, vel, on = s.of("striker")
    k = s.ids.index("striker")
    assert s.spin[0, k] > 0.0  # a tip offset right of the centre line: counter-clockwise
    assert np.linalg.norm(vel[0]) == pytest.approx(6.0)
    first = result.first_contact("striker").t
    before = s.spin[s.t < first, k]
    assert np.all(np.diff(before) <= 0.0)


def test_unsorted_times_and_a_scalar():
    result = nine_ball_break()
    times = np.array([0.3, 0.1, 2.0, 0.0])
    s = result.sample(times)
    for j in range(len(times)):
        one = result.sample(times[j])
        np.testing.assert_array_equal(one.positions[0], s.positions[j])
        np.testing.assert_array_equal(one.velocities[0], s.velocities[j])


@pytest.mark.parametrize("kwargs, match", [
    ({"times": [-0.1]}, "finite and >= 0"),
    ({"times": [0.1, float("nan")]}, "finite and >= 0"),
    ({"times": [float("inf")]}, "finite and >= 0"),
    ({"times": [[0.1]]}, "1-D"),
    ({"times": ["soon"]}, "numbers in seconds"),
    ({}, "either times or dt"),
    ({"times": [0.1], "dt": 0.1}, "either times or dt"),
    ({"dt": 0.0}, "dt must be"),
    ({"dt": -1.0}, "dt must be"),
    ({"dt": True}, "dt must be"),
    ({"dt": "0.1"}, "dt must be"),
    ({"dt": 1e-12}, "give a larger dt"),
])
def test_bad_input_is_a_simulation_error(kwargs, match):
    with pytest.raises(SimulationError, match=match):
        nine_ball_break().sample(**kwargs)
    assert issubclass(SimulationError, ValueError)


def test_samples_of_an_unknown_piece():
    with pytest.raises(SimulationError, match="no piece 'ghost'"):
        nine_ball_break().sample([0.0]).of("ghost")
