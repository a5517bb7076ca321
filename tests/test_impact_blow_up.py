"""A multiple impact whose integration goes unstable ends unfinished and the shot is truncated,
never a result of NaN (`resolve.multi_impact.BLOW_UP`); the tunnel hunter counts a result that
is not finite as an error (NaN compares false, so its penetration test passed one as clean)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from bench import tunnels
from cuesim import simulate


def _blow_up_case() -> tunnels.Case:
    """bench/tunnels.py 14.1 seed 4000449, random physics (impact_steps 8.3, mu_cushion 1.49,
    g 3.0): seven balls creep together into a cushion at mm/s; the multiple impact's step, set
    from those approaches (2.2 ms), integrates 1,170 steps of a pressing contact that stiffens
    until the kicks grow without bound (1e281 m/s, then NaN times in the log)."""
    return tunnels.shot_for("14.1", 4000449, "random")


@pytest.mark.truncation
def test_an_unstable_multiple_impact_truncates_the_shot_instead_of_nan() -> None:
    case = _blow_up_case()
    with pytest.warns(RuntimeWarning, match="TRUNCATED"):
        result = simulate(case.table, case.layout, case.shot)
    assert result.truncated
    assert np.isfinite(result.events).all() and np.isfinite(result.final_positions).all()
    seg = result.segments
    assert np.isfinite(np.delete(seg, 2, axis=1)).all() and not np.isnan(seg[:, 2]).any()
    assert result.events[:, 5].max() < 15.0  # no speed past a cue's (was 2.9e281 m/s)


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
