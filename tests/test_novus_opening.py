"""The opening shot into the full layouts: a bounded number of events (no runaway chains in
the frozen rows), with the distribution reported."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cuesim import NovusShot, simulate


@pytest.mark.parametrize("speed", [3.0, 6.0, 10.0])
@pytest.mark.parametrize("layout_name", ["singles", "doubles"])
def test_opening_shot_has_a_bounded_number_of_events(request, table, layout_name, speed):
    layout = request.getfixturevalue(layout_name)
    result = simulate(table, layout, NovusShot(x=0.5, angle=math.pi / 2, speed=speed))
    assert not result.truncated
    assert 10 < result.n_events < 200


def test_opening_spread_event_distribution(table, doubles):
    """200 openings at random aim, speed and spin: report median / p99 / max events."""
    rng = np.random.default_rng(2026)
    counts = []
    for _ in range(200):
        shot = NovusShot(x=rng.uniform(0.3, 0.7), angle=rng.uniform(1.35, 1.79),
                         speed=rng.uniform(2.0, 10.0), offset=rng.uniform(-0.01, 0.01))
        result = simulate(table, doubles, shot)
        assert not result.truncated
        counts.append(result.n_events)
    counts = np.array(counts)
    print(f"\nopening events: median {np.median(counts):.0f}, "
          f"p99 {np.percentile(counts, 99):.0f}, max {counts.max()}")
    assert counts.max() < 500
